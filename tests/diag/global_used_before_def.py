# expect: undefined-name for `WIDTH` on line 3: a module-level binding reads
# a global that is only defined on line 4; exit 1.
AREA = WIDTH * 2
WIDTH = 10


def f():
    return AREA
