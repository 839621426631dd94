# args: --entry running_sums --const-args ((1,2,3),)
def running_sums(t):
    total = 0
    out = ()
    for x in t:
        total += x
        out = out + (total,)
    return out
