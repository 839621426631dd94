# expect-error at line 161: index-out-of-range
# Planted bug: top-p's cutoff takes the argmax over axis 1, as for a batch of logits, but forward returns one (vocab,) vector per token.
"""RWKV-4 in RNN mode, translated from BlinkDL/ChatRWKV RWKV_in_150_lines.py:
RWKV_RNN with its layer_norm, channel_mixing (token shift, squared-ReLU
key, receptance gate) and time_mixing (token shift of k, v and r, the
numerically stable WKV recurrence with time_first and time_decay kept in
the aa / bb / pp state rows), forward over one token with the (5 *
n_layer, n_embd) state, sample_logits's top-p sampling, and run's context
preprocessing and generation trials.

Changed: torch.jit.ScriptModule is fathom.Module; the checkpoint loaded
with torch.load and unpacked into nested SimpleNamespaces is random
weights in small record classes (LN, Att, FFN, Block), with time_decay
already -exp(.) as the loader makes it; channel_mixing is the torch
version the file had before it moved to rwkv_cpp; time_mixing and
channel_mixing return the state rows they update beside their output and
forward threads the state through (the DSL's item assignment rebinds the
local name, language.md 3, where torch writes into the caller's tensor); `with torch.no_grad()`
is dropped; `state == None` is `state is None`; np.sort(probs)[::-1] is
topk over the whole vocabulary, np.argmax of the bool mask is argmax of
its cast, and np.random.choice is an inverse-CDF draw on the cumulative
sum; the tokenizer is a fixed tuple of token ids and decoding is left
out; the model is 2 layers of width 16 over 48 tokens and each trial
generates 6 tokens, so the file runs fast.
"""
import math

from fathom import *

N_LAYER = 2
N_EMBD = 16
VOCAB = 48

CONTEXT = (3, 17, 5, 40, 22, 9)
NUM_TRIALS = 2
LENGTH_PER_TRIAL = 6
TEMPERATURE = 1.0
TOP_P = 0.85


class Args:
    def __init__(self, n_layer, n_embd, vocab_size):
        self.n_layer = n_layer
        self.n_embd = n_embd
        self.vocab_size = vocab_size


class LN:
    def __init__(self, n):
        self.weight = ones((n,)) + random_normal((n,)) * 0.01
        self.bias = zeros((n,))


class Att:
    def __init__(self, n):
        self.time_mix_k = random_uniform((n,))
        self.time_mix_v = random_uniform((n,))
        self.time_mix_r = random_uniform((n,))
        self.time_first = random_normal((n,)) * 0.1
        self.time_decay = -exp(random_normal((n,)) * 0.1)  # the real time decay is like e^{-e^x}
        self.key = random_normal((n, n)) * n ** -0.5
        self.value = random_normal((n, n)) * n ** -0.5
        self.receptance = random_normal((n, n)) * n ** -0.5
        self.output = random_normal((n, n)) * n ** -0.5


class FFN:
    def __init__(self, n):
        self.time_mix_k = random_uniform((n,))
        self.time_mix_r = random_uniform((n,))
        self.key = random_normal((4 * n, n)) * n ** -0.5
        self.value = random_normal((n, 4 * n)) * (4 * n) ** -0.5
        self.receptance = random_normal((n, n)) * n ** -0.5


class Block:
    def __init__(self, n, first):
        self.ln0 = LN(n) if first else None
        self.ln1 = LN(n)
        self.ln2 = LN(n)
        self.att = Att(n)
        self.ffn = FFN(n)


