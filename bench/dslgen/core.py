"""core.py: what every corpus generator shares.

A generator writes one module of the fathom DSL, function by function, into
an Emitter, and keeps enough of a static model of the program to make it
valid: a type for every variable, a signature for every function, and a cost
model (calls executed per invocation, deepest call stack) so that CPython runs
the result in about a second whatever its size.

Types are plain values: the strings INT, FLOAT, BOOL, FN (a function from int
to int) and Python tuples of types for DSL tuples, e.g. (INT, (INT, INT)).
A variable never changes type, so no control-flow merge joins different
types (a `type-mismatch at merge` in the DSL).

Conventions every generator keeps (they make the corpus valid for any input
main() passes, and keep numbers small):
  - every stored int is in [0, MOD): compound expressions are stored `% MOD`;
  - every stored float is in [0, 1000);
  - local names are unique within a module-level function (closures
    included), so no name is ever unbound on some path or shadowed;
  - a variable a live closure captured is frozen (never rebound), so
    Python's late binding and the DSL's capture agree.

Subclasses (scalar.py, later tensor programs) add function kinds and
expression forms; ProgramGen drives the module layout, the registry of
functions, main() and the planted errors of --errors.
"""
import random
import re
from contextlib import contextmanager
from dataclasses import dataclass, field

INT, FLOAT, BOOL, FN = "int", "float", "bool", "fn"

MOD = 10007            # the modulus of every stored int
FLOAT_MOD = "1000.0"   # ... and of every stored float
MAX_DEPTH = 48         # deepest call stack a function may reach
FUNC_COST_MAX = 600    # calls one invocation of a function may execute
FN_COST_MAX = 20       # ... of a function value passed as an argument
FN_DEPTH_MAX = 4
MAIN_COST_MAX = 1000000  # calls main() may execute in all (estimates are pessimistic)
ERR_LIMIT = 1000000    # --errors: the guard no value of the program reaches

PLANT_KINDS = ("type-mismatch", "not-callable", "arity", "index-out-of-range")


def is_tuple(t):
    return isinstance(t, tuple)


def is_int_vec(t):
    """A flat tuple of ints: iterable, summable, comprehensible."""
    return is_tuple(t) and all(e == INT for e in t)


class Atom(str):
    """Expression text that needs no parentheses as an operand."""


_SIMPLE = re.compile(r"[A-Za-z_][\w.]*|\d+(\.\d+)?")
_LEAF = re.compile(r"[A-Za-z_]\w*(\[-?\d+\])*|\d+|len\([A-Za-z_]\w*\)")


def wrap(e):
    """Parenthesise e unless it is already an operand."""
    return e if isinstance(e, Atom) or _SIMPLE.fullmatch(e) else Atom(f"({e})")


def is_leaf(e):
    """A name, literal, constant subscript or len(name): already in range."""
    return bool(_LEAF.fullmatch(e))


class Emitter:
    """Lines of the module being written; lineno is 1-based and is the number
    of the last line written."""

    def __init__(self):
        self.lines = []
        self.indent = 0

    @property
    def lineno(self):
        return len(self.lines)

    def line(self, text):
        self.lines.append("    " * self.indent + text if text else "")
        return len(self.lines)

    @contextmanager
    def block(self):
        self.indent += 1
        try:
            yield
        finally:
            self.indent -= 1

    def text(self):
        return "\n".join(self.lines) + "\n"


@dataclass(frozen=True)
class Var:
    """A name visible in a scope."""
    type: object
    frozen: bool = False   # loop target, counter, constant or captured
    cost: int = 1          # callables: calls one invocation executes
    depth: int = 1         # callables: stack depth one invocation reaches
    sig: object = None     # local functions: their FuncInfo


@dataclass
class Param:
    name: str
    type: object
    default: str = None    # constant text, or None when required
    bound: int = None      # callers pass values in [0, bound)
    fixed: str = None      # callers always pass this text


@dataclass
class FuncInfo:
    """A function callers can name: a module-level def or a local closure."""
    name: str
    params: list
    ret: object
    cost: int = 1
    depth: int = 1
    vararg: bool = False   # def f(*xs) over ints
    ret_fn: Var = None     # factories: the function value they return

    def required(self):
        return [p for p in self.params if p.default is None]


@dataclass
class Ctx:
    """Where statements are being generated: one function (or closure)."""
    ret: object
    budget: int = FUNC_COST_MAX
    cost: int = 1
    depth: int = 1
    mult: int = 1          # product of enclosing loops' trip bounds
    loop: int = 0          # loops of this function around the point
    nest: int = 0          # compound statements around the point
    calls: bool = True     # may call functions
    closure: int = 0       # closures around the point
    early_return: bool = True
    names: dict = field(default_factory=dict)

    def fits(self, cost, depth):
        return (self.calls and self.cost + self.mult * cost <= self.budget
                and depth + self.closure + 1 <= MAX_DEPTH)

    def charge(self, cost, depth):
        self.cost += self.mult * cost
        self.depth = max(self.depth, depth + 1)

    @contextmanager
    def looping(self, trips):
        self.mult *= trips
        self.loop += 1
        self.nest += 1
        try:
            yield
        finally:
            self.mult //= trips
            self.loop -= 1
            self.nest -= 1

    @contextmanager
    def nested(self):
        self.nest += 1
        try:
            yield
        finally:
            self.nest -= 1


