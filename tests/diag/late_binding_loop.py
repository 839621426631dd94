def handlers():
    fs = []
    for i in range(3):
        fs.append(lambda: i * 10)
    return fs[0]()


def bound_now():
    fs = []
    for i in range(3):
        fs.append(lambda i=i: i * 10)
    return fs[0]()
