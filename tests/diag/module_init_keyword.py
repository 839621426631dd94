# MindSpore's Cell.__init__(auto_prefix=False) has no counterpart in
# fathom.Module, whose __init__ takes no arguments: CPython's message.
from fathom import *


class Combine(Module):
    def __init__(self, backbone):
        super(Combine, self).__init__(auto_prefix=False)
        self.backbone = backbone


if __name__ == "__main__":
    net = Combine(3)
