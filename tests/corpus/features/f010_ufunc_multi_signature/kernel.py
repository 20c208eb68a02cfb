# A ufunc with several signatures: the arrays' dtype picks float64.
from numba import vectorize


@vectorize(['int32(int32, int32)', 'float32(float32, float32)', 'float64(float64, float64)'], target='cuda')
def hypot_ish(x, y):
    return (x * x + y * y) ** 0.5 - min(x, y)
