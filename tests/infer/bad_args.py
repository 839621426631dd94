# args: --entry f --args i64,[
def f(a, b):
    return a + b
