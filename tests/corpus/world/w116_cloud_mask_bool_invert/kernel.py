"""Cloud-free composite of a stack of satellite scenes (per-pixel median-free mean).

For each pixel, average the reflectance over the scenes where the pixel is
not flagged cloudy.  The mask is a bool array; the NumPy prototype wrote
`valid = ~cloud[t, y, x]`, which numba-cuda compiles as a logical not
(0 or 1) -- the same as NumPy's ~ on a bool.
"""
import numpy as np
from numba import cuda


@cuda.jit
def clear_mean(refl, cloud, mean, n_clear):
    y, x = cuda.grid(2)
    n_t, h, w = refl.shape
    if y >= h or x >= w:
        return
    s = 0.0
    n = 0
    for t in range(n_t):
        valid = ~cloud[t, y, x]
        if valid:
            s += refl[t, y, x]
            n += 1
    n_clear[y, x] = n
    mean[y, x] = s / n if n > 0 else np.nan


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    r = rng.uniform(0, 0.4, (6, 20, 20)); c = rng.random((6, 20, 20)) < 0.3
    m = np.zeros((20, 20)); nc = np.zeros((20, 20), np.int32)
    clear_mean[(2, 2), (16, 16)](r, c, m, nc)
    print(nc.mean(), np.nanmean(m))
