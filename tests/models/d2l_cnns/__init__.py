"""Four networks of d2l.ai's "Modern Convolutional Neural Networks"
chapter (PyTorch edition) as a package in their original class form:
layers.py (the torch.nn layers they are built from, with nn.Sequential
over a tuple of modules), nin.py (nin_block and NiN), vgg.py (vgg_block
and VGG built from an `arch` tuple), googlenet.py (the Inception block
with its four parallel paths concatenated on the channels, and a small
GoogLeNet b1..b3), densenet.py (conv_block, DenseBlock that concatenates
each block's output onto its input, transition_block) and __main__.py
(each network on a random batch, as d2l's `model.layer_summary` does).
`python -m d2l_cnns` (from tests/models) runs it; `fathom check
tests/models/d2l_cnns` checks it as one program.

Changed: nn.Module is fathom.Module; d2l.Classifier is Module; the Lazy*
layers take their input channels as a first argument (a lazy layer
creates its weights at the first call, after construction, which the
DSL's immutable instances do not allow); BatchNorm2d runs with its
running statistics (eval mode); widths and images are small so the
package runs fast.
"""
