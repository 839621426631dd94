# expect-error at line 140: shape-mismatch
# expect-error at line 157: shape-mismatch
# Planted bug: the causal cut slices the channel axis instead of time (x[:, :T] for x[:, :, :T]), so the padded convolution's output keeps its future steps and is longer than the residual; the conditioned model meets the longer halves first, at the local conditioning's add.
"""WaveNet, translated from r9y9/wavenet_vocoder wavenet_vocoder/modules.py
and wavenet_vocoder/wavenet.py: the weight-normalised Conv1d and
Conv1d1x1 factories, the speaker Embedding, ResidualConv1dGLU (dropout,
the dilated causal convolution cut back to the input's length, the gated
tanh * sigmoid unit over the two halves of the channels, local and global
conditioning through 1x1 convolutions, the skip and residual 1x1
convolutions, the sqrt(0.5) residual scaling), _expand_global_features,
receptive_field_size, and WaveNet's batch forward (first 1x1 conv, the
stack of dilation cycles summing the skips, the ReLU / 1x1 conv head and
the optional softmax over the channels).

Changed: nn.Module is fathom.Module; nn.Conv1d is conv2d on a (B, C, 1, T)
view with a (O, C, 1, K) kernel, padding (0, p) and dilation (1, d), and
weight_norm computes g * v / ||v|| in forward; nn.ModuleList is a list and
nn.ReLU a small class; the incremental (buffered, one-step) forward and
the upsampling network are left out (upsample_conditional_features is
False); x.size() and x.dim() are x.shape and x.ndim, and g.expand is
broadcast_to; torch.nn.functional is `import fathom as F` (forward's
`softmax` flag shadows the op's name); the main block runs a tiny model (6 layers in 2 stacks,
16 channels, 64 time steps) on one-hot mu-law frames, with and without
local and global conditioning.
"""
import math

import fathom as F
from fathom import *


class Conv1dWN(Module):
    """nn.utils.weight_norm(conv.Conv1d(...)): w = g * v / ||v|| per output channel."""

    def __init__(self, in_channels, out_channels, kernel_size, padding=0, dilation=1,
                 bias=True, dropout=0, std_mul=4.0):
        super().__init__()
        self.kernel_size = (kernel_size,)
        self.padding = padding
        self.dilation = dilation
        std = math.sqrt((std_mul * (1.0 - dropout)) / (kernel_size * in_channels))
        v = random_normal((out_channels, in_channels, kernel_size)) * std
        self.weight_v = v
        self.weight_g = sqrt(reduce_sum(v ** 2, axis=(1, 2), keepdims=True))
        self.bias = zeros((out_channels,)) if bias else None

    def forward(self, x):
        w = self.weight_g * self.weight_v / sqrt(reduce_sum(self.weight_v ** 2, axis=(1, 2), keepdims=True))
        y = conv2d(expand_dims(x, 2), expand_dims(w, 2), padding=(0, self.padding),
                   dilation=(1, self.dilation), bias=self.bias)
        return squeeze(y, 2)


def Conv1d(in_channels, out_channels, kernel_size, dropout=0, std_mul=4.0, padding=0,
           dilation=1, bias=True):
    return Conv1dWN(in_channels, out_channels, kernel_size, padding=padding,
                    dilation=dilation, bias=bias, dropout=dropout, std_mul=std_mul)


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim, padding_idx, std=0.01):
        super().__init__()
        self.weight = random_normal((num_embeddings, embedding_dim)) * std

    def forward(self, ids):
        return embedding(self.weight, ids)


class ReLU(Module):
    def forward(self, x):
        return relu(x)


def Conv1d1x1(in_channels, out_channels, bias=True):
    """1-by-1 convolution layer
    """
    return Conv1d(in_channels, out_channels, kernel_size=1, padding=0,
                  dilation=1, bias=bias, std_mul=1.0)


