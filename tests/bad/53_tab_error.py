from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit
def k(a):
    if a[0] > 0:
	a[1] = 1
