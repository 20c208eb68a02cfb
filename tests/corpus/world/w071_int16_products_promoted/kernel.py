"""Sum of products of int16 sensor readings (accelerometer cross-energy).

A direct port of NumPy code: the int16 readings are multiplied without an
explicit cast.  Under Numba the product of two int16 values is typed int64,
so nothing overflows; NumPy (and Numba's simulator) would compute it in
int16 and wrap.  The energies are written as int64 and the products that
exceed the int16 range are counted.
"""
import numpy as np
from numba import cuda

INT16_LIMIT = 32767


@cuda.jit
def cross_energy(ax, ay, window, energy, big_products):
    i = cuda.grid(1)
    n = ax.shape[0]
    if i + window > n:
        return
    acc = 0
    big = 0
    for k in range(i, i + window):
        p = ax[k] * ay[k]
        acc += p
        if p > INT16_LIMIT or p < -INT16_LIMIT:
            big += 1
    energy[i] = acc
    big_products[i] = big


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    a = rng.integers(-2000, 2000, 64).astype(np.int16)
    b = rng.integers(-2000, 2000, 64).astype(np.int16)
    e = np.zeros(64, np.int64); bp = np.zeros(64, np.int32)
    cross_energy[1, 64](a, b, 8, e, bp)
    print(e[:4], bp[:4])