class ResidualConv1dGLU(Module):
    """Residual dilated conv1d + Gated linear unit"""

    def __init__(self, residual_channels, gate_channels, kernel_size,
                 skip_out_channels=None,
                 cin_channels=-1, gin_channels=-1,
                 dropout=1 - 0.95, padding=None, dilation=1, causal=True,
                 bias=True):
        super().__init__()
        self.dropout = dropout
        self.training = True
        if skip_out_channels is None:
            skip_out_channels = residual_channels
        if padding is None:
            # no future time stamps available
            if causal:
                padding = (kernel_size - 1) * dilation
            else:
                padding = (kernel_size - 1) // 2 * dilation
        self.causal = causal

        self.conv = Conv1d(residual_channels, gate_channels, kernel_size,
                           padding=padding, dilation=dilation,
                           bias=bias, std_mul=1.0)

        # local conditioning
        if cin_channels > 0:
            self.conv1x1c = Conv1d1x1(cin_channels, gate_channels, bias=bias)
        else:
            self.conv1x1c = None

        # global conditioning
        if gin_channels > 0:
            self.conv1x1g = Conv1d1x1(gin_channels, gate_channels, bias=bias)
        else:
            self.conv1x1g = None

        # conv output is split into two groups
        gate_out_channels = gate_channels // 2
        self.conv1x1_out = Conv1d1x1(gate_out_channels, residual_channels, bias=bias)
        self.conv1x1_skip = Conv1d1x1(gate_out_channels, skip_out_channels, bias=bias)

    def forward(self, x, c=None, g=None):
        """x: B x C x T; c: B x C x T local conditioning features; g: B x C x T
        expanded global conditioning features."""
        residual = x
        x = dropout(x, self.dropout if self.training else 0.0)
        splitdim = 1
        x = self.conv(x)
        # remove future time steps
        x = x[:, :residual.shape[-1]] if self.causal else x

        a, b = split(x, 2, splitdim)

        # local conditioning
        if c is not None:
            assert self.conv1x1c is not None
            c = self.conv1x1c(c)
            ca, cb = split(c, 2, splitdim)
            a, b = a + ca, b + cb

        # global conditioning
        if g is not None:
            assert self.conv1x1g is not None
            g = self.conv1x1g(g)
            ga, gb = split(g, 2, splitdim)
            a, b = a + ga, b + gb

        x = tanh(a) * sigmoid(b)

        # For skip connection
        s = self.conv1x1_skip(x)

        # For residual connection
        x = self.conv1x1_out(x)

        x = (x + residual) * math.sqrt(0.5)
        return x, s


def _expand_global_features(B, T, g, bct=True):
    """Expand global conditioning features to all time steps: g is (B x C)
    or (B x C x 1); returns B x C x T (bct) or B x T x C, or None."""
    if g is None:
        return None
    g = expand_dims(g, -1) if g.ndim == 2 else g
    if bct:
        g_bct = broadcast_to(g, (B, g.shape[1], T))
        return g_bct
    else:
        g_btc = swapaxes(broadcast_to(g, (B, g.shape[1], T)), 1, 2)
        return g_btc


def receptive_field_size(total_layers, num_cycles, kernel_size,
                         dilation=lambda x: 2**x):
    """Receptive field size in samples."""
    assert total_layers % num_cycles == 0
    layers_per_cycle = total_layers // num_cycles
    dilations = [dilation(i % layers_per_cycle) for i in range(total_layers)]
    return (kernel_size - 1) * sum(dilations) + 1


