# A parameter and a local shadow module constants of the same name.
X = 10
Y = 20


def shadow(X):
    Y = X + 1
    return X + Y


def use_global():
    return X + Y
