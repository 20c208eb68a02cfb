# Grids as numerical code builds them: np.arange with integer, float and negative steps and
# with dtypes given as types and as np.dtype(...), a 2-d grid of a function over them, and the
# axes returned with it; a grid of ones with its dtype given as a string.
import numpy as np
from numba import njit


@njit
def axis(start, stop, step):
    return np.arange(start, stop, step)


@njit
def surface(nx, ny):
    xs = axis(-1.0, 1.0 + 1e-9, 2.0 / (nx - 1))
    ys = np.arange(ny, dtype=np.dtype("float64"))
    for j in range(ys.shape[0]):
        ys[j] = ys[j] / (ny - 1)
    z = np.empty((ys.shape[0], xs.shape[0]))
    for j in range(ys.shape[0]):
        for i in range(xs.shape[0]):
            z[j, i] = np.sin(3.0 * xs[i]) * np.cos(2.0 * ys[j])
    down = np.arange(10, 0, -3)
    odd = np.arange(1, 2 * nx, 2, dtype=np.int32)
    tenths = np.arange(0.5, 3)
    steps = np.arange(nx)
    mask = np.ones((2, nx), dtype="int16")
    return xs, ys, z, down, odd, tenths, steps, mask
