#!/usr/bin/env python3
"""gen.py [--seed S] [--programs N] [--tensor-share P]: write one file of N
random, valid DSL programs to stdout (the generator of `make stress`).

A *program* is a group of module-level functions sharing a prefix `pK`:
one entry `pK` (parameters annotated `int`, or none, or annotated tensors
over symbolic dims) and its helpers `pK_*`.  The generator is
grammar-aware: it tracks the type of every variable and expression, so
the programs are well typed by construction, and CPython runs them
(calls that raise, e.g. a division by zero on some input, are allowed;
the checker skips them).  What it reaches for, on purpose:

  deep nesting     expressions 30 levels deep, if/elif/else 12 levels,
                   loops inside branches inside loops
  big tuples       literals of up to 300 items, `t = t + t` doubling up
                   to 2^12 items, slices, indexing by variables, `sum`,
                   iteration over them
  long call chains helper chains of up to 300 functions
  recursion        self recursion with a decreasing counter (fib-like
                   double recursion too), mutual recursion, recursion
                   on unknown counters
  loops            `for` over range/tuples/enumerate/zip, `while` with
                   break/continue/return, nested up to 5 deep
  tensor code      matmul, transpose, reshape, reductions, elementwise
                   ops, concat and softmax over symbolic dims, loops
                   that update tensors
  closures, lambdas and higher-order calls, the walrus, conditional
  expressions, `and`/`or`, chained comparisons, float arithmetic.
  late binding     closures made in a loop and called after it, a def
                   rebound on each trip, a variable rebound between a
                   lambda and its call
  loop else        for and while loops with an `else:` that rebinds a
                   variable read later
  text             strings with escapes (\\N{...}, \\x, \\u, \\U, octal,
                   a backslash-newline), non-ASCII identifiers read under
                   their NFKC form; stress.py writes a quarter of the files
                   with CRLF and a quarter with CR line endings.

Ints are kept small (`% M` after products), so the DSL's 64-bit ints and
CPython's unbounded ints agree.  Loops with unknown bounds nest two deep at
most: the analysis of such nests grows exponentially with their depth
(tests/stress/limits.py has a 20-deep one), which would make a few files
take minutes.  The same seed gives the same bytes.
"""
import argparse
import random
import sys

M = 10007
INT, FLOAT, BOOL = "int", "float", "bool"


def is_tuple(t):
    return isinstance(t, tuple)


def int_tuple(n):
    return tuple([INT] * n)


class Budget:
    """How much room one function body has left."""

    def __init__(self, stmts, depth):
        self.stmts = stmts
        self.depth = depth


class Fn:
    """The body being written: lines, variables in scope, return type."""

    def __init__(self, ret):
        self.lines = []
        self.vars = {}        # name -> type (only definitely assigned ones)
        self.ret = ret
        self.counter = 0
        self.loop = 0         # loop nesting (break/continue allowed when > 0)
        self.frozen = set()   # while counters: never reassigned


