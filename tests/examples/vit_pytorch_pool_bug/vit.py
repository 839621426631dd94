"""Planted bug: mean pooling is written with torch's keyword (x.mean(dim=1)),
which the DSL's mean does not take; __main__ keeps pool='cls', so only the
side of the conditional that the pool flag prunes is wrong.

ViT: vit_pytorch/vit.py's classes."""
from fathom import *

from .layers import GELU, Dropout, Identity, LayerNorm, Linear, PatchRearrange, Sequential

# helpers


def pair(t):
    return t if isinstance(t, tuple) else (t, t)

# classes


class FeedForward(Module):
    def __init__(self, dim, hidden_dim, dropout=0.):
        super().__init__()
        self.net = Sequential(
            LayerNorm(dim),
            Linear(dim, hidden_dim),
            GELU(),
            Dropout(dropout),
            Linear(hidden_dim, dim),
            Dropout(dropout)
        )

    def forward(self, x):
        return self.net(x)


class Attention(Module):
    def __init__(self, dim, heads=8, dim_head=64, dropout=0.):
        super().__init__()
        inner_dim = dim_head * heads
        project_out = not (heads == 1 and dim_head == dim)

        self.heads = heads
        self.scale = dim_head ** -0.5

        self.norm = LayerNorm(dim)

        self.dropout = Dropout(dropout)

        self.to_qkv = Linear(dim, inner_dim * 3, bias=False)

        self.to_out = Sequential(
            Linear(inner_dim, dim),
            Dropout(dropout)
        ) if project_out else Identity()

    def forward(self, x):
        x = self.norm(x)
        qkv = self.to_qkv(x).chunk(3, axis=-1)
        b, n, _ = x.shape
        q, k, v = tuple(transpose(reshape(t, (b, n, self.heads, -1)), (0, 2, 1, 3)) for t in qkv)

        dots = matmul(q, k.transpose(-1, -2)) * self.scale

        attn = softmax(dots, axis=-1)
        attn = self.dropout(attn)

        out = matmul(attn, v)
        out = reshape(transpose(out, (0, 2, 1, 3)), (b, n, -1))
        return self.to_out(out)


class Transformer(Module):
    def __init__(self, dim, depth, heads, dim_head, mlp_dim, dropout=0.):
        super().__init__()
        self.norm = LayerNorm(dim)
        self.layers = []
        for _ in range(depth):
            self.layers.append((
                Attention(dim, heads=heads, dim_head=dim_head, dropout=dropout),
                FeedForward(dim, mlp_dim, dropout=dropout)
            ))

    def forward(self, x):
        for attn, ff in self.layers:
            x = attn(x) + x
            x = ff(x) + x

        return self.norm(x)


class ViT(Module):
    def __init__(self, *, image_size, patch_size, num_classes, dim, depth, heads, mlp_dim, pool='cls', channels=3, dim_head=64, dropout=0., emb_dropout=0.):
        super().__init__()
        image_height, image_width = pair(image_size)
        patch_height, patch_width = pair(patch_size)

        assert image_height % patch_height == 0 and image_width % patch_width == 0, 'Image dimensions must be divisible by the patch size.'

        num_patches = (image_height // patch_height) * (image_width // patch_width)
        patch_dim = channels * patch_height * patch_width
        assert pool in ('cls', 'mean'), 'pool type must be either cls (cls token) or mean (mean pooling)'

        self.to_patch_embedding = Sequential(
            PatchRearrange(patch_height, patch_width),
            LayerNorm(patch_dim),
            Linear(patch_dim, dim),
            LayerNorm(dim),
        )

        self.pos_embedding = random_normal((1, num_patches + 1, dim))
        self.cls_token = random_normal((1, 1, dim))
        self.dropout = Dropout(emb_dropout)

        self.transformer = Transformer(dim, depth, heads, dim_head, mlp_dim, dropout)

        self.pool = pool
        self.to_latent = Identity()

        self.mlp_head = Linear(dim, num_classes)

    def forward(self, img):
        x = self.to_patch_embedding(img)
        b, n, _ = x.shape

        cls_tokens = broadcast_to(self.cls_token, (b, 1, self.cls_token.shape[-1]))
        x = concat((cls_tokens, x), axis=1)
        x += self.pos_embedding[:, :(n + 1)]
        x = self.dropout(x)

        x = self.transformer(x)

        x = x.mean(dim=1) if self.pool == 'mean' else x[:, 0]  # expect-error: arity

        x = self.to_latent(x)
        return self.mlp_head(x)
