"""scalar.py: programs over ints, floats, bools, tuples and functions.

The corpus of the parser benchmark (and later of the analysis benchmarks):
many module-level functions of 10-40 lines calling earlier ones, recursion
(fib, gcd, power, accumulators, tuple walks), mutually recursive pairs,
higher-order functions and closure factories, *args, loops of every DSL form
with break/continue, if/elif/else, tuple building and unpacking, nested
closures and lambdas, comprehensions, assertions and the walrus.

Structure: expr(type, scope, ctx, depth) dispatches to one generator per
type; statement() picks one statement form from STATEMENTS; emit_function()
picks one function kind from FUNCTION_KINDS.  Each table row is a weight and
a method name, so a subclass (tensor programs) adds forms by extending the
tables and the dispatch in expr().
"""
from dataclasses import replace

from .core import (BOOL, ERR_LIMIT, FLOAT, FLOAT_MOD, FN, FN_COST_MAX,
                   FN_DEPTH_MAX, FUNC_COST_MAX, INT, MOD, PLANT_KINDS, Atom,
                   Ctx, FuncInfo, Param, ProgramGen, Var, is_int_vec, is_leaf,
                   is_tuple, wrap)

TUPLE_TYPES = [(INT, INT), (INT, INT, INT), (INT, INT, INT, INT),
               (INT, (INT, INT)), (INT, FLOAT)]
INT_VECS = [t for t in TUPLE_TYPES if is_int_vec(t)]
FUNC_STEMS = ["mix", "scan", "fold", "blend", "pack", "step", "merge", "shift",
              "score", "probe", "trace", "sift", "mesh", "churn", "tally"]
PARAM_NAMES = {INT: "nmkabc", FLOAT: "xy", FN: "fg", "tuple": "tupq"}
COMMENTS = ["accumulate", "rotate the window", "fold the pair", "base case first",
            "keep values small", "loop-carried state", "check the invariant"]


def int_paths(t, prefix=""):
    """Subscript suffixes reaching the ints of tuple type t: ['[0]', '[1][0]']."""
    out = []
    for i, e in enumerate(t):
        if e == INT:
            out.append(f"{prefix}[{i}]")
        elif is_tuple(e):
            out.extend(int_paths(e, f"{prefix}[{i}]"))
    return out


