"""CLIP text tower, translated from mlfoundations/open_clip
src/open_clip/transformer.py (Attention, ResidualAttentionBlock,
Transformer, TextTransformer with its causal mask, class token, pad mask,
text_global_pool and the text projection) and model.py (CLIPTextCfg,
_build_text_tower, encode_text with normalisation).

Changed: nn.Module is fathom.Module; nn.Linear / nn.Embedding / nn.Dropout /
nn.Identity / nn.GELU are small classes; the OrderedDict nn.Sequential MLP
is a class with c_fc, gelu, c_proj; hasattr(self, "ln_1_kv") is a None
test; getattr(self, "eos_id", None) is self.eos_id;
F.scaled_dot_product_attention and F.normalize are written out; in-place
fill_/triu_/masked_fill_ are functional; init_parameters' normal_ init is
done by the constructors; torch.clamp(x, max=m) is clip(x, None, m) (the
DSL's clip takes both bounds); the 'custom' block type is left out.
"""
import math
from dataclasses import dataclass
from typing import Optional

from fathom import *


@dataclass
class CLIPTextCfg:
    context_length: int = 77
    vocab_size: int = 49408
    width: int = 512
    heads: int = 8
    layers: int = 12
    mlp_ratio: float = 4.0
    ls_init_value: Optional[float] = None  # layer scale initial value
    embed_cls: bool = False
    pad_id: int = 0
    eos_id: int = 2
    no_causal_mask: bool = False  # disable causal masking
    use_pad_mask: bool = False
    pool_type: str = 'argmax'
    proj_bias: bool = False
    proj_type: str = 'linear'  # control final text projection, 'none' forces no projection
    output_tokens: bool = False


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.02
        self.bias = zeros((out_features,)) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim):
        super().__init__()
        self.weight = random_normal((num_embeddings, embedding_dim)) * 0.02

    def forward(self, ids):
        return embedding(self.weight, ids)


class Dropout(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, x):
        return dropout(x, self.p)


class Identity(Module):
    def forward(self, x):
        return x


class GELU(Module):
    def forward(self, x):
        return gelu(x)


class LayerNorm(Module):
    """Subclass torch's LayerNorm (with cast back to input dtype)."""

    def __init__(self, normalized_shape, eps=1e-5):
        super().__init__()
        self.weight = ones((normalized_shape,))
        self.bias = zeros((normalized_shape,))
        self.eps = eps

    def forward(self, x):
        orig_type = x.dtype
        x = layer_norm(x, self.weight, self.bias, self.eps)
        return cast(x, orig_type)


class LayerScale(Module):
    def __init__(self, dim, init_values=1e-5):
        super().__init__()
        self.gamma = init_values * ones((dim,))

    def forward(self, x):
        return x * self.gamma


def checkpoint(fn, *args, use_reentrant=False):
    return fn(*args)


def scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0.0, scale=None):
    scale = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    attn = (q @ k.transpose(-2, -1)) * scale
    if attn_mask is not None:
        attn = attn + attn_mask
    attn = softmax(attn, axis=-1)
    attn = dropout(attn, dropout_p)
    return attn @ v


def normalize(x, dim=-1, eps=1e-12):
    return x / maximum(sqrt(sum(x * x, axis=dim, keepdims=True)), eps)


