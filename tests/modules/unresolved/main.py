# Imports that find nothing are errors naming the roots searched; what they
# would bind is unknown afterwards, so nothing downstream is reported.
import missing_mod  # expect-error: unresolved-import
from helpers import clam  # expect-error: unresolved-import
from .nowhere import thing  # expect-error: unresolved-import
import helpers


def main():
    a = missing_mod.f(1)  # expect-type: unknown
    b = clam(1, 2, 3)  # expect-type: unknown
    c = helpers.clamp(5, 0, 3)  # expect-type: i64=3
    d = helpers.clmp(5, 0, 3)  # expect-error: attribute
    return c
