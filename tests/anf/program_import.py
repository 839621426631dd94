# The ANF of a program of two files: one module graph, program_pkg.layers'
# functions named by module, the imported names bound to their graphs.
from program_pkg.layers import double
from program_pkg import layers


def main():
    return double(3) + layers.dense(1, 2)