class ProgramGen:
    def __init__(self, rng, prefix, tensor=False):
        self.r = rng
        self.p = prefix
        self.tensor = tensor
        self.out = []          # finished helper functions (text blocks)
        self.helpers = []      # (name, [param types], ret type)
        self.nfn = 0

    # ------------------------------------------------------------ names
    def fresh(self, fn, stem="v"):
        fn.counter += 1
        return "%s%d" % (stem, fn.counter)

    def helper_name(self, stem):
        self.nfn += 1
        return "%s_%s%d" % (self.p, stem, self.nfn)

    # ------------------------------------------------------------ types
    def rand_type(self, depth=0):
        x = self.r.random()
        if x < 0.55 or depth > 2:
            return INT
        if x < 0.7:
            return FLOAT
        if x < 0.78:
            return BOOL
        n = self.r.choice([1, 2, 2, 3, 4, 6])
        return tuple(self.rand_type(depth + 1) for _ in range(n))

    def vars_of(self, fn, t):
        return [v for v, vt in fn.vars.items() if vt == t]

    # ------------------------------------------------------------ expressions
    def expr(self, fn, t, d):
        if t == INT:
            return self.int_expr(fn, d)
        if t == FLOAT:
            return self.float_expr(fn, d)
        if t == BOOL:
            return self.bool_expr(fn, d)
        return self.tuple_expr(fn, t, d)

    def leaf(self, fn, t):
        vs = self.vars_of(fn, t)
        if vs and self.r.random() < 0.75:
            return self.r.choice(vs)
        if t == INT:
            return str(self.r.randint(-9, 40))
        if t == FLOAT:
            return self.r.choice(["0.5", "1.25", "-2.0", "3.0", "0.1", "10.0", "1e-3"])
        if t == BOOL:
            return self.r.choice(["True", "False"])
        return "(%s%s)" % (", ".join(self.leaf(fn, e) for e in t), "," if len(t) == 1 else "")

    def int_expr(self, fn, d):
        if d <= 0:
            return self.leaf(fn, INT)
        r = self.r
        e = lambda: self.int_expr(fn, d - 1)  # noqa: E731
        tuples = [v for v, vt in fn.vars.items() if is_tuple(vt)]
        k = r.randrange(20)
        if k == 17:
            return "(%s // %d)" % (e(), r.choice([-3, -1, 2, -7]))
        if k == 18:
            return "(%s %% %d)" % (e(), r.choice([-7, -2, 9]))
        if k == 19:
            return "(%s + %s)" % (e(), self.bool_expr(fn, d - 1))
        if k == 0:
            return "(%s + %s)" % (e(), e())
        if k == 1:
            return "(%s - %s)" % (e(), e())
        if k == 2:
            return "((%s * %s) %% %d)" % (e(), e(), M)
        if k == 3:
            return "(%s // (abs(%s) %% 7 + 1))" % (e(), e())
        if k == 4:
            return "(%s %% %d)" % (e(), r.choice([3, 5, 17, M]))
        if k == 5:
            return "(%s if %s else %s)" % (e(), self.bool_expr(fn, d - 1), e())
        if k == 6:
            return "%s(%s, %s)" % (r.choice(["min", "max"]), e(), e())
        if k == 7:
            return "abs(%s)" % e()
        if k == 8:
            return "int(%s)" % self.float_expr(fn, min(d - 1, 3))
        if k == 9 and tuples:
            v = r.choice(tuples)
            vt = fn.vars[v]
            ints = [i for i, x in enumerate(vt) if x == INT]
            if ints:
                i = r.choice(ints)
                return "%s[%d]" % (v, i if r.random() < 0.7 else i - len(vt))
            return "len(%s)" % v
        if k == 10 and tuples:
            v = r.choice(tuples)
            vt = fn.vars[v]
            if vt and all(x == INT for x in vt):
                return r.choice(["sum(%s)" % v, "%s[%s %% len(%s)]" % (v, e(), v),
                                 "max(%s)" % v, "len(%s)" % v])
            return "len(%s)" % v
        if k == 11:
            return "((%s %% 7) ** %d %% %d)" % (e(), r.randint(0, 3), M)
        if k == 12:
            h = [x for x in self.helpers if x[2] == INT]
            if h:
                name, params, _ = r.choice(h)
                return "%s(%s)" % (name, ", ".join(self.expr(fn, pt, min(d - 1, 2)) for pt in params))
        if k == 13:
            return "(-%s)" % e()
        if k == 14:
            return "int(%s)" % self.bool_expr(fn, d - 1)
        if k == 15:
            return "(%s << %d)" % ("(%s %% 64)" % e(), r.randint(0, 4))
        return "(%s + %s)" % (self.leaf(fn, INT), e())

    def deep_int(self, fn, d):
        """An int expression d levels deep that grows linearly with d."""
        if d <= 0:
            return self.leaf(fn, INT)
        inner = self.deep_int(fn, d - 1)
        leaf = self.leaf(fn, INT)
        return self.r.choice(["(%s + %s)" % (leaf, inner), "((%s * %s) %% %d)" % (inner, leaf, M),
                              "abs(%s)" % inner, "(%s if %s else %s)" % (inner, self.leaf(fn, BOOL), leaf),
                              "min(%s, %s)" % (inner, leaf), "(%s - %s)" % (inner, leaf)])

    def float_expr(self, fn, d):
        if d <= 0:
            return self.leaf(fn, FLOAT)
        r = self.r
        e = lambda: self.float_expr(fn, d - 1)  # noqa: E731
        k = r.randrange(15)
        if k == 9:
            return "(%s / %d)" % (self.int_expr(fn, d - 1), r.choice([4, -3, 7]))
        if k == 10:
            return "(%s // %s)" % (e(), r.choice(["2.5", "-0.75", "3.0"]))
        if k == 11:
            return "(%s + %s)" % (self.int_expr(fn, d - 1), e())
        if k == 12:
            return "(%s ** 2)" % e()
        if k == 13:
            return "math.sqrt(abs(%s))" % e()
        if k == 14:
            return "(%s %% %s)" % (e(), r.choice(["-2.0", "-0.5"]))
        if k == 0:
            return "(%s + %s)" % (e(), e())
        if k == 1:
            return "(%s - %s)" % (e(), e())
        if k == 2:
            return "(%s * %s)" % (e(), r.choice(["0.5", "2.0", "1.5", "-1.0"]))
        if k == 3:
            return "(%s / (abs(%s) + 1.0))" % (e(), e())
        if k == 4:
            return "float(%s)" % self.int_expr(fn, min(d - 1, 4))
        if k == 5:
            return "(%s if %s else %s)" % (e(), self.bool_expr(fn, d - 1), e())
        if k == 6:
            return "(%s %% %s)" % (e(), r.choice(["3.5", "1.0", "7.25"]))
        if k == 7:
            return "(%s * %s)" % (self.int_expr(fn, d - 1), r.choice(["0.25", "1.0"]))
        return "abs(%s)" % e()

    def bool_expr(self, fn, d):
        if d <= 0:
            return self.leaf(fn, BOOL)
        r = self.r
        k = r.randrange(8)
        i = lambda: self.int_expr(fn, d - 1)  # noqa: E731
        if k == 0:
            return "(%s %s %s)" % (i(), r.choice(["<", "<=", ">", ">=", "==", "!="]), i())
        if k == 1:
            return "(not %s)" % self.bool_expr(fn, d - 1)
        if k == 2:
            return "(%s %s %s)" % (self.bool_expr(fn, d - 1), r.choice(["and", "or"]),
                                   self.bool_expr(fn, d - 1))
        if k == 3:
            return "(%s < %s < %s)" % (i(), i(), i())
        if k == 4:
            return "(%s > %s)" % (self.float_expr(fn, d - 1), self.float_expr(fn, d - 1))
        if k == 5:
            tuples = [v for v, vt in fn.vars.items() if is_tuple(vt) and vt and all(x == INT for x in vt)]
            if tuples:
                return "(%s in %s)" % (i(), r.choice(tuples))
        if k == 6:
            return "(%s %% 2 == 0)" % i()
        return self.leaf(fn, BOOL)

    def tuple_expr(self, fn, t, d):
        r = self.r
        same = [v for v, vt in fn.vars.items() if vt == t]
        if same and r.random() < 0.3:
            return r.choice(same)
        if same and r.random() < 0.3 and all(x == INT for x in t):
            v = r.choice(same)
            return r.choice(["%s[::-1]" % v, "(%s * 2)[:%d]" % (v, len(t)), "%s[:]" % v])
        if len(t) > 16 and all(x == INT for x in t):
            # long tuples are rebuilt by rotation, not as literals of
            # thousands of expressions
            v = r.choice(same) if same else "(%s,) * %d" % (self.int_expr(fn, 1), len(t))
            cut = r.randint(1, len(t) - 1)
            return r.choice(["%s[%d:] + %s[:%d]" % (v, cut, v, cut), "%s[::-1]" % v,
                             "(%s,) + %s[1:]" % (self.int_expr(fn, 2), v)])
        if len(t) >= 2 and r.random() < 0.25:
            cut = r.randint(1, len(t) - 1)
            return "(%s + %s)" % (self.tuple_expr(fn, t[:cut], d - 1), self.tuple_expr(fn, t[cut:], d - 1))
        items = [self.expr(fn, e, max(0, d - 1)) for e in t]
        return "(%s%s)" % (", ".join(items), "," if len(items) == 1 else "")

    # ------------------------------------------------------------ statements
    def emit(self, fn, ind, text):
        fn.lines.append("    " * ind + text)

    def block(self, fn, ind, budget):
        n = self.r.randint(1, 4)
        start = len(fn.lines)
        for _ in range(n):
            if budget.stmts <= 0:
                break
            self.stmt(fn, ind, budget)
        if len(fn.lines) == start:   # never an empty block
            self.st_update(fn, ind)

    def stmt(self, fn, ind, budget):
        budget.stmts -= 1
        r = self.r
        nest = budget.depth > 0
        k = r.randrange(20 if nest else 6)
        if k <= 1 or not fn.vars:
            self.st_assign(fn, ind)
        elif k == 2:
            self.st_update(fn, ind)
        elif k == 3:
            self.st_unpack(fn, ind)
        elif k == 4 and fn.loop:
            self.emit(fn, ind, "if %s:" % self.bool_expr(fn, 2))
            self.emit(fn, ind + 1, r.choice(["break", "continue"]))
        elif k == 5:
            self.emit(fn, ind, "if %s:" % self.bool_expr(fn, 2))
            self.emit(fn, ind + 1, "return %s" % self.expr(fn, fn.ret, 2))
        elif k in (6, 7):
            self.st_if(fn, ind, budget)
        elif k == 8:
            self.st_for_range(fn, ind, budget)
        elif k == 9:
            self.st_while(fn, ind, budget)
        elif k == 10:
            self.st_for_tuple(fn, ind, budget)
        elif k == 11:
            self.st_closure(fn, ind)
        elif k == 12 and not fn.loop:
            self.st_big_tuple(fn, ind)
        elif k == 13:
            self.st_walrus(fn, ind)
        elif k == 16:
            self.st_loop_else(fn, ind, budget)
        elif k == 17 and not fn.loop:
            self.st_late_closure(fn, ind)
        elif k == 18:
            self.st_escapes(fn, ind)
        elif k == 19:
            self.st_unicode_names(fn, ind)
        else:
            self.st_update(fn, ind)

    def st_assign(self, fn, ind):
        t = self.rand_type()
        v = self.fresh(fn)
        self.emit(fn, ind, "%s = %s" % (v, self.expr(fn, t, self.r.randint(1, 4))))
        if ind == 1:
            fn.vars[v] = t

    def st_update(self, fn, ind):
        """Reassign an existing variable with a value of the same type."""
        if not fn.vars:
            return self.st_assign(fn, ind)
        names = sorted(set(fn.vars) - fn.frozen)
        if not names:
            return self.st_assign(fn, ind)
        v = self.r.choice(names)
        t = fn.vars[v]
        if t == INT and self.r.random() < 0.5:
            op = self.r.choice(["+=", "-=", "*=", "%="])
            rhs = self.int_expr(fn, 2)
            if op == "%=":
                rhs = "(abs(%s) + 1)" % rhs
            self.emit(fn, ind, "%s %s %s" % (v, op, rhs))
            if op == "*=":
                self.emit(fn, ind, "%s %%= %d" % (v, M))
        else:
            self.emit(fn, ind, "%s = %s" % (v, self.expr(fn, t, self.r.randint(1, 3))))

    def st_unpack(self, fn, ind):
        tuples = [v for v, vt in fn.vars.items() if is_tuple(vt) and 2 <= len(vt) <= 6]
        if not tuples:
            return self.st_assign(fn, ind)
        v = self.r.choice(tuples)
        names = [self.fresh(fn) for _ in fn.vars[v]]
        self.emit(fn, ind, "%s = %s" % (", ".join(names), v))
        if ind == 1:
            for n, t in zip(names, fn.vars[v]):
                fn.vars[n] = t

    def st_if(self, fn, ind, budget):
        budget.depth -= 1
        self.emit(fn, ind, "if %s:" % self.bool_expr(fn, 3))
        self.block(fn, ind + 1, budget)
        for _ in range(self.r.choice([0, 0, 1, 2])):
            self.emit(fn, ind, "elif %s:" % self.bool_expr(fn, 2))
            self.block(fn, ind + 1, budget)
        if self.r.random() < 0.6:
            self.emit(fn, ind, "else:")
            self.block(fn, ind + 1, budget)
        budget.depth += 1

    def st_for_range(self, fn, ind, budget):
        budget.depth -= 1
        i = self.fresh(fn, "i")
        top = max(2, 12 >> fn.loop)
        bound = self.r.choice([str(self.r.randint(0, top)),
                               "abs(%s) %% %d" % (self.int_expr(fn, 1), top)])
        if fn.loop >= 2:   # unknown bounds nest 2 deep at most (see below)
            bound = str(self.r.randint(0, top))
        head = self.r.choice(["range(%s)" % bound, "range(1, %s)" % bound,
                              "range(%s, 0, -1)" % bound])
        self.emit(fn, ind, "for %s in %s:" % (i, head))
        fn.vars[i] = INT
        fn.loop += 1
        self.block(fn, ind + 1, budget)
        fn.loop -= 1
        del fn.vars[i]
        budget.depth += 1

    def st_while(self, fn, ind, budget):
        budget.depth -= 1
        k = self.fresh(fn, "k")
        self.emit(fn, ind, "%s = 0" % k)
        top = max(2, 15 >> fn.loop)
        bound = self.r.choice([str(self.r.randint(0, top)), "abs(%s) %% %d" % (self.int_expr(fn, 1), top)])
        if fn.loop >= 2:
            bound = str(self.r.randint(0, top))
        self.emit(fn, ind, "while %s < %s:" % (k, bound))
        self.emit(fn, ind + 1, "%s += 1" % k)
        fn.vars[k] = INT
        fn.frozen.add(k)
        fn.loop += 1
        self.block(fn, ind + 1, budget)
        fn.loop -= 1
        budget.depth += 1
        if ind != 1:
            del fn.vars[k]

    def st_for_tuple(self, fn, ind, budget):
        tuples = [v for v, vt in fn.vars.items()
                  if is_tuple(vt) and 0 < len(vt) <= (32 >> fn.loop) and all(x == INT for x in vt)]
        if not tuples:
            return self.st_for_range(fn, ind, budget)
        budget.depth -= 1
        v = self.r.choice(tuples)
        x = self.fresh(fn, "x")
        form = self.r.randrange(3)
        if form == 0:
            bound = [x]
            self.emit(fn, ind, "for %s in %s:" % (x, v))
        elif form == 1:
            bound = [self.fresh(fn, "j"), x]
            self.emit(fn, ind, "for %s, %s in enumerate(%s):" % (bound[0], x, v))
        else:
            bound = [x, self.fresh(fn, "y")]
            self.emit(fn, ind, "for %s, %s in zip(%s, %s):" % (x, bound[1], v, v))
        for n in bound:
            fn.vars[n] = INT
        fn.loop += 1
        self.block(fn, ind + 1, budget)
        fn.loop -= 1
        for n in bound:
            fn.vars.pop(n, None)
        budget.depth += 1

    def st_closure(self, fn, ind):
        r = self.r
        f = self.fresh(fn, "inner")
        z = self.fresh(fn, "z")
        if r.random() < 0.5:
            sub = Fn(INT)
            sub.vars = dict(fn.vars)
            sub.vars[z] = INT
            sub.counter = fn.counter + 100
            self.emit(fn, ind, "def %s(%s):" % (f, z))
            self.emit(fn, ind + 1, "return %s" % self.int_expr(sub, 3))
        else:
            sub = Fn(INT)
            sub.vars = {n: t for n, t in fn.vars.items()}
            sub.vars[z] = INT
            self.emit(fn, ind, "%s = lambda %s: %s" % (f, z, self.int_expr(sub, 2)))
        v = self.fresh(fn)
        self.emit(fn, ind, "%s = %s(%s)" % (v, f, self.int_expr(fn, 2)))
        if ind == 1:
            fn.vars[v] = INT

    def st_big_tuple(self, fn, ind):
        r = self.r
        v = self.fresh(fn, "t")
        if r.random() < 0.5:
            n = r.choice([8, 20, 64, 150, 300])
            self.emit(fn, ind, "%s = (%s,)" % (v, ", ".join(str(r.randint(-50, 50)) for _ in range(n))))
        else:
            doublings = r.randint(1, 12)
            n = 1
            self.emit(fn, ind, "%s = (%s,)" % (v, self.int_expr(fn, 1)))
            for _ in range(doublings):
                self.emit(fn, ind, "%s = %s + %s" % (v, v, v))
                n *= 2
        if ind == 1:
            fn.vars[v] = int_tuple(n)
        s = self.fresh(fn)
        self.emit(fn, ind, "%s = %s" % (s, r.choice(["sum(%s) %% %d" % (v, M), "len(%s)" % v,
                                                     "%s[-1]" % v, "%s[len(%s) // 2]" % (v, v),
                                                     "sum(%s[1:5])" % v])))
        if ind == 1:
            fn.vars[s] = INT

    def st_loop_else(self, fn, ind, budget):
        """A for or while loop with an `else:` that rebinds a variable the
        rest of the function reads (the else runs when no break left)."""
        budget.depth -= 1
        r = self.r
        v = self.fresh(fn)
        self.emit(fn, ind, "%s = %s" % (v, self.int_expr(fn, 2)))
        top = max(2, 8 >> fn.loop)
        bound = str(r.randint(0, top)) if fn.loop >= 2 or r.random() < 0.5 else \
            "abs(%s) %% %d" % (self.int_expr(fn, 1), top)
        if r.random() < 0.5:
            i = self.fresh(fn, "i")
            self.emit(fn, ind, "for %s in range(%s):" % (i, bound))
            fn.vars[i] = INT
        else:
            i = self.fresh(fn, "k")
            self.emit(fn, ind, "%s = 0" % i)
            self.emit(fn, ind, "while %s < %s:" % (i, bound))
            self.emit(fn, ind + 1, "%s += 1" % i)
            fn.frozen.add(i)
            fn.vars[i] = INT
        fn.loop += 1
        self.block(fn, ind + 1, budget)
        fn.loop -= 1
        fn.vars.pop(i, None)
        fn.frozen.discard(i)
        self.emit(fn, ind, "else:")
        self.emit(fn, ind + 1, "%s = (%s + %s) %% %d" % (v, v, self.int_expr(fn, 2), M))
        if ind == 1:
            fn.vars[v] = INT
        budget.depth += 1

    def st_late_closure(self, fn, ind):
        """Closures that read a variable rebound after they are made
        (CPython binds late): made in a loop and called after it, or
        rebound in straight-line code before the call."""
        r = self.r
        acc, h = self.fresh(fn, "acc"), self.fresh(fn, "h")
        i = self.fresh(fn, "i")
        sub = Fn(INT)
        sub.vars = dict(fn.vars)
        sub.vars[i] = INT
        body = "(%s * %d + %s) %% %d" % (i, r.randint(1, 9), self.int_expr(sub, 1), M)
        form = r.randrange(3)
        if form == 0:      # a list of lambdas made in a loop, called after it
            fs = self.fresh(fn, "fs")
            self.emit(fn, ind, "%s = []" % fs)
            self.emit(fn, ind, "for %s in range(%d):" % (i, r.randint(0, 4)))
            self.emit(fn, ind + 1, "%s.append(lambda: %s)" % (fs, body))
            self.emit(fn, ind, "%s = 0" % acc)
            self.emit(fn, ind, "for %s in %s:" % (h, fs))
            self.emit(fn, ind + 1, "%s = (%s + %s()) %% %d" % (acc, acc, h, M))
        elif form == 1:    # a def rebound on each trip, called after the loop
            self.emit(fn, ind, "%s = %s" % (i, self.int_expr(fn, 1)))
            self.emit(fn, ind, "def %s():" % h)
            self.emit(fn, ind + 1, "return %s" % body)
            self.emit(fn, ind, "for %s in range(%d):" % (i, r.randint(0, 4)))
            self.emit(fn, ind + 1, "def %s():" % h)
            self.emit(fn, ind + 2, "return %s" % body)
            self.emit(fn, ind, "%s = %s()" % (acc, h))
        else:              # rebound after the lambda, before the call
            self.emit(fn, ind, "%s = %s" % (i, self.int_expr(fn, 1)))
            self.emit(fn, ind, "%s = lambda: %s" % (h, body))
            self.emit(fn, ind, "%s = %s" % (i, self.int_expr(fn, 2)))
            self.emit(fn, ind, "%s = %s()" % (acc, h))
        if ind == 1:
            fn.vars[acc] = INT

    ESCAPED = [  # (literal, its length in CPython)
        ('"\\N{LATIN SMALL LETTER E WITH ACUTE}\\x41\\u00e9\\t\\\\"', 5),
        ("'\\U0001F600\\N{GREEK SMALL LETTER ALPHA}\\101'", 3),
        ('"\\0\\a\\b\\f\\n\\r\\v\\x7f"', 8),
        ('"""a\\\nb\nc"""', 4),
        ("r'\\N{x}\\n'", 6),
        ('"caf\u00e9 \\N{EM DASH} \\u2014"', 9),
    ]

    def st_escapes(self, fn, ind):
        """A string with escapes (\\N{...}, \\x, \\u, \\U, octal, a
        backslash-newline), read through len()."""
        lit, _ = self.r.choice(self.ESCAPED)
        s, v = self.fresh(fn, "s"), self.fresh(fn)
        self.emit(fn, ind, "%s = %s" % (s, lit))
        self.emit(fn, ind, "%s = len(%s) + %s" % (v, s, self.int_expr(fn, 1)))
        if ind == 1:
            fn.vars[v] = INT

    def st_unicode_names(self, fn, ind):
        """Non-ASCII identifiers, bound under one spelling and read under
        its NFKC form (CPython normalises names: U+FB01 is "fi")."""
        n = self.fresh(fn, "")
        bound, read = self.r.choice([("\ufb01%s" % n, "fi%s" % n), ("caf\u00e9%s" % n, "caf\u00e9%s" % n),
                                     ("\uff56%s" % n, "v_%s" % n), ("\u212b%s" % n, "\u00c5%s" % n)])
        if read.startswith("v_"):   # fullwidth v reads back as v
            read = "v%s" % n
            bound = "\uff56%s" % n
        v = self.fresh(fn)
        self.emit(fn, ind, "%s = %s" % (bound, self.int_expr(fn, 2)))
        self.emit(fn, ind, "%s = (%s * 3 + 1) %% %d" % (v, read, M))
        if ind == 1:
            fn.vars[v] = INT

    def st_walrus(self, fn, ind):
        v = self.fresh(fn, "w")
        self.emit(fn, ind, "if (%s := %s) > %d:" % (v, self.int_expr(fn, 2), self.r.randint(-5, 20)))
        self.emit(fn, ind + 1, "%s = %s - 1" % (v, v))
        if ind == 1:
            fn.vars[v] = INT

    # ------------------------------------------------------------ functions
    def function(self, name, params, ret, budget):
        """Write `def name(params):` with a random body returning ret."""
        fn = Fn(ret)
        for pn, pt in params:
            fn.vars[pn] = pt
        self.block(fn, 1, budget)
        while budget.stmts > 0:
            self.stmt(fn, 1, budget)
        self.emit(fn, 1, "return %s" % self.expr(fn, ret, self.r.randint(1, 4)))
        return fn.lines

    def helper_chain(self):
        """f_0 -> f_1 -> ... -> f_n: a long call chain; returns f_0's name."""
        n = self.r.choice([2, 5, 20, 60, 300])
        names = [self.helper_name("c") for _ in range(n)]
        for i, nm in enumerate(names):
            if i + 1 < n:
                body = "return (%s(x + %d) * %d + x) %% %d" % (names[i + 1], i % 5, 1 + i % 3, M)
            else:
                body = "return x %% %d" % M
            self.out.append("def %s(x):\n    %s\n" % (nm, body))
        return names[0]

    def helper_recursive(self):
        r = self.r
        kind = r.randrange(4)
        nm = self.helper_name("r")
        if kind == 0:     # linear recursion with an accumulator
            self.out.append(
                "def %s(n, acc):\n    if n <= 0:\n        return acc\n"
                "    return %s(n - 1, (acc * %d + n) %% %d)\n" % (nm, nm, r.randint(2, 9), M))
            return nm, [INT, INT], lambda a: "%s(abs(%s) %% 40, %s)" % (nm, a[0], a[1])
        if kind == 1:     # double recursion (fib-like)
            self.out.append(
                "def %s(n):\n    if n < 2:\n        return n\n"
                "    return (%s(n - 1) + %s(n - 2)) %% %d\n" % (nm, nm, nm, M))
            return nm, [INT], lambda a: "%s(abs(%s) %% 14)" % (nm, a[0])
        if kind == 2:     # mutual recursion
            other = self.helper_name("m")
            self.out.append(
                "def %s(n):\n    if n <= 0:\n        return 1\n    return %s(n - 1) + 2\n" % (nm, other))
            self.out.append(
                "def %s(n):\n    if n <= 0:\n        return 0\n    return %s(n - 1) * 2 %% %d\n" % (other, nm, M))
            return nm, [INT], lambda a: "%s(abs(%s) %% 25)" % (nm, a[0])
        # recursion over a tuple, halving it
        self.out.append(
            "def %s(t):\n    if len(t) <= 1:\n        return sum(t)\n"
            "    h = len(t) // 2\n    return (%s(t[:h]) + %s(t[h:])) %% %d\n" % (nm, nm, nm, M))
        return nm, [int_tuple(4)], lambda a: "%s(%s)" % (nm, a[0])

    def helper_plain(self):
        nparams = self.r.randint(0, 3)
        params = [("q%d" % i, self.r.choice([INT, INT, FLOAT])) for i in range(nparams)]
        ret = self.r.choice([INT, INT, FLOAT])
        nm = self.helper_name("h")
        lines = self.function(nm, params, ret, Budget(self.r.randint(1, 6), 2))
        self.out.append("def %s(%s):\n%s\n" % (nm, ", ".join(p for p, _ in params), "\n".join(lines)))
        self.helpers.append((nm, [t for _, t in params], ret))

    def helper_higher_order(self):
        nm = self.helper_name("ho")
        self.out.append("def %s(f, x):\n    return f(f(x) %% %d)\n" % (nm, M))
        return nm

    def scalar_program(self):
        r = self.r
        for _ in range(r.randint(0, 3)):
            self.helper_plain()
        extra = []
        if r.random() < 0.35:
            extra.append(("chain", self.helper_chain()))
        if r.random() < 0.5:
            extra.append(("rec", self.helper_recursive()))
        if r.random() < 0.2:
            extra.append(("ho", self.helper_higher_order()))
        nparams = r.choice([0, 0, 1, 2, 2])
        params = [("a", INT), ("b", INT)][:nparams]
        ret = self.rand_type() if r.random() < 0.5 else INT
        fn = Fn(ret)
        for pn, pt in params:
            fn.vars[pn] = pt
        if not params:
            fn.vars["a"] = INT
            fn.lines.append("    a = %d" % r.randint(-5, 30))
        budget = Budget(r.choice([3, 6, 10, 20, 40]), r.choice([1, 2, 3, 5, 12]))
        for kind, info in extra:
            v = self.fresh(fn)
            if kind == "chain":
                self.emit(fn, 1, "%s = %s(%s)" % (v, info, self.int_expr(fn, 1)))
            elif kind == "rec":
                _, ptypes, call = info
                args = tuple(self.expr(fn, t, 1) for t in ptypes)
                self.emit(fn, 1, "%s = %s" % (v, call(args)))
            else:
                self.emit(fn, 1, "%s = %s(lambda u: u * %d + 1, %s)" % (v, info, r.randint(1, 5),
                                                                         self.int_expr(fn, 1)))
            fn.vars[v] = INT
        if r.random() < 0.15:   # one deep expression
            v = self.fresh(fn)
            self.emit(fn, 1, "%s = %s" % (v, self.deep_int(fn, r.choice([12, 20, 30]))))
            fn.vars[v] = INT
        self.block(fn, 1, budget)
        while budget.stmts > 0:
            self.stmt(fn, 1, budget)
        self.emit(fn, 1, "return %s" % self.expr(fn, ret, r.randint(1, 4)))
        sig = ", ".join("%s: int" % p for p, _ in params)
        return "".join(h + "\n\n" for h in self.out) + "def %s(%s):\n%s\n" % (self.p, sig, "\n".join(fn.lines))

    # ------------------------------------------------------------ tensors
    def tensor_program(self):
        """An entry over tensors with symbolic dims B, D and H: a random
        chain of ops whose shape (a tuple of dim names, "?" when the
        generator does not track it) and dtype are tracked, so every op
        is valid on every size the checker draws."""
        r = self.r
        lines = []
        cur, shape, dtype = "x", ("B", "D"), "f32"
        for i in range(r.randint(1, 10)):
            v = "t%d" % i
            rank = len(shape)
            k = r.randrange(22)
            if k == 0 and rank >= 1 and shape[-1] == "D" and dtype == "f32":
                lines.append("%s = %s @ w" % (v, cur))
                shape = shape[:-1] + ("H",)
            elif k == 1:
                lines.append("%s = %s(%s)" % (v, r.choice(["relu", "tanh", "exp", "sigmoid", "neg", "abs"]), cur))
            elif k == 2:
                lines.append("%s = %s * %s + 1.0" % (v, cur, r.choice(["2.0", "0.5"])))
            elif k == 3 and rank >= 2:
                lines.append("%s = %s" % (v, r.choice(["transpose(%s)" % cur, "%s.T" % cur])))
                shape = shape[::-1]
            elif k == 4 and rank >= 1:
                lines.append("%s = %s(%s, axis=-1)" % (v, r.choice(["softmax", "log_softmax"]), cur))
            elif k == 5 and rank >= 1:
                ax = r.randrange(rank)
                lines.append("%s = concat((%s, %s), axis=%d)" % (v, cur, cur, ax))
                shape = shape[:ax] + ("?",) + shape[ax + 1:]
            elif k == 6:
                lines.append("%s = %s + %s" % (v, cur, cur))
            elif k == 7:
                lines.append("%s = %s" % (v, cur))
                lines.append("for i in range(%d):" % r.randint(0, 4))
                lines.append("    %s = %s * 0.5 + %s" % (v, v, v))
            elif k == 8 and rank >= 1:
                lines.append("%s = %s" % (v, r.choice(["reshape(%s, (-1,))" % cur, "flatten(%s)" % cur])))
                shape = ("?",)
            elif k == 9 and rank >= 1:
                ax = r.randrange(rank)
                keep = r.random() < 0.5
                lines.append("%s = %s(%s, axis=%d, keepdims=%s)" % (v, r.choice(["reduce_sum", "mean"]),
                                                                   cur, ax, keep))
                shape = shape[:ax] + (("1",) if keep else ()) + shape[ax + 1:]
            elif k == 10:
                lines.append("%s = %s(%s)" % (v, r.choice(["reduce_sum", "mean"]), cur))
                shape = ()
            elif k == 11:
                lines.append("%s = expand_dims(%s, 0)" % (v, cur))
                shape = ("1",) + shape
            elif k == 12 and rank >= 1 and shape[0] == "1":
                lines.append("%s = squeeze(%s, 0)" % (v, cur))
                shape = shape[1:]
            elif k == 13:
                lines.append("%s = stack((%s, %s), axis=0)" % (v, cur, cur))
                shape = ("2",) + shape
            elif k == 14:
                lines.append("%s = maximum(%s, %s * 0.5)" % (v, cur, cur))
            elif k == 15:
                lines.append("%s = clip(%s, -1.0, 1.0)" % (v, cur))
            elif k == 16:
                lines.append("%s = where(%s > 0.0, %s, %s * 0.1)" % (v, cur, cur, cur))
            elif k == 17 and rank >= 1:
                lines.append("%s = layer_norm(%s)" % (v, cur))
            elif k == 18 and rank >= 2 and shape[0] != "?":
                lines.append("%s = %s[0] * 0.0" % (v, cur))
                lines.append("for row in %s:" % cur)
                lines.append("    %s = %s + row" % (v, v))
                shape = shape[1:]
            elif k == 19 and rank >= 1:
                # a slice may leave no rows ("?"): never index one with [0]
                picks = ["1:", ":1", "::2"] + (["0", "-1"] if shape[0] != "?" else [])
                lines.append("%s = %s[%s]" % (v, cur, r.choice(picks)))
                if lines[-1].endswith("[0]") or lines[-1].endswith("[-1]"):
                    shape = shape[1:]
                else:
                    shape = ("?",) + shape[1:]
            elif k == 20:
                lines.append("%s = cast(%s, %s)" % (v, cur, r.choice(["f64", "f32"])))
                dtype = lines[-1][-4:-1]
            else:
                lines.append("%s = %s - %s" % (v, cur, cur))
            cur = v
        if r.random() < 0.3:
            lines.append("return %s, %s.shape" % (cur, cur))
        else:
            lines.append("return %s" % cur)
        return ("def %s(x: Tensor[f32, (B, D)], w: Tensor[f32, (D, H)]):\n%s\n"
                % (self.p, "\n".join("    " + ln for ln in lines)))


def generate(seed, programs, tensor_share=0.2):
    """(text, [(entry name, kind)]) for one file."""
    rng = random.Random(seed)
    parts = ["# Generated by tests/stress/gen.py --seed %d --programs %d: do not edit.\n"
             "from __future__ import annotations\n"
             "import math\n"
             "from fathom import (Tensor, cast, clip, concat, exp, expand_dims, f32, f64, flatten,\n"
             "                    layer_norm, log_softmax, maximum, mean, neg, reduce_sum, relu,\n"
             "                    reshape, sigmoid, softmax, squeeze, stack, tanh, transpose, where)\n\n\n" % (seed, programs)]
    entries = []
    for k in range(programs):
        name = "p%d" % k
        g = ProgramGen(rng, name)
        if rng.random() < tensor_share:
            parts.append(g.tensor_program() + "\n\n")
            entries.append((name, "tensor"))
        else:
            parts.append(g.scalar_program() + "\n\n")
            entries.append((name, "scalar"))
    return "".join(parts).rstrip() + "\n", entries


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--programs", type=int, default=50)
    ap.add_argument("--tensor-share", type=float, default=0.2)
    a = ap.parse_args(argv)
    text, _ = generate(a.seed, a.programs, a.tensor_share)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
