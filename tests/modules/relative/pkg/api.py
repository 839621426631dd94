# from .m import a, from . import m, from .. (a parent package) import.
from .core import base_plus
from . import core
from .sub.deep import depth
from . import BASE


def run(n):
    a = base_plus(n)  # expect-type: i64=3
    b = core.base_plus(a)  # expect-type: i64=4
    return b + depth() + BASE
