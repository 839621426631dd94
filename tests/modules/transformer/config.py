"""tests/models/transformer_encoder.py split into a package of three
modules, as real projects are written: config.py (sizes), layers.py (the
encoder layer), model.py (the model and its __main__ entry)."""
D = 16
FF = 32
VOCAB = 40
PAD = 0
