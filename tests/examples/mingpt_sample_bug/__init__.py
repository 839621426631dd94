"""tests/models/mingpt with a planted bug in model.py (the do_sample branch of GPT.generate).

minGPT as a package of several modules, translated from karpathy/minGPT
(mingpt/model.py: NewGELU, CausalSelfAttention, Block, GPT with
`generate`; mingpt/utils.py's CfgNode config), in its original class
form.  `python -m mingpt` (run from tests/models, python/ on the path)
runs __main__.py; `fathom check tests/models/mingpt` checks the package
as one program.

Changed: nn.Module is fathom.Module; nn.Linear, nn.Embedding, nn.LayerNorm
and nn.Dropout are small classes in layers.py; the CfgNode config is a
dataclass (config.py); nn.ModuleDict / nn.ModuleList are plain attributes
and a list of blocks; torch.multinomial samples with the Gumbel-max trick;
F.cross_entropy is log_softmax + one_hot; v[:, [-1]] is v[:, -1:].  Sizes
are tiny so the package runs fast.
"""
