# args: --format json
# A program of two files: functions of the imported module are named by
# module (program_pkg.layers.dense) in infer's JSON, as in text.
from program_pkg.layers import double
from program_pkg import layers


def main():
    return double(3) + layers.dense(1.5, 2)
