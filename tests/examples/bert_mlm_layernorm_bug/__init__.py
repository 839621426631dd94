"""Planted bug: BertSelfOutput calls self.layer_norm, the usual spelling of other
models, but BERT's attribute is LayerNorm (kept for the TF checkpoint
names).


BERT for masked language modelling as a package of several modules,
translated from huggingface/transformers
(src/transformers/models/bert/modeling_bert.py and configuration_bert.py):
BertConfig, BertEmbeddings (word + position + token-type embeddings,
LayerNorm, dropout), BertSelfAttention with transpose_for_scores and the
additive extended attention mask, BertSelfOutput / BertAttention,
BertIntermediate / BertOutput, BertLayer, BertEncoder with its list of
layers, BertModel (get_extended_attention_mask), and the MLM head
(BertPredictionHeadTransform, BertLMPredictionHead whose decoder weight is
tied to the word embeddings, BertOnlyMLMHead) with BertForMaskedLM's
cross-entropy over the labels that are not -100.  `python -m bert_mlm`
(run from tests/models, python/ on the path) runs __main__.py.

Changed: nn.Module is fathom.Module; nn.Linear, nn.Embedding, nn.LayerNorm
and nn.Dropout are small classes in nn.py; PreTrainedModel, the pooler,
head masks, cross-attention, the KV cache and the output dataclasses are
left out; ACT2FN's dict lookup is get_activation's chain of ifs; the
weight tying (tie_weights after construction, which fathom's immutable
instances do not allow) is done as pytorch-pretrained-bert did it, by
passing the embedding weights to the head's constructor, whose decoder is a
bias-free TiedLinear on them; the ignore_index=-100 cross-entropy is written out with
log_softmax and one_hot; the mask's finfo.min is BERT's original -10000.0;
the config has tiny sizes.
"""