class Attention(Module):
    def __init__(
            self,
            dim,
            num_heads=8,
            qkv_bias=True,
            scaled_cosine=False,
            scale_heads=False,
            logit_scale_max=math.log(1. / 0.01),
            attn_drop=0.,
            proj_drop=0.,
            use_sdpa=True,
    ):
        super().__init__()
        self.scaled_cosine = scaled_cosine
        self.scale_heads = scale_heads
        assert dim % num_heads == 0, 'dim should be divisible by num_heads'
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.logit_scale_max = logit_scale_max
        self.use_sdpa = use_sdpa

        self.in_proj_weight = random_normal((dim * 3, dim)) * dim ** -0.5
        if qkv_bias:
            self.in_proj_bias = zeros((dim * 3,))
        else:
            self.in_proj_bias = None

        # Scaled cosine attention (from Swin Transformer V2, https://arxiv.org/abs/2111.09883)
        if self.scaled_cosine:
            self.logit_scale = log(10 * ones((num_heads, 1, 1)))
        else:
            self.logit_scale = None

        self.attn_drop = Dropout(attn_drop)

        # Per-head attention logit scaling (from NormFormer, https://arxiv.org/abs/2110.09456)
        if self.scale_heads:
            self.head_scale = ones((num_heads, 1, 1))
        else:
            self.head_scale = None

        self.out_proj = Linear(dim, dim)
        self.out_drop = Dropout(proj_drop)

    def forward(self, x, attn_mask=None):
        N, L, C = x.shape
        q, k, v = linear(x, self.in_proj_weight, self.in_proj_bias).chunk(3, axis=-1)
        q = q.reshape(N, L, self.num_heads, -1).transpose(1, 2)
        k = k.reshape(N, L, self.num_heads, -1).transpose(1, 2)
        v = v.reshape(N, L, self.num_heads, -1).transpose(1, 2)

        if attn_mask is not None and attn_mask.ndim == 3:
            # reshape (N*num_heads, L, L) -> (N, num_heads, L, L)
            attn_mask = attn_mask.reshape(N, self.num_heads, L, L)

        if self.logit_scale is not None:
            attn = normalize(q, dim=-1) @ normalize(k, dim=-1).transpose(-1, -2)
            logit_scale = exp(clip(self.logit_scale, None, self.logit_scale_max))
            attn = attn * logit_scale
            if attn_mask is not None:
                attn = attn + attn_mask
            attn = softmax(attn, axis=-1)
            attn = self.attn_drop(attn)
            x = attn @ v
        else:
            if self.use_sdpa:
                x = scaled_dot_product_attention(
                    q, k, v,
                    attn_mask=attn_mask,
                    dropout_p=0.,
                    scale=self.scale,
                )
            else:
                q = q * self.scale
                attn = q @ k.transpose(-1, -2)
                if attn_mask is not None:
                    attn = attn + attn_mask
                attn = softmax(attn, axis=-1)
                attn = self.attn_drop(attn)
                x = attn @ v

        # N, num_heads, L, head_dim
        if self.head_scale is not None:
            x = x * self.head_scale
        x = x.transpose(1, 2).reshape(N, L, C)
        x = self.out_proj(x)
        x = self.out_drop(x)
        return x


class Mlp(Module):
    def __init__(self, d_model, mlp_width, act_layer=GELU):
        super().__init__()
        self.c_fc = Linear(d_model, mlp_width)
        self.gelu = act_layer()
        self.c_proj = Linear(mlp_width, d_model)

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class ResidualAttentionBlock(Module):
    def __init__(
            self,
            d_model,
            n_head,
            mlp_ratio=4.0,
            ls_init_value=None,
            act_layer=GELU,
            norm_layer=LayerNorm,
    ):
        super().__init__()

        self.ln_1 = norm_layer(d_model)
        self.attn = Attention(d_model, num_heads=n_head, qkv_bias=True)
        self.ls_1 = LayerScale(d_model, ls_init_value) if ls_init_value is not None else Identity()

        self.ln_2 = norm_layer(d_model)
        mlp_width = int(d_model * mlp_ratio)
        self.mlp = Mlp(d_model, mlp_width, act_layer=act_layer)
        self.ls_2 = LayerScale(d_model, ls_init_value) if ls_init_value is not None else Identity()

    def attention(self, q_x, attn_mask=None):
        attn_mask = cast(attn_mask, q_x.dtype) if attn_mask is not None else None
        return self.attn(q_x, attn_mask=attn_mask)

    def forward(self, q_x, attn_mask=None):
        x = q_x + self.ls_1(self.attention(self.ln_1(q_x), attn_mask=attn_mask))
        x = x + self.ls_2(self.mlp(self.ln_2(x)))
        return x


class Transformer(Module):
    def __init__(
            self,
            width,
            layers,
            heads,
            mlp_ratio=4.0,
            ls_init_value=None,
            act_layer=GELU,
            norm_layer=LayerNorm,
    ):
        super().__init__()
        self.width = width
        self.layers = layers
        self.grad_checkpointing = False

        self.resblocks = [
            ResidualAttentionBlock(
                width,
                heads,
                mlp_ratio,
                ls_init_value=ls_init_value,
                act_layer=act_layer,
                norm_layer=norm_layer,
            )
            for _ in range(layers)
        ]

    def get_cast_dtype(self):
        return self.resblocks[0].mlp.c_fc.weight.dtype

    def forward(self, x, attn_mask=None):
        for r in self.resblocks:
            if self.grad_checkpointing:
                x = checkpoint(r, x, attn_mask, use_reentrant=False)
            else:
                x = r(x, attn_mask=attn_mask)

        return x


