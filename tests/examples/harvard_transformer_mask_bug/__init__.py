"""tests/models/harvard_transformer with a planted bug in model.py, reported in layers.py.

The encoder-decoder Transformer of harvardnlp/annotated-transformer
(the_annotated_transformer.py) as a package, in its original class form:
layers.py holds the parts (LayerNorm, SublayerConnection, attention,
MultiHeadedAttention with its zip over self.linears, PositionwiseFeedForward,
Embeddings, PositionalEncoding, Generator), model.py the stacks
(EncoderLayer, Encoder, DecoderLayer, Decoder, EncoderDecoder, make_model),
decode.py subsequent_mask and greedy_decode, config.py the sizes, and
__main__.py runs a greedy decode.  `python -m harvard_transformer` (from
tests/models) runs it; `fathom check tests/models/harvard_transformer`
checks it as one program.

Changed: nn.Module is fathom.Module; nn.Linear / nn.Embedding /
nn.Dropout / nn.Sequential are small classes; clones(module, N) lists the
same module N times and copy.deepcopy is the identity (instances are
immutable once built, DSL rule, so N references have the shapes of N
copies; CPython shares their weights); `x, self.attn = attention(...)`
keeps the attention in a local (assigning self.attn outside __init__ is
not in the DSL); `del` is dropped; .contiguous() is dropped; unsqueeze is
expand_dims; .type(torch.uint8) is cast; torch.max(prob, dim=1) is argmax;
the positions are cast to f32 (torch promotes int * float; the DSL asks for
the cast); max_len of the positional encoding is 64.  Sizes are tiny so it runs fast.
"""
