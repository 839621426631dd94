# An assertion that always fails shows the values its comparison saw
# (PPO's gae_advantages given the values without their bootstrap row).
from fathom import *


def gae_advantages(rewards, values):
    assert rewards.shape[0] + 1 == values.shape[0], "one more value needed"
    return rewards - values[:-1]


def check_shape(x):
    assert x.shape == (2, 4)
    return x


if __name__ == "__main__":
    print(gae_advantages(ones((5, 2)), ones((5, 2))))
    print(check_shape(ones((2, 3))))
