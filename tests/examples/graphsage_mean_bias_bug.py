# expect-error at line 97: shape-mismatch
# Planted bug: the original's MeanAggregator bias, (output_dim,), does not broadcast to the concatenated (nodes, 2 * output_dim) output; no caller passes bias=True, but the add in the branch the flag prunes is still wrong.
"""Supervised GraphSAGE with the mean aggregator, translated from
williamleif/GraphSAGE: graphsage/aggregators.py (MeanAggregator: the
neighbours' mean and the node itself through separate weights, summed or
concatenated, then the activation), graphsage/neigh_samplers.py
(UniformNeighborSampler: look up each node's adjacency row, shuffle the
columns, keep num_samples), and graphsage/models.py /
supervised_models.py (SampleAndAggregate.sample's support sizes, its
aggregate loop over layers and hops, and SupervisedGraphsage's
l2-normalised output, Dense prediction layer and softmax cross-entropy).

Changed: the tf Layer classes are fathom.Module with `_call` as
`forward`; glorot is a uniform init written out; tf.nn.embedding_lookup is
`take(..., axis=0)`; the sampler's tf.random_shuffle of the transposed
adjacency and tf.slice keep num_samples distinct random columns, found as
the top-k indices of uniform noise; tf.nn.l2_normalize is written out;
LayerInfo is a tuple (name, sampler, num_samples, output_dim); the
placeholders are arguments; the optimizer and its gradient clipping are
left out; the graph is a random 12-node adjacency with max_degree 6, 8
features, a batch of 4 nodes and samples (3, 2) so the file runs fast.
MeanAggregator's bias is (output_dim,) in the original, which does not
broadcast to the concatenated (nodes, 2 * output_dim) output: bias=True
with concat=True would fail (the repository never passes both, and fathom
reports the add in the branch `self.use_bias` prunes), so here the bias
has the output's width.
"""
import math

from fathom import *

NUM_NODES = 12
MAX_DEGREE = 6
FEATURES_DIM = 8
NUM_CLASSES = 3
BATCH_SIZE = 4


def glorot(shape):
    init_range = math.sqrt(6.0 / (shape[0] + shape[1]))
    return random_uniform(shape) * (2 * init_range) - init_range


class UniformNeighborSampler(Module):
    """
    Uniformly samples neighbors.
    Assumes that adj lists are padded with random re-sampling
    """

    def __init__(self, adj_info):
        super(UniformNeighborSampler, self).__init__()
        self.adj_info = adj_info

    def forward(self, ids, num_samples):
        adj_lists = take(self.adj_info, ids, axis=0)
        _, cols = topk(random_uniform((MAX_DEGREE,)), num_samples)
        adj_lists = adj_lists[:, cols]
        return adj_lists


class MeanAggregator(Module):
    """
    Aggregates via mean followed by matmul and non-linearity.
    """

    def __init__(self, input_dim, output_dim, neigh_input_dim=None,
                 dropout=0., bias=False, act=relu, concat=False):
        super(MeanAggregator, self).__init__()
        if neigh_input_dim is None:
            neigh_input_dim = input_dim
        self.neigh_weights = glorot((neigh_input_dim, output_dim))
        self.self_weights = glorot((input_dim, output_dim))
        self.bias = zeros((output_dim,))
        self.use_bias = bias
        self.dropout = dropout
        self.act = act
        self.concat = concat
        self.input_dim = input_dim
        self.output_dim = output_dim

    def forward(self, self_vecs, neigh_vecs):
        neigh_vecs = dropout(neigh_vecs, self.dropout)
        self_vecs = dropout(self_vecs, self.dropout)
        neigh_means = mean(neigh_vecs, axis=1)

        # [nodes] x [out_dim]
        from_neighs = matmul(neigh_means, self.neigh_weights)
        from_self = matmul(self_vecs, self.self_weights)

        if not self.concat:
            output = from_self + from_neighs
        else:
            output = concat([from_self, from_neighs], axis=1)

        # bias
        if self.use_bias:
            output = output + self.bias

        return self.act(output)


def identity(x):
    return x


class Dense(Module):
    def __init__(self, input_dim, output_dim, dropout=0.):
        super(Dense, self).__init__()
        self.weights = glorot((input_dim, output_dim))
        self.bias = zeros((output_dim,))
        self.dropout = dropout

    def forward(self, x):
        x = dropout(x, self.dropout)
        return matmul(x, self.weights) + self.bias


