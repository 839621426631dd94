# The __init__ a class inherits from fathom.Module or object takes no
# arguments: the arity error uses CPython's words for each (Module names
# the unexpected keyword, as MindSpore's auto_prefix=False).
from fathom import *


class Combine(Module):
    def __init__(self, backbone):
        super(Combine, self).__init__(auto_prefix=False)  # expect-error: arity
        self.backbone = backbone


class Positional(Module):
    def __init__(self):
        super().__init__(3)  # expect-error: arity


class Plain:
    def __init__(self):
        super().__init__(3)  # expect-error: arity


class Fine(Module):
    def __init__(self):
        super().__init__()
        self.w = ones((2,))


if __name__ == "__main__":
    c = Combine(Fine())
    p = Positional()
    q = Plain()
    print(Fine().w)
