"""GPT Language Model, minGPT's GPT class: the embeddings, the list of
blocks, the final layer norm and the head; `forward` with an optional
loss and `generate`."""
from fathom import *

from .layers import Block, Dropout, Embedding, LayerNorm, Linear


class GPT(Module):
    """ GPT Language Model """

    def __init__(self, config):
        super().__init__()
        assert config.vocab_size is not None
        assert config.block_size is not None
        self.block_size = config.block_size
        self.wte = Embedding(config.vocab_size, config.n_embd)
        self.wpe = Embedding(config.block_size, config.n_embd)
        self.drop = Dropout(config.embd_pdrop)
        self.h = [Block(config) for _ in range(config.n_layer)]
        self.ln_f = LayerNorm(config.n_embd)
        self.lm_head = Linear(config.n_embd, config.vocab_size, bias=False)

    def forward(self, idx, targets=None):
        b, t = idx.shape
        assert t <= self.block_size, f"Cannot forward sequence of length {t}, block size is only {self.block_size}"
        pos = expand_dims(arange(t), 0)  # shape (1, t)

        # forward the GPT model itself
        tok_emb = self.wte(idx)  # token embeddings of shape (b, t, n_embd)
        pos_emb = self.wpe(pos)  # position embeddings of shape (1, t, n_embd)
        x = self.drop(tok_emb + pos_emb)
        for block in self.h:
            x = block(x)
        x = self.ln_f(x)
        logits = self.lm_head(x)

        # if we are given some desired targets also calculate the loss
        loss = None
        if targets is not None:
            logp = log_softmax(logits.view(-1, logits.shape[-1]), axis=-1)
            loss = -mean(reduce_sum(one_hot(targets.view(-1), logits.shape[-1]) * logp, axis=1))

        return logits, loss

    def generate(self, idx, max_new_tokens, temperature=1.0, do_sample=False, top_k=None):
        """
        Take a conditioning sequence of indices idx (LongTensor of shape (b,t)) and complete
        the sequence max_new_tokens times, feeding the predictions back into the model each time.
        """
        for _ in range(max_new_tokens):
            # if the sequence context is growing too long we must crop it at block_size
            idx_cond = idx if idx.shape[1] <= self.block_size else idx[:, -self.block_size:]
            # forward the model to get the logits for the index in the sequence
            logits, _ = self(idx_cond)
            # pluck the logits at the final step and scale by desired temperature
            logits = logits[:, -1, :] / temperature
            # optionally crop the logits to only the top k options
            if top_k is not None:
                v, _ = topk(logits, top_k)
                logits[logits < v[:, -1:]] = -float('Inf')
            # apply softmax to convert logits to (normalized) probabilities
            probs = softmax(logits, axis=-1)
            # either sample from the distribution or take the most likely element
            if do_sample:
                gumbel = -log(-log(random_uniform(probs.shape) + 1e-9) + 1e-9)
                idx_next = argmax(log(probs + 1e-9) + gumbel, axis=-1, keepdims=True)
            else:
                _, idx_next = topk(probs, k=1, axis=-1)
            # append sampled index to the running sequence and continue
            idx = concat((idx, idx_next), axis=1)

        return idx
