"""Planted bugs: the squeeze-and-excitation path pools over axes (2, 3, 4) of a 4-d tensor; only resnet50 runs, so that path is a branch its constant se_block=False prunes, found by analysing it as if se_block were true; and construct reads self.downsample_layer (a typo of down_sample_layer).

ResNet-50 and SE-ResNet-50 of MindSpore's model zoo
(mindspore-ai/models official/cv/ResNet/src/resnet.py) as a package in
their original Cell form: layers.py (the nn cells and the _conv3x3 /
_conv1x1 / _conv7x7 / _bn / _bn_last / _fc helpers), resnet.py (the
bottleneck ResidualBlock with its `use_se` / `se_block` flags, the
optional down-sample layer and the squeeze-and-excitation path; ResNet
with its use_se stem, res_base padding and _make_layer; resnet50 and
se_resnet50) and __main__.py (both networks on a random batch, as
eval.py's model.eval does).  `python -m mindspore_resnet` (from
tests/models) runs it; `fathom check tests/models/mindspore_resnet`
checks it as one program.

Changed: nn.Cell is fathom.Module (its call runs `construct`); the cells
are small classes over conv2d / max_pool2d / linear; pad_mode='same' is
the padding that gives ceil(H / stride) on these even sizes;
BatchNorm2d uses its moving statistics (eval mode); P.ReduceMean is
mean; the weight initialisers are random_normal; channels are divided
by 16 and images are 32x32 so the package runs fast.
"""
