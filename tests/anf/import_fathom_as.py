# `import fathom as F`: module attributes name the ops.
import fathom as F


def project(x, w):
    return F.relu(F.matmul(x, w))


def main():
    x = F.ones((2, 4), dtype=F.f32)
    w = F.zeros((4, 8), dtype=F.f32)
    return project(x, w)
