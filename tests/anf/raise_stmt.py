# raise on one path: that path contributes nothing to the join.
def safe_sqrt(x):
    if x < 0:
        raise ValueError("negative input")
    return x ** 0.5


def always_fails(n):
    raise NotImplementedError()