def _expand_token(token, batch_size):
    return broadcast_to(token.view(1, 1, -1), (batch_size, 1, token.shape[-1]))


def text_global_pool(x, text=None, pool_type='argmax', eos_token_id=None):
    if pool_type == 'first':
        pooled = x[:, 0]
    elif pool_type == 'last':
        pooled = x[:, -1]
    elif pool_type == 'argmax':
        # take features from the eot embedding (eot_token is the highest number in each sequence)
        assert text is not None
        pooled = x[arange(x.shape[0]), argmax(text, axis=-1)]
    elif pool_type == 'eos':
        # take features from tokenizer specific eos
        assert text is not None
        assert eos_token_id is not None
        idx = argmax(cast(text == eos_token_id, i32), axis=-1)
        pooled = x[arange(x.shape[0]), idx]
    else:
        pooled = x

    return pooled


class TextTransformer(Module):
    def __init__(
            self,
            context_length=77,
            vocab_size=49408,
            width=512,
            heads=8,
            layers=12,
            mlp_ratio=4.0,
            ls_init_value=None,
            output_dim=512,
            embed_cls=False,
            no_causal_mask=False,
            use_pad_mask=False,
            correct_cls_mask=False,
            pad_id=0,
            eos_id=2,
            pool_type='argmax',
            proj_type='linear',
            proj_bias=False,
            act_layer=GELU,
            norm_layer=LayerNorm,
            output_tokens=False,
    ):
        super().__init__()
        assert pool_type in ('first', 'last', 'argmax', 'eos', 'none')
        self.output_tokens = output_tokens
        self.num_pos = self.context_length = context_length
        self.vocab_size = vocab_size
        self.width = width
        self.output_dim = output_dim
        self.heads = heads
        self.pad_id = pad_id
        self.eos_id = eos_id
        self.pool_type = pool_type
        self.use_pad_mask = use_pad_mask and no_causal_mask  # only use in bi-dir mode
        self.correct_cls_mask = correct_cls_mask  # use the correct cls mask for CoCa (original is wrong)

        self.token_embedding = Embedding(vocab_size, width)
        if embed_cls:
            self.cls_emb = random_normal((width,)) * 0.01
            self.num_pos += 1
        else:
            self.cls_emb = None
        self.positional_embedding = random_normal((self.num_pos, width)) * 0.01
        self.transformer = Transformer(
            width=width,
            layers=layers,
            heads=heads,
            mlp_ratio=mlp_ratio,
            ls_init_value=ls_init_value,
            act_layer=act_layer,
            norm_layer=norm_layer,
        )
        self.ln_final = norm_layer(width)

        if no_causal_mask:
            self.attn_mask = None  # bi-directional
        else:
            self.attn_mask = self.build_causal_mask()

        if proj_type == 'none' or not output_dim:
            self.text_projection = None
        else:
            if proj_bias:
                self.text_projection = Linear(width, output_dim)
            else:
                self.text_projection = random_normal((width, output_dim)) * width ** -0.5

    def build_causal_mask(self):
        # lazily create causal attention mask, with full attention between the tokens
        # pytorch uses additive attention mask; fill with -inf
        mask = full((self.num_pos, self.num_pos), float("-inf"))
        mask = triu(mask, 1)  # zero out the lower diagonal
        return mask

    def _build_additive_mask(self, text, seq_len, dtype):
        """
        Returns an additive (-inf) mask of shape [B*heads, seq_len, seq_len] that
        simultaneously masks padding tokens and (optionally) the CLS token.
        """
        valid = text != self.pad_id  # [B, L] (True = keep)

        if self.cls_emb is not None:
            cls_valid = ones((valid.shape[0], 1), dtype=bool_)  # [B, 1]
            # cls mask pos at end if correct or front for incorrect legacy mode in existing CoCa weights
            valid = concat([valid, cls_valid] if self.correct_cls_mask else [cls_valid, valid], 1)

        # broadcast over query dimension
        key_mask = broadcast_to(expand_dims(valid, 1), (valid.shape[0], seq_len, valid.shape[1]))  # [B, Q, K]
        additive = zeros_like(key_mask, dtype=dtype)
        additive = additive.masked_fill(~key_mask, float("-inf"))
        additive = additive.repeat_interleave(self.heads, 0)  # [B*H, Q, K]
        return additive

    def _embeds(self, text):
        cast_dtype = self.transformer.get_cast_dtype()
        B, seq_len = text.shape

        x = cast(self.token_embedding(text), cast_dtype)

        # Optional class token (always appended ala CoCa)
        if self.cls_emb is not None:
            x = concat([x, _expand_token(self.cls_emb, x.shape[0])], 1)
            seq_len += 1

        attn_mask = self.attn_mask  # Base causal mask (if any)
        if attn_mask is not None:
            attn_mask = attn_mask[:seq_len, :seq_len]

        # Class + padding additive mask
        if self.use_pad_mask or self.cls_emb is not None:
            add_mask = self._build_additive_mask(text, seq_len, x.dtype)
            if attn_mask is not None:
                attn_mask = expand_dims(attn_mask, 0) + add_mask
            else:
                attn_mask = add_mask

        x = x + cast(self.positional_embedding[:seq_len], cast_dtype)
        return x, attn_mask

    def forward(self, text):
        x, attn_mask = self._embeds(text)

        x = self.transformer(x, attn_mask=attn_mask)

        # x.shape = [batch_size, n_ctx, transformer.width]
        if self.cls_emb is not None:
            # presence of appended cls embed (CoCa) overrides pool_type, always take last token
            pooled = text_global_pool(x, pool_type='last')
            pooled = self.ln_final(pooled)  # final LN applied after pooling in this case
            tokens = x[:, :-1]
        else:
            x = self.ln_final(x)
            pooled = text_global_pool(x, text, pool_type=self.pool_type, eos_token_id=self.eos_id)
            tokens = x

        if self.text_projection is not None:
            if isinstance(self.text_projection, Linear):
                pooled = self.text_projection(pooled)
            else:
                pooled = pooled @ self.text_projection

        if self.output_tokens:
            return pooled, tokens

        return pooled


