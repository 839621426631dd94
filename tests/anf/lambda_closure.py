# Lambdas as closures: capturing a parameter and a local.
def scaler(k):
    offset = k + 1
    return lambda x: x * k + offset


def main():
    f = scaler(2)
    g = lambda a, b=3: a - b
    return f(5), g(10), g(10, 1)
