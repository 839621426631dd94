# args: --entry power --const-args (3,)
# --const-args binds the same way: `exp` keeps its default.
def power(base, exp=2, scale=1.0):
    return base**exp * scale
