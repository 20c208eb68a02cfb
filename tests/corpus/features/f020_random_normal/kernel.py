# Normal and uniform draws from numba.cuda.random, and seeding a state inside a kernel.
from numba import cuda
from numba.cuda.random import (init_xoroshiro128p_state, xoroshiro128p_normal_float32,
                               xoroshiro128p_normal_float64, xoroshiro128p_uniform_float64)


@cuda.jit
def draw(states, seeded, out32, out64, uniform):
    i = cuda.grid(1)
    if i < states.shape[0]:
        for k in range(4):
            out32[i, k] = xoroshiro128p_normal_float32(states, i)
            out64[i, k] = xoroshiro128p_normal_float64(states, i)
            uniform[i, k] = xoroshiro128p_uniform_float64(states, i)
        init_xoroshiro128p_state(seeded, i, i * 7 + 1)
