# expect-error at line 47: shape-mismatch
# Planted bug: the head-concatenating branch permutes a 3-d (heads, nodes, hidden) tensor with a 4-d axis order copied from attention code; main uses the script's default concat_heads=False, so only the branch the flag turns off is wrong.
"""A two-layer graph attention network, translated from pytorch/examples
gat/main.py (GraphAttentionLayer with `concat` and its attention scores,
GAT with the ELU between the layers, the row normalisation of the Cora
features and the self-loops added to the adjacency matrix in load_cora).

Changed: the modules became functions; a layer is the tuple its __init__
builds (W, a, n_heads, n_hidden, out_features, concat); .contiguous() is
dropped; torch.mm is matmul; Cora is a random sparse graph.  The main
block uses the script's default, concat_heads=False.
"""
from fathom import *


def gat_layer_init(in_features, out_features, n_heads, concat=False):
    if concat:
        assert out_features % n_heads == 0
        n_hidden = out_features // n_heads
    else:
        n_hidden = out_features
    W = random_normal((in_features, n_hidden * n_heads)) * 0.1
    a = random_normal((n_heads, 2 * n_hidden, 1)) * 0.1
    return W, a, n_heads, n_hidden, out_features, concat


def get_attention_scores(h_transformed, a, n_hidden, slope):
    source_scores = matmul(h_transformed, a[:, :n_hidden, :])
    target_scores = matmul(h_transformed, a[:, n_hidden:, :])
    e = source_scores + target_scores.mT
    return leaky_relu(e, slope)


def gat_layer(layer, h, adj_mat, dropout_p, slope, training):
    W, a, n_heads, n_hidden, out_features, concat = layer
    n_nodes = h.shape[0]
    h_transformed = matmul(h, W)
    h_transformed = dropout(h_transformed, dropout_p, training=training)
    h_transformed = h_transformed.view(n_nodes, n_heads, n_hidden).permute(1, 0, 2)
    e = get_attention_scores(h_transformed, a, n_hidden, slope)
    connectivity_mask = -9e16 * ones_like(e)
    e = where(adj_mat > 0, e, connectivity_mask)
    attention = softmax(e, axis=-1)
    attention = dropout(attention, dropout_p, training=training)
    h_prime = matmul(attention, h_transformed)
    if concat:
        h_prime = h_prime.permute(1, 0, 2, 3).view(n_nodes, out_features)
    else:
        h_prime = mean(h_prime, axis=0)
    return h_prime


def gat(params, x, adj_mat, dropout_p, slope, training):
    gat1, gat2 = params
    x = gat_layer(gat1, x, adj_mat, dropout_p, slope, training)
    x = elu(x)
    x = gat_layer(gat2, x, adj_mat, dropout_p, slope, training)
    return log_softmax(x, axis=1)


def make_graph(n_nodes, n_features):
    features = cast(random_uniform((n_nodes, n_features)) > 0.7, f32)
    scale_vector = reduce_sum(features, axis=1)
    scale_vector = where(scale_vector > 0, 1.0 / maximum(scale_vector, 1.0), 0.0)
    features = expand_dims(scale_vector, 1) * features
    edges = cast(random_uniform((n_nodes, n_nodes)) > 0.8, i64)
    adj_mat = eye(n_nodes) + cast(edges, f32)
    return features, adj_mat


if __name__ == "__main__":
    n_nodes, in_features, hidden_dim, num_heads, num_classes = 10, 12, 16, 4, 7
    features, adj_mat = make_graph(n_nodes, in_features)
    params = (gat_layer_init(in_features, hidden_dim, num_heads, concat=False),
              gat_layer_init(hidden_dim, num_classes, 1, concat=False))
    out = gat(params, features, adj_mat, 0.6, 0.2, True)
    assert out.shape == (n_nodes, num_classes)
    out = gat(params, features, adj_mat, 0.6, 0.2, False)
    assert out.shape == (n_nodes, num_classes)
    print("pytorch gat ok")
