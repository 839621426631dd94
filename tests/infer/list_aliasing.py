# A list that another holder shares: CPython shows a change through every
# holder, fathom's rebinding only through the mutated name.  Each shared
# holder reads its lists as list[unknown]; unshared lists stay exact.


def second_name():
    zs = [1, 2]
    ws = zs
    zs.append(3)
    return len(ws)


def mutated_through_alias():
    zs = [1, 2]
    ws = zs
    ws += [3]
    return len(zs)


def held_by_a_tuple():
    zs = [1]
    t = (zs, 2)
    zs.append(5)
    return len(t[0])


def unpacked_then_mutated():
    zs = [1, 2]
    a, b = (zs, 1)
    a.append(3)
    return len(zs)


def contains_itself():
    xs = [1]
    xs.append(xs)
    return len(xs[1])


def iterated_while_growing():
    xs = [1]
    for x in xs:
        if len(xs) < 4:
            xs.append(x + 1)
    return len(xs)


def captured_by_a_lambda():
    xs = [1]
    g = lambda: len(xs)
    xs.append(2)
    return g()


def popped():
    zs = [1, 2]
    ws = zs
    zs.pop()
    return len(ws), len(zs)


def item_assigned():
    zs = [1, 2]
    zs[0] = 5
    return zs[0]


def grow(xs):
    xs.append(0)
    return len(xs)


def passed_and_grown():
    zs = [7]
    n = grow(zs)
    return n


def exact_owner():
    outs = []
    for i in range(3):
        outs.append(i * 2)
    ys = outs
    return len(outs), outs[2], len(ys)


def exact_after_last_append(k: int):
    xs = [k]
    xs.append(k + 1)
    pair = (xs, 0)
    return len(pair[0])


def item_assigned_in_a_tuple_target():
    zs = [1, 2]
    ws = zs
    zs[0], n = 5, 6
    return ws[0] + n


def spaced_method_call():
    zs = [1]
    ws = zs
    zs . append(2)
    return len(ws)


def grown_by_plus_equals():
    zs = list((1, 2))
    ws = zs
    zs += [3]
    return len(ws)