class RWKV_RNN(Module):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.emb = random_normal((args.vocab_size, args.n_embd)) * 0.1
        self.blocks = [Block(args.n_embd, i == 0) for i in range(args.n_layer)]
        self.ln_out = LN(args.n_embd)
        self.head = random_normal((args.vocab_size, args.n_embd)) * args.n_embd ** -0.5

    def layer_norm(self, x, w):
        return layer_norm(x, w.weight, w.bias)

    def channel_mixing(self, x, state, i, time_mix_k, time_mix_r, kw, vw, rw):
        xk = x * time_mix_k + state[5*i+0] * (1 - time_mix_k)
        xr = x * time_mix_r + state[5*i+0] * (1 - time_mix_r)
        state[5*i+0] = x
        r = sigmoid(rw @ xr)
        k = relu(kw @ xk) ** 2  # square relu, primer paper
        return r * (vw @ k), state

    def time_mixing(self, x, state, i, time_mix_k, time_mix_v, time_mix_r, time_first, time_decay, kw, vw, rw, ow):
        xk = x * time_mix_k + state[5*i+1] * (1 - time_mix_k)
        xv = x * time_mix_v + state[5*i+1] * (1 - time_mix_v)
        xr = x * time_mix_r + state[5*i+1] * (1 - time_mix_r)
        state[5*i+1] = x
        r = sigmoid(rw @ xr)
        k = kw @ xk
        v = vw @ xv

        aa = state[5*i+2]
        bb = state[5*i+3]
        pp = state[5*i+4]
        ww = time_first + k
        qq = maximum(pp, ww)
        e1 = exp(pp - qq)
        e2 = exp(ww - qq)
        a = e1 * aa + e2 * v
        b = e1 * bb + e2
        wkv = a / b
        ww = pp + time_decay
        qq = maximum(ww, k)
        e1 = exp(ww - qq)
        e2 = exp(k - qq)
        state[5*i+2] = e1 * aa + e2 * v
        state[5*i+3] = e1 * bb + e2
        state[5*i+4] = qq
        return ow @ (r * wkv), state

    def forward(self, token, state):
        if state is None:
            state = zeros((self.args.n_layer * 5, self.args.n_embd))
            for i in range(self.args.n_layer):
                state[5*i+4] = -1e30  # -infinity

        x = self.emb[token]
        x = self.layer_norm(x, self.blocks[0].ln0)
        for i in range(self.args.n_layer):
            att = self.blocks[i].att
            dx, state = self.time_mixing(self.layer_norm(x, self.blocks[i].ln1), state, i,
                                         att.time_mix_k, att.time_mix_v, att.time_mix_r, att.time_first, att.time_decay,
                                         att.key, att.value, att.receptance, att.output)
            x = x + dx
            ffn = self.blocks[i].ffn
            dx, state = self.channel_mixing(self.layer_norm(x, self.blocks[i].ln2), state, i,
                                            ffn.time_mix_k, ffn.time_mix_r,
                                            ffn.key, ffn.value, ffn.receptance)
            x = x + dx

        x = self.head @ self.layer_norm(x, self.ln_out)
        return cast(x, f32), state


def sample_logits(out, temperature=1.0, top_p=0.8):
    probs = softmax(out, axis=-1)
    sorted_probs, _ = topk(probs, probs.shape[0])
    cumulative_probs = cumsum(sorted_probs)
    cutoff = float(sorted_probs[argmax(cast(cumulative_probs > top_p, i32), axis=1)])
    probs[probs < cutoff] = 0.0
    if temperature != 1.0:
        probs = probs ** (1.0 / temperature)
    probs = probs / sum(probs)
    u = random_uniform(())
    out = int(argmax(cast(cumsum(probs) > u * sum(probs), i32)))
    return out


def run(args):
    model = RWKV_RNN(args)

    init_state = None
    init_out = zeros((args.vocab_size,))
    for token in CONTEXT:
        init_out, init_state = model.forward(token, init_state)

    trials = []
    for TRIAL in range(NUM_TRIALS):
        all_tokens = []
        out, state = init_out, init_state
        for i in range(LENGTH_PER_TRIAL):
            token = sample_logits(out, TEMPERATURE, TOP_P)
            all_tokens += [token]
            out, state = model.forward(token, state)
        trials.append(all_tokens)
    return trials


if __name__ == "__main__":
    args = Args(N_LAYER, N_EMBD, VOCAB)
    trials = run(args)
    print("rwkv ok", len(trials), len(trials[0]), trials[0][0] < VOCAB)
