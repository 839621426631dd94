from fathom import zeros


def classify(x):
    w = zeros((10, 784))
    return x @ w
