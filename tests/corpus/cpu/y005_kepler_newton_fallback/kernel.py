"""Eccentric anomalies of many orbits from Kepler's equation E - e sin E = M.

Newton's method from E = M converges fast for most orbits; where it does not within
MAX_NEWTON steps (high eccentricity) it raises, and the solver falls back to bisection. The
else block counts the Newton successes, the finally block the solves either way.
"""
import math

import numpy as np
from numba import njit

MAX_NEWTON = 6
TOLERANCE = 1e-12
BISECTION_STEPS = 60


@njit
def newton(mean_anomaly, e):
    x = mean_anomaly
    for _ in range(MAX_NEWTON):
        f = x - e * math.sin(x) - mean_anomaly
        step = f / (1.0 - e * math.cos(x))
        x -= step
        if abs(step) < TOLERANCE:
            return x
    raise ValueError("Newton's method did not converge")


@njit
def bisection(mean_anomaly, e):
    lo, hi = mean_anomaly - 1.0, mean_anomaly + 1.0
    for _ in range(BISECTION_STEPS):
        mid = 0.5 * (lo + hi)
        if mid - e * math.sin(mid) - mean_anomaly > 0.0:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


@njit
def solve_orbits(mean_anomalies, eccentricities):
    n = mean_anomalies.shape[0]
    anomalies = np.empty(n)
    by_newton = 0
    solved = 0
    for k in range(n):
        try:
            anomalies[k] = newton(mean_anomalies[k], eccentricities[k])
        except Exception:
            anomalies[k] = bisection(mean_anomalies[k], eccentricities[k])
        else:
            by_newton += 1
        finally:
            solved += 1
    residual = 0.0
    for k in range(n):
        residual = max(residual, abs(anomalies[k] - eccentricities[k] * math.sin(anomalies[k]) - mean_anomalies[k]))
    return anomalies, by_newton, solved, residual < 1e-9
