# An if without else: the variable keeps its old value on the false path.
def bump(x, flag):
    y = x
    if flag:
        y = y + 1
    return y
