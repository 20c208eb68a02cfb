# int(), float() and complex() keep their argument's precision, as Numba types them
# (typing/builtins.py Int, Float, Complex): int(uint64) is a uint64 (so a key above 2**63 - 1
# stays positive), float(float32) a float32, and complex(float32, float32) a complex64 whose
# arithmetic is done in single precision.
from numba import cuda


@cuda.jit
def phasors(re, im, keys, power, cross, scaled, positive):
    i = cuda.grid(1)
    if i >= re.shape[0]:
        return
    z = complex(re[i], im[i])
    w = z * z
    power[i] = w.real
    cross[i] = (z * complex(im[i])).imag
    scaled[i] = float(re[i]) * im[i]
    key = int(keys[i])
    positive[i, 0] = key > 0
    positive[i, 1] = float(key) > 9e18
