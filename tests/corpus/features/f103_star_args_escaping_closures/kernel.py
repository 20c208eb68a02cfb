"""Generic helpers that take a function and its arguments (`def apply(f, *args)`), as kernel
libraries write them, handed inner functions of the kernel. numba-cuda passes on an inner
function whose captured variables are constants (it freezes them), and `*args` packs the extra
positional arguments into a tuple that `f(*args)` unpacks again."""
import math

from numba import cuda


@cuda.jit(device=True)
def apply(func, *args):
    return func(*args)


@cuda.jit(device=True)
def accumulate(func, values, *extra):
    total = 0.0
    for k in range(values.shape[0]):
        total += func(values[k], *extra)
    return total


@cuda.jit(device=True)
def count_args(*args):
    return len(args)


@cuda.jit
def weighted(values, out):
    i = cuda.grid(1)
    if i >= out.shape[0]:
        return
    order = 3
    clipped = True

    def power(x):
        p = 1.0
        for _ in range(order):
            p *= x
        return p

    def clip(x, lo, hi=1.0):
        if clipped:
            return min(max(x, lo), hi)
        return x

    def hypot3(a, b, c):
        return math.sqrt(a * a + b * b + c * c)

    x = values[i]
    out[i, 0] = apply(power, x)
    out[i, 1] = accumulate(clip, values, -0.5)
    out[i, 2] = accumulate(clip, values, -0.25, 0.25)
    out[i, 3] = apply(hypot3, x, 2.0, i)
    out[i, 4] = count_args() + count_args(x, i, order)
