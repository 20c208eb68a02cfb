# Recorded from numba.cuda.tests.cudapy.test_random (TestCudaRandomXoroshiro128p.test_normal_float32) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda.random import xoroshiro128p_normal_float32
from numba.cuda.random import xoroshiro128p_uniform_float32

NORMAL = 2
UNIFORM = 1


@cuda.jit
def rng_kernel_float32(states, out, count, distribution):
    thread_id = cuda.grid(1)

    for i in range(count):
        idx = thread_id * count + i

        if distribution == UNIFORM:
            out[idx] = xoroshiro128p_uniform_float32(states, thread_id)
        elif distribution == NORMAL:
            out[idx] = xoroshiro128p_normal_float32(states, thread_id)
