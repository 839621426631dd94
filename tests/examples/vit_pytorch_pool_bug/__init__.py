"""tests/models/vit_pytorch with a planted bug in the pruned pool='mean' branch.

The Vision Transformer of lucidrains/vit-pytorch (vit_pytorch/vit.py:
pair, FeedForward, Attention with `project_out`, Transformer, ViT with the
patch embedding and the `pool` choice) as a package in its original class
form: layers.py holds the torch.nn modules it uses, vit.py the model, and
__main__.py classifies a batch of random images.  `python -m vit_pytorch`
(from tests/models) runs it; `fathom check tests/models/vit_pytorch` checks
it as one program.

Changed: nn.Module is fathom.Module; nn.Linear, nn.LayerNorm, nn.GELU,
nn.Dropout, nn.Identity, nn.Sequential and einops' Rearrange layer are
small classes in layers.py; rearrange and repeat are reshape, transpose
and broadcast_to; `map(lambda t: ..., qkv)` is a tuple comprehension; each
layer of the Transformer is a tuple (Attention, FeedForward) instead of an
nn.ModuleList (a list's items have one type, DSL rule).  Sizes are tiny
so the package runs fast.
"""
