"""Feature scaling of float32 data in place: min-max and z-score, with float32 reductions."""
import numpy as np
from numba import njit


@njit
def normalise_columns(x, out):
    rows, cols = x.shape
    for j in range(cols):
        col = x[:, j]
        lo = col.min()
        hi = np.max(col)
        width = hi - lo
        for i in range(rows):
            out[i, j] = (x[i, j] - lo) / width if width > 0 else np.float32(0.0)
    # the whole table: a float32 mean (accumulated in float32, as Numba does) and a float64 std
    mu = x.mean()
    sd = np.std(x)
    col_sums = 0.0
    for j in range(cols):
        col_sums += out[:, j].sum()
    total32 = np.sum(x)
    return mu, sd, col_sums, total32, np.prod(x[0, :3]), np.mean(out), out.argmax(), np.var(x[:, 0])
