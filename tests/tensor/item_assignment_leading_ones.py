# x[idx] = v where v has more dims than the region x[idx]: numpy's setitem
# drops leading dims of size 1, so a (1, N) row fits an (N,) region (the
# GAE loop of cleanrl's ppo.py stores a (1, num_envs) value in
# advantages[t]); a leading dim other than 1 is still a shape-mismatch.
from __future__ import annotations
from fathom import *
from typing import reveal_type


def gae_row(rewards: Tensor[f32, (S, E)], next_value: Tensor[f32, (1, E)]):
    advantages = zeros_like(rewards)
    advantages[0] = rewards[0] + next_value
    advantages[1:2] = expand_dims(next_value, 0)
    reveal_type(advantages)  # expect-type: Tensor[f32, (S, E)]
    return advantages


def bad_rows(x: Tensor[f32, (B, 4)], y: Tensor[f32, (2, 4)], z: Tensor[f32, (1, 3)]):
    x[0] = y  # expect-error: shape-mismatch
    x[0] = z  # expect-error: shape-mismatch
    return x
