# shapes/ has no __init__.py: a package all the same (language.md 9).
def out_size(n, k, stride):
    return (n - k) // stride + 1
