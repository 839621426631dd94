# A module imported by program_names.py (tests/infer): its functions are
# named by module, layers.dense, in infer's output.
def dense(x, w):
    return x * w + 1


def double(x):
    return dense(x, 2)
