"""tests/modules/transformer with a planted bug in layers.py."""
D = 16
FF = 32
VOCAB = 40
PAD = 0
