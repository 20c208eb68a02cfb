# A constant-velocity Kalman filter tracking a position from noisy readings, in the shape of
# tracking and sensor-fusion code: the predict step by matrix products (F @ P @ F.T), the
# update by the innovation covariance's inverse (np.linalg.inv) and the gain, the covariance
# kept symmetric by hand, and the log-likelihood from np.linalg.det and np.linalg.solve.
# Matrices are added element by element with loops.
import numpy as np
from numba import njit


@njit
def add_into(a, b):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] += b[i, j]


@njit
def identity(n):
    a = np.zeros((n, n))
    for i in range(n):
        a[i, i] = 1.0
    return a


@njit
def kalman(z, dt, q, r):
    n = z.shape[0]
    f = identity(2)
    f[0, 1] = dt
    h = np.zeros((1, 2))
    h[0, 0] = 1.0
    qm = np.empty((2, 2))
    qm[0, 0] = q * dt ** 3 / 3.0
    qm[0, 1] = q * dt ** 2 / 2.0
    qm[1, 0] = qm[0, 1]
    qm[1, 1] = q * dt
    rm = np.full((1, 1), r)
    x = np.zeros(2)
    x[0] = z[0]
    p = identity(2)
    p[1, 1] = 100.0
    positions = np.empty(n)
    velocities = np.empty(n)
    loglik = 0.0
    for k in range(n):
        # predict
        x = f @ x
        p = f @ p @ f.T
        add_into(p, qm)
        # update
        innovation = z[k] - np.dot(h, x)[0]
        s = h @ p @ h.T
        add_into(s, rm)
        s_inv = np.linalg.inv(s)
        gain = p @ h.T @ s_inv
        for i in range(2):
            x[i] += gain[i, 0] * innovation
        kh = gain @ h
        i_kh = identity(2)
        for i in range(2):
            for j in range(2):
                i_kh[i, j] -= kh[i, j]
        p = i_kh @ p
        sym = 0.5 * (p[0, 1] + p[1, 0])
        p[0, 1] = sym
        p[1, 0] = sym
        weighted = np.linalg.solve(s, np.full(1, innovation))
        loglik -= 0.5 * (np.log(2.0 * np.pi * np.linalg.det(s)) + innovation * weighted[0])
        positions[k] = x[0]
        velocities[k] = x[1]
    return positions, velocities, p, loglik, np.trace(p)
