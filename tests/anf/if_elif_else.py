# if / elif / else, each branch assigning the same variable.
def classify(x):
    if x < 0:
        kind = -1
    elif x == 0:
        kind = 0
    elif x < 10:
        kind = 1
    else:
        kind = 2
    return kind
