"""tests/models/makemore with a planted bug in models.py (MLP.__init__).

makemore's non-transformer language models (karpathy/makemore), as a
package: config.py, layers.py, models.py and a __main__ driver."""
