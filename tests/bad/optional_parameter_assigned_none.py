from numba import cuda, njit
# pykern: --sig k=void(float64[:])
# A parameter keeps its argument's type in pykern; None assigned to an array parameter (which
# Numba's SSA would make an Optional from there on) is refused at the assignment, not
# converted into a bad array.

@njit
def total(b):
    s = 0.0
    while b is not None:
        s += b.sum()
        b = None
    return s

@cuda.jit
def k(a):
    a[0] = total(a)