class WaveNet(Module):
    """The WaveNet model that supports local and global conditioning."""

    def __init__(self, out_channels=256, layers=20, stacks=2,
                 residual_channels=512,
                 gate_channels=512,
                 skip_out_channels=512,
                 kernel_size=3, dropout=1 - 0.95,
                 cin_channels=-1, gin_channels=-1, n_speakers=None,
                 scalar_input=False,
                 use_speaker_embedding=False,
                 ):
        super().__init__()
        self.scalar_input = scalar_input
        self.out_channels = out_channels
        self.cin_channels = cin_channels
        assert layers % stacks == 0
        layers_per_stack = layers // stacks
        if scalar_input:
            self.first_conv = Conv1d1x1(1, residual_channels)
        else:
            self.first_conv = Conv1d1x1(out_channels, residual_channels)

        conv_layers = []
        for layer in range(layers):
            dilation = 2**(layer % layers_per_stack)
            conv = ResidualConv1dGLU(
                residual_channels, gate_channels,
                kernel_size=kernel_size,
                skip_out_channels=skip_out_channels,
                bias=True,  # magenda uses bias, but musyoku doesn't
                dilation=dilation, dropout=dropout,
                cin_channels=cin_channels,
                gin_channels=gin_channels)
            conv_layers.append(conv)
        self.conv_layers = conv_layers
        self.last_conv_layers = [
            ReLU(),
            Conv1d1x1(skip_out_channels, skip_out_channels),
            ReLU(),
            Conv1d1x1(skip_out_channels, out_channels),
        ]

        if gin_channels > 0 and use_speaker_embedding:
            assert n_speakers is not None
            self.embed_speakers = Embedding(
                n_speakers, gin_channels, padding_idx=None, std=0.1)
        else:
            self.embed_speakers = None

        self.receptive_field = receptive_field_size(layers, stacks, kernel_size)

    def has_speaker_embedding(self):
        return self.embed_speakers is not None

    def local_conditioning_enabled(self):
        return self.cin_channels > 0

    def forward(self, x, c=None, g=None, softmax=False):
        """x: one-hot encoded audio signal (B x C x T); c: local conditioning
        features (B x cin_channels x T); g: global conditioning features
        (B x gin_channels x 1) or speaker ids (B x 1). Returns B x
        out_channels x T."""
        B, _, T = x.shape

        if g is not None:
            if self.embed_speakers is not None:
                # (B x 1) -> (B x 1 x gin_channels)
                g = self.embed_speakers(reshape(g, (B, -1)))
                # (B x gin_channels x 1)
                g = swapaxes(g, 1, 2)
                assert g.ndim == 3
        # Expand global conditioning features to all time steps
        g_bct = _expand_global_features(B, T, g, bct=True)

        # Feed data to network
        x = self.first_conv(x)
        skips = 0
        for f in self.conv_layers:
            x, h = f(x, c, g_bct)
            skips += h
        skips *= math.sqrt(1.0 / len(self.conv_layers))

        x = skips
        for f in self.last_conv_layers:
            x = f(x)

        x = F.softmax(x, axis=1) if softmax else x

        return x


def mulaw_quantize(x, mu=255):
    y = sign_like(x) * log(1 + mu * abs(x)) / math.log(1 + mu)
    return cast((y + 1) / 2 * mu + 0.5, i64)


def sign_like(x):
    return where(x >= 0, ones_like(x), -ones_like(x))


if __name__ == "__main__":
    B, T, Q = 2, 64, 32
    wav = random_uniform((B, T)) * 1.8 - 0.9
    ids = mulaw_quantize(wav, Q - 1)
    x = swapaxes(one_hot(ids, Q), 1, 2)

    model = WaveNet(out_channels=Q, layers=6, stacks=2, residual_channels=16,
                    gate_channels=16, skip_out_channels=16, kernel_size=2)
    y = model(x, softmax=True)
    print("wavenet", y.shape, model.receptive_field)

    cond = WaveNet(out_channels=Q, layers=4, stacks=2, residual_channels=8,
                   gate_channels=16, skip_out_channels=12, kernel_size=3,
                   cin_channels=5, gin_channels=4, n_speakers=3,
                   use_speaker_embedding=True)
    mel = random_normal((B, 5, T))
    speakers = reshape(arange(B) % 3, (B, 1))
    y2 = cond(x, mel, speakers)
    loss = cross_entropy(y2, ids)
    print("conditioned wavenet", y2.shape, loss.shape, cond.has_speaker_embedding())
