"""The image transformation network of pytorch/examples
fast_neural_style/neural_style/transformer_net.py as a package in its
original class form: layers.py (ConvLayer with reflection padding,
InstanceNorm2d with affine parameters, ResidualBlock, UpsampleConvLayer
with its optional `upsample` factor) and transformer_net.py
(TransformerNet: three convolutions, five residual blocks, two upsampling
convolutions), and __main__.py (stylise a random image batch, as
neural_style.py's stylize does with a loaded model).  `python -m
fast_neural_style` (from tests/models) runs it; `fathom check
tests/models/fast_neural_style` checks it as one program.

Changed: nn.Module is fathom.Module; nn.Conv2d, nn.InstanceNorm2d,
nn.ReflectionPad2d and nn.ReLU are small classes here (ReflectionPad2d is
two concats of reversed slices); interpolate(mode='nearest') is
repeat_interleave on both spatial axes; the channel widths (32, 64, 128)
are divided by 8 and the image is 16x16 so the package runs fast.
"""