@dataclass
class Program:
    text: str
    lines: int
    planted: list          # (line, kind) of each planted error
    triggers: list         # per planted error: a call text that executes it
    probes: list           # a call text with constant arguments per function


class ProgramGen:
    """Drives one module: header, functions until the line target, main().

    Subclasses implement emit_function() (one or more module-level defs,
    each registered with register()), expr(type, scope, ctx) and
    const_value(type, rng) for main()'s constant arguments."""

    kind = "base"

    def __init__(self, seed=1, errors=False):
        self.seed = seed
        self.errors = errors
        self.rng = random.Random(seed)
        self.em = Emitter()
        self.funcs = []            # registered FuncInfo, in definition order
        self.by_ret = {}           # return type -> [FuncInfo]
        self.consts = {}           # module constants: name -> Var
        self.const_names = []      # in definition order
        self.planted = []
        self.triggers = []
        self.hosts = []            # functions holding planted errors
        self.nfunc = 0

    # ---- registry ----
    def register(self, fi):
        self.funcs.append(fi)
        self.by_ret.setdefault(fi.ret, []).append(fi)

    def fresh_func(self, stem):
        self.nfunc += 1
        return f"{stem}_{self.nfunc}"

    def pick_func(self, ret, ok, tries=8):
        """A registered function returning ret that ok() accepts, preferring
        recent ones (locality), or None."""
        pool = self.by_ret.get(ret)
        if not pool:
            return None
        rng = self.rng
        for _ in range(tries):
            if rng.random() < 0.7:
                fi = pool[-1 - rng.randrange(min(len(pool), 24))]
            else:
                fi = pool[rng.randrange(len(pool))]
            if ok(fi):
                return fi
        return None

    # ---- module constants ----
    def const(self, name, text, type_):
        self.em.line(f"{name} = {text}")
        self.consts[name] = Var(type_, frozen=True)
        self.const_names.append(name)

    # ---- the module ----
    def generate(self, target_lines):
        em = self.em
        em.line(f"# Generated by bench/gen.py --kind {self.kind} --seed {self.seed}"
                f"{' --errors' if self.errors else ''} {target_lines}: do not edit.")
        self.emit_header()
        main_calls = max(4, target_lines // 120)
        reserve = main_calls + 12
        while em.lineno < target_lines - reserve:
            em.line("")
            em.line("")
            self.emit_function(target_lines - reserve - em.lineno)
        em.line("")
        em.line("")
        self.emit_main(main_calls)
        em.line("")
        em.line("")
        em.line('if __name__ == "__main__":')
        em.line("    main()")
        return Program(em.text(), em.lineno, self.planted, self.triggers,
                       self.probes())

    def probes(self):
        """A call with constant arguments of every function, for tests that
        run all of the program, not only what main() reaches."""
        saved, self.rng = self.rng, random.Random(self.seed + 1)
        try:
            return [self.const_call(fi) for fi in self.funcs + self.hosts]
        finally:
            self.rng = saved

    def emit_header(self):
        if self.errors:
            self.const("ERR_LIMIT", str(ERR_LIMIT), INT)

    # ---- main(): constant arguments, a checksum ----
    def emit_main(self, ncalls):
        em, rng = self.em, self.rng
        em.line("def main():")
        spent = 0
        with em.block():
            em.line("total = 0")
            pool = list(self.funcs)
            rng.shuffle(pool)
            made = 0
            for fi in pool:
                if made >= ncalls:
                    break
                if spent + fi.cost > MAIN_COST_MAX or fi.depth + 1 > MAX_DEPTH:
                    continue
                spent += fi.cost
                call = self.const_call(fi)
                em.line(f"total = ({self.to_int(call, fi.ret)} + total) % MOD")
                made += 1
            em.line("print(total)")
            em.line("return total")

    def const_call(self, fi):
        """fi called with constant arguments."""
        if fi.vararg:
            args = [str(self.rng.randrange(50)) for _ in range(self.rng.randint(1, 4))]
        else:
            args = [self.const_arg(p) for p in fi.params if p.default is None]
        return Atom(f"{fi.name}({', '.join(args)})")

    def const_arg(self, p):
        if p.fixed is not None:
            return p.fixed
        if p.bound is not None:
            return str(self.rng.randrange(p.bound))
        return self.const_value(p.type)

    def to_int(self, e, t):
        """An int expression computed from e of type t."""
        if t == INT:
            return e
        if t in (FLOAT, BOOL):
            return Atom(f"int({e})")
        if t == FN:
            return Atom(f"{wrap(e)}(3)")
        return self.to_int(Atom(f"{wrap(e)}[0]"), t[0])

    # ---- hooks ----
    def emit_function(self, lines_left):
        raise NotImplementedError

    def const_value(self, t):
        raise NotImplementedError

    def plant(self, kind, host, trigger_args):
        """Record an error planted on the line just written in function
        `host` (a FuncInfo nothing calls), which trigger_args reach."""
        self.planted.append((self.em.lineno, kind))
        self.triggers.append(f"{host.name}({', '.join(trigger_args)})")
        if host not in self.hosts:
            self.hosts.append(host)
