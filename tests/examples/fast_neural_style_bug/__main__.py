"""Stylise a random batch of images, as neural_style.py's stylize does."""
from fathom import *

from .transformer_net import TransformerNet


def stylize(style_model, content_image):
    # content_image: a batch of RGB images in [0, 255]
    output = style_model(content_image)
    return clip(output, 0.0, 255.0)


if __name__ == "__main__":
    style_model = TransformerNet()
    content_image = random_uniform((2, 3, 16, 16)) * 255.0
    output = stylize(style_model, content_image)
    assert output.shape == (2, 3, 16, 16)
    print("fast neural style (package) ok", output.shape)
