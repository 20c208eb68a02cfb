"""Ensemble integration of the Lorenz-63 system with classical RK4.

Each thread integrates one perturbed initial condition (one ensemble member)
for a fixed number of steps and records the final state and the time
average of z, as in predictability studies.  The state is carried as
tuples; the right-hand side returns a tuple.
"""
import numpy as np
from numba import cuda

SIGMA = 10.0
RHO = 28.0
BETA = 8.0 / 3.0


@cuda.jit(device=True)
def lorenz(s):
    x, y, z = s
    return (SIGMA * (y - x), x * (RHO - z) - y, x * y - BETA * z)


@cuda.jit(device=True)
def axpy(a, v, w):
    return (w[0] + a * v[0], w[1] + a * v[1], w[2] + a * v[2])


@cuda.jit(device=True)
def rk4_step(s, dt):
    k1 = lorenz(s)
    k2 = lorenz(axpy(0.5 * dt, k1, s))
    k3 = lorenz(axpy(0.5 * dt, k2, s))
    k4 = lorenz(axpy(dt, k3, s))
    return (s[0] + dt / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
            s[1] + dt / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
            s[2] + dt / 6.0 * (k1[2] + 2.0 * k2[2] + 2.0 * k3[2] + k4[2]))


@cuda.jit
def ensemble(initial, dt, n_steps, final, mean_z):
    m = cuda.grid(1)
    if m >= initial.shape[0]:
        return
    s = (initial[m, 0], initial[m, 1], initial[m, 2])
    acc = 0.0
    for _ in range(n_steps):
        s = rk4_step(s, dt)
        acc += s[2]
    final[m, 0], final[m, 1], final[m, 2] = s
    mean_z[m] = acc / n_steps


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    init = np.array([1.0, 1.0, 1.0]) + 1e-6 * rng.standard_normal((64, 3))
    fin = np.zeros_like(init)
    mz = np.zeros(64)
    ensemble[1, 64](init, 0.01, 2000, fin, mz)
    print(fin.std(axis=0), mz.mean())
