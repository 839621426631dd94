# args: --path lib app/main.py
# mathx lives in lib/, a root only because of --path.
from mathx import cube


def main():
    c = cube(3)  # expect-type: i64=27
    return c
