# expect-error at line 164: shape-mismatch
# Planted bug: the second layer expects the first layer's heads concatenated (n_hidden * n_heads inputs), but with concat=False they are averaged to n_hidden; the call of gat2 (line 164) is reported, as GraphAttentionLayer.forward works for gat1.
"""A two-layer graph attention network, translated from pytorch/examples
gat/main.py in its original class form (GraphAttentionLayer with
`concat`, whose out_features attribute exists only when concat is set,
reset_parameters, _get_attention_scores and forward; GAT with the ELU
between its two layers; the row normalisation of the Cora features and
the self-loops added to the adjacency matrix in load_cora).

Changed: nn.Module is fathom.Module; nn.Parameter(torch.empty(...)) with
nn.init.xavier_normal_ in reset_parameters is random_normal scaled by the
Xavier factor (reset_parameters builds the attributes, called from
__init__); nn.LeakyReLU is leaky_relu; self.training (model.train() /
model.eval()) is a constructor argument, since an instance is immutable
once built (DSL rule); the tensor annotations are dropped;
.contiguous() is dropped; torch.mm is matmul; Cora is a random sparse
graph.  The main block uses the script's default, concat_heads=False.
"""
import math

from fathom import *


class GraphAttentionLayer(Module):
    """
    Graph Attention Layer (GAT) as described in the paper `"Graph Attention Networks" <https://arxiv.org/pdf/1710.10903.pdf>`.

    This operation can be mathematically described as:

    e_ij = a(W h_i, W h_j)
    α_ij = softmax_j(e_ij) = exp(e_ij) / Σ_k(exp(e_ik))
    h_i' = σ(Σ_j(α_ij W h_j))
    """
    def __init__(self, in_features: int, out_features: int,
                 n_heads: int, concat: bool = False, dropout: float = 0.4,
                 leaky_relu_slope: float = 0.2, training: bool = True):
        super(GraphAttentionLayer, self).__init__()

        self.n_heads = n_heads  # Number of attention heads
        self.concat = concat  # wether to concatenate the final attention heads
        self.dropout = dropout  # Dropout rate
        self.training = training

        if concat:  # concatenating the attention heads
            self.out_features = out_features  # Number of output features per node
            assert out_features % n_heads == 0  # Ensure that out_features is a multiple of n_heads
            self.n_hidden = out_features // n_heads
        else:  # averaging output over the attention heads (Used in the main paper)
            self.n_hidden = out_features

        self.leaky_relu_slope = leaky_relu_slope
        self.reset_parameters(in_features)

    def reset_parameters(self, in_features):
        """
        Reinitialize learnable parameters.
        """
        #  A shared linear transformation, parametrized by a weight matrix W is applied to every node
        fan_w = in_features + self.n_hidden * self.n_heads
        self.W = random_normal((in_features, self.n_hidden * self.n_heads)) * math.sqrt(2.0 / fan_w)
        # Attention mechanism parametrized by a weight vector a
        fan_a = self.n_heads * 2 * self.n_hidden + 1
        self.a = random_normal((self.n_heads, 2 * self.n_hidden, 1)) * math.sqrt(2.0 / fan_a)

    def _get_attention_scores(self, h_transformed):
        """calculates the attention scores e_ij for all pairs of nodes (i, j) in the graph
        in vectorized parallel form. for each pair of source and target nodes (i, j),
        the attention score e_ij is computed as follows:

            e_ij = LeakyReLU(a^T [Wh_i || Wh_j])
        """
        source_scores = matmul(h_transformed, self.a[:, :self.n_hidden, :])
        target_scores = matmul(h_transformed, self.a[:, self.n_hidden:, :])

        # broadcast add
        # (n_heads, n_nodes, 1) + (n_heads, 1, n_nodes) = (n_heads, n_nodes, n_nodes)
        e = source_scores + target_scores.mT
        return leaky_relu(e, self.leaky_relu_slope)

    def forward(self, h, adj_mat):
        """
        Performs a graph attention layer operation.

        Args:
            h (torch.Tensor): Input tensor representing node features.
            adj_mat (torch.Tensor): Adjacency matrix representing graph structure.

        Returns:
            torch.Tensor: Output tensor after the graph convolution operation.
        """
        n_nodes = h.shape[0]

        # Apply linear transformation to node feature -> W h
        # output shape (n_nodes, n_hidden * n_heads)
        h_transformed = matmul(h, self.W)
        h_transformed = dropout(h_transformed, self.dropout, training=self.training)

        # splitting the heads by reshaping the tensor and putting heads dim first
        # output shape (n_heads, n_nodes, n_hidden)
        h_transformed = h_transformed.view(n_nodes, self.n_heads, self.n_hidden).permute(1, 0, 2)

        # getting the attention scores
        # output shape (n_heads, n_nodes, n_nodes)
        e = self._get_attention_scores(h_transformed)

        # Set the attention score for non-existent edges to -9e15 (MASKING NON-EXISTENT EDGES)
        connectivity_mask = -9e16 * ones_like(e)
        e = where(adj_mat > 0, e, connectivity_mask)  # masked attention scores

        # attention coefficients are computed as a softmax over the rows
        # for each column j in the attention score matrix e
        attention = softmax(e, axis=-1)
        attention = dropout(attention, self.dropout, training=self.training)

        # final node embeddings are computed as a weighted average of the features of its neighbors
        h_prime = matmul(attention, h_transformed)

        # concatenating/averaging the attention heads
        # output shape (n_nodes, out_features)
        if self.concat:
            h_prime = h_prime.permute(1, 0, 2).view(n_nodes, self.out_features)
        else:
            h_prime = mean(h_prime, axis=0)

        return h_prime


