"""Sorting small segments with a bitonic network in shared memory.

Each block sorts one segment of SEGMENT keys (ascending), carrying an index
payload along so that the permutation can be applied to other columns.
Segments shorter than SEGMENT are padded with the largest int32.
"""
import numpy as np
from numba import cuda, int32

SEGMENT = 128
PAD_KEY = 2 ** 31 - 1          # largest int32: padding sorts last


@cuda.jit(device=True)
def compare_swap(keys, vals, i, j, ascending):
    if (keys[i] > keys[j]) == ascending:
        keys[i], keys[j] = keys[j], keys[i]
        vals[i], vals[j] = vals[j], vals[i]


@cuda.jit
def bitonic_segments(keys_in, seg_len, keys_out, perm_out):
    keys = cuda.shared.array(SEGMENT, int32)
    vals = cuda.shared.array(SEGMENT, int32)
    seg = cuda.blockIdx.x
    t = cuda.threadIdx.x
    n = seg_len[seg]

    keys[t] = keys_in[seg, t] if t < n else PAD_KEY
    vals[t] = t
    cuda.syncthreads()

    size = 2
    while size <= SEGMENT:
        stride = size // 2
        while stride > 0:
            partner = t ^ stride
            if partner > t:
                compare_swap(keys, vals, t, partner, (t & size) == 0)
            cuda.syncthreads()
            stride //= 2
        size *= 2

    keys_out[seg, t] = keys[t]
    perm_out[seg, t] = vals[t]


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    k = rng.integers(-1000, 1000, (3, SEGMENT)).astype(np.int32)
    lens = np.array([128, 100, 7], dtype=np.int32)
    ko = np.zeros_like(k); po = np.zeros_like(k)
    bitonic_segments[3, SEGMENT](k, lens, ko, po)
    print(ko[2, :8], po[2, :8])
