"""Work-efficient exclusive prefix sums (Blelloch scan), one block per chunk.

Each block scans 2 * THREADS elements in shared memory and writes the total
of its chunk to `block_sums`; a second pass (`add_offsets`) adds the scanned
block totals, as in stream-compaction and radix-sort pipelines.
"""
import numpy as np
from numba import cuda, int32

THREADS = 64
CHUNK = 2 * THREADS


@cuda.jit
def scan_chunks(values, out, block_sums):
    temp = cuda.shared.array(CHUNK, dtype=int32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * CHUNK
    n = values.shape[0]

    ai = t
    bi = t + THREADS
    temp[ai] = values[base + ai] if base + ai < n else 0
    temp[bi] = values[base + bi] if base + bi < n else 0

    # up-sweep
    offset = 1
    d = CHUNK >> 1
    while d > 0:
        cuda.syncthreads()
        if t < d:
            a = offset * (2 * t + 1) - 1
            b = offset * (2 * t + 2) - 1
            temp[b] += temp[a]
        offset <<= 1
        d >>= 1

    if t == 0:
        block_sums[cuda.blockIdx.x] = temp[CHUNK - 1]
        temp[CHUNK - 1] = 0

    # down-sweep
    d = 1
    while d < CHUNK:
        offset >>= 1
        cuda.syncthreads()
        if t < d:
            a = offset * (2 * t + 1) - 1
            b = offset * (2 * t + 2) - 1
            saved = temp[a]
            temp[a] = temp[b]
            temp[b] += saved
        d *= 2
    cuda.syncthreads()

    if base + ai < n:
        out[base + ai] = temp[ai]
    if base + bi < n:
        out[base + bi] = temp[bi]


@cuda.jit
def add_offsets(out, scanned_block_sums):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] += scanned_block_sums[i // CHUNK]


def exclusive_scan(values):
    n_blocks = (values.size + CHUNK - 1) // CHUNK
    out = np.zeros_like(values)
    sums = np.zeros(n_blocks, dtype=values.dtype)
    scan_chunks[n_blocks, THREADS](values, out, sums)
    offsets = np.concatenate([[0], np.cumsum(sums)[:-1]]).astype(values.dtype)
    add_offsets[(values.size + 127) // 128, 128](out, offsets)
    return out


if __name__ == "__main__":
    v = np.arange(1, 301, dtype=np.int32)
    assert (exclusive_scan(v) == np.concatenate([[0], np.cumsum(v)[:-1]])).all()