def _build_text_tower(embed_dim, text_cfg):
    text = TextTransformer(
        context_length=text_cfg.context_length,
        vocab_size=text_cfg.vocab_size,
        width=text_cfg.width,
        heads=text_cfg.heads,
        layers=text_cfg.layers,
        mlp_ratio=text_cfg.mlp_ratio,
        ls_init_value=text_cfg.ls_init_value,
        output_dim=embed_dim,
        embed_cls=text_cfg.embed_cls,
        no_causal_mask=text_cfg.no_causal_mask,
        use_pad_mask=text_cfg.use_pad_mask,
        pad_id=text_cfg.pad_id,
        eos_id=text_cfg.eos_id,
        pool_type=text_cfg.pool_type,
        proj_type=text_cfg.proj_type,
        proj_bias=text_cfg.proj_bias,
        output_tokens=text_cfg.output_tokens,
    )
    return text


class CLIPText(Module):
    """The text half of open_clip's CLIP: encode_text and the logit scale."""

    def __init__(self, embed_dim, text_cfg):
        super().__init__()
        self.text = _build_text_tower(embed_dim, text_cfg)
        self.logit_scale = ones(()) * math.log(1 / 0.07)

    def encode_text(self, text, normalize_out=False):
        features = self.text(text)
        return normalize(features, dim=-1) if normalize_out else features

    def forward(self, text, image_features):
        text_features = self.encode_text(text, normalize_out=True)
        logits_per_image = exp(self.logit_scale) * image_features @ text_features.T
        return logits_per_image, logits_per_image.T


if __name__ == "__main__":
    embed_dim = 16
    cfg = CLIPTextCfg(context_length=8, vocab_size=64, width=32, heads=2, layers=2)
    model = CLIPText(embed_dim, cfg)
    text = cast(random_uniform((3, 8)) * cfg.vocab_size, i64)
    image_features = normalize(random_normal((2, embed_dim)))
    logits_per_image, logits_per_text = model(text, image_features)
    assert logits_per_image.shape == (2, 3) and logits_per_text.shape == (3, 2)

    # a bi-directional tower with a padding mask, a biased projection, ls and eos pooling
    bcfg = CLIPTextCfg(context_length=8, vocab_size=64, width=32, heads=4, layers=1,
                       no_causal_mask=True, use_pad_mask=True, proj_bias=True,
                       ls_init_value=1e-4, pool_type='eos')
    btower = _build_text_tower(embed_dim, bcfg)
    assert btower(text).shape == (3, embed_dim)
    print("clip text ok", logits_per_image.shape)
