"""Cell coordinates and wrapped offsets with divmod, as grid codes write them.

divmod gives Python's floor quotient and remainder: the remainder takes the
divisor's sign, for integers and floats alike.
"""
import numpy as np
from numba import cuda

WIDTH = 7


@cuda.jit
def split_indices(flat, step, rows, cols, phase):
    i = cuda.grid(1)
    if i < flat.size:
        r, c = divmod(flat[i], WIDTH)
        rows[i] = r
        cols[i] = c
        q, rest = divmod(step[i], -2.5)
        phase[i] = q * 10.0 + rest


if __name__ == "__main__":
    flat = np.arange(-20, 20, dtype=np.int64)
    step = np.linspace(-9.0, 9.0, flat.size)
    rows = np.zeros_like(flat)
    cols = np.zeros_like(flat)
    phase = np.zeros_like(step)
    split_indices[1, 64](flat, step, rows, cols, phase)
    print(rows, cols, phase)
