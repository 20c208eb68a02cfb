"""All-pairs gravitational accelerations with a compile-time precision switch.

The floating type is chosen once at import from a module setting, as many
simulation codes do; softening keeps close encounters finite.
"""
import math

import numpy as np
from numba import cuda

PRECISION = "double"
SOFTENING = 1e-3
G = 1.0

if PRECISION == "double":
    from numba import float64 as real
    np_real = np.float64
elif PRECISION == "single":
    from numba import float32 as real
    np_real = np.float32
else:
    raise ValueError("PRECISION must be 'single' or 'double'")

if PRECISION != "single" and SOFTENING > 0:
    @cuda.jit(device=True)
    def inv_r3(dx, dy, dz):
        r2 = dx * dx + dy * dy + dz * dz + SOFTENING * SOFTENING
        return 1.0 / (r2 * math.sqrt(r2))
else:
    @cuda.jit(device=True)
    def inv_r3(dx, dy, dz):
        r2 = dx * dx + dy * dy + dz * dz
        return 1.0 / (r2 * math.sqrt(r2))


@cuda.jit
def accelerations(pos, mass, acc):
    i = cuda.grid(1)
    n = pos.shape[0]
    if i >= n:
        return
    a = cuda.local.array(3, real)
    for d in range(3):
        a[d] = real(0.0)
    for j in range(n):
        if j == i:
            continue
        dx = pos[j, 0] - pos[i, 0]
        dy = pos[j, 1] - pos[i, 1]
        dz = pos[j, 2] - pos[i, 2]
        s = G * mass[j] * inv_r3(dx, dy, dz)
        a[0] += dx * s
        a[1] += dy * s
        a[2] += dz * s
    for d in range(3):
        acc[i, d] = a[d]


if __name__ == "__main__":
    rng = np.random.default_rng(13)
    p = rng.standard_normal((96, 3)).astype(np_real)
    m = rng.uniform(0.5, 1.5, 96).astype(np_real)
    out = np.zeros_like(p)
    accelerations[3, 32](p, m, out)
    print(np.abs(out.sum(axis=0)).max())
