# Closures bind late (language.md 2): a closure sees a variable's value
# when it runs.  Each function's CPython result is in its comment; where
# fathom cannot tell which binding a call sees, it says unknown.


def rebound_after_def():        # 2
    x = 1
    h = lambda: x
    x = 2
    return h()


def assigned_only_after_def():  # 5 (no "referenced before assignment")
    h = lambda: y
    y = 5
    return h()


def made_in_loop_called_after():  # 2
    fs = []
    for i in range(3):
        fs.append(lambda: i)
    return fs[0]()


def genexpr_closures():         # 1
    fs = tuple(lambda: i for i in range(2))
    return fs[0]()


def call_escaped():             # 7: h escapes mk after x is rebound
    def mk():
        x = 1

        def h():
            return x
        x = 7
        return h
    return mk()()


def called_before_rebind():     # ('s', 4)
    x = "s"
    h = lambda: x
    v = h()
    x = 4
    return v, h()


def never_rebound():            # 3: the value at the def
    k = 3
    return (lambda v: v + k)(0)
