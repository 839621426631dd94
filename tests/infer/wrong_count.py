# args: --entry f --const-args (1,2,3)
def f(a, b):
    return a + b
