# args: --entry fib
# The recursion becomes one graph per analysed context; `<` on ints is
# scalar_lt, `+` scalar_add; the undetermined switch is a call through a
# value with one target per branch.
def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
