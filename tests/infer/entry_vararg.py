# args: --entry total --args i64,i64,f64
# The values after the positional parameters fill *rest (a tuple), and the
# keyword-only `start` takes its default.
def total(first, *rest, start=0):
    acc = start + first
    for r in rest:
        acc = acc + r
    return acc
