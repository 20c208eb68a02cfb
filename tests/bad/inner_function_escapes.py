from numba import cuda
# pykern: --sig k=void(float64[:], float64)
# `scaled` reads the kernel's `s`: Numba passes a closure to another function only when what
# it captures is a constant.

@cuda.jit(device=True)
def apply(func, x):
    return func(x)

@cuda.jit
def k(out, s):
    def scaled(x):
        return x * s
    out[0] = apply(scaled, 4.0)
