"""One-dimensional lattice Boltzmann (D1Q3) advection-diffusion, kernels kept
as static methods of the lattice class.

Weights and the relaxation time are module constants; equilibrium and moments
are device functions shared by the collide and stream kernels.
"""
import numpy as np

try:
    from numba import cuda
except ImportError:
    cuda = None

W0 = 4.0 / 6.0
W1 = 1.0 / 6.0
TAU = 0.8
VELOCITY = 0.1
CS2 = 1.0 / 3.0


@cuda.jit(device=True)
def equilibrium(rho, k):
    w = W0 if k == 0 else W1
    c = 0.0 if k == 0 else (1.0 if k == 1 else -1.0)
    return w * rho * (1.0 + c * VELOCITY / CS2)


@cuda.jit(device=True)
def density(f, i):
    return f[i, 0] + f[i, 1] + \
        f[i, 2]


class Lattice:
    THREADS = 64

    def __init__(self, n):
        self.n = n
        self.f = np.zeros((n, 3))

    @staticmethod
    @cuda.jit
    def collide_stream(f, g):
        i = cuda.grid(1)
        n = f.shape[0]
        if i >= n:
            return
        left = (i - 1) % n
        right = (i + 1) % n
        for k in range(3):
            src = i if k == 0 else (left if k == 1 else right)
            rho = density(f, src)
            fk = f[src, k]
            g[i, k] = fk - (fk - equilibrium(rho, k)) / TAU

    @staticmethod
    @cuda.jit
    def moments(f, rho):
        i = cuda.grid(1)
        if i < f.shape[0]:
            rho[i] = density(f, i)

    def step(self, d_f, d_g):
        blocks = (self.n + Lattice.THREADS - 1) // Lattice.THREADS
        Lattice.collide_stream[blocks, Lattice.THREADS](d_f, d_g)
        return d_g, d_f


if __name__ == "__main__":
    lat = Lattice(128)
    x = np.arange(128)
    rho0 = 1.0 + 0.5 * np.exp(-((x - 40) / 6.0) ** 2)
    lat.f[:, 0] = W0 * rho0
    lat.f[:, 1] = W1 * rho0
    lat.f[:, 2] = W1 * rho0
    d_f = cuda.to_device(lat.f)
    d_g = cuda.device_array_like(d_f)
    for _ in range(20):
        d_f, d_g = lat.step(d_f, d_g)
    rho = np.zeros(128)
    Lattice.moments[2, 64](d_f, rho)
    print(rho.sum(), rho.argmax())
