# expect: undefined-name `lenght` with "did you mean 'length'?"; exit 1.
def area(width):
    length = width * 2
    return lenght * width
