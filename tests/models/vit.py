"""A Vision Transformer classifier, translated from lucidrains/vit-pytorch
vit_pytorch/vit.py (pair, FeedForward, Attention with `project_out`,
Transformer, ViT with the patch embedding, the `pool` choice between the
cls token and mean pooling, and the optional mlp_head).

Changed: modules became functions over weight tuples (the Identity and
None modules are None); einops' rearrange and repeat are reshape,
transpose and broadcast_to; nn.Sequential chains are
written out.  The main block builds the model with pool='cls' at tiny
sizes.
"""
from fathom import *


def pair(t):
    return t if isinstance(t, tuple) else (t, t)


def lin(n_in, n_out, bias=True):
    return random_normal((n_out, n_in)) * n_in ** -0.5, (zeros((n_out,)) if bias else None)


def ln(dim):
    return ones((dim,)), zeros((dim,))


def feed_forward(x, p, dropout_p):
    norm, fc1, fc2 = p
    x = layer_norm(x, norm[0], norm[1])
    x = dropout(gelu(linear(x, fc1[0], fc1[1])), dropout_p)
    return dropout(linear(x, fc2[0], fc2[1]), dropout_p)


def attention(x, p, heads, dim_head, dropout_p):
    norm, to_qkv, to_out = p
    scale = dim_head ** -0.5
    x = layer_norm(x, norm[0], norm[1])
    qkv = linear(x, to_qkv[0]).chunk(3, axis=-1)
    b, n, _ = x.shape
    q, k, v = tuple(transpose(reshape(t, (b, n, heads, dim_head)), (0, 2, 1, 3)) for t in qkv)
    dots = matmul(q, k.transpose(-1, -2)) * scale
    attn = dropout(softmax(dots, axis=-1), dropout_p)
    out = matmul(attn, v)
    out = reshape(transpose(out, (0, 2, 1, 3)), (b, n, heads * dim_head))
    if to_out is not None:
        out = dropout(linear(out, to_out[0], to_out[1]), dropout_p)
    return out


def vit_init(image_size, patch_size, num_classes, dim, depth, heads, mlp_dim,
             pool='cls', channels=3, dim_head=64):
    image_height, image_width = pair(image_size)
    patch_height, patch_width = pair(patch_size)
    assert image_height % patch_height == 0 and image_width % patch_width == 0
    num_patches = (image_height // patch_height) * (image_width // patch_width)
    patch_dim = channels * patch_height * patch_width
    assert pool in ('cls', 'mean')
    num_cls_tokens = 1 if pool == 'cls' else 0
    inner_dim = dim_head * heads
    project_out = not (heads == 1 and dim_head == dim)
    layers = []
    for _ in range(depth):
        attn = (ln(dim), lin(dim, inner_dim * 3, bias=False),
                lin(inner_dim, dim) if project_out else None)
        layers.append((attn, (ln(dim), lin(dim, mlp_dim), lin(mlp_dim, dim))))
    patch = (ln(patch_dim), lin(patch_dim, dim), ln(dim))
    cls_token = random_normal((num_cls_tokens, dim))
    pos_embedding = random_normal((num_patches + num_cls_tokens, dim))
    mlp_head = lin(dim, num_classes) if num_classes > 0 else None
    return (patch_height, patch_width), patch, cls_token, pos_embedding, layers, ln(dim), mlp_head


def to_patch_embedding(img, p1, p2, patch):
    b, c, H, W = img.shape
    h, w = H // p1, W // p2
    x = reshape(img, (b, c, h, p1, w, p2))
    x = reshape(transpose(x, (0, 2, 4, 3, 5, 1)), (b, h * w, p1 * p2 * c))
    norm1, proj, norm2 = patch
    x = layer_norm(x, norm1[0], norm1[1])
    x = linear(x, proj[0], proj[1])
    return layer_norm(x, norm2[0], norm2[1])


def vit(params, img, pool, heads, dim_head, dropout_p=0.0, emb_dropout=0.0):
    (p1, p2), patch, cls_token, pos_embedding, layers, norm, mlp_head = params
    batch = img.shape[0]
    x = to_patch_embedding(img, p1, p2, patch)
    cls_tokens = broadcast_to(expand_dims(cls_token, 0), (batch,) + cls_token.shape)
    x = concat((cls_tokens, x), axis=1)
    seq = x.shape[1]
    x = x + pos_embedding[:seq]
    x = dropout(x, emb_dropout)
    for attn, ff in layers:
        x = attention(x, attn, heads, dim_head, dropout_p) + x
        x = feed_forward(x, ff, dropout_p) + x
    x = layer_norm(x, norm[0], norm[1])
    if mlp_head is None:
        return x
    x = mean(x, axis=1) if pool == 'mean' else x[:, 0]
    return linear(x, mlp_head[0], mlp_head[1])


if __name__ == "__main__":
    heads, dim_head = 2, 8
    params = vit_init(image_size=32, patch_size=8, num_classes=10, dim=16, depth=2,
                      heads=heads, mlp_dim=32, pool='cls', channels=3, dim_head=dim_head)
    img = random_normal((2, 3, 32, 32))
    preds = vit(params, img, 'cls', heads, dim_head, 0.1, 0.1)
    assert preds.shape == (2, 10)
    print("vit ok")
