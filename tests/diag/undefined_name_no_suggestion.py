# expect: undefined-name `quux` with no suggestion (nothing visible is
# close); exit 1.
def f(alpha, beta):
    return alpha + quux
