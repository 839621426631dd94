# A class attribute that code outside the class body changes (a layer
# counter `A.count += 1` in __init__, as whisper-openvino numbers its
# attention layers; `Attn.use_sdpa = False`, as whisper's disable_sdpa()
# does) is not modelled, and later reads see the new value in CPython: so
# every read of it is unknown, never the stale constant of the class body
# (no false `assert-false` below).  The change itself stays unsupported.
from fathom import *
from typing import reveal_type


class A:
    count = 0

    def __init__(self):
        self.layer_id = A.count
        A.count += 1  # expect-warning: unsupported


class Attn:
    use_sdpa = True
    scale = 2

    def f(self, q, k):
        if Attn.use_sdpa:
            return q @ k
        return q @ k * Attn.scale


def check_counter():
    a = A()
    b = A()
    reveal_type(b.layer_id)  # expect-type: unknown
    reveal_type(A.count)  # expect-type: unknown
    assert b.layer_id == 1
    return b.layer_id


if __name__ == "__main__":
    check_counter()
    Attn.use_sdpa = False  # expect-error: unsupported
    reveal_type(Attn.use_sdpa)  # expect-type: unknown
    reveal_type(Attn.scale)  # expect-type: i64=2
    print(Attn().f(ones((2, 3)), ones((3, 4))).shape)
