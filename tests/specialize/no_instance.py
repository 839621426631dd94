# A method entry with no instance to run on: nothing builds a Counter, so
# `fathom specialize --entry Counter.step` asks for --init-args.
class Counter:
    def __init__(self, n: int):
        self.n = n

    def step(self, k: int) -> int:
        return self.n + k
