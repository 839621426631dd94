# expect: unsupported (warning) for the module-level class; the function
# after it is still analysed; exit 0.
class Config:
    size = 3


def size():
    return 3
