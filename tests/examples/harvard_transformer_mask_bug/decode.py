"""The causal mask and greedy decoding of the Annotated Transformer."""
from fathom import *


def subsequent_mask(size):
    "Mask out subsequent positions."
    attn_shape = (1, size, size)
    upper = cast(triu(ones(attn_shape), diagonal=1), u8)
    return upper == 0


def greedy_decode(model, src, src_mask, max_len, start_symbol):
    memory = model.encode(src, src_mask)
    ys = full((1, 1), start_symbol, src.dtype)
    for i in range(max_len - 1):
        out = model.decode(memory, src_mask, ys, subsequent_mask(ys.shape[1]))
        prob = model.generator(out[:, -1])
        next_word = argmax(prob, axis=1)
        ys = concat([ys, full((1, 1), int(next_word[0]), src.dtype)], axis=1)
    return ys
