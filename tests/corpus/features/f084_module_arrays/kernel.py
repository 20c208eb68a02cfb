"""Separable smoothing and resampling of a 2-d field with tables built at import.

The filter taps, the resampling grid and the colour matrices are NumPy arrays
made at module level (np.array, np.arange, np.linspace, np.zeros/ones, np.eye,
reshape, astype and arithmetic on them); Numba freezes them into the kernels.
"""
import numpy as np
from numba import cuda

TPB = 16
RADIUS = 2
# binomial taps, normalised: [1, 4, 6, 4, 1] / 16
TAPS = np.array([1.0, 4.0, 6.0, 4.0, 1.0]) / 16.0
OFFSETS = np.arange(-RADIUS, RADIUS + 1)
GRID = np.linspace(0.0, 1.0, 9)
PHASES = (2 * np.pi * np.arange(8) / 8).astype(np.float32)
MIX = np.arange(9, dtype=np.float64).reshape(3, 3) / 10.0 + np.eye(3)
CUBE = np.arange(24).reshape(2, 3, 4)
BIAS = np.zeros(3) + 0.5
SCALE = np.ones((2, 2), dtype=np.float32) * 2
FILL = np.full(4, 3, dtype=np.int32)
STEPS = np.arange(0.0, 1.0, 0.125)
WEIGHTS_T = np.array([[1, 2, 3], [4, 5, 6]]).T
PROFILES = (GRID, STEPS)    # a tuple of module arrays
TWIDDLE = np.cos(2 * np.pi * np.arange(8) / 8)
MASKS = 2 ** np.arange(8)
RAMP = np.sqrt(np.abs(np.arange(-4, 4, dtype=np.float32))) ** 2
MATERIAL = np.dtype([("density", np.float64), ("code", np.int32), ("flag", np.uint8)], align=True)
MATERIALS = np.array([(1.0, 3, 1), (2.5, 7, 0), (0.5, 11, 1)], dtype=MATERIAL)
ROOTS = np.array([1 + 0j, 1j, -1 + 0j, -1j], dtype=np.complex64)
HALF_TAPS = np.array([0.25, 0.5, 0.25], dtype=np.float16)
PAIRS = np.array([[(1.5, 2), (3.5, 4)], [(5.5, 6), (7.5, 8)]], dtype=[("w", float), ("n", int)])


@cuda.jit(device=True)
def tap(k):
    return TAPS[k]


@cuda.jit
def smooth_rows(field, out):
    x, y = cuda.grid(2)
    h, w = field.shape
    if y >= h or x >= w:
        return
    taps = cuda.const.array_like(TAPS)
    acc = 0.0
    for k in range(OFFSETS.size):
        xx = x + OFFSETS[k]
        if xx < 0:
            xx = 0
        if xx >= w:
            xx = w - 1
        acc += field[y, xx] * taps[k]
    out[y, x] = acc + tap(RADIUS) * 0


@cuda.jit
def tables(field, out, ints, phases):
    i = cuda.grid(1)
    if i >= out.shape[0]:
        return
    v = field[i % field.shape[0], i % field.shape[1]]
    j = i % GRID.size
    out[i, 0] = GRID[j] * v
    out[i, 1] = MIX[i % 3, 0] * v + MIX[i % 3, 1] + MIX[i % 3, 2] + BIAS[i % 3]
    out[i, 2] = SCALE[i % 2, 1] * v + STEPS[i % STEPS.shape[0]]
    out[i, 3] = WEIGHTS_T[i % 3, 1] + PROFILES[i % 2][1] + TWIDDLE[i % 8] + RAMP[i % 8]
    ints[i, 0] = CUBE[i % 2, i % 3, i % 4]
    ints[i, 1] = FILL[i % 4] + CUBE.shape[2] + MIX.shape[0]
    ints[i, 2] = OFFSETS[i % 5] + MASKS[i % 8]
    phases[i] = PHASES[i % 8] * np.float32(v)
    table = cuda.const.array_like(MATERIALS)
    m = table[i % 3]
    out[i, 4] = m["density"] * v + PAIRS[i % 2, 1]["w"] + ROOTS[i % 4].imag + HALF_TAPS[i % 3]
    ints[i, 3] = m["code"] + MATERIALS[i % 3]["flag"] * 100 + PAIRS[1, i % 2]["n"]
