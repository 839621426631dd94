# Function values print as function(NAME): module functions, nested
# functions (outer.inner), lambdas (outer.lambda) and builtins.
from typing import reveal_type


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def main():
    reveal_type(fib)  # expect-type: function(fib)

    def inner(x):
        return x
    reveal_type(inner)  # expect-type: function(main.inner)
    reveal_type(lambda y: y)  # expect-type: function(main.lambda)
    reveal_type(len)  # expect-type: function(len)
    reveal_type(abs)  # expect-type: function(abs)
    return inner(1)
