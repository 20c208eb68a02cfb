"""Band-integrated blackbody radiance by adaptive Simpson quadrature.

Each thread integrates Planck's law over one wavelength band for one
temperature.  The quadrature is the textbook recursive adaptive Simpson rule
with a depth limit, written as a self-recursive device function.
"""
import math

import numpy as np
from numba import cuda

H = 6.62607015e-34       # J s
C = 299792458.0          # m / s
KB = 1.380649e-23        # J / K
C1 = 2.0 * H * C * C
C2 = H * C / KB
MAX_DEPTH = 12


@cuda.jit(device=True)
def planck(lam, temp):
    return C1 / lam ** 5 / (math.exp(C2 / (lam * temp)) - 1.0)


@cuda.jit(device=True)
def simpson_step(a, b, fa, fm, fb, whole, temp, eps, depth):
    m = 0.5 * (a + b)
    lm = 0.5 * (a + m)
    rm = 0.5 * (m + b)
    flm = planck(lm, temp)
    frm = planck(rm, temp)
    left = (m - a) / 6.0 * (fa + 4.0 * flm + fm)
    right = (b - m) / 6.0 * (fm + 4.0 * frm + fb)
    delta = left + right - whole
    if depth <= 0 or abs(delta) <= 15.0 * eps:
        return left + right + delta / 15.0
    return (simpson_step(a, m, fa, flm, fm, left, temp, 0.5 * eps, depth - 1) +
            simpson_step(m, b, fm, frm, fb, right, temp, 0.5 * eps, depth - 1))


@cuda.jit
def band_radiance(temps, lam_lo, lam_hi, rel_tol, out):
    i = cuda.grid(1)
    if i >= temps.shape[0]:
        return
    t = temps[i]
    a = lam_lo
    b = lam_hi
    fa = planck(a, t)
    fb = planck(b, t)
    fm = planck(0.5 * (a + b), t)
    whole = (b - a) / 6.0 * (fa + 4.0 * fm + fb)
    out[i] = simpson_step(a, b, fa, fm, fb, whole, t, rel_tol * abs(whole), MAX_DEPTH)


if __name__ == "__main__":
    T = np.array([300.0, 1000.0, 5778.0])
    r = np.zeros(3)
    band_radiance[1, 32](T, 0.4e-6, 0.7e-6, 1e-8, r)
    print(r)
