"""Closures read their variables when they are called, as Python's do: a loop that rebinds a
captured variable changes what the inner function sees. Inner functions nest, one defined in a
device function reads that function's parameters, and one that captures nothing can be handed
to another device function (numba-cuda turns it into a function of its own)."""
from numba import cuda


@cuda.jit(device=True)
def apply_twice(func, v):
    return func(func(v))


@cuda.jit(device=True)
def polynomial(coeffs, x):
    def term(k):
        p = 1.0
        for _ in range(k):
            p *= x
        return coeffs[k] * p

    total = 0.0
    for k in range(coeffs.shape[0]):
        total += term(k)
    return total


@cuda.jit
def closures(xs, coeffs, out):
    i = cuda.grid(1)
    if i >= xs.shape[0]:
        return
    x = xs[i]
    offset = 1.0

    def shifted(v):
        return v + offset

    def halve(v):
        return v * 0.5

    acc = 0.0
    for step in range(4):
        offset = step * 0.25
        acc += shifted(x)

    def outer(v):
        def inner(w):
            return w * offset + x
        return inner(v) - offset

    out[i, 0] = acc
    out[i, 1] = outer(2.0)
    out[i, 2] = apply_twice(halve, x)
    out[i, 3] = polynomial(coeffs, x)
