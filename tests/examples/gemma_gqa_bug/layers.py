"""Base layers: Einsum, RMSNorm and the rotary positional embedding."""
from fathom import *


class Einsum(Module):
    """Einsum is a convenience module for parameterized tensor multiplication."""

    def __init__(self, shape):
        super().__init__()
        self.shape = shape
        self.w = random_normal(shape) * 0.1

    def forward(self, eqn, x):
        return einsum(eqn, x, self.w)


class RMSNorm(Module):
    """RMSNorm layer, its weight stored as an offset from one."""

    def __init__(self, features):
        super().__init__()
        self.scale = zeros((features,))

    def forward(self, x):
        var = mean(x * x, axis=-1, keepdims=True)
        normed_inputs = x * (1.0 / sqrt(var + 1e-06))
        # normed_inputs * (1 + scale): the scale is zero-initialised
        scale = expand_dims(self.scale, tuple(range(x.ndim - 1)))
        return normed_inputs * (1 + scale)


def apply_rope(inputs, positions, max_wavelength=10_000):
    """Applies RoPE to inputs (B, L, N, H) at positions (B, L)."""
    head_dim = inputs.shape[-1]
    fraction = 2 * arange(head_dim // 2) / head_dim
    timescale = max_wavelength ** fraction

    sinusoid_inp = cast(positions, f32)[..., None] / timescale[None, None, :]
    sinusoid_inp = sinusoid_inp[..., None, :]
    sin_part = sin(sinusoid_inp)
    cos_part = cos(sinusoid_inp)

    first_half, second_half = split(inputs, 2, axis=-1)
    first_part = first_half * cos_part - second_half * sin_part
    second_part = second_half * cos_part + first_half * sin_part
    return concat([first_part, second_part], axis=-1)
