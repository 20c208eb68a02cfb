# Sample kernels in the Numba-CUDA dialect, with their signatures in the decorators, so that
# `pykern compile samples/kernels.py` compiles every one of them.
import math

from numba import cuda, float32, void

TPB = 16


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def vector_add(r, x, y):
    start = cuda.grid(1)
    step = cuda.gridsize(1)
    for i in range(start, len(r), step):
        r[i] = x[i] + y[i]


@cuda.jit(void(float32[:, ::1], float32[:, ::1], float32[:, ::1]))
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tmp = float32(0.)
    for i in range(cuda.gridDim.x):
        sA[tx, ty] = A[x, ty + i * TPB]
        sB[tx, ty] = B[tx + i * TPB, y]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[tx, j] * sB[j, ty]
        cuda.syncthreads()
    C[x, y] = tmp


@cuda.jit(device=True)
def gaussian(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * math.sqrt(2 * math.pi))


@cuda.jit("void(float64[::1], float64[::1], float64, float64)")
def gaussian_pdf(out, x, mean, sigma):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = gaussian(x[i], mean, sigma)
