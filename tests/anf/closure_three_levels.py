# Closures three levels deep: the innermost function uses variables of all
# three enclosing functions.
def outer(a):
    def middle(b):
        def inner(c):
            def innermost(d):
                return a + b + c + d

            return innermost

        return inner

    return middle


def main():
    return outer(1)(2)(3)(4)
