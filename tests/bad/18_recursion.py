from numba import cuda
# pykern: --sig k=void(int64[:])
# A recursion with no base case: Numba cannot type it either ("runaway recursion").

@cuda.jit(device=True)
def runaway(n):
    return n * runaway(n - 1)

@cuda.jit
def k(a):
    a[0] = runaway(a[1])
