"""A small filter bank: jitted kernels made by factories at import time and composed in a driver."""
import numpy as np
from numba import njit as jit


def make_gain(k):
    @jit
    def gain(x):
        return x * k
    return gain


def make_clipper(limit):
    @jit(inline='always')
    def clip(x):
        if x > limit:
            return limit
        if x < -limit:
            return -limit
        return x
    return clip


double = make_gain(2.0)
halve = make_gain(0.5)
clip_unit = make_clipper(1.0)


@jit
def square(x):
    return x * x


@jit
def apply_each(f, values):
    out = np.empty_like(values)
    for i in range(values.shape[0]):
        out[i] = f(values[i])
    return out


@jit
def gcd(a, b):
    # self recursion, typed from the base case's return
    if b == 0:
        return a
    return gcd(b, a % b)


@jit
def tree_depth(n):
    if n <= 1:
        return 0
    return 1 + branch_depth(n // 2)


@jit
def branch_depth(n):
    # mutual recursion with tree_depth
    if n <= 1:
        return 1
    return tree_depth(n - 1)


@jit
def filter_bank(signal):
    boosted = apply_each(double, signal)
    limited = apply_each(clip_unit, boosted)
    energy = apply_each(square, limited).sum()
    quiet = halve(energy)
    return limited, energy, quiet, gcd(84, 36), tree_depth(40), clip_unit(-3.5)
