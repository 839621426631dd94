# Tabs in one function and spaces in another: CPython accepts it.
def f(x):
	if x:
		return 1
	return 2


def g(x):
    if x:
        return f(x) + 1
    return f(x)
