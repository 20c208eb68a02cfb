"""Leapfrog integration of particles in a harmonic trap.

The GPU path is optional: the module imports without numba installed, and the
kernels exist only when the CUDA import succeeded, as in many research codes.
"""
import math

import numpy as np

try:
    from numba import cuda, float64
    HAVE_CUDA = True
except ImportError:  # pragma: no cover - CPU-only installs
    cuda = None
    float64 = None
    HAVE_CUDA = False

OMEGA = 1.5
DT = 0.01
STEPS = 16
THREADS = 64

if HAVE_CUDA:
    @cuda.jit(device=True)
    def spring_force(x, k):
        return -k * x

    @cuda.jit(device=True)
    def energy(x, v, k):
        return 0.5 * v * v + 0.5 * k * x * x
else:
    def spring_force(x, k):
        return -k * x

    def energy(x, v, k):
        return 0.5 * (v * v + k * x * x)


if cuda is not None:
    @cuda.jit
    def leapfrog(pos, vel, out_energy):
        i = cuda.grid(1)
        if i >= pos.shape[0]:
            return
        k = OMEGA * OMEGA
        x = pos[i]
        v = vel[i]
        history = cuda.local.array(STEPS, float64)
        for s in range(STEPS):
            v += 0.5 * DT * spring_force(x, k)
            x += DT * v
            v += 0.5 * DT * spring_force(x, k)
            history[s] = energy(x, v, k)
        drift = 0.0
        for s in range(1, STEPS):
            drift = max(drift, math.fabs(history[s] - history[0]))
        pos[i] = x
        vel[i] = v
        out_energy[i] = drift


def run_cpu(pos, vel):
    k = OMEGA * OMEGA
    for _ in range(STEPS):
        vel += 0.5 * DT * spring_force(pos, k)
        pos += DT * vel
        vel += 0.5 * DT * spring_force(pos, k)
    return pos, vel


if __name__ == "__main__":
    rng = np.random.default_rng(7)
    p = rng.standard_normal(256)
    v = np.zeros_like(p)
    if HAVE_CUDA:
        e = np.zeros_like(p)
        leapfrog[(p.size + THREADS - 1) // THREADS, THREADS](p, v, e)
        print("max energy drift", e.max())
    else:
        run_cpu(p, v)
    print(p[:4])