class GAT(Module):
    """
    Graph Attention Network (GAT) as described in the paper `"Graph Attention Networks" <https://arxiv.org/pdf/1710.10903.pdf>`.
    Consists of a 2-layer stack of Graph Attention Layers (GATs). The fist GAT Layer is followed by an ELU activation.
    And the second (final) layer is a GAT layer with a single attention head and softmax activation function.
    """
    def __init__(self,
                 in_features,
                 n_hidden,
                 n_heads,
                 num_classes,
                 concat=False,
                 dropout=0.4,
                 leaky_relu_slope=0.2,
                 training=True):
        super(GAT, self).__init__()

        # Define the Graph Attention layers
        self.gat1 = GraphAttentionLayer(
            in_features=in_features, out_features=n_hidden, n_heads=n_heads,
            concat=concat, dropout=dropout, leaky_relu_slope=leaky_relu_slope,
            training=training
        )

        self.gat2 = GraphAttentionLayer(
            in_features=n_hidden * n_heads, out_features=num_classes, n_heads=1,
            concat=False, dropout=dropout, leaky_relu_slope=leaky_relu_slope,
            training=training
        )

    def forward(self, input_tensor, adj_mat):
        # Apply the first Graph Attention layer
        x = self.gat1(input_tensor, adj_mat)
        x = elu(x)  # Apply ELU activation function to the output of the first layer

        # Apply the second Graph Attention layer
        x = self.gat2(x, adj_mat)

        return log_softmax(x, axis=1)  # Apply log softmax activation function


def load_cora(n_nodes, n_features):
    """A random stand-in for Cora: binary bag-of-words features, row
    normalised as load_cora does, and an adjacency matrix with self-loops."""
    features = cast(random_uniform((n_nodes, n_features)) > 0.7, f32)
    scale_vector = reduce_sum(features, axis=1)
    scale_vector = where(scale_vector > 0, 1.0 / maximum(scale_vector, 1.0), 0.0)
    features = expand_dims(scale_vector, 1) * features
    edges = cast(random_uniform((n_nodes, n_nodes)) > 0.8, f32)
    adj_mat = eye(n_nodes) + edges
    return features, adj_mat


if __name__ == "__main__":
    n_nodes, in_features, hidden_dim, num_heads, num_classes = 10, 12, 16, 4, 7
    features, adj_mat = load_cora(n_nodes, in_features)
    gat_net = GAT(
        in_features=in_features,
        n_hidden=hidden_dim,
        n_heads=num_heads,
        num_classes=num_classes,
        concat=False,
        dropout=0.6,
        leaky_relu_slope=0.2
    )
    out = gat_net(features, adj_mat)
    assert out.shape == (n_nodes, num_classes)
    eval_net = GAT(in_features, hidden_dim, num_heads, num_classes, training=False)
    assert eval_net(features, adj_mat).shape == (n_nodes, num_classes)
    print("pytorch gat (classes) ok")
