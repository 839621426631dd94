# CPython: TabError at line 6 (a tab-indented line in a block indented
# with spaces: the two measures of indentation disagree).
def f(x):
    if x:
        x = x + 1
	return x
