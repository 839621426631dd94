# while with both break and continue.
def first_big_odd(n, limit):
    i = 0
    found = -1
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        if i > limit:
            found = i
            break
    return found
