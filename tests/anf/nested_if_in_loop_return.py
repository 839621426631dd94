# A return nested in an if inside a while inside a for.
def locate(grid_w, grid_h, target):
    for r in range(grid_h):
        c = 0
        while c < grid_w:
            if r * grid_w + c == target:
                if r > 0:
                    return r, c
                return 0, c
            c += 1
    return -1, -1
