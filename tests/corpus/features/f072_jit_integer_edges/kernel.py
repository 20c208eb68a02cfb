# Integer edges of a @jit function under NumPy's error model, as Numba's compiled code gives
# them: MIN // -1 and MIN % -1 are 0, 0 ** negative is the type's minimum, a power past 2**16
# is computed in float64 (an overflow reads as MIN), and 1 or -1 to a negative power stays exact.
import numpy as np
from numba import njit


@njit(error_model="numpy")
def integer_edges(values, exponents):
    floors = np.zeros(values.shape[0], dtype=np.int64)
    mods = np.zeros(values.shape[0], dtype=np.int64)
    powers = np.zeros(values.shape[0], dtype=np.int64)
    for i in range(values.shape[0]):
        floors[i] = values[i] // -1
        mods[i] = values[i] % -1
        powers[i] = values[i] ** exponents[i]
    return floors.sum(), mods.sum(), powers[0], powers[1], powers[2], powers[3], powers[4], powers[5]
