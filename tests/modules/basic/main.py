# Every absolute import form of language.md 9 over the program's own files.
import layers
import pkg.util
import pkg.util as u
from layers import dense, WIDTH as W
from pkg import util, VERSION
from pkg.util import inc
from fathom import *


def main():
    x = zeros((4, W))
    y = layers.dense(x, zeros((8, 16)))  # expect-type: Tensor[f32, (4, 16)]
    z = dense(x, zeros((8, 16)))  # expect-type: Tensor[f32, (4, 16)]
    a = layers.scaled(2)  # expect-type: f64=5.0
    b = pkg.util.inc(1) + u.inc(2) + util.inc(3) + inc(4)  # expect-type: i64=14
    c = u.twice(inc, VERSION)  # expect-type: i64=5
    d = layers.WIDTH * pkg.VERSION  # expect-type: i64=24
    return b + c + d


if __name__ == "__main__":
    print(main())
