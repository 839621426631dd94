# args: --entry nope
def fib(n):
    return n
