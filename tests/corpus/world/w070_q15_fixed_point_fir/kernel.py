"""Fixed-point (Q15) FIR filtering with rounding and saturation.

Audio DSP code that must match a fixed-point reference bit for bit: int16
samples and taps, products widened to int32, a 64-bit accumulator, round
half up by adding 1 << 14 before the arithmetic right shift, then
saturation to the int16 range.  Overflow events are counted.
"""
import numpy as np
from numba import cuda, int16, int32, int64

Q = 15
ROUND = 1 << (Q - 1)
INT16_MAX = 32767
INT16_MIN = -32768


@cuda.jit(device=True)
def saturate16(v):
    if v > INT16_MAX:
        return INT16_MAX, 1
    if v < INT16_MIN:
        return INT16_MIN, 1
    return v, 0


@cuda.jit
def fir_q15(x, taps, y, clipped):
    i = cuda.grid(1)
    n = x.shape[0]
    if i >= n:
        return
    acc = int64(0)
    for k in range(taps.shape[0]):
        j = i - k
        if j >= 0:
            acc += int64(int32(x[j]) * int32(taps[k]))
    v, clip = saturate16((acc + ROUND) >> Q)
    y[i] = int16(v)
    if clip:
        cuda.atomic.add(clipped, 0, 1)


def to_q15(a):
    return np.clip(np.round(np.asarray(a) * 32768.0), INT16_MIN, INT16_MAX).astype(np.int16)


if __name__ == "__main__":
    t = np.arange(256)
    x = to_q15(0.9 * np.sin(2 * np.pi * t / 32))
    h = to_q15([0.25, 0.5, 0.5, 0.25])
    y = np.zeros_like(x)
    c = np.zeros(1, np.int32)
    fir_q15[2, 128](x, h, y, c)
    print(y[:8], c)
