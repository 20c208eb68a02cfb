# A list comprehension runs as a loop before its statement; where Python would run it only
# sometimes, or more than once, that is refused rather than run at the wrong time.
import numpy as np
from numba import cuda, njit

# pykern: --sig k=void(float64[::1], boolean)


@njit
def positives(a, flag):
    # evaluated only when flag is true: the loop cannot run before the statement
    picked = [x for x in a if x > 0] if flag else [0.0]
    return len(picked)


@njit
def shrink(a):
    n = a.shape[0]
    while len([x for x in a[:n] if x > 0]) > 2:
        n -= 1
    return n


@njit
def defaults(a, scale=[1.0 for _ in range(3)]):
    return a



@cuda.jit
def k(a, flag):
    a[0] = positives(a, flag) + shrink(a) + defaults(a, a)[0]
