void(int64[:], float64[:], int64, int64)
# Where Python and C++ differ, the emitted code calls the runtime.
from numba import cuda
# pykern: --sig k=void(int64[:], float64[:], int64, int64)

@cuda.jit
def k(ints, floats, a, b):
    ints[0] = a // b
    ints[1] = a % b
    ints[2] = a ** 3
    ints[-1] = round(floats[0])
    floats[1] = a / b
    floats[2] = floats[0] // 2.0
    floats[3] = floats[0] ** 2
    for i in range(10, 0, -2):
        ints[3] += i
    for i in range(a, b, a - b):
        ints[4] += i
