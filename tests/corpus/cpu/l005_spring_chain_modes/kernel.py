# Normal modes of a chain of masses and springs, as small physics and structural-dynamics codes
# compute them: the stiffness matrix assembled by loops, the generalised problem K v = w^2 M v
# reduced through the Cholesky factor of M (np.linalg.cholesky, np.linalg.inv, chained @), the
# frequencies by np.linalg.eigvalsh, a modal check by np.linalg.eigh, and diagnostics from a
# float32 sensor matrix given in Fortran order: np.linalg.qr's R, np.linalg.svd's singular
# values of a strided slice, and np.vdot / np.outer of complex phasors.
import numpy as np
from numba import njit


@njit
def stiffness(k):
    n = k.shape[0] - 1
    out = np.zeros((n, n))
    for i in range(n):
        out[i, i] = k[i] + k[i + 1]
        if i + 1 < n:
            out[i, i + 1] = -k[i + 1]
            out[i + 1, i] = -k[i + 1]
    return out


@njit
def modes(k, masses, sensors):
    n = masses.shape[0]
    kk = stiffness(k)
    mm = np.zeros((n, n))
    for i in range(n):
        mm[i, i] = masses[i]
    l = np.linalg.cholesky(mm)
    l_inv = np.linalg.inv(l)
    a = l_inv @ kk @ l_inv.T
    w2 = np.linalg.eigvalsh(a)
    freqs = np.empty(n)
    for i in range(n):
        freqs[i] = np.sqrt(max(w2[i], 0.0)) / (2.0 * np.pi)
    vals, vecs = np.linalg.eigh(a)
    # K v = w^2 M v for the lowest mode, mapped back through L^-T.
    v = np.dot(l_inv.T, vecs[:, 0])
    kv = kk @ v
    mv = mm @ v
    worst = 0.0
    for i in range(n):
        e = abs(kv[i] - vals[0] * mv[i])
        if e > worst:
            worst = e
    q, r = np.linalg.qr(sensors)
    diag = np.empty(r.shape[0], dtype=np.float32)
    for i in range(r.shape[0]):
        diag[i] = abs(r[i, i])
    u, s, vh = np.linalg.svd(sensors[::2, :], False)
    orth = q.T @ q
    phasors = np.empty(n, dtype=np.complex128)
    for i in range(n):
        phasors[i] = complex(np.cos(freqs[i]), np.sin(freqs[i]))
    power = np.vdot(phasors, phasors)
    cross = np.outer(phasors[:2], masses)
    return freqs, worst < 1e-9, diag, s, orth, power, cross, np.linalg.det(a)
