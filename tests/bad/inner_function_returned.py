from numba import cuda
# pykern: --sig k=void(int64[:], int64)
# A device function cannot return its inner function (Numba: it may escape).

@cuda.jit(device=True)
def make_adder(s):
    def add(x):
        return x + s
    return add

@cuda.jit
def k(out, n):
    out[0] = make_adder(n)(1)
