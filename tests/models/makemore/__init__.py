"""makemore's non-transformer language models (karpathy/makemore), as a
package: config.py, layers.py, models.py and a __main__ driver."""
