# The same program as program_names.py, in the text form.
from program_pkg.layers import double
from program_pkg import layers


def main():
    return double(3) + layers.dense(1.5, 2)
