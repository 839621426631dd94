"""tests/models/makemore with two planted bugs: models.py (GRUCell.forward)
and __main__.py (generate's sampling branch, which no call takes).

makemore's non-transformer language models (karpathy/makemore), as a
package: config.py, layers.py, models.py and a __main__ driver."""
