# A list's += is extend: it takes any iterable, where + needs two lists
# (CPython: `zs = zs + (3,)` is a TypeError, `zs += (3,)` is fine).


def plus_equals_tuple():        # [1, 2, 3]
    zs = list((1, 2))
    zs += (3,)
    return zs


def plus_equals_range():        # [0, 0, 1, 2]
    zs = [0]
    zs += range(3)
    return zs


def plus_equals_str():          # ['a', 'b', 'c']
    zs = ["a"]
    zs += "bc"
    return zs


def other_types_unchanged():    # ((1, 2), 3, 'ab')
    t = (1,)
    t += (2,)
    x = 1
    x += 2
    s = "a"
    s += "b"
    return t, x, s
