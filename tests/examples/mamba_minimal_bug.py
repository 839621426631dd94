# expect-error at line 196: shape-mismatch
# expect-error at line 196: index-out-of-range
# Planted bug: the scan reads C[:, :, i] (a slice over time) instead of C[:, i, :] (step i's n-vector), so einsum's n disagrees and i runs past C's last axis.
"""Mamba (selective state space model), translated from
johnma2006/mamba-minimal model.py in its original class form: the
ModelArgs dataclass with __post_init__ (d_inner, dt_rank='auto', the
padded vocabulary), Mamba with its list of ResidualBlocks and the tied
lm_head, MambaBlock (in_proj, the depthwise causal conv1d, x_proj into
delta / B / C, dt_proj, A_log and D) and its sequential selective_scan
loop, and RMSNorm; the `__main__` block runs a forward pass.

Changed: nn.Module is fathom.Module; nn.Linear / nn.Embedding are small
classes; the depthwise nn.Conv1d (groups = channels, padding d_conv - 1)
is written out as a sum over its kernel taps; einops' rearrange is
transpose and its einsum is fathom's einsum with one-letter subscripts
(b l d n); `split(split_size=[...])` is split at the cumulative indices;
`repeat(arange(1, n + 1), 'n -> d n')` is broadcast_to; torch.rsqrt is
1 / sqrt; from_pretrained (which loads weights from the hub) is left out.
Sizes are tiny so the file runs fast.
"""
import math
from dataclasses import dataclass

from fathom import *


@dataclass
class ModelArgs:
    d_model: int
    n_layer: int
    vocab_size: int
    d_state: int = 16
    expand: int = 2
    dt_rank: int = 'auto'
    d_conv: int = 4
    pad_vocab_size_multiple: int = 8
    conv_bias: bool = True
    bias: bool = False

    def __post_init__(self):
        self.d_inner = int(self.expand * self.d_model)

        if self.dt_rank == 'auto':
            self.dt_rank = math.ceil(self.d_model / 16)

        if self.vocab_size % self.pad_vocab_size_multiple != 0:
            self.vocab_size += (self.pad_vocab_size_multiple
                                - self.vocab_size % self.pad_vocab_size_multiple)


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.1
        self.bias = zeros((out_features,)) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class DepthwiseConv1d(Module):
    """nn.Conv1d(d, d, kernel_size, groups=d, padding=kernel_size - 1)"""

    def __init__(self, channels, kernel_size, bias=True):
        super().__init__()
        self.kernel_size = kernel_size
        self.weight = random_normal((channels, kernel_size)) * 0.1
        self.bias = zeros((channels,)) if bias else None

    def forward(self, x):
        # x: (b, d, l) -> (b, d, l + kernel_size - 1)
        k = self.kernel_size
        x = pad(x, ((0, 0), (0, 0), (k - 1, k - 1)))
        out_len = x.shape[2] - k + 1
        out = zeros((x.shape[0], x.shape[1], out_len))
        for j in range(k):
            out = out + x[:, :, j:j + out_len] * reshape(self.weight[:, j], (1, -1, 1))
        if self.bias is not None:
            out = out + reshape(self.bias, (1, -1, 1))
        return out


class Mamba(Module):
    def __init__(self, args: ModelArgs):
        """Full Mamba model."""
        super().__init__()
        self.args = args

        self.embedding = random_normal((args.vocab_size, args.d_model)) * 0.1
        self.layers = [ResidualBlock(args) for _ in range(args.n_layer)]
        self.norm_f = RMSNorm(args.d_model)

        # Tie output projection to embedding weights.
        self.lm_head = self.embedding

    def forward(self, input_ids):
        """input_ids: (b, l) -> logits: (b, l, vocab_size)"""
        x = embedding(self.embedding, input_ids)

        for layer in self.layers:
            x = layer(x)

        x = self.norm_f(x)
        logits = linear(x, self.lm_head)

        return logits


class ResidualBlock(Module):
    def __init__(self, args: ModelArgs):
        """Simple block wrapping Mamba block with normalization and residual connection."""
        super().__init__()
        self.args = args
        self.mixer = MambaBlock(args)
        self.norm = RMSNorm(args.d_model)

    def forward(self, x):
        output = self.mixer(self.norm(x)) + x
        return output


