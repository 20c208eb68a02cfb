# Three inputs of shapes (5, 1, 4), (3, 1) and (4,) broadcast to (5, 3, 4), and a scalar.
from numba import vectorize


@vectorize(['float32(float32, float32, float32, float32)'], target='cuda')
def blend(a, b, c, w):
    return w * a + (1 - w) * b * c
