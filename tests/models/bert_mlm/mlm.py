"""The masked-language-model head and BertForMaskedLM."""
from fathom import *

from .modeling import BertModel
from .nn import Dropout, LayerNorm, Linear, get_activation


class TiedLinear(Module):
    """An nn.Linear without bias whose weight is another module's tensor
    (pytorch-pretrained-bert's `self.decoder.weight = bert_model_embedding_weights`)."""

    def __init__(self, weight):
        super().__init__()
        self.weight = weight

    def forward(self, input):
        return linear(input, self.weight)


class BertPredictionHeadTransform(Module):
    def __init__(self, config):
        super().__init__()
        self.dense = Linear(config.hidden_size, config.hidden_size)
        self.transform_act_fn = get_activation(config.hidden_act)
        self.LayerNorm = LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def forward(self, hidden_states):
        hidden_states = self.dense(hidden_states)
        hidden_states = self.transform_act_fn(hidden_states)
        hidden_states = self.LayerNorm(hidden_states)
        return hidden_states


class BertLMPredictionHead(Module):
    def __init__(self, config, bert_model_embedding_weights):
        super().__init__()
        self.transform = BertPredictionHeadTransform(config)

        # The output weights are the same as the input embeddings, but there is
        # an output-only bias for each token.
        self.decoder = Linear(config.hidden_size, config.vocab_size, bias=False)
        if config.tie_word_embeddings:
            self.decoder = TiedLinear(bert_model_embedding_weights)
        self.bias = zeros((config.vocab_size,))

    def forward(self, hidden_states):
        hidden_states = self.transform(hidden_states)
        hidden_states = self.decoder(hidden_states) + self.bias
        return hidden_states


class BertOnlyMLMHead(Module):
    def __init__(self, config, bert_model_embedding_weights):
        super().__init__()
        self.predictions = BertLMPredictionHead(config, bert_model_embedding_weights)

    def forward(self, sequence_output):
        prediction_scores = self.predictions(sequence_output)
        return prediction_scores


def masked_lm_loss(prediction_scores, labels, vocab_size):
    """CrossEntropyLoss() (ignore_index=-100) over the flattened tokens."""
    logits = prediction_scores.view(-1, vocab_size)
    labels = labels.view(-1)
    active = labels != -100
    targets = one_hot(where(active, labels, 0), vocab_size)
    token_loss = -reduce_sum(log_softmax(logits, axis=-1) * targets, axis=-1)
    weights = cast(active, f32)
    return reduce_sum(token_loss * weights) / maximum(reduce_sum(weights), 1.0)


class BertForMaskedLM(Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.bert = BertModel(config)
        # The decoder shares its (vocab_size, hidden_size) weight with the
        # word embeddings.
        self.cls = BertOnlyMLMHead(config, self.bert.get_input_embeddings().weight)

    def forward(self, input_ids, attention_mask=None, token_type_ids=None, labels=None):
        sequence_output, _ = self.bert(input_ids, attention_mask=attention_mask,
                                       token_type_ids=token_type_ids)
        prediction_scores = self.cls(sequence_output)

        masked_lm_loss_value = None
        if labels is not None:
            masked_lm_loss_value = masked_lm_loss(prediction_scores, labels, self.config.vocab_size)
        return masked_lm_loss_value, prediction_scores
