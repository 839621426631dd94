# Items of different types cannot share a list (DSL rule).
def main():
    a = [1, 'a']  # expect-error: type-mismatch
    b = [1, (2,)]  # expect-error: type-mismatch
    c = [(1,), (1, 2)]  # expect-error: type-mismatch
    xs = [1]
    xs.append(2.5)  # expect-error: type-mismatch
    d = [1, 2] + [3.5]  # expect-error: type-mismatch
    return 0
