# A tuple built by doubling past 65,536 items becomes unknown (its len an
# i64), with a budget warning at the concatenation that passes the limit.
def big():
    t = (1,)
    for i in range(20):
        t = t + t  # expect-warning: budget
    return len(t)


def main():
    reveal_type(big())  # expect-type: i64
    return big()
