# A package whose folder sorts before main.py: `fathom check DIR` reads
# this file as a root first, and `from app import model` in main.py must
# still find the submodule (it was "cannot import name 'model'").
SCALE = 2
