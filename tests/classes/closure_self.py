# A lambda made in __init__ reads self when it runs, after __init__ has
# defined the rest of the attributes (CPython's late binding): its self is
# unknown, so no attribute is reported missing.
class Scaled:
    def __init__(self):
        self.act = lambda x: x * self.scale
        self.scale = 2

    def run(self, x):
        return self.act(x)


if __name__ == "__main__":
    reveal_type(Scaled().run(3))  # expect-type: unknown
