import numpy as np
from numba import cuda
# pykern: --sig k=void(float64[:])
WEIGHTS = np.array([0.25, 0.5, 0.25])
TAPS = WEIGHTS
TAPS[1] = 0.75
SCALE = np.array([1.0, 2.0])
SCALE_D = cuda.to_device(SCALE)
SCALE_D.copy_to_device(np.array([3.0, 4.0]))
COUNTS = cuda.device_array(16, dtype=np.int32)


@cuda.jit
def k(a):
    a[0] = WEIGHTS[1]
    a[1] = SCALE_D[0]
    SCALE_D[1] = a[2]
    COUNTS[0] += 1
