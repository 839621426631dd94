"""classes.py: a package of many modules of class-based model code
(gen.py --kind classes --modules N --out DIR).

Real model code is classes in several files (language.md sections 8 and 9):
this generator writes a package `netlib` of N modules of about 500 lines
each, in five subpackages whose modules import only earlier ones (a layered
import DAG, no cycles):

  netlib/config/config_K.py  @dataclass configs (defaults, __post_init__,
                             @property, @staticmethod factories) and scalar
                             size helpers
  netlib/utils/util_K.py     scalar numerics (the scalar corpus' functions:
                             recursion, closures, tuples, loops), called by
                             the models' bookkeeping methods
  netlib/layers/layer_K.py   fathom.Module layers: Linear-like projections
                             (class constants, @staticmethod init scales,
                             @property, optional bias), norms, activations,
                             dropout with a training flag, embeddings,
                             subclasses calling super(), and scalar classes
                             (learning-rate schedules, conv geometry)
  netlib/blocks/block_K.py   blocks built from earlier layers and blocks:
                             MLPs with an optional dropout sub-module, gated
                             MLP subclasses (super().__init__ and
                             super().forward across modules), pre-norm
                             residuals, multi-head self-attention from a
                             config, transformer blocks, GRU layers looping
                             over time, pools, heads, tuple pipelines, lists
                             of blocks iterated in forward
  netlib/models/model_K.py   encoders with lists of blocks, classifiers,
                             MLP regressors, trainer bookkeeping classes

Every module ends with `smoke_test()`, which builds each of its classes with
small concrete sizes, runs it and returns a float.  DIR/main.py is the entry:
its `if __name__ == "__main__":` block builds the top model (an ensemble of
classifiers from several model modules), runs it on a batch of token ids,
then runs every module's smoke test and prints a checksum.  Imports between
modules mix `from .m import A`, `from ..sub.m import A`, `from ..sub import
m as x`, `from . import m as x`, `from netlib.sub.m import A` and `import
netlib.sub.m as x`; the layer modules reuse names (Linear, LayerNorm, ...)
and are always imported under an alias.

The generator keeps a static model of every class (its role, whether it maps
the last axis or a sequence, its constructor) and of shapes, so the package
checks clean and `PYTHONPATH=python python3 DIR/main.py` runs (B = 2, T = 4,
widths of 8 to 32: the 200-module package runs in a few seconds).  The same
seed gives the same bytes.
"""
import os
import random
from dataclasses import dataclass, field

from .core import FN, Emitter
from .scalar import ScalarGen

PKG = "netlib"
DIMS = [8, 16, 24, 32]
HEADS = [1, 2, 4]
BATCH, SEQ = 2, 4
VOCAB = 50
N_CLASSES = 5
LINES_PER_MODULE = 500
# the share of each subpackage in the modules, in import order
LAYOUT = [("config", 0.05), ("utils", 0.10), ("layers", 0.25),
          ("blocks", 0.35), ("models", 0.25)]
ALIAS_PREFIX = {"config": "conf", "utils": "u", "layers": "nn",
                "blocks": "blk", "models": "mdl"}


@dataclass
class ModInfo:
    sub: str                  # subpackage: config, utils, layers, blocks, models
    stem: str                 # file name without .py
    index: int                # position in the import order
    classes: list = field(default_factory=list)
    calls: list = field(default_factory=list)   # utils: int call texts (no module prefix)
    text: str = ""

    @property
    def dotted(self):
        return f"{PKG}.{self.sub}.{self.stem}"

    @property
    def path(self):
        return os.path.join(PKG, self.sub, self.stem + ".py")


@dataclass
class CInfo:
    """A class the generator wrote, as other code may use it.

    role: proj (in, out, bias=True), norm (dim), act (), drop (p), embed
    (num, dim), ffn (dim, hidden, bias=True, dropout=0.0), same (dim: a
    last-axis block keeping the width), map (d_in, d_out), seq (cfg:
    (B, T, d) -> (B, T, d)), rnn (dim: (B, T, d) -> (B, T, d)), pool
    (dim: (B, T, d) -> (B, d)), head (dim, n_classes), config, sched,
    geom, classifier (vocab_size, n_classes: ids -> (B, n_classes)),
    regressor (d_in, n_out: (B, d_in) -> (B, n_out)), trainer (steps)."""
    name: str
    mod: ModInfo
    role: str
    base: object = None       # the CInfo this class extends


class ModuleWriter:
    """One module being written: its lines, the names it imports."""

    def __init__(self, gen, info):
        self.gen = gen
        self.info = info
        self.rng = gen.rng
        self.em = Emitter()
        self.imports = {}     # dotted -> [style, names or alias]
        self.names = set()    # class names defined here
        self.smoke = []       # lines of smoke_test()

    # ---- names of other modules' classes ----
    def ref(self, ci):
        """The text naming class ci here, importing its module if needed."""
        mod = ci.mod
        if mod is self.info:
            return ci.name
        imp = self.imports.get(mod.dotted)
        if imp is None:
            imp = self.choose_import(mod)
            self.imports[mod.dotted] = imp
        if imp[0].startswith("alias"):
            return f"{imp[1]}.{ci.name}"
        if ci.name not in imp[1]:
            imp[1].append(ci.name)
        return ci.name

    def choose_import(self, mod):
        rng = self.rng
        if mod.sub in ("layers", "utils") or rng.random() < 0.3:
            style = rng.choice(["alias_rel", "alias_abs"])
            return [style, f"{ALIAS_PREFIX[mod.sub]}{mod.index}"]
        return [rng.choice(["from_rel", "from_rel", "from_abs"]), []]

    def util_call(self):
        """An int expression calling a function of a utils module, or None."""
        mods = [m for m in self.gen.mods if m.sub == "utils" and m.calls]
        if not mods:
            return None
        mod = self.rng.choice(mods[-6:])
        imp = self.imports.get(mod.dotted)
        if imp is None:
            imp = [self.rng.choice(["alias_rel", "alias_abs"]),
                   f"{ALIAS_PREFIX['utils']}{mod.index}"]
            self.imports[mod.dotted] = imp
        return self.rng.choice(mod.calls).replace("{m}", imp[1])

    def import_lines(self):
        out = []
        here = self.info.sub
        for dotted in sorted(self.imports):
            style, what = self.imports[dotted]
            _, sub, stem = dotted.split(".")
            if style == "alias_abs":
                out.append(f"import {dotted} as {what}")
            elif style == "alias_rel":
                src = "." if sub == here else f"..{sub}"
                out.append(f"from {src} import {stem} as {what}")
            elif what:
                src = (f".{stem}" if sub == here else f"..{sub}.{stem}") \
                    if style == "from_rel" else dotted
                line = f"from {src} import {', '.join(sorted(what))}"
                if len(line) <= 100:
                    out.append(line)
                else:   # one name a line, as formatters wrap long imports
                    out.append(f"from {src} import (")
                    out.extend(f"    {n}," for n in sorted(what))
                    out.append(")")
        return out

    def fresh_name(self, stem):
        """A class name unique in the module (layers) or the package."""
        if self.info.sub in ("layers",):
            name, n = stem, 1
            while name in self.names:
                n += 1
                name = f"{stem}{n}"
        else:
            self.gen.nclass += 1
            name = f"{stem}{self.gen.nclass}"
        self.names.add(name)
        return name

    def line(self, text=""):
        self.em.line(text)

    def blank2(self):
        self.em.line("")
        self.em.line("")


