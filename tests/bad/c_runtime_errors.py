# C emitter runtime errors as CPython raises them (tests/run.sh, suite bad):
# big(10.0) OverflowError, depth(10**8) RecursionError instead of SIGSEGV;
# neg is not specialized: x ** 0.5 of a float of unknown sign is unknown
# (a complex number in CPython for a negative x, which the DSL has not).
def big(x: float):
    return x ** 10000.0

def neg(x: float):
    return x ** 0.5

def depth(n: int) -> int:
    if n == 0:
        return 0
    return depth(n - 1) + 1
