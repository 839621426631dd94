# for-else: the else block runs only when the loop did not break.
def index_of(xs, v):
    for i in range(len(xs)):
        if xs[i] == v:
            break
    else:
        i = -1
    return i
