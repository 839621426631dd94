# Three nested loops with break, continue and return at different depths.
def search(n, target):
    count = 0
    for i in range(n):
        if i == 1:
            continue
        j = 0
        while j < n:
            j += 1
            for k in range(n):
                if k > j:
                    break
                if i * j * k == target:
                    return i, j, k
                if k % 2 == 1:
                    continue
                count += 1
            if j == i:
                break
    return count, 0, 0
