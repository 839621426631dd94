"""The word-level RNN language model of pytorch/examples
word_language_model as a package in its original class form: model.py
(RNNModel with rnn_type LSTM / GRU / RNN_TANH / RNN_RELU, tie_weights,
forward, init_hidden), layers.py (the torch.nn modules it builds on), data.py
(batchify and get_batch from main.py) and __main__.py (repackage_hidden and
evaluate from main.py, run at the script's defaults: LSTM, no tying).
`python -m word_lm` (from tests/models) runs it; `fathom check
tests/models/word_lm` checks it as one program.

Changed: nn.Module is fathom.Module; nn.LSTM, nn.GRU and nn.RNN are
classes in layers.py written out as cells with torch's weight layout
(w_ih, w_hh, b_ih, b_hh; gates in torch's order) run over time and
layers; `getattr(nn, rnn_type)(...)` is a conditional choice of LSTM or
GRU; the nonlinearity dict lookup is a conditional expression; init_weights'
uniform initialisation is done by the Embedding and Linear constructors,
and tie_weights hands the encoder's weight to the decoder's constructor
(assigning self.decoder.weight after construction is outside the DSL: an
instance is immutable once built); `next(self.parameters()).new_zeros` is
zeros; `.detach()` is the identity; the corpus is random token ids.
Sizes are tiny so the package runs fast.
"""
