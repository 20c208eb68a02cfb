"""Estimating pi by dart throwing, with per-block tallies.

Each thread throws SAMPLES_PER_THREAD darts with Numba's xoroshiro128+
generator, the block sums its hits in shared memory with a tree reduction,
and thread 0 of each block adds the block's tally to the global counters.
"""
import numpy as np
from numba import cuda, int32, int64
from numba.cuda.random import (create_xoroshiro128p_states,
                               xoroshiro128p_uniform_float64)

THREADS_PER_BLOCK = 64
SAMPLES_PER_THREAD = 40


@cuda.jit(device=True)
def inside_unit_circle(x, y):
    return 1 if x * x + y * y <= 1.0 else 0


@cuda.jit
def throw_darts(rng_states, block_hits, totals):
    tid = cuda.threadIdx.x
    gid = cuda.grid(1)
    hits = cuda.shared.array(THREADS_PER_BLOCK, dtype=int32)

    count = 0
    if gid < rng_states.shape[0]:
        for _ in range(SAMPLES_PER_THREAD):
            x = xoroshiro128p_uniform_float64(rng_states, gid)
            y = xoroshiro128p_uniform_float64(rng_states, gid)
            count += inside_unit_circle(x, y)
    hits[tid] = count
    cuda.syncthreads()

    step = THREADS_PER_BLOCK // 2
    while step > 0:
        if tid < step:
            hits[tid] += hits[tid + step]
        cuda.syncthreads()
        step //= 2

    if tid == 0:
        block_hits[cuda.blockIdx.x] = hits[0]
        cuda.atomic.add(totals, 0, hits[0])
        cuda.atomic.add(totals, 1, SAMPLES_PER_THREAD * THREADS_PER_BLOCK)


def estimate_pi(blocks=8, seed=7):
    states = create_xoroshiro128p_states(blocks * THREADS_PER_BLOCK, seed=seed)
    block_hits = np.zeros(blocks, dtype=np.int32)
    totals = np.zeros(2, dtype=np.int64)
    throw_darts[blocks, THREADS_PER_BLOCK](states, block_hits, totals)
    return 4.0 * totals[0] / totals[1]


if __name__ == "__main__":
    print(estimate_pi())
