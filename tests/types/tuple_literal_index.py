# Tuple literals keep every item; constant indexes (negative too) pick one.
from typing import reveal_type


def main():
    t = (1, 2.5, 'a', None, True)  # expect-type: tuple[i64=1, f64=2.5, str='a', none, bool=True]
    reveal_type(t[0])  # expect-type: i64=1
    reveal_type(t[3])  # expect-type: none
    reveal_type(t[-1])  # expect-type: bool=True
    reveal_type(t[-5])  # expect-type: i64=1
    reveal_type(t[True])  # expect-type: f64=2.5
    reveal_type(())  # expect-type: tuple[()]
    reveal_type((7,))  # expect-type: tuple[i64=7]
    return t[0]
