# expect-error at line 29: shape-mismatch
# Planted bug: the renormalisation D^-1/2 A D^-1/2 multiplies by the degree vector without making it diagonal (torch.diag dropped): the adjacency matrix becomes a 0-d tensor, and graph_conv's matmul (line 29) fails.
"""A two-layer graph convolutional network, translated from pytorch/examples
gcn/main.py (GraphConv with `use_bias` and its None bias, GCN.forward, the
renormalisation trick D^-1/2 (A + I) D^-1/2 and the feature scaling of
load_cora, the masked loss of train_iter).

Changed: the modules became functions over (kernel, bias) pairs, bias None
without use_bias as in the original; torch.diag(d) @ A @ torch.diag(d) is
written with broadcasting (the DSL has no diag); sparse tensors are dense;
output[mask_train] is a 0/1 weight in the loss (no boolean indexing);
Cora is a random graph.  The main block uses the script's default,
--include-bias off.
"""
from fathom import *


def graph_conv_init(input_dim, output_dim, use_bias=False):
    kernel = random_normal((input_dim, output_dim)) * (2.0 / (input_dim + output_dim)) ** 0.5
    bias = None
    if use_bias:
        bias = zeros((output_dim,))
    return kernel, bias


def graph_conv(layer, input_tensor, adj_mat):
    kernel, bias = layer
    support = matmul(input_tensor, kernel)
    output = matmul(adj_mat, support)
    if bias is not None:
        output = output + bias
    return output


def gcn(params, input_tensor, adj_mat, dropout_p, training):
    gc1, gc2 = params
    x = graph_conv(gc1, input_tensor, adj_mat)
    x = relu(x)
    x = dropout(x, dropout_p, training=training)
    x = graph_conv(gc2, x, adj_mat)
    return log_softmax(x, axis=1)


def normalize_graph(features, edges):
    scale_vector = reduce_sum(features, axis=1)
    scale_vector = where(scale_vector > 0, 1.0 / maximum(scale_vector, 1.0), 0.0)
    features = expand_dims(scale_vector, 1) * features
    V = edges.shape[0]
    adj_mat = eye(V) + edges
    degree = reduce_sum(adj_mat, axis=1)
    degree = where(degree > 0, sqrt(1.0 / maximum(degree, 1e-12)), 0.0)
    adj_mat = degree @ adj_mat @ degree
    return features, adj_mat


def masked_nll(output, target, mask):
    picked = reduce_sum(output * one_hot(target, output.shape[1]), axis=1)
    return -reduce_sum(picked * mask) / reduce_sum(mask)


if __name__ == "__main__":
    n_nodes, n_features, hidden_dim, n_classes = 12, 20, 16, 7
    features = cast(random_uniform((n_nodes, n_features)) > 0.6, f32)
    edges = cast(random_uniform((n_nodes, n_nodes)) > 0.8, f32)
    features, adj_mat = normalize_graph(features, edges)
    include_bias = False
    params = (graph_conv_init(n_features, hidden_dim, use_bias=include_bias),
              graph_conv_init(hidden_dim, n_classes, use_bias=include_bias))
    output = gcn(params, features, adj_mat, 0.5, True)
    assert output.shape == (n_nodes, n_classes)
    labels = cast(random_uniform((n_nodes,)) * n_classes, i64)
    mask_train = cast(arange(n_nodes) < 8, f32)
    loss = masked_nll(output, labels, mask_train)
    assert loss.shape == ()
    print("pytorch gcn ok", float(loss))
