# A nested def closes over a parameter and a local of its enclosing function.
def make_adder(n):
    bias = n * 2

    def add(x):
        return x + n + bias

    return add


def main():
    f = make_adder(3)
    return f(10)
