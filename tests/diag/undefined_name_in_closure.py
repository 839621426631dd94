# expect: undefined-name `scael` inside the nested function, suggesting the
# enclosing function's `scale`; exit 1.
def outer(scale):
    def inner(x):
        return x * scael

    return inner(2)
