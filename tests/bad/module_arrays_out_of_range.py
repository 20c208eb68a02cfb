import numpy as np
from numba import cuda
# pykern: --sig k=void(float64[:])
A = np.array([1.0]) * C
C = A
H1 = np.zeros((2**32, 2**32))
H2 = np.arange(1e308)
H3 = np.arange(12).reshape(2**32, 2**32, -1)
H4 = np.arange(0, 2**62, 1)
H5 = np.linspace(0, 1, 10**12)
H6 = np.eye(10**6)
H7 = np.arange(0.0, 1.0, 0.0)
H8 = np.full((3, -1), 2)

@cuda.jit
def k(out):
    out[0] = A[0]
    out[1] = H1[0, 0]
    out[2] = H2[0]
    out[3] = H3[0, 0, 0]
    out[4] = H4[0]
    out[5] = H5[0]
    out[6] = H6[0, 0]
    out[7] = H7[0]
    out[8] = H8[0, 0]