class MambaBlock(Module):
    def __init__(self, args: ModelArgs):
        """A single Mamba block, as described in Figure 3 in Section 3.4 in the Mamba paper [1]."""
        super().__init__()
        self.args = args

        self.in_proj = Linear(args.d_model, args.d_inner * 2, bias=args.bias)

        self.conv1d = DepthwiseConv1d(args.d_inner, kernel_size=args.d_conv, bias=args.conv_bias)

        # x_proj takes in `x` and outputs the input-specific delta, B, C
        self.x_proj = Linear(args.d_inner, args.dt_rank + args.d_state * 2, bias=False)

        # dt_proj projects delta from dt_rank to d_in
        self.dt_proj = Linear(args.dt_rank, args.d_inner, bias=True)

        A = broadcast_to(cast(arange(1, args.d_state + 1), f32), (args.d_inner, args.d_state))
        self.A_log = log(A)
        self.D = ones((args.d_inner,))
        self.out_proj = Linear(args.d_inner, args.d_model, bias=args.bias)

    def forward(self, x):
        """x: (b, l, d) -> output: (b, l, d)"""
        (b, l, d) = x.shape

        x_and_res = self.in_proj(x)  # shape (b, l, 2 * d_in)
        (x, res) = split(x_and_res, (self.args.d_inner,), axis=-1)

        x = transpose(x, (0, 2, 1))  # 'b l d_in -> b d_in l'
        x = self.conv1d(x)[:, :, :l]
        x = transpose(x, (0, 2, 1))  # 'b d_in l -> b l d_in'

        x = silu(x)

        y = self.ssm(x)

        y = y * silu(res)

        output = self.out_proj(y)

        return output

    def ssm(self, x):
        """Runs the SSM. See Algorithm 2 in Section 3.2 in the Mamba paper [1]."""
        (d_in, n) = self.A_log.shape

        # Compute delta A B C D, the state space parameters.
        A = -exp(cast(self.A_log, f32))  # shape (d_in, n)
        D = cast(self.D, f32)

        x_dbl = self.x_proj(x)  # (b, l, dt_rank + 2*n)

        dt_rank = self.args.dt_rank
        (delta, B, C) = split(x_dbl, (dt_rank, dt_rank + n), axis=-1)  # delta: (b, l, dt_rank). B, C: (b, l, n)
        delta = softplus(self.dt_proj(delta))  # (b, l, d_in)

        y = self.selective_scan(x, delta, A, B, C, D)

        return y

    def selective_scan(self, u, delta, A, B, C, D):
        """The classic discrete state space formula, with input-dependent B, C and delta."""
        (b, l, d_in) = u.shape
        n = A.shape[1]

        # Discretize continuous parameters (A, B)
        deltaA = exp(einsum('bld,dn->bldn', delta, A))
        deltaB_u = einsum('bld,bln,bld->bldn', delta, B, u)

        # Perform selective scan (see scan_SSM() in The Annotated S4 [2])
        x = zeros((b, d_in, n))
        ys = []
        for i in range(l):
            x = deltaA[:, i] * x + deltaB_u[:, i]
            y = einsum('bdn,bn->bd', x, C[:, :, i])
            ys.append(y)
        y = stack(ys, axis=1)  # shape (b, l, d_in)

        y = y + u * D

        return y


class RMSNorm(Module):
    def __init__(self, d_model, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = ones((d_model,))

    def forward(self, x):
        output = x * (1.0 / sqrt(mean(x ** 2, axis=-1, keepdims=True) + self.eps)) * self.weight
        return output


if __name__ == "__main__":
    args = ModelArgs(d_model=16, n_layer=2, vocab_size=30, d_state=4)
    assert args.vocab_size == 32 and args.dt_rank == 1
    model = Mamba(args)
    input_ids = cast(random_uniform((2, 6)) * 30, i64)
    logits = model(input_ids)
    assert logits.shape == (2, 6, args.vocab_size)
    print("mamba minimal ok", logits.shape)
