"""Elementwise binary kernels stamped out by a factory.

A small array library generates one kernel per operator; the operator (a
Python operator or a device function) and a scale are closure variables that
Numba freezes into each kernel.
"""
import math
import operator

import numpy as np
from numba import cuda

THREADS = 128


@cuda.jit(device=True)
def hypot(a, b):
    return math.sqrt(a * a + b * b)


@cuda.jit(device=True)
def soft_max2(a, b):
    m = max(a, b)
    return m + math.log(math.exp(a - m) + math.exp(b - m))


def make_binary_kernel(op, scale=1.0):
    """Return a kernel computing out[i] = scale * op(x[i], y[i])."""
    @cuda.jit
    def binary(x, y, out):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = scale * op(x[i], y[i])
    return binary


add = make_binary_kernel(operator.add)
mul = make_binary_kernel(operator.mul, 0.5)
norm2 = make_binary_kernel(hypot, scale=2.0)
lse = make_binary_kernel(soft_max2)


def launch(kernel, x, y):
    out = np.zeros_like(x)
    kernel[(x.size + THREADS - 1) // THREADS, THREADS](x, y, out)
    return out


if __name__ == "__main__":
    rng = np.random.default_rng(9)
    x = rng.standard_normal(500)
    y = rng.standard_normal(500)
    for k in (add, mul, norm2, lse):
        print(launch(k, x, y)[:3])
