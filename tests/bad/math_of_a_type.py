# A type is a value only where Python passes a type: math.sin takes a number.
import math
import numpy as np
from numba import cuda
# pykern: --sig k=void(float32[:])
@cuda.jit
def k(a):
    a[0] = math.sin(np.float32)