class ClassesGen:
    """Writes the package: gen.write(out_dir) or gen.files()."""

    kind = "classes"

    def __init__(self, seed=1, modules=200, lines=LINES_PER_MODULE):
        self.seed = seed
        self.nmodules = modules
        self.lines = lines
        self.rng = random.Random(seed)
        self.mods = []            # ModInfo in import order
        self.classes = []         # every CInfo
        self.nclass = 0

    # ================= registry =================
    def pool(self, role, w=None, recent=12):
        """Classes of this role defined so far (in w's module too), recent first."""
        out = [c for c in self.classes if c.role == role]
        if w is not None:
            out += [c for c in w.classes_here if c.role == role]
        return out[-recent:]

    def pick(self, role, w):
        pool = self.pool(role, w)
        return self.rng.choice(pool) if pool else None

    # ================= the package =================
    def plan(self):
        counts = [max(1, round(share * self.nmodules)) for _, share in LAYOUT]
        counts[-2] += self.nmodules - sum(counts)
        out = []
        for (sub, _), n in zip(LAYOUT, counts):
            for _ in range(n):
                out.append(sub)
        return out

    def files(self):
        """[(relative path, text)] of the whole package, in a fixed order."""
        files = [(os.path.join(PKG, "__init__.py"),
                  f'"""netlib: a generated package of model code (bench/gen.py --kind '
                  f'classes --modules {self.nmodules} --seed {self.seed}: do not edit)."""\n')]
        for sub, _ in LAYOUT:
            files.append((os.path.join(PKG, sub, "__init__.py"),
                          f'"""netlib.{sub}: generated modules."""\n'))
        for i, sub in enumerate(self.plan()):
            info = ModInfo(sub, f"{sub.rstrip('s')}_{i:03d}", i)
            getattr(self, f"write_{sub}")(info)
            self.mods.append(info)
            files.append((info.path, info.text))
        files.append(("main.py", self.write_main()))
        return files

    def write(self, out_dir):
        total = 0
        for rel, text in self.files():
            path = os.path.join(out_dir, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            total += text.count("\n")
        return total

    # ================= one module =================
    def module(self, info, doc, emit_item, smoke_reserve=4):
        """Write info.text: emit_item(w) adds one class or function (and
        its smoke-test lines) until the module reaches its line target."""
        w = ModuleWriter(self, info)
        w.classes_here = []
        header = 8
        while w.em.lineno + header + len(w.smoke) + smoke_reserve + 8 < self.lines:
            w.blank2()
            emit_item(w)
        body = w.em.lines
        w.em = Emitter()
        w.line(f'"""{doc}')
        w.line("")
        w.line(f"Generated by bench/gen.py --kind classes --seed {self.seed}: do not edit.")
        w.line('"""')
        uses = "\n".join(body)
        if "math." in uses:
            w.line("import math")
        if "@dataclass" in uses:
            w.line("from dataclasses import dataclass")
        if "math." in uses or "@dataclass" in uses:
            w.line("")
        w.line("from fathom import *")
        self.smoke_test(w)   # may import more
        imports = w.import_lines()
        if imports:
            w.line("")
            for ln in imports:
                w.line(ln)
        w.em.lines.extend(body)
        w.blank2()
        w.em.lines.extend(w.final_smoke)
        info.text = w.em.text()
        info.classes.extend(w.classes_here)
        self.classes.extend(w.classes_here)

    def add_class(self, w, name, role, base=None):
        ci = CInfo(name, w.info, role, base)
        w.classes_here.append(ci)
        return ci

    def smoke_test(self, w):
        lines = ["def smoke_test():",
                 f'    """Build each class of {w.info.stem} with small sizes and run it."""',
                 "    total = 0.0"]
        lines += ["    " + ln for ln in w.smoke]
        lines.append("    return total")
        w.final_smoke = lines

    # ---- inputs of the smoke tests ----
    @staticmethod
    def vec(d):
        return f"random_normal(({BATCH}, {d}))"

    @staticmethod
    def seq(d):
        return f"random_normal(({BATCH}, {SEQ}, {d}))"

    @staticmethod
    def ids():
        return f"reshape(arange({BATCH * SEQ}) % {VOCAB}, ({BATCH}, {SEQ}))"

    def smoke_run(self, w, var, ctor, inp, out_shape):
        """Smoke-test lines: var = ctor; y = var(inp); check and accumulate."""
        w.smoke.append(f"{var} = {ctor}")
        if self.rng.random() < 0.3:
            w.smoke.append(f"assert isinstance({var}, Module)")
        w.smoke.append(f"y = {var}({inp})")
        w.smoke.append(f"assert y.shape == {out_shape}")
        w.smoke.append("total = total + float(mean(y))")

    # ---- constructions of classes of a role (text in w) ----
    def make(self, w, ci, d_in, d_out=None, hidden=None):
        """Constructor call text of ci for these widths."""
        r, rng = ci.role, self.rng
        c = w.ref(ci)
        if r == "proj":
            bias = "" if rng.random() < 0.7 else f", bias={rng.choice(['True', 'False'])}"
            return f"{c}({d_in}, {d_out}{bias})"
        if r in ("norm", "same", "rnn", "pool"):
            return f"{c}({d_in})"
        if r == "act":
            return f"{c}()"
        if r == "drop":
            return f"{c}({rng.choice(['0.1', '0.0', '0.2'])})"
        if r == "ffn":
            h = hidden or d_in * rng.choice([2, 4])
            extra = rng.choice(["", ", dropout=0.1", ", bias=False", ", True, 0.0"])
            return f"{c}({d_in}, {h}{extra})"
        if r == "map":
            return f"{c}({d_in}, {d_out})"
        if r == "seq":
            return f"{c}({self.make_config(w, d_in)})"
        if r == "head":
            return f"{c}({d_in}, {d_out})"
        raise ValueError(r)

    def make_config(self, w, d, layers=None):
        cfg = self.pick("config", w)
        heads = [h for h in HEADS if d % h == 0]
        args = [f"d_model={d}", f"n_head={self.rng.choice(heads)}"]
        if layers:
            args.append(f"n_layer={layers}")
        if self.rng.random() < 0.4:
            args.append(f"causal={self.rng.choice(['True', 'False'])}")
        if self.rng.random() < 0.3:
            args.append(f"bias={self.rng.choice(['True', 'False'])}")
        return f"{w.ref(cfg)}({', '.join(args)})"

    def need(self, w, role):
        ci = self.pick(role, w)
        if ci is None:
            raise RuntimeError(f"no class of role {role} yet")
        return ci

    # ================= config modules =================
    def write_config(self, info):
        self.module(info, "Model configurations: dataclasses with derived sizes.",
                    self.config_item)

    def config_item(self, w):
        rng = self.rng
        if w.classes_here and rng.random() < 0.35:
            return self.size_helper(w)
        name = w.fresh_name(rng.choice(["ModelConfig", "EncoderConfig", "BlockConfig",
                                        "NetConfig", "TransformerConfig"]))
        d = rng.choice(DIMS[1:])
        fields = [("vocab_size", "int", str(VOCAB)), ("max_len", "int", str(4 * SEQ)),
                  ("d_model", "int", str(d)), ("n_head", "int", "2"),
                  ("n_layer", "int", str(rng.randint(1, 2))),
                  ("mlp_ratio", "int", str(rng.choice([2, 4]))),
                  ("dropout", "float", rng.choice(["0.0", "0.1"])),
                  ("bias", "bool", rng.choice(["True", "False"])),
                  ("causal", "bool", rng.choice(["True", "False"]))]
        w.line("@dataclass")
        w.line(f"class {name}:")
        with w.em.block():
            w.line(f'"""Sizes of a model; {name.lower()} defaults are tiny so the tests run fast."""')
            w.line(f"SCHEMA = {rng.randint(1, 9)}")
            w.line("")
            for n, t, v in fields:
                w.line(f"{n}: {t} = {v}")
            w.line("")
            w.line("def __post_init__(self):")
            w.line("    assert self.d_model % self.n_head == 0, \"heads must divide the width\"")
            w.line("    self.head_dim = self.d_model // self.n_head")
            w.line("")
            w.line("@property")
            w.line("def hidden(self):")
            w.line("    return self.d_model * self.mlp_ratio")
            w.line("")
            w.line("@property")
            w.line("def n_params(self):")
            w.line("    per_layer = 4 * self.d_model * self.d_model + 2 * self.d_model * self.hidden")
            w.line("    return self.vocab_size * self.d_model + self.n_layer * per_layer")
            w.line("")
            w.line("@staticmethod")
            w.line("def tiny():")
            w.line(f"    return {name}(d_model=8, n_head=2, n_layer=1)")
        self.add_class(w, name, "config")
        w.smoke.append(f"cfg = {name}(d_model={d}, n_head={rng.choice([1, 2, 4])})")
        w.smoke.append(f"assert cfg.head_dim * cfg.n_head == {d}")
        w.smoke.append(f"total = total + cfg.hidden + cfg.n_params % 97 + {name}.tiny().head_dim"
                       f" + cfg.SCHEMA")

    def size_helper(self, w):
        rng = self.rng
        w.gen.nclass += 1
        k = w.gen.nclass
        form = rng.randrange(3)
        if form == 0:
            w.line(f"def round_up_{k}(n, multiple):")
            w.line('    """n rounded up to a multiple (sizes padded for kernels)."""')
            w.line("    return ((n + multiple - 1) // multiple) * multiple")
            w.smoke.append(f"total = total + round_up_{k}({rng.randint(3, 90)}, {rng.choice([4, 8])})")
        elif form == 1:
            w.line(f"def head_split_{k}(d_model, n_head):")
            w.line('    """(heads, head width) with the widest head that divides d_model."""')
            w.line("    while n_head > 1 and d_model % n_head != 0:")
            w.line("        n_head = n_head - 1")
            w.line("    return n_head, d_model // n_head")
            w.smoke.append(f"heads, width = head_split_{k}({rng.choice(DIMS)}, {rng.randint(1, 6)})")
            w.smoke.append("total = total + heads * width")
        else:
            w.line(f"def widths_{k}(d_in, d_out, depth):")
            w.line('    """Widths of a tapering stack from d_in to d_out."""')
            w.line("    step = (d_out - d_in) // depth")
            w.line("    out = (d_in,)")
            w.line("    for i in range(1, depth):")
            w.line("        out = out + (d_in + i * step,)")
            w.line("    return out + (d_out,)")
            w.smoke.append(f"ws = widths_{k}({rng.choice(DIMS)}, {rng.choice(DIMS)}, {rng.randint(1, 4)})")
            w.smoke.append("total = total + sum(ws) + len(ws)")

    # ================= utils modules (scalar code) =================
    def write_utils(self, info):
        sg = ScalarGen(seed=self.rng.randrange(1 << 30))
        em = sg.em
        em.line(f'"""Scalar numerics for bookkeeping (the scalar corpus\' functions).')
        em.line("")
        em.line(f"Generated by bench/gen.py --kind classes --seed {self.seed}: do not edit.")
        em.line('"""')
        sg.emit_header()
        ncalls = 6
        while em.lineno < self.lines - ncalls - 10:
            em.line("")
            em.line("")
            sg.emit_function(self.lines - ncalls - 10 - em.lineno)
        pool = [fi for fi in sg.funcs if fi.cost <= 200 and not fi.vararg
                and all(p.type != FN and p.fixed is None for p in fi.required())]
        chosen = sg.rng.sample(pool, min(len(pool), ncalls))
        calls = [sg.to_int(sg.const_call(fi), fi.ret) for fi in chosen]
        em.line("")
        em.line("")
        em.line("def smoke_test():")
        with em.block():
            em.line('"""Call a few functions with constant arguments."""')
            em.line("total = 0")
            for c in calls:
                em.line(f"total = ({c} + total) % MOD")
            em.line("return total")
        # the same calls from another module: "{m}" stands for its alias
        info.calls = [f"{c.replace(fi.name + '(', '{m}.' + fi.name + '(', 1)} % {self.rng.randint(5, 20)}"
                      for fi, c in zip(chosen[:3], calls[:3])]
        info.text = em.text()

    # ================= layers modules =================
    LAYER_KINDS = [(18, "ly_linear"), (10, "ly_norm"), (8, "ly_act"), (5, "ly_dropout"),
                   (6, "ly_embedding"), (6, "ly_scaled_linear"), (5, "ly_lowrank"),
                   (5, "ly_schedule"), (4, "ly_geometry"), (5, "ly_functions")]

    def write_layers(self, info):
        def item(w):
            if not w.classes_here:
                return self.ly_linear(w)
            if len(w.classes_here) == 1:
                return self.ly_norm(w)
            return getattr(self, self.weighted(self.LAYER_KINDS))(w)
        self.module(info, "Layers: projections, norms, activations, embeddings, schedules.",
                    item)

    def weighted(self, rows):
        total = sum(r[0] for r in rows)
        x = self.rng.random() * total
        for r in rows:
            x -= r[0]
            if x < 0:
                return r[1]
        return rows[-1][1]

    def ly_linear(self, w):
        rng = self.rng
        name = w.fresh_name(rng.choice(["Linear", "Dense", "Projection", "FeatureMap"]))
        std = rng.choice(["0.02", "0.05", "1.0"])
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""A dense layer over the last axis: y = x W^T + b."""')
            w.line(f"INIT_STD = {std}")
            w.line("")
            w.line("def __init__(self, in_features, out_features, bias=True):")
            w.line("    super().__init__()")
            w.line("    self.in_features = in_features")
            w.line("    self.out_features = out_features")
            w.line("    self.weight = random_normal((out_features, in_features)) * self.init_scale(in_features)")
            w.line("    self.bias = zeros((out_features,)) if bias else None")
            w.line("")
            w.line("@staticmethod")
            w.line("def init_scale(fan_in):")
            w.line(f"    return {name}.INIT_STD / math.sqrt(fan_in)")
            w.line("")
            w.line("@property")
            w.line("def fan_in(self):")
            w.line("    return self.in_features")
            w.line("")
            w.line("def forward(self, x):")
            form = rng.randrange(3)
            if form == 0:
                w.line("    return linear(x, self.weight, self.bias)")
            else:
                w.line("    y = x @ self.weight.T" if form == 1
                       else "    y = matmul(x, transpose(self.weight))")
                w.line("    if self.bias is not None:")
                w.line("        y = y + self.bias")
                w.line("    return y")
        self.add_class(w, name, "proj")
        d1, d2 = rng.choice(DIMS), rng.choice(DIMS)
        self.smoke_run(w, "layer", f"{name}({d1}, {d2})", self.seq(d1), (BATCH, SEQ, d2))
        w.smoke.append(f"total = total + layer.fan_in + {name}.init_scale({d1})")

    def ly_norm(self, w):
        rng = self.rng
        kind = rng.choice(["LayerNorm", "RMSNorm", "LayerNorm"])
        name = w.fresh_name(kind)
        manual = rng.random() < 0.5
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line(f'"""{"Layer" if kind == "LayerNorm" else "Root-mean-square"} normalisation over the last axis."""')
            w.line("EPS = 1e-5")
            w.line("")
            w.line("def __init__(self, dim, eps=1e-5):")
            w.line("    super().__init__()")
            w.line("    self.dim = dim")
            w.line("    self.weight = ones((dim,))")
            if kind == "LayerNorm":
                w.line("    self.bias = zeros((dim,))")
            w.line("    self.eps = max(eps, self.EPS)")
            w.line("")
            w.line("def forward(self, x):")
            if kind == "LayerNorm" and not manual:
                w.line("    return layer_norm(x, self.weight, self.bias, self.eps)")
            elif kind == "LayerNorm":
                w.line("    mu = mean(x, axis=-1, keepdims=True)")
                w.line("    v = var(x, axis=-1, keepdims=True)")
                w.line("    return (x - mu) / sqrt(v + self.eps) * self.weight + self.bias")
            else:
                w.line("    ms = mean(x * x, axis=-1, keepdims=True)")
                w.line("    return x / sqrt(ms + self.eps) * self.weight")
        self.add_class(w, name, "norm")
        d = rng.choice(DIMS)
        self.smoke_run(w, "norm", f"{name}({d})", self.vec(d), (BATCH, d))

    ACTS = {"GELU": "gelu(x)", "SiLU": "silu(x)", "ReLU": "relu(x)", "Tanh": "tanh(x)",
            "QuickGELU": "x * sigmoid(1.702 * x)", "Softsign": "x / (1.0 + abs(x))",
            "ELU": "elu(x)"}

    def ly_act(self, w):
        rng = self.rng
        kind = rng.choice(sorted(self.ACTS) + ["LeakyReLU"])
        name = w.fresh_name(kind)
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line(f'"""The {kind} activation as a module."""')
            if kind == "LeakyReLU":
                w.line("")
                w.line("def __init__(self, negative_slope=0.01):")
                w.line("    super().__init__()")
                w.line("    self.negative_slope = negative_slope")
                w.line("")
                w.line("def forward(self, x):")
                w.line("    return leaky_relu(x, self.negative_slope)")
            else:
                w.line("")
                w.line("def forward(self, x):")
                w.line(f"    return {self.ACTS[kind]}")
        self.add_class(w, name, "act")
        d = rng.choice(DIMS)
        self.smoke_run(w, "act", f"{name}()", self.seq(d), (BATCH, SEQ, d))

    def ly_dropout(self, w):
        rng = self.rng
        name = w.fresh_name("Dropout")
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""Dropout, active only when training (the tests run in eval mode)."""')
            w.line("")
            w.line("def __init__(self, p=0.1, training=False):")
            w.line("    super().__init__()")
            w.line("    assert 0.0 <= p < 1.0")
            w.line("    self.p = p")
            w.line("    self.training = training")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    if self.training and self.p > 0.0:")
            w.line("        return dropout(x, self.p)")
            w.line("    return x")
        self.add_class(w, name, "drop")
        d = rng.choice(DIMS)
        self.smoke_run(w, "drop", f"{name}(0.1)", self.vec(d), (BATCH, d))

    def ly_embedding(self, w):
        rng = self.rng
        name = w.fresh_name("Embedding")
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""A lookup table of num_embeddings vectors of width embedding_dim."""')
            w.line("")
            w.line("def __init__(self, num_embeddings, embedding_dim, scale=False):")
            w.line("    super().__init__()")
            w.line("    self.num_embeddings = num_embeddings")
            w.line("    self.embedding_dim = embedding_dim")
            w.line("    self.weight = random_normal((num_embeddings, embedding_dim)) * 0.02")
            w.line("    self.scale = math.sqrt(embedding_dim) if scale else 1.0")
            w.line("")
            w.line("def forward(self, ids):")
            w.line("    return embedding(self.weight, ids) * self.scale")
        self.add_class(w, name, "embed")
        d = rng.choice(DIMS)
        self.smoke_run(w, "emb", f"{name}({VOCAB}, {d}{', scale=True' if rng.random() < 0.5 else ''})",
                       self.ids(), (BATCH, SEQ, d))

    def ly_scaled_linear(self, w):
        base = self.pick("proj", w)
        rng = self.rng
        name = w.fresh_name(rng.choice(["ScaledLinear", "ResidualLinear", "GainLinear"]))
        b = w.ref(base)
        w.line(f"class {name}({b}):")
        with w.em.block():
            w.line(f'"""{base.name} with a learnt output gain."""')
            w.line("")
            w.line("def __init__(self, in_features, out_features, bias=True, gain=0.5):")
            w.line("    super().__init__(in_features, out_features, bias)")
            w.line("    self.gain = full((out_features,), gain)")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    return super().forward(x) * self.gain")
        self.add_class(w, name, "proj", base)
        d1, d2 = rng.choice(DIMS), rng.choice(DIMS)
        self.smoke_run(w, "layer", f"{name}({d1}, {d2}, gain=0.25)", self.vec(d1), (BATCH, d2))

    def ly_lowrank(self, w):
        rng = self.rng
        proj = self.pick("proj", w)
        name = w.fresh_name("LowRankLinear")
        p = w.ref(proj)
        rank = rng.choice([2, 4])
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""A rank-limited projection: two thin layers."""')
            w.line(f"RANK = {rank}")
            w.line("")
            w.line("def __init__(self, in_features, out_features, bias=True):")
            w.line("    super().__init__()")
            w.line(f"    self.down = {p}(in_features, self.RANK, bias=False)")
            w.line(f"    self.up = {p}(self.RANK, out_features, bias)")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    down = self.down")
            w.line("    return self.up(down(x))")
        self.add_class(w, name, "proj")
        d1, d2 = rng.choice(DIMS), rng.choice(DIMS)
        self.smoke_run(w, "layer", f"{name}({d1}, {d2})", self.seq(d1), (BATCH, SEQ, d2))

    def ly_schedule(self, w):
        rng = self.rng
        name = w.fresh_name(rng.choice(["WarmupExpDecay", "LinearDecay"]))
        decay = name.startswith("WarmupExpDecay")
        w.line(f"class {name}:")
        with w.em.block():
            w.line('"""A learning-rate schedule: linear warm-up, then decay to min_lr."""')
            w.line("")
            w.line("def __init__(self, base_lr, warmup, total, min_lr=0.0):")
            w.line("    assert total > warmup")
            w.line("    self.base_lr = base_lr")
            w.line("    self.warmup = warmup")
            w.line("    self.total = total")
            w.line("    self.min_lr = min_lr")
            w.line("")
            w.line("def lr(self, step):")
            w.line("    if step < self.warmup:")
            w.line("        return self.base_lr * (step + 1) / self.warmup")
            w.line("    if step >= self.total:")
            w.line("        return self.min_lr")
            w.line("    progress = (step - self.warmup) / (self.total - self.warmup)")
            if decay:
                w.line("    coeff = math.exp(-4.0 * progress)")
            else:
                w.line("    coeff = 1.0 - progress")
            w.line("    return self.min_lr + coeff * (self.base_lr - self.min_lr)")
            w.line("")
            w.line("def mean_lr(self, steps):")
            w.line("    acc = 0.0")
            w.line("    for s in range(steps):")
            w.line("        acc = acc + self.lr(s)")
            w.line("    return acc / steps")
        self.add_class(w, name, "sched")
        warm = rng.randint(2, 10)
        w.smoke.append(f"sched = {name}({rng.choice(['0.001', '0.01', '3e-4'])}, {warm}, {warm + rng.randint(5, 40)})")
        w.smoke.append(f"total = total + sched.lr({rng.randint(0, 60)}) + sched.mean_lr({rng.randint(3, 12)})")

    def ly_geometry(self, w):
        rng = self.rng
        name = w.fresh_name("ConvGeometry")
        w.line(f"class {name}:")
        with w.em.block():
            w.line('"""Output sizes of a stack of convolutions and pools."""')
            w.line("")
            w.line("def __init__(self, size, kernel=3, stride=1, padding=1):")
            w.line("    self.size = size")
            w.line("    self.kernel = kernel")
            w.line("    self.stride = stride")
            w.line("    self.padding = padding")
            w.line("")
            w.line("@staticmethod")
            w.line("def out_size(n, k, s, p):")
            w.line("    return (n + 2 * p - k) // s + 1")
            w.line("")
            w.line("@property")
            w.line("def output(self):")
            w.line("    return self.out_size(self.size, self.kernel, self.stride, self.padding)")
            w.line("")
            w.line("def after(self, layers):")
            w.line("    n = self.size")
            w.line("    for _ in range(layers):")
            w.line("        n = self.out_size(n, self.kernel, self.stride, self.padding)")
            w.line("        if n < 1:")
            w.line("            return 0")
            w.line("    return n")
        self.add_class(w, name, "geom")
        w.smoke.append(f"geo = {name}({rng.choice([16, 28, 32])}, stride={rng.choice([1, 2])})")
        w.smoke.append(f"total = total + geo.output + geo.after({rng.randint(1, 4)})")

    def ly_functions(self, w):
        rng = self.rng
        self.nclass += 1
        k = self.nclass
        form = rng.randrange(3)
        if form == 0:
            w.line(f"def squash_{k}(x, axis=-1):")
            w.line('    """Capsule squashing: keeps the direction, bounds the norm below 1."""')
            w.line("    sq = reduce_sum(x * x, axis=axis, keepdims=True)")
            w.line("    return x * (sq / (1.0 + sq)) / sqrt(sq + 1e-8)")
            d = rng.choice(DIMS)
            w.smoke.append(f"total = total + float(mean(squash_{k}({self.seq(d)})))")
        elif form == 1:
            w.line(f"def causal_mask_{k}(t):")
            w.line('    """A (t, t) lower-triangular mask of booleans."""')
            w.line("    return tril(ones((t, t))) > 0.0")
            w.smoke.append(f"total = total + float(reduce_sum(cast(causal_mask_{k}({SEQ}), f32)))")
        else:
            w.line(f"def sinusoid_{k}(length, dim):")
            w.line('    """Sinusoidal position encodings of shape (length, dim)."""')
            w.line("    pos = expand_dims(cast(arange(length), f32), 1)")
            w.line("    idx = expand_dims(cast(arange(dim // 2), f32), 0)")
            w.line("    angle = pos / (10000.0 ** (2.0 * idx / dim))")
            w.line("    return concat((sin(angle), cos(angle)), axis=-1)")
            d = rng.choice(DIMS)
            w.smoke.append(f"pe = sinusoid_{k}({SEQ}, {d})")
            w.smoke.append(f"assert pe.shape == ({SEQ}, {d})")
            w.smoke.append("total = total + float(mean(pe))")

    # ================= blocks modules =================
    BLOCK_KINDS = [(14, "bl_mlp"), (7, "bl_gated"), (8, "bl_residual"), (10, "bl_attention"),
                   (9, "bl_transformer"), (5, "bl_gru"), (6, "bl_pool"), (6, "bl_head"),
                   (6, "bl_pipeline"), (5, "bl_deep")]

    def write_blocks(self, info):
        def item(w):
            if not self.pool("ffn", w):
                return self.bl_mlp(w)
            if not self.pool("seq", w):
                return self.bl_attention(w)
            return getattr(self, self.weighted(self.BLOCK_KINDS))(w)
        self.module(info, "Blocks built from the layers: MLPs, attention, residuals, heads.",
                    item)

    def bl_mlp(self, w):
        rng = self.rng
        proj, act = self.need(w, "proj"), self.need(w, "act")
        drop = self.pick("drop", w)
        name = w.fresh_name(rng.choice(["MLP", "FeedForward", "FFN"]))
        p, a = w.ref(proj), w.ref(act)
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""Two projections around an activation: dim -> hidden -> dim."""')
            w.line("")
            w.line("def __init__(self, dim, hidden, bias=True, dropout=0.0):")
            w.line("    super().__init__()")
            w.line(f"    self.fc1 = {p}(dim, hidden, bias=bias)")
            w.line(f"    self.act = {a}()")
            w.line(f"    self.fc2 = {p}(hidden, dim, bias=bias)")
            if drop:
                w.line(f"    self.drop = {w.ref(drop)}(dropout, training=True) if dropout > 0.0 else None")
            else:
                w.line("    self.drop = None")
            w.line("    self.dim = dim")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    h = self.act(self.fc1(x))")
            w.line("    h = self.fc2(h)")
            w.line("    if self.drop is not None:")
            w.line("        h = self.drop(h)")
            w.line("    return h")
        ci = self.add_class(w, name, "ffn")
        d = rng.choice(DIMS)
        self.smoke_run(w, "mlp", self.make(w, ci, d), self.seq(d), (BATCH, SEQ, d))

    def bl_gated(self, w):
        rng = self.rng
        base = self.need(w, "ffn")
        proj = self.need(w, "proj")
        name = w.fresh_name(rng.choice(["GatedMLP", "GLUFeedForward", "SwiGLU"]))
        b, p = w.ref(base), w.ref(proj)
        w.line(f"class {name}({b}):")
        with w.em.block():
            w.line(f'"""{base.name} with a sigmoid gate computed from the input."""')
            w.line("")
            w.line("def __init__(self, dim, hidden, bias=True, dropout=0.0):")
            w.line("    super().__init__(dim, hidden, bias, dropout)")
            w.line(f"    self.gate = {p}(dim, dim)")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    g = sigmoid(self.gate(x))")
            w.line("    return super().forward(x) * g")
        ci = self.add_class(w, name, "ffn", base)
        d = rng.choice(DIMS)
        self.smoke_run(w, "mlp", self.make(w, ci, d), self.vec(d), (BATCH, d))

    def bl_residual(self, w):
        rng = self.rng
        norm, ffn = self.need(w, "norm"), self.need(w, "ffn")
        name = w.fresh_name(rng.choice(["PreNormResidual", "ResidualMLP", "NormedFFN"]))
        n, f = w.ref(norm), w.ref(ffn)
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""x + ffn(norm(x)), with an optional output norm."""')
            w.line("")
            w.line("def __init__(self, dim, post_norm=False):")
            w.line("    super().__init__()")
            w.line(f"    self.norm = {n}(dim)")
            w.line(f"    self.ffn = {f}(dim, {rng.choice([2, 4])} * dim)")
            w.line(f"    self.post = {n}(dim) if post_norm else None")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    y = x + self.ffn(self.norm(x))")
            w.line("    if self.post is not None:")
            w.line("        y = self.post(y)")
            w.line("    return y")
        self.add_class(w, name, "same")
        d = rng.choice(DIMS)
        ctor = f"{name}({d}{', post_norm=True' if rng.random() < 0.4 else ''})"
        self.smoke_run(w, "res", ctor, self.seq(d), (BATCH, SEQ, d))

    def bl_attention(self, w):
        rng = self.rng
        proj = self.need(w, "proj")
        drop = self.pick("drop", w)
        name = w.fresh_name(rng.choice(["SelfAttention", "CausalSelfAttention", "MultiHeadAttention"]))
        p = w.ref(proj)
        einsum_form = rng.random() < 0.4
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""Multi-head self-attention over (B, T, d_model), causal when cfg.causal."""')
            w.line("")
            w.line("def __init__(self, cfg):")
            w.line("    super().__init__()")
            w.line("    assert cfg.d_model % cfg.n_head == 0")
            w.line("    self.n_head = cfg.n_head")
            w.line("    self.head_dim = cfg.d_model // cfg.n_head")
            w.line(f"    self.qkv = {p}(cfg.d_model, 3 * cfg.d_model, bias=cfg.bias)")
            w.line(f"    self.proj = {p}(cfg.d_model, cfg.d_model, bias=cfg.bias)")
            if drop:
                w.line(f"    self.attn_drop = {w.ref(drop)}(cfg.dropout)")
            w.line("    self.causal = cfg.causal")
            w.line("    self.scale = 1.0 / math.sqrt(self.head_dim)")
            w.line("")
            w.line("def split_heads(self, t, B, T):")
            w.line("    return t.view(B, T, self.n_head, self.head_dim).transpose(1, 2)")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    B, T, C = x.shape")
            w.line("    q, k, v = split(self.qkv(x), 3, axis=-1)")
            w.line("    q, k, v = [self.split_heads(t, B, T) for t in (q, k, v)]")
            if einsum_form:
                w.line('    att = einsum("bhtd,bhsd->bhts", q, k) * self.scale')
            else:
                w.line("    att = (q @ k.transpose(-2, -1)) * self.scale")
            w.line("    if self.causal:")
            w.line("        mask = tril(ones((T, T)))")
            w.line('        att = masked_fill(att, mask == 0, float("-inf"))')
            w.line("    att = softmax(att, axis=-1)")
            if drop:
                w.line("    att = self.attn_drop(att)")
            w.line("    y = att @ v")
            w.line("    y = reshape(transpose(y, (0, 2, 1, 3)), (B, T, C))")
            w.line("    return self.proj(y)")
        ci = self.add_class(w, name, "seq")
        d = rng.choice(DIMS)
        self.smoke_run(w, "attn", self.make(w, ci, d), self.seq(d), (BATCH, SEQ, d))

    def bl_transformer(self, w):
        rng = self.rng
        norm, attn, ffn = self.need(w, "norm"), self.need(w, "seq"), self.need(w, "ffn")
        name = w.fresh_name(rng.choice(["TransformerBlock", "EncoderLayer", "Block"]))
        n, a, f = w.ref(norm), w.ref(attn), w.ref(ffn)
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""A pre-norm transformer layer: attention, then the MLP, each residual."""')
            w.line("")
            w.line("def __init__(self, cfg):")
            w.line("    super().__init__()")
            w.line(f"    self.ln_1 = {n}(cfg.d_model)")
            w.line(f"    self.attn = {a}(cfg)")
            w.line(f"    self.ln_2 = {n}(cfg.d_model)")
            w.line(f"    self.mlp = {f}(cfg.d_model, cfg.hidden, cfg.bias, cfg.dropout)")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    x = x + self.attn(self.ln_1(x))")
            w.line("    x = x + self.mlp(self.ln_2(x))")
            w.line("    return x")
        ci = self.add_class(w, name, "seq")
        d = rng.choice(DIMS)
        self.smoke_run(w, "blk", self.make(w, ci, d), self.seq(d), (BATCH, SEQ, d))

    def bl_gru(self, w):
        rng = self.rng
        proj = self.need(w, "proj")
        name = w.fresh_name(rng.choice(["GRULayer", "RecurrentMixer"]))
        p = w.ref(proj)
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""A GRU over time: (B, T, dim) -> (B, T, dim), one step per position."""')
            w.line("")
            w.line("def __init__(self, dim):")
            w.line("    super().__init__()")
            w.line("    self.dim = dim")
            w.line(f"    self.update = {p}(2 * dim, dim)")
            w.line(f"    self.reset = {p}(2 * dim, dim)")
            w.line(f"    self.cand = {p}(2 * dim, dim)")
            w.line("")
            w.line("def step(self, x, h):")
            w.line("    xh = concat((x, h), axis=-1)")
            w.line("    z = sigmoid(self.update(xh))")
            w.line("    r = sigmoid(self.reset(xh))")
            w.line("    c = tanh(self.cand(concat((x, r * h), axis=-1)))")
            w.line("    return (1.0 - z) * h + z * c")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    h = zeros((x.shape[0], self.dim))")
            w.line("    outs = []")
            w.line("    for t in range(x.shape[1]):")
            w.line("        h = self.step(x[:, t], h)")
            w.line("        outs.append(h)")
            w.line("    return stack(outs, axis=1)")
        self.add_class(w, name, "rnn")
        d = rng.choice(DIMS)
        self.smoke_run(w, "rnn", f"{name}({d})", self.seq(d), (BATCH, SEQ, d))

    def bl_pool(self, w):
        rng = self.rng
        proj = self.need(w, "proj")
        name = w.fresh_name(rng.choice(["AttentionPool", "MeanPool"]))
        w.line(f"class {name}(Module):")
        with w.em.block():
            if name.startswith("AttentionPool"):
                w.line('"""Pools (B, T, dim) to (B, dim) with learnt attention weights."""')
                w.line("")
                w.line("def __init__(self, dim):")
                w.line("    super().__init__()")
                w.line(f"    self.score = {w.ref(proj)}(dim, 1)")
                w.line("")
                w.line("def forward(self, x):")
                w.line("    weights = softmax(self.score(x), axis=1)")
                w.line("    return reduce_sum(weights * x, axis=1)")
            else:
                w.line('"""Pools (B, T, dim) to (B, dim): the mean over time, or the max."""')
                w.line("")
                w.line("def __init__(self, dim, use_max=False):")
                w.line("    super().__init__()")
                w.line("    self.dim = dim")
                w.line("    self.use_max = use_max")
                w.line("")
                w.line("def forward(self, x):")
                w.line("    if self.use_max:")
                w.line("        return max(x, axis=1)")
                w.line("    return mean(x, axis=1)")
        self.add_class(w, name, "pool")
        d = rng.choice(DIMS)
        self.smoke_run(w, "pool", f"{name}({d})", self.seq(d), (BATCH, d))

    def bl_head(self, w):
        rng = self.rng
        norm, proj = self.need(w, "norm"), self.need(w, "proj")
        name = w.fresh_name(rng.choice(["ClassifierHead", "LogitHead"]))
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""Normalise, project to the classes and return log-probabilities."""')
            w.line("")
            w.line("def __init__(self, dim, n_classes):")
            w.line("    super().__init__()")
            w.line(f"    self.norm = {w.ref(norm)}(dim)")
            w.line(f"    self.out = {w.ref(proj)}(dim, n_classes)")
            w.line("    self.n_classes = n_classes")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    return log_softmax(self.out(self.norm(x)), axis=-1)")
            w.line("")
            w.line("def predict(self, x):")
            w.line("    return argmax(self(x), axis=-1)")
        self.add_class(w, name, "head")
        d = rng.choice(DIMS)
        self.smoke_run(w, "head", f"{name}({d}, {N_CLASSES})", self.vec(d), (BATCH, N_CLASSES))
        w.smoke.append(f"assert head.predict({self.vec(d)}).shape == ({BATCH},)")

    def bl_pipeline(self, w):
        rng = self.rng
        proj, act = self.need(w, "proj"), self.need(w, "act")
        norm = self.need(w, "norm")
        name = w.fresh_name(rng.choice(["Projector", "Adapter", "Bottleneck"]))
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""A fixed pipeline of layers held in a tuple: d_in -> d_out."""')
            w.line("")
            w.line("def __init__(self, d_in, d_out):")
            w.line("    super().__init__()")
            w.line(f"    hidden = max(d_in, d_out)")
            w.line("    self.layers = (")
            w.line(f"        {w.ref(norm)}(d_in),")
            w.line(f"        {w.ref(proj)}(d_in, hidden),")
            w.line(f"        {w.ref(act)}(),")
            w.line(f"        {w.ref(proj)}(hidden, d_out),")
            w.line("    )")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    for layer in self.layers:")
            w.line("        x = layer(x)")
            w.line("    return x")
        self.add_class(w, name, "map")
        d1, d2 = rng.choice(DIMS), rng.choice(DIMS)
        self.smoke_run(w, "pipe", f"{name}({d1}, {d2})", self.vec(d1), (BATCH, d2))

    def bl_deep(self, w):
        rng = self.rng
        same = self.pick("same", w) or self.need(w, "ffn")
        norm = self.need(w, "norm")
        name = w.fresh_name(rng.choice(["ResidualStack", "DeepMLP"]))
        inner = self.make(w, same, "dim", hidden="2 * dim") if same.role == "ffn" \
            else f"{w.ref(same)}(dim)"
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""depth blocks of the same width in a list, applied in order."""')
            w.line("")
            w.line("def __init__(self, dim, depth=2):")
            w.line("    super().__init__()")
            w.line(f"    self.blocks = [{inner} for _ in range(depth)]")
            w.line(f"    self.norm = {w.ref(norm)}(dim)")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    for block in self.blocks:")
            w.line("        x = x + block(x)" if same.role == "ffn" else "        x = block(x)")
            w.line("    return self.norm(x)")
            w.line("")
            w.line("@property")
            w.line("def depth(self):")
            w.line("    return len(self.blocks)")
        self.add_class(w, name, "same")
        d = rng.choice(DIMS)
        self.smoke_run(w, "deep", f"{name}({d}, depth={rng.randint(1, 3)})", self.seq(d),
                       (BATCH, SEQ, d))
        w.smoke.append("total = total + deep.depth")

    # ================= models modules =================
    MODEL_KINDS = [(10, "md_classifier"), (6, "md_regressor"), (4, "md_trainer")]

    def write_models(self, info):
        def item(w):
            if not any(c.role == "classifier" for c in w.classes_here):
                return self.md_classifier(w)
            return getattr(self, self.weighted(self.MODEL_KINDS))(w)
        self.module(info, "Models: encoders, classifiers, regressors and their bookkeeping.",
                    item)

    def md_encoder(self, w):
        """An encoder class (ids -> (B, T, d)), written before a classifier."""
        rng = self.rng
        emb, norm = self.need(w, "embed"), self.need(w, "norm")
        block = rng.choice(self.pool("seq", w) + self.pool("rnn", w, recent=3)
                           + self.pool("same", w, recent=3))
        name = w.fresh_name(rng.choice(["Encoder", "TextEncoder", "SequenceEncoder"]))
        e = w.ref(emb)
        ctor = f"{w.ref(block)}(cfg)" if block.role == "seq" else f"{w.ref(block)}(cfg.d_model)"
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""Token and position embeddings, cfg.n_layer blocks, a final norm."""')
            w.line("")
            w.line("def __init__(self, cfg):")
            w.line("    super().__init__()")
            w.line(f"    self.tok = {e}(cfg.vocab_size, cfg.d_model)")
            w.line(f"    self.pos = {e}(cfg.max_len, cfg.d_model)")
            w.line(f"    self.blocks = [{ctor} for _ in range(cfg.n_layer)]")
            w.line(f"    self.norm = {w.ref(norm)}(cfg.d_model) if cfg.bias else None")
            w.line("    self.max_len = cfg.max_len")
            w.line("")
            w.line("def forward(self, ids):")
            w.line("    B, T = ids.shape")
            w.line('    assert T <= self.max_len, "sequence longer than the position table"')
            w.line("    pos = expand_dims(arange(T), 0)")
            w.line("    x = self.tok(ids) + self.pos(pos)")
            w.line("    for block in self.blocks:")
            w.line("        x = block(x)")
            w.line("    if self.norm is not None:")
            w.line("        x = self.norm(x)")
            w.line("    return x")
        w.blank2()
        return self.add_class(w, name, "encoder")

    def md_classifier(self, w):
        rng = self.rng
        enc = self.md_encoder(w)
        pool, head = self.need(w, "pool"), self.need(w, "head")
        cfg = self.need(w, "config")
        name = w.fresh_name(rng.choice(["TextClassifier", "SequenceClassifier", "Tagger"]))
        d = rng.choice(DIMS[1:])
        heads = [h for h in HEADS if d % h == 0]
        call = w.util_call()
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""Encode token ids, pool over time, classify."""')
            w.line(f"WIDTH = {d}")
            w.line("")
            w.line("def __init__(self, vocab_size, n_classes, n_layer=1):")
            w.line("    super().__init__()")
            w.line(f"    cfg = {w.ref(cfg)}(vocab_size=vocab_size, d_model=self.WIDTH, "
                   f"n_head={rng.choice(heads)}, n_layer=n_layer)")
            w.line("    self.cfg = cfg")
            w.line(f"    self.encoder = {w.ref(enc)}(cfg)")
            w.line(f"    self.pool = {w.ref(pool)}(cfg.d_model)")
            w.line(f"    self.head = {w.ref(head)}(cfg.d_model, n_classes)")
            if call:
                w.line(f"    self.tag = {call}")
            w.line("")
            w.line("def forward(self, ids):")
            w.line("    return self.head(self.pool(self.encoder(ids)))")
            w.line("")
            w.line("def loss(self, ids, targets):")
            w.line("    logp = self(ids)")
            w.line("    picked = reduce_sum(one_hot(targets, logp.shape[-1]) * logp, axis=-1)")
            w.line("    return -mean(picked)")
            w.line("")
            w.line("@property")
            w.line("def n_params(self):")
            w.line("    return self.cfg.n_params")
        self.add_class(w, name, "classifier")
        self.smoke_run(w, "model", f"{name}({VOCAB}, {N_CLASSES}, n_layer={rng.randint(1, 2)})",
                       self.ids(), (BATCH, N_CLASSES))
        w.smoke.append(f"total = total + float(model.loss({self.ids()}, arange({BATCH}) % {N_CLASSES}))")
        w.smoke.append("total = total + model.n_params % 1000")

    def md_regressor(self, w):
        rng = self.rng
        maps = self.pool("map", w) + self.pool("proj", w, recent=4)
        same = self.pool("same", w, recent=6) + self.pool("ffn", w, recent=4)
        name = w.fresh_name(rng.choice(["MLPRegressor", "FeatureNet", "Scorer"]))
        s = rng.choice(same)
        inner = self.make(w, s, "width", hidden="2 * width") if s.role == "ffn" \
            else f"{w.ref(s)}(width)"
        w.line(f"class {name}(Module):")
        with w.em.block():
            w.line('"""(B, d_in) features to (B, n_out) scores through residual blocks."""')
            w.line("")
            w.line("def __init__(self, d_in, n_out, width=16, depth=2):")
            w.line("    super().__init__()")
            w.line(f"    self.inp = {self.make(w, rng.choice(maps), 'd_in', 'width')}")
            w.line(f"    self.blocks = [{inner} for _ in range(depth)]")
            w.line(f"    self.out = {self.make(w, rng.choice(maps), 'width', 'n_out')}")
            w.line("")
            w.line("def features(self, x):")
            w.line("    h = self.inp(x)")
            w.line("    for block in self.blocks:")
            w.line("        h = block(h)")
            w.line("    return h")
            w.line("")
            w.line("def forward(self, x):")
            w.line("    return self.out(self.features(x))")
        self.add_class(w, name, "regressor")
        d = rng.choice(DIMS)
        width = rng.choice(DIMS)
        self.smoke_run(w, "reg", f"{name}({d}, {rng.randint(1, 4)}, width={width})",
                       self.vec(d), "y.shape")
        w.smoke[-2] = f"assert y.shape[0] == {BATCH}"

    def md_trainer(self, w):
        rng = self.rng
        sched = self.need(w, "sched")
        geom = self.pick("geom", w)
        name = w.fresh_name(rng.choice(["TrainPlan", "RunConfig"]))
        call = w.util_call()
        w.line(f"class {name}:")
        with w.em.block():
            w.line('"""Bookkeeping of a training run: steps, learning rates, logging."""')
            w.line("LOG_EVERY = 10")
            w.line("")
            w.line("def __init__(self, steps, warmup=4, base_lr=0.001):")
            w.line(f"    self.schedule = {w.ref(sched)}(base_lr, warmup, steps + warmup + 1)")
            w.line("    self.steps = steps")
            if geom:
                w.line(f"    self.geometry = {w.ref(geom)}(32)")
            w.line(f"    self.seed = {call if call else '7'}")
            w.line("")
            w.line("def lr_at(self, step):")
            w.line("    return self.schedule.lr(step)")
            w.line("")
            w.line("def log_steps(self):")
            w.line("    return tuple(s for s in range(0, self.steps, self.LOG_EVERY))")
            w.line("")
            w.line("def total_lr(self):")
            w.line("    acc = 0.0")
            w.line("    for s in range(self.steps):")
            w.line("        acc = acc + self.lr_at(s)")
            w.line("    return acc")
        self.add_class(w, name, "trainer")
        w.smoke.append(f"plan = {name}({rng.randint(5, 40)})")
        w.smoke.append("total = total + plan.total_lr() + len(plan.log_steps()) + plan.seed")

    # ================= main.py =================
    def write_main(self):
        em = Emitter()
        em.line('"""Entry point: build the top model of netlib (an ensemble of classifiers')
        em.line("from several model modules), run it on a batch of token ids, then run every")
        em.line("module's smoke test and print a checksum.")
        em.line("")
        em.line(f"Generated by bench/gen.py --kind classes --modules {self.nmodules} "
                f"--seed {self.seed}: do not edit.")
        em.line('"""')
        em.line("from fathom import *")
        em.line("")
        members = [c for c in self.classes if c.role == "classifier"][-4:]
        for i, m in enumerate(self.mods):
            em.line(f"import {m.dotted} as m{i}")
        froms = {}
        for c in members:
            froms.setdefault(c.mod.dotted, []).append(c.name)
        for dotted in sorted(froms):
            em.line(f"from {dotted} import {', '.join(froms[dotted])}")
        em.line("")
        em.line("")
        em.line("class Ensemble(Module):")
        with em.block():
            em.line('"""The top model: classifiers from several modules, log-probabilities averaged."""')
            em.line("")
            em.line("def __init__(self, vocab_size, n_classes):")
            em.line("    super().__init__()")
            em.line("    self.members = (")
            for c in members:
                em.line(f"        {c.name}(vocab_size, n_classes),")
            em.line("    )")
            em.line("")
            em.line("def forward(self, ids):")
            em.line("    total = self.members[0](ids)")
            em.line("    for member in self.members[1:]:")
            em.line("        total = total + member(ids)")
            em.line("    return total / len(self.members)")
        em.line("")
        em.line("")
        em.line("def run_smoke_tests():")
        with em.block():
            em.line('"""Every module\'s smoke test; the sum of their checksums."""')
            em.line("total = 0.0")
            for i, _ in enumerate(self.mods):
                em.line(f"total = total + m{i}.smoke_test()")
            em.line("return total")
        em.line("")
        em.line("")
        em.line('if __name__ == "__main__":')
        with em.block():
            em.line(f"model = Ensemble({VOCAB}, {N_CLASSES})")
            em.line(f"ids = {self.ids()}")
            em.line("logp = model(ids)")
            em.line(f"assert logp.shape == ({BATCH}, {N_CLASSES})")
            em.line("checksum = float(mean(logp)) + run_smoke_tests()")
            em.line(f'print("netlib ok", {len(self.mods)}, "modules")')
        return em.text()
