# xs.append(v) and xs.extend(t) on a local list rebind it functionally.
def build(n):
    xs = []
    for i in range(n):
        xs.append(i * 2)
    xs.extend((100, 200))
    return xs


def main():
    return build(3)
