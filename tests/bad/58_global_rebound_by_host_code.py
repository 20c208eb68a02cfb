# Numba would see N = 15 and M = 3 (when run as a script); pykern evaluates only `NAME = value`.
from numba import cuda
# pykern: --sig k=void(float64[:])
N = 10
N += 5
if __name__ == "__main__":
    M = 3

@cuda.jit
def k(a):
    a[0] = N + M
