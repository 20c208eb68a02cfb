"""Tiling an unbounded integer world grid (map tiles / chunked storage).

World coordinates can be negative.  A point's tile is found with Python's
floor division and its offset inside the tile with divmod, so the offset is
always in [0, TILE) -- unlike C's truncating division.  Points are then
hashed to storage buckets, also with a floor modulo of a possibly negative
hash.
"""
import numpy as np
from numba import cuda

TILE = 64
N_BUCKETS = 97
HASH_X = 73856093
HASH_Y = -19349663


@cuda.jit(device=True)
def tile_of(v):
    t, off = divmod(v, TILE)
    return t, off


@cuda.jit
def locate(xs, ys, tiles, offsets, buckets, per_bucket):
    i = cuda.grid(1)
    if i >= xs.shape[0]:
        return
    tx, ox = tile_of(xs[i])
    ty = ys[i] // TILE
    oy = ys[i] % TILE
    tiles[i, 0] = tx
    tiles[i, 1] = ty
    offsets[i, 0] = ox
    offsets[i, 1] = oy
    h = tx * HASH_X + ty * HASH_Y
    b = h % N_BUCKETS
    buckets[i] = b
    cuda.atomic.add(per_bucket, b, 1)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    xs = rng.integers(-5000, 5000, 300).astype(np.int32)
    ys = rng.integers(-5000, 5000, 300).astype(np.int64)
    t = np.zeros((300, 2), np.int64); o = np.zeros((300, 2), np.int64)
    b = np.zeros(300, np.int64); pb = np.zeros(N_BUCKETS, np.int32)
    locate[3, 128](xs, ys, t, o, b, pb)
    print(o.min(), o.max(), pb.max())
