import enum
import numpy as np
from numba import cuda
# pykern: --sig k=void(float64[:])
NOISE = np.random.rand(4)
DATA = np.loadtxt("table.txt")  # read from a file at import
SCRATCH = np.empty(3)
IEPS = np.finfo(np.int32).eps
FMAX = np.iinfo(np.float32).max
W = cuda.to_device(np.array([1.0, 2.0]))
SEED = np.random.randint(0, 10)


class Mixed(enum.Enum):
    A = 1
    B = 2.5


class Named(enum.Enum):
    RED = "red"


@cuda.jit
def k(a):
    a[0] = NOISE[0]
    a[1] = DATA[0]
    a[2] = SCRATCH[0]
    a[3] = IEPS
    a[4] = FMAX
    W[0] = a[5]
    a[6] = Mixed.A.value
    a[7] = Named.RED.value
    a[8] = np.finfo(np.float64).nothing
    a[9] = SEED
