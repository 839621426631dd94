"""K-means clustering: pairwise squared distances by broadcasting, nearest
centroid by argmax of negated distances, centroid update via one_hot
counts, a fixed number of Lloyd iterations in a while loop."""
from __future__ import annotations

from fathom import *


def assign(points, centroids):
    diff = expand_dims(points, 1) - expand_dims(centroids, 0)     # (N, K, D)
    d2 = reduce_sum(diff * diff, axis=-1)                          # (N, K)
    return argmax(-d2, axis=1), min(d2, axis=1)


def update(points, labels, k):
    onehot = one_hot(labels, k)                                    # (N, K)
    counts = reduce_sum(onehot, axis=0)                            # (K,)
    sums = onehot.T @ points                                       # (K, D)
    return sums / expand_dims(maximum(counts, 1.0), 1)


@jit
def kmeans(points: Tensor[f32, (N, D)], init: Tensor[f32, (4, D)], iters: int):
    centroids = init
    it = 0
    inertia = zeros(())
    while it < iters:
        labels, dist = assign(points, centroids)
        centroids = update(points, labels, 4)
        inertia = reduce_sum(dist)
        it += 1
    return centroids, inertia


if __name__ == "__main__":
    pts = random_normal((30, 2))
    c, inertia = kmeans(pts, pts[:4], 5)
    assert c.shape == (4, 2) and inertia.shape == () and c.dtype == f32
    print("kmeans ok", float(inertia))
