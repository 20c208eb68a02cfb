"""Smoothing filters stamped out by a factory with derived constants and helpers.

Each filter is built once per configuration: the factory computes its
coefficients from its arguments (locals that Numba freezes into the kernel)
and defines the device functions the kernel uses next to it.
"""
import math

import numpy as np
from numba import cuda

THREADS = 64


def make_smoother(alpha, passes=1, clamp_to=None):
    """Return a kernel that blends each sample with its neighbours."""
    beta = (1.0 - alpha) / 2.0
    gain = alpha + 2.0 * beta
    limit = math.inf if clamp_to is None else float(clamp_to)
    steps = max(1, int(passes))

    @cuda.jit(device=True)
    def clamp(x):
        if x > limit:
            return limit
        if x < -limit:
            return -limit
        return x

    @cuda.jit(device=True)
    def blend(left, mid, right):
        return clamp((alpha * mid + beta * (left + right)) / gain)

    @cuda.jit
    def smooth(src, dst):
        i = cuda.grid(1)
        n = src.shape[0]
        if i < n:
            value = src[i]
            for _ in range(steps):
                left = src[i - 1] if i > 0 else src[i]
                right = src[i + 1] if i + 1 < n else src[i]
                value = blend(left, value, right)
            dst[i] = value

    return smooth


gentle = make_smoother(0.8)
strong = make_smoother(0.2, passes=3, clamp_to=1.5)


def run(kernel, signal):
    out = np.empty_like(signal)
    blocks = (signal.size + THREADS - 1) // THREADS
    kernel[blocks, THREADS](signal, out)
    return out


if __name__ == "__main__":
    rng = np.random.default_rng(4)
    x = rng.normal(0.0, 1.0, 300)
    print(run(gentle, x)[:5], run(strong, x)[:5])