def l2_normalize(x, axis):
    return x / sqrt(maximum(reduce_sum(x * x, axis=axis, keepdims=True), 1e-12))


class SupervisedGraphsage(Module):
    """Implementation of supervised GraphSAGE."""

    def __init__(self, num_classes, features, adj_info, layer_infos,
                 concat=True, dropout=0.):
        super(SupervisedGraphsage, self).__init__()
        self.features = features
        self.layer_infos = layer_infos
        self.concat = concat
        self.num_classes = num_classes
        self.dims = [features.shape[1]] + [info[3] for info in layer_infos]
        self.sampler = UniformNeighborSampler(adj_info)
        self.num_samples = [info[2] for info in layer_infos]

        aggregators = []
        for layer in range(len(self.num_samples)):
            dim_mult = 2 if concat and (layer != 0) else 1
            # aggregator at current layer
            if layer == len(self.num_samples) - 1:
                aggregator = MeanAggregator(dim_mult * self.dims[layer], self.dims[layer + 1],
                                            act=identity, dropout=dropout, concat=concat)
            else:
                aggregator = MeanAggregator(dim_mult * self.dims[layer], self.dims[layer + 1],
                                            dropout=dropout, concat=concat)
            aggregators.append(aggregator)
        self.aggregators = aggregators

        dim_mult = 2 if self.concat else 1
        self.node_pred = Dense(dim_mult * self.dims[-1], self.num_classes, dropout=dropout)

    def sample(self, inputs, batch_size):
        """ Sample neighbors to be the supportive fields for multi-layer convolutions."""
        samples = [inputs]
        # size of convolution support at each layer per node
        support_size = 1
        support_sizes = [support_size]
        for k in range(len(self.layer_infos)):
            t = len(self.layer_infos) - k - 1
            support_size *= self.layer_infos[t][2]
            node = self.sampler(samples[k], self.layer_infos[t][2])
            samples.append(reshape(node, (support_size * batch_size,)))
            support_sizes.append(support_size)
        return samples, support_sizes

    def aggregate(self, samples, support_sizes, batch_size):
        """ At each layer, aggregate hidden representations of neighbors to compute the hidden representations
            at next layer.
        """
        num_samples = self.num_samples
        # length: number of layers + 1
        hidden = [take(self.features, node_samples, axis=0) for node_samples in samples]
        for layer in range(len(num_samples)):
            aggregator = self.aggregators[layer]
            # hidden representation at current layer for all support nodes that are various hops away
            next_hidden = []
            # as layer increases, the number of support nodes needed decreases
            for hop in range(len(num_samples) - layer):
                dim_mult = 2 if self.concat and (layer != 0) else 1
                neigh_dims = (batch_size * support_sizes[hop],
                              num_samples[len(num_samples) - hop - 1],
                              dim_mult * self.dims[layer])
                h = aggregator(hidden[hop], reshape(hidden[hop + 1], neigh_dims))
                next_hidden.append(h)
            hidden = next_hidden
        return hidden[0]

    def forward(self, batch, labels):
        samples1, support_sizes1 = self.sample(batch, batch.shape[0])
        outputs1 = self.aggregate(samples1, support_sizes1, batch.shape[0])
        outputs1 = l2_normalize(outputs1, 1)
        node_preds = self.node_pred(outputs1)
        loss = mean(-reduce_sum(labels * log_softmax(node_preds, axis=-1), axis=-1))
        preds = softmax(node_preds, axis=-1)
        return loss, preds


def main():
    features = random_normal((NUM_NODES, FEATURES_DIM))
    adj_info = cast(random_uniform((NUM_NODES, MAX_DEGREE)) * NUM_NODES, i64)
    layer_infos = [("node", None, 3, 16), ("node", None, 2, 16)]
    model = SupervisedGraphsage(NUM_CLASSES, features, adj_info, layer_infos)
    batch = arange(BATCH_SIZE)
    labels = one_hot(batch % NUM_CLASSES, NUM_CLASSES)
    loss, preds = model(batch, labels)
    return loss, preds


if __name__ == "__main__":
    loss, preds = main()
    assert preds.shape == (BATCH_SIZE, NUM_CLASSES)
    print("graphsage ok", float(loss))
