# round(x, ndigits) as numba-cuda lowers it: the scaling and the half-to-even rounding happen in
# float64, also for a float32 x. float32(0.3425) is 0.34250000119..., so round(x, 3) is 0.343
# (rounding in float32 would see 342.5 and give 0.342). The explicit signature makes the
# scalars float32/float64 on the GPU, while Numba's simulator keeps Python floats: the
# float32 scalar is passed as a float32-exact value so both agree.
from numba import cuda


@cuda.jit("void(float32[:], float32, float64[:], float64, float64[:], float64[:, :])")
def round_digits(out32, c32, out64, c64, values, rounded):
    k = cuda.grid(1)
    if k < out32.size:
        digits = k - 6
        out32[k] = round(c32, digits)
        out64[k] = round(c64, digits)
    if k < values.size:
        rounded[k, 0] = round(values[k], 3)
        rounded[k, 1] = round(values[k], -1)
        rounded[k, 2] = round(values[k] * 1e-17, 23)
        rounded[k, 3] = round(values[k], 0)
# The third column (more than 22 digits, where 10**digits is split in two factors) may differ
# from NumPy's round, which the simulator calls on float64 scalars, by an ulp: hence its rtol.
