"""Checkerboard Metropolis sweeps of the 2-D Ising model.

The lattice is stored as two half-width colour sub-lattices (black and
white).  A sweep updates one colour from the other; the uniform draws come in
as an array filled on the host, as a curand generator would fill it.
"""
import math
import sys

import numpy as np
from numba import cuda
from numba import vectorize

TCRIT = 2.26918531421          # critical temperature of the square lattice
ALPHA = 0.5
INV_TEMP = (1.0) / (ALPHA * TCRIT)


@vectorize(['int8(float32)', 'int8(float64)'])
def spin_from_uniform(randval):
    return 1 if randval > 0.5 else -1


@cuda.jit
def update_colour(lattice, op_lattice, randvals, is_black):
    n, m = lattice.shape
    tid = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    i = tid // m
    j = tid % m

    if (i >= n or j >= m): return

    # neighbours with periodic wrap
    ipp = (i + 1) if (i + 1) < n else 0
    jpp = (j + 1) if (j + 1) < m else 0
    inn = (i - 1) if (i - 1) >= 0 else (n - 1)
    jnn = (j - 1) if (j - 1) >= 0 else (m - 1)

    # the off-column neighbour depends on the colour and the row's parity
    if (is_black):
        joff = jpp if (i % 2) else jnn
    else:
        joff = jnn if (i % 2) else jpp

    nn_sum = op_lattice[inn, j] + op_lattice[i, j] + op_lattice[ipp, j] + op_lattice[i, joff]

    lij = lattice[i, j]
    acceptance_ratio = math.exp(-2.0 * INV_TEMP * nn_sum * lij)
    if (randvals[i, j] < acceptance_ratio):
        lattice[i, j] = -lij


@cuda.jit
def magnetisation(lattice_b, lattice_w, partial):
    i = cuda.grid(1)
    if i < lattice_b.shape[0]:
        s = 0
        for j in range(lattice_b.shape[1]):
            s += lattice_b[i, j] + lattice_w[i, j]
        partial[i] = s


def sweep(lattice_b, lattice_w, rng, threads=128):
    n, half = lattice_b.shape
    blocks = (n * half + threads - 1) // threads
    update_colour[blocks, threads](lattice_b, lattice_w, rng.random((n, half)), True)
    update_colour[blocks, threads](lattice_w, lattice_b, rng.random((n, half)), False)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--help":
        print("usage: kernel.py [sweeps]")
        sys.exit(0)
    rng = np.random.default_rng(1234)
    b = spin_from_uniform(rng.random((32, 16)))
    w = spin_from_uniform(rng.random((32, 16)))
    for _ in range(10):
        sweep(b, w, rng)
    part = np.zeros(32, dtype=np.int64)
    magnetisation[1, 32](b, w, part)
    print(part.sum() / b.size / 2)
