"""dslgen: generators of valid fathom DSL programs for the benchmarks.

GENERATORS maps a corpus kind (gen.py --kind) to its generator class.  To add
one (tensor-heavy programs, say): subclass ScalarGen (or ProgramGen), extend
its FUNCTION_KINDS / STATEMENTS tables and expr() dispatch, and add a line
here.  Kind `classes` (classes.py) writes a package of many files, not one
program, so it is not in GENERATORS: gen.py --kind classes --out DIR."""
from .scalar import ScalarGen
from .tensor import TensorGen

GENERATORS = {
    "scalar": ScalarGen,
    "tensor": TensorGen,
}
