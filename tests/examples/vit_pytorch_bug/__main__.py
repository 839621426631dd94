"""Classify a batch of random 32x32 images with a tiny ViT."""
from fathom import *

from .vit import ViT

if __name__ == "__main__":
    v = ViT(
        image_size=32,
        patch_size=8,
        num_classes=10,
        dim=16,
        depth=2,
        heads=2,
        mlp_dim=32,
        dim_head=8,
        dropout=0.1,
        emb_dropout=0.1
    )
    img = random_normal((2, 3, 32, 32))
    preds = v(img)  # (2, 10)
    assert preds.shape == (2, 10)
    print("vit_pytorch (package) ok")
