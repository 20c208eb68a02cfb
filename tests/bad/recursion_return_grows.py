from numba import cuda
# pykern: --sig k=void(int64[:])
# Each level returns a tuple holding the level below: Numba's "Return type of recursive
# function does not converge".

@cuda.jit(device=True)
def chain(n):
    if n <= 0:
        return None
    return (n, chain(n - 1))

@cuda.jit
def k(a):
    chain(a[0])