class ScalarGen(ProgramGen):
    kind = "scalar"

    FUNCTION_KINDS = [(66, "fn_general"), (8, "fn_higher_order"),
                      (9, "fn_recursive"), (3, "fn_mutual"),
                      (6, "fn_factory"), (4, "fn_variadic")]

    # (weight, method, compound: needs room and nesting budget)
    STATEMENTS = [(24, "st_assign", False), (14, "st_update", False),
                  (6, "st_unpack", False), (9, "st_call", False),
                  (2, "st_chained", False), (2, "st_swap", False),
                  (2, "st_assert", False), (1, "st_comment", False),
                  (1, "st_effect", False), (3, "st_lambda", False),
                  (3, "st_break", False), (2, "st_early_return", False),
                  (10, "st_if", True), (10, "st_for", True),
                  (3, "st_while", True), (2, "st_data_while", True),
                  (4, "st_closure", True), (2, "st_walrus", True),
                  (2, "st_flag_search", True), (1, "st_raise_guard", True)]

    def __init__(self, seed=1, errors=False):
        super().__init__(seed, errors)
        self.fn_pool = []        # module functions usable as int -> int values
        self.pick_consts = []    # module constants expressions may read

    # ================= module layout =================
    def emit_header(self):
        em = self.em
        em.line("import math")
        em.line("from functools import partial")
        em.line("")
        self.const("MOD", str(MOD), INT)
        super().emit_header()
        for name, text, t in [("SCALE", "0.5", FLOAT), ("K1", "3", INT),
                              ("K2", "7", INT), ("K3", "K1 * K2 + 1", INT),
                              ("BASE2", "(3, 5)", (INT, INT)),
                              ("BASE3", "(2, 7, 11)", (INT, INT, INT)),
                              ("BASE4", "(1, 4, 9, 16)", (INT, INT, INT, INT)),
                              ("NEST", "(1, (2, 3))", (INT, (INT, INT))),
                              ("MIX", "(4, 2.5)", (INT, FLOAT))]:
            self.const(name, text, t)
            self.pick_consts.append(name)

    def emit_constants(self):
        rng = self.rng
        for _ in range(rng.randint(1, 2)):
            n = len(self.const_names)
            if rng.random() < 0.5:
                value = f"(K1 * {rng.randrange(2, 90)} + {rng.randrange(50)}) % MOD"
                self.const(f"C{n}", value, INT)
            else:
                t = rng.choice(INT_VECS)
                self.const(f"T{n}", self.const_value(t), t)
            self.pick_consts.append(self.const_names[-1])
            del self.pick_consts[:-14]
        self.em.line("")
        self.em.line("")

    def emit_function(self, lines_left):
        if self.nfunc and self.nfunc % 25 == 0:
            self.emit_constants()
        if self.errors and self.nfunc % 8 == 3:
            return self.fn_general(host=True)
        getattr(self, self.weighted(self.FUNCTION_KINDS))()

    def weighted(self, rows):
        total = sum(r[0] for r in rows)
        x = self.rng.random() * total
        for r in rows:
            x -= r[0]
            if x < 0:
                return r[1]
        return rows[-1][1]

    # ================= names and scopes =================
    def fresh(self, ctx, stem):
        return self.fresh_in(ctx.names, stem)

    def fresh_in(self, names, stem):
        """A local name unique in its module-level function."""
        names["n"] = names.get("n", 0) + 1
        return f"{stem}{names['n']}"

    def pick(self, sc, pred, consts=True, assignable=False):
        """A name of sc (or of the recent module constants) whose Var
        satisfies pred, or None."""
        rng = self.rng
        cands = [n for n, v in sc.items()
                 if pred(v) and not (assignable and v.frozen)]
        if cands and (rng.random() < 0.8 or not consts or assignable):
            return rng.choice(cands)
        if consts and not assignable:
            cands += [n for n in self.pick_consts if pred(self.consts[n])]
        return rng.choice(cands) if cands else None

    def type_of(self, sc, name):
        return (sc.get(name) or self.consts[name]).type

    def store(self, t, e):
        """e made fit for storing: ints in [0, MOD), floats in [0, 1000)."""
        if t == INT and not is_leaf(e):
            return f"{wrap(e)} % MOD"
        if t == FLOAT and not is_leaf(e) and not e.replace(".", "").isdigit():
            return f"{wrap(e)} % {FLOAT_MOD}"
        return e

    # ================= expressions =================
    def expr(self, t, sc, ctx, d=2):
        if t == INT:
            return self.int_expr(sc, ctx, d)
        if t == FLOAT:
            return self.float_expr(sc, ctx, d)
        if t == BOOL:
            return self.cond(sc, ctx, d)
        if t == FN:
            return self.fn_expr(sc, ctx)[0]
        return self.tuple_expr(t, sc, ctx, d)

    def sexpr(self, t, sc, ctx, d=2):
        return self.store(t, self.expr(t, sc, ctx, d))

    def int_leaf(self, sc, ctx):
        rng = self.rng
        r = rng.random()
        if r < 0.5:
            name = self.pick(sc, lambda v: v.type == INT)
            if name:
                return name
        if r < 0.75:
            name = self.pick(sc, lambda v: is_tuple(v.type) and int_paths(v.type))
            if name:
                t = self.type_of(sc, name)
                path = rng.choice(int_paths(t))
                if rng.random() < 0.15 and path.count("[") == 1:
                    path = f"[{int(path[1:-1]) - len(t)}]"
                return Atom(name + path)
        if r < 0.82:
            name = self.pick(sc, lambda v: is_tuple(v.type))
            if name:
                return Atom(f"len({name})")
        return str(rng.randrange(1, 20))

    def int_expr(self, sc, ctx, d):
        rng = self.rng
        if d <= 0 or rng.random() < 0.3:
            return self.int_leaf(sc, ctx)
        a = self.int_expr(sc, ctx, d - 1)
        r = rng.random()
        if r < 0.30:
            b = self.int_expr(sc, ctx, d - 1)
            return f"{wrap(a)} {rng.choice('+-*+')} {wrap(b)}"
        if r < 0.36:
            b = self.int_leaf(sc, ctx)
            return f"{wrap(a)} // ({wrap(b)} % {rng.randrange(2, 9)} + 1)"
        if r < 0.41:
            return f"{wrap(a)} % {rng.randrange(2, 14)}"
        if r < 0.44:
            return f"({wrap(a)} % {rng.randrange(5, 12)}) ** {rng.choice('23')}"
        if r < 0.50:
            b = self.int_expr(sc, ctx, d - 1)
            return Atom(f"{rng.choice(['max', 'min'])}({a}, {b})")
        if r < 0.53:
            return Atom(f"abs({wrap(a)} - {wrap(self.int_leaf(sc, ctx))})")
        if r < 0.57:
            name = self.pick(sc, lambda v: is_int_vec(v.type))
            if name:
                return Atom(f"sum({name})")
        if r < 0.60:
            f = self.pick(sc, lambda v: v.type == FLOAT)
            if f:
                return Atom(f"int({f} * {rng.randrange(2, 9)})")
        if r < 0.64:
            c = self.cond(sc, ctx, 1)
            return Atom(f"({a} if {c} else {self.int_leaf(sc, ctx)})")
        if r < 0.67:
            return rng.choice([f"{wrap(a)} & {rng.choice([7, 15, 255])}",
                               f"{wrap(a)} ^ {wrap(self.int_leaf(sc, ctx))}",
                               f"{wrap(a)} >> 1", f"{wrap(a)} << 2", f"~{wrap(a)}",
                               f"-{wrap(a)}"])
        if r < 0.69:
            return f"{wrap(a)} + ({self.int_leaf(sc, ctx)} > {self.int_leaf(sc, ctx)})"
        if r < 0.73:
            comp = self.list_comp(sc, ctx)
            if comp:
                return comp
        if r < 0.88:
            call = self.call_expr(INT, sc, ctx)
            if call:
                return call
        return f"{wrap(a)} + {wrap(self.int_leaf(sc, ctx))}"

    def list_comp(self, sc, ctx):
        """sum/len of a list comprehension over a tuple or a range."""
        rng = self.rng
        x = self.fresh(ctx, "e")
        inner = dict(sc)
        inner[x] = Var(INT, frozen=True)
        name = self.pick(sc, lambda v: is_int_vec(v.type))
        src = name if name and rng.random() < 0.7 else f"range({rng.randrange(2, 6)})"
        with ctx_no_calls(ctx):
            body = f"{x} * {wrap(self.int_expr(inner, ctx, 1))}"
        if rng.random() < 0.4:
            return Atom(f"len([{x} for {x} in {src} if {x} > {rng.randrange(1, 9)}])")
        return f"sum([{body} for {x} in {src}]) % MOD"

    def float_expr(self, sc, ctx, d):
        rng = self.rng
        if d <= 0 or rng.random() < 0.3:
            name = self.pick(sc, lambda v: v.type == FLOAT)
            if name and rng.random() < 0.8:
                return name
            return rng.choice(["0.5", "1.25", "2.0", "SCALE", "math.pi", "MIX[1]"])
        r = rng.random()
        a = self.float_expr(sc, ctx, d - 1)
        if r < 0.25:
            i = self.int_expr(sc, ctx, d - 1)
            return f"{wrap(i)} / ({wrap(self.int_leaf(sc, ctx))} % {rng.randrange(2, 9)} + 1)"
        if r < 0.45:
            return f"{wrap(a)} * {rng.choice(['1.5', '0.25', 'SCALE'])}"
        if r < 0.60:
            return f"{wrap(a)} + {wrap(self.int_leaf(sc, ctx))}"
        if r < 0.68:
            return Atom(f"math.sqrt(abs({self.int_expr(sc, ctx, d - 1)}) + 1)")
        if r < 0.74:
            return Atom(f"math.log(abs({a}) + 1.0)")
        if r < 0.78:
            return Atom(f"math.exp(-abs({a}) % 3)")
        if r < 0.84:
            return Atom(f"float({self.int_leaf(sc, ctx)})")
        if r < 0.95:
            call = self.call_expr(FLOAT, sc, ctx)
            if call:
                return call
        return f"{wrap(a)} - {wrap(self.float_expr(sc, ctx, 0))}"

    def cond(self, sc, ctx, d=1):
        rng = self.rng
        r = rng.random()
        a = self.int_expr(sc, ctx, min(d, 1))
        if r < 0.30:
            return f"{a} {rng.choice(['<', '<=', '>', '>=', '==', '!='])} {self.int_leaf(sc, ctx)}"
        if r < 0.42:
            return f"{wrap(a)} % {rng.randrange(2, 6)} == {rng.randrange(2)}"
        if r < 0.48:
            return f"0 <= {a} < {self.int_leaf(sc, ctx)}"
        if r < 0.56:
            name = self.pick(sc, lambda v: is_int_vec(v.type))
            if name:
                return f"{a} {rng.choice(['in', 'not in'])} {name}"
        if r < 0.61:
            name = self.pick(sc, lambda v: is_tuple(v.type))
            if name:
                return f"len({name}) > {rng.randrange(1, 4)}"
        if r < 0.67:
            f = self.pick(sc, lambda v: v.type == FLOAT)
            if f:
                return f"{f} > {rng.choice(['1.5', '0.5', '10.0'])}"
        if r < 0.75:
            b = self.pick(sc, lambda v: v.type == BOOL)
            if b:
                return b if rng.random() < 0.6 else f"not {b}"
        if r < 0.88 and d > 0:
            c1, c2 = self.cond(sc, ctx, 0), self.cond(sc, ctx, 0)
            if " and " in c1 or " or " in c1:
                c1 = f"({c1})"
            if " and " in c2 or " or " in c2:
                c2 = f"({c2})"
            return f"{c1} {rng.choice(['and', 'or'])} {c2}"
        if r < 0.92 and d > 0:
            return f"not ({self.cond(sc, ctx, 0)})"
        if r < 0.96:
            call = self.call_expr(BOOL, sc, ctx)
            if call:
                return call
        return f"{wrap(a)} > {rng.randrange(1, 50)}"

    def tuple_expr(self, t, sc, ctx, d):
        rng = self.rng
        r = rng.random()
        if r < 0.25:
            name = self.pick(sc, lambda v: v.type == t)
            if name:
                return name
        if is_int_vec(t) and r < 0.55:
            e = self.int_vec_expr(t, sc, ctx)
            if e:
                return e
        if r < 0.65:
            call = self.call_expr(t, sc, ctx)
            if call:
                return call
        if r < 0.70 and d > 0:
            return Atom(f"({self.tuple_expr(t, sc, ctx, 0)} if {self.cond(sc, ctx, 0)}"
                        f" else {self.tuple_expr(t, sc, ctx, 0)})")
        return Atom("(" + ", ".join(self.sexpr(e, sc, ctx, max(d - 1, 0)) for e in t) + ")")

    def int_vec_expr(self, t, sc, ctx):
        """A flat int tuple of len(t): comprehension, concatenation or slice."""
        rng, n = self.rng, len(t)
        r = rng.random()
        x = self.fresh(ctx, "e")
        inner = dict(sc)
        inner[x] = Var(INT, frozen=True)
        if r < 0.45:
            src = self.pick(sc, lambda v: v.type == t)
            src = src if src and rng.random() < 0.7 else f"range({n})"
            with ctx_no_calls(ctx):
                body = self.store(INT, f"{x} * {wrap(self.int_expr(inner, ctx, 1))} + "
                                       f"{wrap(self.int_leaf(inner, ctx))}")
            return Atom(f"tuple({body} for {x} in {src})")
        if r < 0.70 and n >= 3:
            head = self.pick(sc, lambda v: v.type == (INT,) * (n - 2) or v.type == (INT,) * (n - 1))
            if head:
                rest = n - len(self.type_of(sc, head))
                tail = ", ".join(self.store(INT, self.int_leaf(sc, ctx)) for _ in range(rest))
                return f"{head} + ({tail}{',' if rest == 1 else ''})"
        src = self.pick(sc, lambda v: is_int_vec(v.type) and len(v.type) > n)
        if src:
            m = len(self.type_of(sc, src))
            lo = rng.randrange(m - n + 1)
            return Atom(f"{src}[{lo or ''}:{lo + n}]")
        return None

    def fn_expr(self, sc, ctx):
        """A cheap int -> int function value: (text, cost, depth)."""
        rng = self.rng
        r = rng.random()
        if r < 0.35:
            name = self.pick(sc, lambda v: v.type == FN and v.cost <= FN_COST_MAX
                             and v.depth <= FN_DEPTH_MAX)
            if name:
                v = sc.get(name) or self.consts[name]
                return name, v.cost, v.depth
        if r < 0.55 and self.fn_pool:
            fi = self.fn_pool[-1 - rng.randrange(min(len(self.fn_pool), 16))]
            return fi.name, fi.cost, fi.depth
        if r < 0.65:
            fi = self.pick_func(INT, lambda f: self.partial_ok(f))
            if fi:
                return Atom(f"partial({fi.name}, {self.int_leaf(sc, ctx)})"), fi.cost, fi.depth
        w = self.fresh(ctx, "w")
        # only frozen variables: the lambda may outlive this statement; none
        # inside a loop, which rebinds them (a late-binding warning, B023)
        inner = {n: v for n, v in sc.items() if v.type == INT and v.frozen and not ctx.loop}
        inner[w] = Var(INT)
        with ctx_no_calls(ctx):
            body = self.store(INT, self.int_expr(inner, ctx, 1) + f" * {w} + {w}")
        return Atom(f"(lambda {w}: {body})"), 1, 1

    def partial_ok(self, fi):
        return (not fi.vararg and len(fi.params) == 2 and fi.ret == INT
                and all(p.type == INT and p.default is None and p.bound is None
                        and p.fixed is None for p in fi.params)
                and fi.cost <= FN_COST_MAX and fi.depth <= FN_DEPTH_MAX)

    # ---- calls ----
    def call_expr(self, ret, sc, ctx):
        """A call returning ret that the cost model allows, or None."""
        if not ctx.calls:
            return None
        rng = self.rng
        if rng.random() < 0.25:
            local = self.pick(sc, lambda v: v.sig is not None and v.sig.ret == ret
                              and ctx.fits(v.sig.cost, v.sig.depth), consts=False)
            if local:
                return self.call_with(sc[local].sig, sc, ctx)
            if ret == INT:
                fn = self.pick(sc, lambda v: v.type == FN and ctx.fits(v.cost, v.depth),
                               consts=False)
                if fn:
                    v = sc[fn]
                    ctx.charge(v.cost, v.depth)
                    return Atom(f"{fn}({self.sexpr(INT, sc, ctx, 1)})")
        fi = self.pick_func(ret, lambda f: ctx.fits(f.cost, f.depth))
        return self.call_with(fi, sc, ctx) if fi else None

    def call_with(self, fi, sc, ctx):
        ctx.charge(fi.cost, fi.depth)
        rng = self.rng
        if fi.vararg:
            vec = self.pick(sc, lambda v: is_int_vec(v.type))
            if vec and rng.random() < 0.4:
                return Atom(f"{fi.name}(*{vec})")
            args = [self.sexpr(INT, sc, ctx, 1) for _ in range(rng.randint(1, 4))]
            return Atom(f"{fi.name}({', '.join(args)})")
        args, keywords_only = [], False
        for p in fi.params:
            if p.fixed is not None:
                args.append(p.fixed)
                continue
            if p.default is not None:
                r = rng.random()
                if r < 0.4:
                    keywords_only = True
                    continue
                if r < 0.7 or keywords_only:
                    keywords_only = True
                    args.append(f"{p.name}={self.arg(p, sc, ctx)}")
                    continue
            args.append(self.arg(p, sc, ctx))
        return Atom(f"{fi.name}({', '.join(args)})")

    def arg(self, p, sc, ctx):
        if p.type == FN:
            return self.fn_expr(sc, ctx)[0]
        e = self.sexpr(p.type, sc, ctx, 1)
        if p.bound is not None:
            return f"{wrap(e)} % {p.bound}"
        return e

    # ================= statements =================
    def block(self, sc, ctx, budget):
        """Statements worth about `budget` lines; returns the scope after them
        (a copy: names made here stay here)."""
        sc = dict(sc)
        start = self.em.lineno
        while True:
            self.statement(sc, ctx, budget - (self.em.lineno - start))
            if self.em.lineno - start >= budget:
                return sc

    def statement(self, sc, ctx, left):
        compound_ok = ctx.nest < 3 and left >= 3
        rows = [r for r in self.STATEMENTS if compound_ok or not r[2]]
        while True:
            if getattr(self, self.weighted(rows))(sc, ctx, left) is not False:
                return

    def new_var(self, sc, ctx, t):
        stem = {INT: "v", FLOAT: "fl", BOOL: "ok", FN: "g"}.get(t, "tt")
        return self.fresh(ctx, stem)

    def random_type(self):
        r = self.rng.random()
        if r < 0.55:
            return INT
        if r < 0.80:
            return self.rng.choice(TUPLE_TYPES)
        if r < 0.90:
            return FLOAT
        return BOOL

    def st_assign(self, sc, ctx, left):
        rng = self.rng
        t = FN if rng.random() < 0.04 else self.random_type()
        name = self.new_var(sc, ctx, t)
        if t == FN:
            text, cost, depth = self.fn_expr(sc, ctx)
            self.em.line(f"{name} = {text}")
            sc[name] = Var(FN, cost=cost, depth=depth)
            return
        self.em.line(f"{name} = {self.sexpr(t, sc, ctx)}")
        sc[name] = Var(t)

    def st_update(self, sc, ctx, left):
        rng, em = self.rng, self.em
        name = self.pick(sc, lambda v: v.type in (INT, FLOAT, BOOL) or is_tuple(v.type),
                         assignable=True)
        if not name:
            return False
        t = sc[name].type
        if t == INT:
            r = rng.random()
            e = self.int_expr(sc, ctx, 1)
            if r < 0.3:
                em.line(f"{name} {rng.choice(['+=', '-=', '*='])} {e}")
                em.line(f"{name} %= MOD")
            elif r < 0.45:
                em.line(f"{name} = {rng.choice(['max', 'min'])}({name}, {self.store(INT, e)})")
            else:
                op = rng.choice("+-*^")
                em.line(f"{name} = {self.store(INT, f'{name} {op} {wrap(e)}')}")
        elif t == FLOAT:
            em.line(f"{name} = ({name} * {rng.choice(['0.5', 'SCALE', '1.5'])} + "
                    f"{wrap(self.float_expr(sc, ctx, 1))}) % {FLOAT_MOD}")
        elif t == BOOL:
            em.line(f"{name} = {name} or {self.cond(sc, ctx, 0)}" if rng.random() < 0.6
                    else f"{name} = not {name}")
        else:
            em.line(f"{name} = {self.tuple_expr(t, sc, ctx, 1)}")

    def unpack_target(self, t, sc, ctx, names):
        parts = []
        for e in t:
            if is_tuple(e):
                parts.append("(" + self.unpack_target(e, sc, ctx, names) + ")")
            else:
                n = self.new_var(sc, ctx, e)
                names.append((n, e))
                parts.append(n)
        return ", ".join(parts)

    def st_unpack(self, sc, ctx, left):
        rng = self.rng
        src = self.pick(sc, lambda v: is_tuple(v.type))
        names = []
        if src and rng.random() < 0.7:
            target = self.unpack_target(self.type_of(sc, src), sc, ctx, names)
            self.em.line(f"{target} = {src}")
        else:
            types = [self.random_type() for _ in range(2)]
            values = ", ".join(self.sexpr(t, sc, ctx, 1) for t in types)
            target = self.unpack_target(tuple(types), sc, ctx, names)
            self.em.line(f"{target} = {values}")
        for n, t in names:
            sc[n] = Var(t)

    def st_chained(self, sc, ctx, left):
        a, b = self.new_var(sc, ctx, INT), self.new_var(sc, ctx, INT)
        self.em.line(f"{a} = {b} = {self.sexpr(INT, sc, ctx)}")
        sc[a] = sc[b] = Var(INT)

    def st_swap(self, sc, ctx, left):
        a = self.pick(sc, lambda v: v.type == INT, assignable=True)
        b = self.pick(sc, lambda v: v.type == INT, assignable=True)
        if not a or not b or a == b:
            return False
        if self.rng.random() < 0.5:
            self.em.line(f"{a}, {b} = {b}, {a}")
        else:
            self.em.line(f"{a}, {b} = {b}, ({a} + {b}) % MOD")

    def st_call(self, sc, ctx, left):
        t = self.rng.choice([INT, INT, INT, FLOAT, BOOL, FN] + TUPLE_TYPES)
        call = self.call_expr(t, sc, ctx)
        if not call:
            return False
        name = self.new_var(sc, ctx, t)
        self.em.line(f"{name} = {call}")
        if t == FN:
            fi = self.funcs_by_name(call)
            sc[name] = fi.ret_fn if fi else Var(FN, cost=FN_COST_MAX, depth=FN_DEPTH_MAX)
        else:
            sc[name] = Var(t)

    def funcs_by_name(self, call):
        head = call.split("(", 1)[0]
        for fi in reversed(self.by_ret.get(FN, [])):
            if fi.name == head:
                return fi
        return None

    def st_effect(self, sc, ctx, left):
        call = self.call_expr(self.rng.choice([INT, BOOL]), sc, ctx)
        if not call:
            return False
        self.em.line(call)

    def st_assert(self, sc, ctx, left):
        rng = self.rng
        name = self.pick(sc, lambda v: v.type == INT or is_tuple(v.type))
        if not name:
            return False
        t = self.type_of(sc, name)
        if is_tuple(t):
            self.em.line(f"assert len({name}) == {len(t)}")
        elif rng.random() < 0.5:
            self.em.line(f"assert 0 <= {name} < MOD")
        else:
            self.em.line(f'assert {name} >= 0, "{name} is negative"')

    def st_comment(self, sc, ctx, left):
        self.em.line(f"# {self.rng.choice(COMMENTS)}")
        return False   # a comment is not a statement: pick one to follow it

    def st_lambda(self, sc, ctx, left):
        name, w = self.fresh(ctx, "lam"), self.fresh(ctx, "w")
        captured = self.capture(sc, lambda v: v.type == INT and not ctx.loop)
        inner = {n: replace(sc[n], frozen=True) for n in captured}
        inner[w] = Var(INT)
        with ctx_no_calls(ctx):
            body = self.store(INT, f"{wrap(self.int_expr(inner, ctx, 1))} * {w} + "
                                   f"{wrap(self.int_leaf(inner, ctx))}")
        self.em.line(f"{name} = lambda {w}: {body}")
        self.freeze(sc, captured)
        sc[name] = Var(FN, frozen=True)
        if ctx.fits(1, 1):
            ctx.charge(1, 1)
            r = self.new_var(sc, ctx, INT)
            self.em.line(f"{r} = {name}({self.sexpr(INT, sc, ctx, 1)})")
            sc[r] = Var(INT)

    def capture(self, sc, pred):
        cands = [n for n, v in sc.items() if pred(v)]
        k = min(len(cands), self.rng.randint(1, 3))
        return self.rng.sample(cands, k)

    def freeze(self, sc, names):
        for n in names:
            sc[n] = replace(sc[n], frozen=True)

    def st_break(self, sc, ctx, left):
        if not ctx.loop:
            return False
        self.em.line(f"if {self.cond(sc, ctx, 1)}:")
        with self.em.block():
            self.em.line(self.rng.choice(["break", "continue"]))

    def st_early_return(self, sc, ctx, left):
        if not ctx.nest or not ctx.early_return or ctx.ret == FN:
            return False
        self.em.line(f"if {self.cond(sc, ctx, 1)}:")
        with self.em.block():
            self.em.line(f"return {self.sexpr(ctx.ret, sc, ctx, 1)}")

    def sub_budget(self, left, hi=6):
        return self.rng.randint(1, max(1, min(hi, left - 1)))

    def st_if(self, sc, ctx, left):
        em, rng = self.em, self.rng
        em.line(f"if {self.cond(sc, ctx, 2)}:")
        with ctx.nested():
            with em.block():
                self.block(sc, ctx, self.sub_budget(left))
            if rng.random() < 0.3:
                em.line(f"elif {self.cond(sc, ctx, 1)}:")
                with em.block():
                    self.block(sc, ctx, self.sub_budget(left, 4))
            if rng.random() < 0.6:
                em.line("else:")
                with em.block():
                    self.block(sc, ctx, self.sub_budget(left, 4))

    def loop_header(self, sc, ctx):
        """(header text, trip bound, loop variables, tuples iterated) of a
        random `for`."""
        rng = self.rng
        i = self.fresh(ctx, "i")
        r = rng.random()
        vec = self.pick(sc, lambda v: is_int_vec(v.type))
        if r < 0.40 or not vec:
            form = rng.randrange(4)
            if form == 0:
                k = rng.randrange(2, 6)
                return f"for {i} in range({k}):", k, [i], []
            if form == 1:
                return f"for {i} in range({wrap(self.int_leaf(sc, ctx))} % 4 + 1):", 4, [i], []
            if form == 2:
                return f"for {i} in range(1, {wrap(self.int_leaf(sc, ctx))} % 5 + 2):", 5, [i], []
            k = rng.randrange(2, 5)
            return f"for {i} in range(0, {2 * k}, 2):", k, [i], []
        n = len(self.type_of(sc, vec))
        x = self.fresh(ctx, "x")
        if r < 0.65:
            return f"for {x} in {vec}:", n, [x], [vec]
        if r < 0.85:
            return f"for {i}, {x} in enumerate({vec}):", n, [i, x], [vec]
        other = self.pick(sc, lambda v: is_int_vec(v.type))
        m = min(n, len(self.type_of(sc, other)))
        return f"for {i}, {x} in zip({vec}, {other}):", m, [i, x], [vec, other]

    def st_for(self, sc, ctx, left):
        header, trips, targets, sources = self.loop_header(sc, ctx)
        self.em.line(header)
        inner = dict(sc)
        for t in targets:
            inner[t] = Var(INT, frozen=True)
        for name in sources:   # the body never rebinds the tuple it iterates
            if name in sc:
                inner[name] = replace(sc[name], frozen=True)
        with ctx.looping(trips), self.em.block():
            self.block(inner, ctx, self.sub_budget(left, 7))

    def st_while(self, sc, ctx, left):
        rng, em = self.rng, self.em
        i = self.fresh(ctx, "j")
        em.line(f"{i} = 0")
        if rng.random() < 0.5:
            k = rng.randrange(2, 6)
            em.line(f"while {i} < {k}:")
        else:
            k = 5
            em.line(f"while {i} < {wrap(self.int_leaf(sc, ctx))} % 4 + 2:")
        inner = dict(sc)
        inner[i] = Var(INT, frozen=True)
        with ctx.looping(k), em.block():
            em.line(f"{i} += 1")
            self.block(inner, ctx, self.sub_budget(left, 6))
        sc[i] = Var(INT)

    def st_data_while(self, sc, ctx, left):
        """Loops whose trip count depends on data: Euclid, halving."""
        em = self.em
        if self.rng.random() < 0.5:
            a, b = self.fresh(ctx, "ga"), self.fresh(ctx, "gb")
            em.line(f"{a}, {b} = {self.sexpr(INT, sc, ctx, 1)}, {self.sexpr(INT, sc, ctx, 1)}")
            em.line(f"while {b} > 0:")
            with em.block():
                em.line(f"{a}, {b} = {b}, {a} % {b}")
            sc[a] = sc[b] = Var(INT)
        else:
            h, s = self.fresh(ctx, "h"), self.fresh(ctx, "steps")
            em.line(f"{h}, {s} = {self.sexpr(INT, sc, ctx, 1)}, 0")
            em.line(f"while {h} > 1:")
            with em.block():
                em.line(f"{h} = {h} // 2")
                em.line(f"{s} += 1")
            sc[h] = sc[s] = Var(INT)

    def st_closure(self, sc, ctx, left):
        """A nested def over a few captured variables, then a call to it."""
        if ctx.closure >= 2:
            return False
        rng, em = self.rng, self.em
        name = self.fresh(ctx, "inner")
        params = []
        for _ in range(rng.randint(1, 2)):
            t = INT if rng.random() < 0.75 else rng.choice(TUPLE_TYPES)
            params.append(Param(self.fresh(ctx, "z"), t))
        ret = INT if rng.random() < 0.75 else rng.choice(TUPLE_TYPES)
        # a closure made in a loop captures nothing the loop may rebind
        captured = self.capture(sc, lambda v: v.type != "varargs" and not ctx.loop)
        inner = {n: replace(sc[n], frozen=True) for n in captured}
        for p in params:
            inner[p.name] = Var(p.type)
        ictx = Ctx(ret=ret, budget=FUNC_COST_MAX // 10, calls=ctx.calls,
                   closure=ctx.closure + 1, names=ctx.names)
        em.line(f"def {name}({', '.join(p.name for p in params)}):")
        with em.block():
            body = self.block(inner, ictx, self.sub_budget(left, 5))
            em.line(f"return {self.sexpr(ret, body, ictx, 1)}")
        self.freeze(sc, captured)
        sig = FuncInfo(name, params, ret, cost=ictx.cost, depth=ictx.depth)
        sc[name] = Var("sig", frozen=True, sig=sig)
        if ctx.fits(sig.cost, sig.depth):
            r = self.new_var(sc, ctx, ret)
            em.line(f"{r} = {self.call_with(sig, sc, ctx)}")
            sc[r] = Var(ret)

    def st_walrus(self, sc, ctx, left):
        w = self.fresh(ctx, "w")
        self.em.line(f"if ({w} := {self.sexpr(INT, sc, ctx, 1)}) > {self.rng.randrange(1, 40)}:")
        inner = dict(sc)
        inner[w] = Var(INT)
        with ctx.nested(), self.em.block():
            self.block(inner, ctx, self.sub_budget(left, 4))

    def st_flag_search(self, sc, ctx, left):
        vec = self.pick(sc, lambda v: is_int_vec(v.type))
        if not vec:
            return False
        em = self.em
        flag, x = self.fresh(ctx, "found"), self.fresh(ctx, "x")
        em.line(f"{flag} = False")
        em.line(f"for {x} in {vec}:")
        with em.block():
            em.line(f"if {x} == {self.int_leaf(sc, ctx)}:")
            with em.block():
                em.line(f"{flag} = True")
                em.line("break")
        sc[flag] = Var(BOOL)

    def st_raise_guard(self, sc, ctx, left):
        name = self.pick(sc, lambda v: v.type == INT, consts=False)
        if not name:
            return False
        self.em.line(f"if {name} >= MOD:")
        with self.em.block():
            self.em.line(f'raise ValueError("{name} out of range")')

    # ================= function kinds =================
    def make_params(self, force=()):
        rng = self.rng
        types = list(force) + [self.param_type() for _ in range(rng.randint(1, 3))]
        used, params = {}, []
        for t in types[:4]:
            pool = PARAM_NAMES["tuple" if is_tuple(t) else t]
            k = used.get(pool, 0)
            used[pool] = k + 1
            name = pool[k] if k < len(pool) else f"{pool[0]}{k}"
            params.append(Param(name, t))
        # defaults on a trailing run of int parameters
        for p in reversed(params[1:]):
            if p.type != INT or rng.random() > 0.3:
                break
            p.default = str(rng.randrange(1, 10))
        return params

    def param_type(self):
        r = self.rng.random()
        if r < 0.55:
            return INT
        if r < 0.88:
            return self.rng.choice(TUPLE_TYPES)
        return FLOAT

    def def_line(self, name, params):
        text = ", ".join(p.name if p.default is None else f"{p.name}={p.default}"
                         for p in params)
        self.em.line(f"def {name}({text}):")

    def param_scope(self, params):
        sc = {}
        for p in params:
            if p.type == FN:
                sc[p.name] = Var(FN, cost=FN_COST_MAX, depth=FN_DEPTH_MAX)
            else:
                sc[p.name] = Var(p.type)
        return sc

    def fn_general(self, host=False, force=()):
        rng, em = self.rng, self.em
        name = self.fresh_func(rng.choice(FUNC_STEMS))
        params = self.make_params((INT,) if host else force)
        r = rng.random()
        ret = (INT if r < 0.55 else rng.choice(TUPLE_TYPES) if r < 0.80
               else FLOAT if r < 0.90 else BOOL)
        ctx = Ctx(ret=ret)
        sc = self.param_scope(params)
        fi = FuncInfo(name, params, ret)
        self.def_line(name, params)
        with em.block():
            if host:
                self.plant_error(fi, ctx)
            body = self.block(sc, ctx, rng.randint(8, 36))
            em.line(f"return {self.sexpr(ret, body, ctx)}")
        fi.cost, fi.depth = ctx.cost, ctx.depth
        if not host:
            self.register(fi)

    def fn_higher_order(self):
        self.fn_general(force=(FN, INT))

    def register(self, fi):
        super().register(fi)
        req = fi.required()
        if (not fi.vararg and fi.ret == INT and len(req) == 1 and req[0].type == INT
                and req[0].bound is None and req[0].fixed is None
                and fi.cost <= FN_COST_MAX and fi.depth <= FN_DEPTH_MAX):
            self.fn_pool.append(fi)

    def filler(self, sc, budget, names, ret):
        """Work without calls in a recursive function's recursive path (its
        parameters are frozen: termination does not depend on it)."""
        ctx = Ctx(ret=ret, calls=False, nest=1, names=names, early_return=False)
        return self.block(sc, ctx, budget), ctx

    def fn_recursive(self):
        rng, em = self.rng, self.em
        kind = rng.choice(["fib", "gcd", "power", "walk", "tsum", "ndigits", "tail"])
        name = self.fresh_func(kind)
        names = {}
        filler = rng.random() < 0.7
        if kind == "fib":
            params, ret, cost, depth = [Param("n", INT, bound=11)], INT, 180, 11
        elif kind == "gcd":
            params, ret, cost, depth = [Param("a", INT), Param("b", INT)], INT, 25, 25
        elif kind == "power":
            params, ret, cost, depth = [Param("b", INT), Param("e", INT, bound=64)], INT, 8, 8
        elif kind == "walk":
            params, ret, cost, depth = ([Param("n", INT, bound=16), Param("acc", (INT, INT))],
                                        (INT, INT), 17, 17)
        elif kind == "tsum":
            params = [Param("t", rng.choice(INT_VECS)), Param("i", INT, fixed="0")]
            ret, cost, depth = INT, 5, 5
        elif kind == "tail":
            params, ret, cost, depth = [Param("t", rng.choice(INT_VECS))], INT, 5, 5
        else:
            params, ret, cost, depth = [Param("n", INT)], INT, 6, 6
        sc = {n: replace(v, frozen=True) for n, v in self.param_scope(params).items()}
        self.def_line(name, params)
        with em.block():
            base, step = self.recursion_shape(kind, name, names)
            em.line(f"if {base[0]}:")
            with em.block():
                em.line(f"return {base[1]}")
            if kind == "walk":
                a, b = self.fresh_in(names, "a"), self.fresh_in(names, "b")
                em.line(f"{a}, {b} = acc")
                sc[a] = sc[b] = Var(INT)
                step = step.replace("@a", a).replace("@b", b)
            extra = "0"
            if filler:
                if kind == "tail":   # t shrinks: its type differs per call
                    sc = {}
                body, fctx = self.filler(sc, rng.randint(2, 8), names, ret)
                extra = self.int_leaf(body, fctx)
            em.line(f"return {step.replace('@w', extra)}")
        self.register(FuncInfo(name, params, ret, cost=cost, depth=depth))

    def recursion_shape(self, kind, f, names):
        """((base condition, base value), recursive return) of one template;
        @w is a value of the filler, which must not change termination."""
        if kind == "fib":
            return ("n < 2", "n"), f"({f}(n - 1) + {f}(n - 2) + @w) % MOD"
        if kind == "gcd":
            return ("b == 0", "a"), f"{f}(b, a % b)"
        if kind == "power":
            return (("e == 0", "1"),
                    f"({f}(b, e // 2) ** 2 * (b if e % 2 == 1 else 1) + @w % 2) % MOD")
        if kind == "walk":
            return ("n == 0", "acc"), f"{f}(n - 1, (@b, (@a + @b + n + @w) % MOD))"
        if kind == "tsum":
            return ("i >= len(t)", "0"), f"(t[i] * (i + 1) + {f}(t, i + 1) + @w) % MOD"
        if kind == "tail":
            return ("len(t) == 0", "0"), f"(t[0] + {f}(t[1:]) + @w) % MOD"
        return ("n < 10", "1"), f"1 + {f}(n // 10) + @w % 2"

    def fn_mutual(self):
        rng, em = self.rng, self.em
        if rng.random() < 0.5:
            a, b = self.fresh_func("is_even"), self.fresh_func("is_odd")
            pair = [(a, "True", b, BOOL), (b, "False", a, BOOL)]
            bound, cost, depth = 30, 31, 31
        else:
            a, b = self.fresh_func("hof_f"), self.fresh_func("hof_m")
            pair = [(a, "1", b, INT), (b, "0", a, INT)]
            bound, cost, depth = 12, 400, 30
        for k, (name, base, other, ret) in enumerate(pair):
            if k:
                em.line("")
                em.line("")
            self.def_line(name, [Param("n", INT)])
            with em.block():
                em.line("if n == 0:")
                with em.block():
                    em.line(f"return {base}")
                names = {}
                if rng.random() < 0.6:
                    self.filler({"n": Var(INT, frozen=True)}, rng.randint(2, 6), names, ret)
                if ret == BOOL:
                    em.line(f"return {other}(n - 1)")
                else:
                    em.line(f"return n - {other}({name}(n - 1))")
        for name, _, _, ret in pair:
            self.register(FuncInfo(name, [Param("n", INT, bound=bound)], ret,
                                   cost=cost, depth=depth))

    def fn_factory(self):
        """A function returning a closure (or a lambda) over its locals."""
        rng, em = self.rng, self.em
        name = self.fresh_func(rng.choice(["make_scaler", "make_adder", "make_step"]))
        params = [Param("k", INT), Param("b", INT)][:rng.randint(1, 2)]
        ctx = Ctx(ret=FN)
        self.def_line(name, params)
        with em.block():
            sc = self.block(self.param_scope(params), ctx, rng.randint(2, 8))
            inner_sc = {n: replace(v, frozen=True) for n, v in sc.items() if v.type == INT}
            ictx = Ctx(ret=INT, calls=False, closure=1, names=ctx.names)
            z = self.fresh(ctx, "z")
            inner_sc[z] = Var(INT)
            if rng.random() < 0.6:
                inner = self.fresh(ctx, "apply")
                em.line(f"def {inner}({z}):")
                with em.block():
                    body = self.block(inner_sc, ictx, rng.randint(1, 5))
                    em.line(f"return {self.sexpr(INT, body, ictx, 1)}")
                em.line(f"return {inner}")
            else:
                em.line(f"return lambda {z}: {self.sexpr(INT, inner_sc, ictx, 1)}")
        self.register(FuncInfo(name, params, FN, cost=ctx.cost, depth=ctx.depth,
                               ret_fn=Var(FN, cost=1, depth=1)))

    def fn_variadic(self):
        rng, em = self.rng, self.em
        name = self.fresh_func(rng.choice(["total", "spread", "weigh"]))
        ctx = Ctx(ret=INT)
        acc, v = self.fresh(ctx, "acc"), self.fresh(ctx, "x")
        em.line(f"def {name}(*xs):")
        with em.block():
            em.line(f"{acc} = len(xs)")
            em.line(f"for {v} in xs:")
            with em.block():
                em.line(f"{acc} = ({acc} * {rng.randrange(2, 9)} + {v}) % MOD")
            sc = {"xs": Var("varargs", frozen=True), acc: Var(INT)}
            body = self.block(sc, ctx, rng.randint(2, 10))
            em.line(f"return {self.sexpr(INT, body, ctx)}")
        self.register(FuncInfo(name, [], INT, cost=ctx.cost, depth=ctx.depth, vararg=True))

    # ================= constants and planted errors =================
    def const_value(self, t):
        rng = self.rng
        if t == INT:
            return str(rng.randrange(40))
        if t == FLOAT:
            return rng.choice(["0.5", "1.5", "2.25", "3.0"])
        if t == BOOL:
            return rng.choice(["True", "False"])
        if t == FN:
            if self.fn_pool and rng.random() < 0.5:
                return self.fn_pool[rng.randrange(len(self.fn_pool))].name
            return f"lambda v: (v * {rng.randrange(2, 9)} + 1) % MOD"
        return "(" + ", ".join(self.const_value(e) for e in t) + ")"

    def plant_error(self, host, ctx):
        """`if n > ERR_LIMIT:` then one error of the next kind.  No value of
        the program reaches the guard and no one calls the host function, so
        CPython runs the file; calling it with n = ERR_LIMIT + 1 raises."""
        em = self.em
        kind = PLANT_KINDS[len(self.planted) % len(PLANT_KINDS)]
        params = host.params
        n = params[0].name
        bad = self.fresh(ctx, "bad")
        em.line(f"if {n} > ERR_LIMIT:")
        with em.block():
            if kind == "type-mismatch":
                base = self.fresh(ctx, "base")
                em.line(f"{base} = K1 * 2")
                em.line(f"{bad} = {base} + ({n}, {base})")
            elif kind == "not-callable":
                pt = self.fresh(ctx, "pt")
                em.line(f"{pt} = ({n}, K1)")
                em.line(f"{bad} = {pt}({n})")
            elif kind == "index-out-of-range":
                pt = self.fresh(ctx, "pt")
                em.line(f"{pt} = ({n}, K1, 2)")
                em.line(f"{bad} = {pt}[3]")
            else:
                em.line(f"{bad} = {self.wrong_arity_call(n)}")
        self.plant(kind, host, [str(ERR_LIMIT + 1)] +
                   [self.const_value(p.type) for p in params[1:] if p.default is None])

    def wrong_arity_call(self, n):
        """A call of an earlier function with one argument too many or one
        too few, the others well typed."""
        cands = [f for f in self.funcs[-30:] if not f.vararg and f.params]
        fi = self.rng.choice(cands) if cands else None
        if fi is None:
            return f"(lambda {n}: {n})()"
        args = [self.const_arg(p) for p in fi.params]
        if self.rng.random() < 0.5 or not fi.required():
            args.append(n)
        else:
            args = args[:len(fi.required()) - 1]
        return f"{fi.name}({', '.join(args)})"


class ctx_no_calls:
    """with ctx_no_calls(ctx): expressions made inside call nothing."""

    def __init__(self, ctx):
        self.ctx = ctx

    def __enter__(self):
        self.saved = self.ctx.calls
        self.ctx.calls = False

    def __exit__(self, *exc):
        self.ctx.calls = self.saved
