# Integer edges of a @jit function under NumPy's error model, as Numba's compiled code gives
# them: MIN // -1 and MIN % -1 are 0, 0 ** negative is the type's minimum, a power past 2**16
# is computed in float64 (an overflow reads as MIN), and 1 or -1 to a negative power stays exact.
from numba import njit


@njit(error_model="numpy")
def integer_edges(values, exponents):
    floors = 0
    mods = 0
    for i in range(values.shape[0]):
        floors += values[i] // -1
        mods += values[i] % -1
    p0 = values[0] ** exponents[0]
    p1 = values[1] ** exponents[1]
    p2 = values[2] ** exponents[2]
    p3 = values[3] ** exponents[3]
    p4 = values[4] ** exponents[4]
    p5 = values[5] ** exponents[5]
    return floors, mods, p0, p1, p2, p3, p4, p5
