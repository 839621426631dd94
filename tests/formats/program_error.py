# A program of two files: the error lies in the imported module (its file
# is program_pkg/layers.py in json and sarif), the call chain note here.
from program_pkg.layers import dense


def main():
    return dense("a", 2.5)
