"""Applying a single-qubit gate to an n-qubit state vector.

The GPU kernel is defined inside the block that imports numba, so the module
still imports (with a NumPy path) when numba is absent.
"""
import cmath
import math

import numpy as np

try:
    from numba import cuda

    @cuda.jit(device=True)
    def pair_index(k, target):
        low = k & ((1 << target) - 1)
        high = (k >> target) << (target + 1)
        return high | low

    @cuda.jit
    def apply_gate(state, target, u00, u01, u10, u11):
        k = cuda.grid(1)
        if k >= state.shape[0] // 2:
            return
        i0 = pair_index(k, target)
        i1 = i0 | (1 << target)
        a = state[i0]
        b = state[i1]
        state[i0] = u00 * a + u01 * b
        state[i1] = u10 * a + u11 * b

    HAVE_GPU = True
except ImportError:
    HAVE_GPU = False

THETA = math.pi / 3


def rotation_y(theta):
    c = math.cos(theta / 2)
    s = math.sin(theta / 2)
    return complex(c), complex(-s), complex(s), complex(c)


if __name__ == "__main__":
    n = 6
    psi = np.zeros(2 ** n, dtype=np.complex128)
    psi[0] = 1.0
    gate = rotation_y(THETA)
    for q in range(n):
        apply_gate[1, 32](psi, q, *gate)
    print(np.vdot(psi, psi).real, cmath.phase(psi[-1]))
