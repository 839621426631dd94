# C emitter runtime errors as CPython raises them (tests/run.sh, suite bad):
# big(10.0) OverflowError, neg(-4.0) a complex number in CPython (the DSL
# has none: ValueError), depth(10**8) RecursionError instead of SIGSEGV.
def big(x: float):
    return x ** 10000.0

def neg(x: float):
    return x ** 0.5

def depth(n: int) -> int:
    if n == 0:
        return 0
    return depth(n - 1) + 1
