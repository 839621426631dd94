# graph and nodes import each other; every use is inside a function, so
# the cycle is fine (as in CPython).
import nodes


def size(n):
    if n <= 0:
        return 0
    return 1 + nodes.children(n - 1)
