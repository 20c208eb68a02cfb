"""Sparse matrix-vector products y = alpha * A x + beta * y with A in CSR.

Two kernels as in iterative-solver libraries: a scalar kernel (one thread
per row) for very sparse rows, and a vector kernel (a group of LANES
threads per row, reduced in shared memory) for denser ones.  The host picks
by mean row length.
"""
import numpy as np
from numba import cuda, float64

LANES = 8
ROWS_PER_BLOCK = 16
BLOCK = LANES * ROWS_PER_BLOCK


@cuda.jit
def spmv_scalar(indptr, indices, data, x, alpha, beta, y):
    row = cuda.grid(1)
    if row < y.shape[0]:
        acc = 0.0
        for k in range(indptr[row], indptr[row + 1]):
            acc += data[k] * x[indices[k]]
        y[row] = alpha * acc + beta * y[row]


@cuda.jit
def spmv_vector(indptr, indices, data, x, alpha, beta, y):
    partial = cuda.shared.array((ROWS_PER_BLOCK, LANES), float64)
    lane = cuda.threadIdx.x % LANES
    local_row = cuda.threadIdx.x // LANES
    row = cuda.blockIdx.x * ROWS_PER_BLOCK + local_row
    acc = 0.0
    if row < y.shape[0]:
        for k in range(indptr[row] + lane, indptr[row + 1], LANES):
            acc += data[k] * x[indices[k]]
    partial[local_row, lane] = acc
    cuda.syncthreads()
    width = LANES // 2
    while width > 0:
        if lane < width:
            partial[local_row, lane] += partial[local_row, lane + width]
        cuda.syncthreads()
        width //= 2
    if lane == 0 and row < y.shape[0]:
        y[row] = alpha * partial[local_row, 0] + beta * y[row]


def spmv(csr, x, y, alpha=1.0, beta=0.0):
    indptr, indices, data = csr
    n = indptr.size - 1
    if (indptr[-1] / max(n, 1)) < 4:
        spmv_scalar[(n + 127) // 128, 128](indptr, indices, data, x, alpha, beta, y)
    else:
        blocks = (n + ROWS_PER_BLOCK - 1) // ROWS_PER_BLOCK
        spmv_vector[blocks, BLOCK](indptr, indices, data, x, alpha, beta, y)
    return y


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    dense = rng.random((50, 40)) * (rng.random((50, 40)) < 0.3)
    nz = dense.nonzero()
    indptr = np.concatenate([[0], np.cumsum(np.bincount(nz[0], minlength=50))]).astype(np.int32)
    csr = (indptr, nz[1].astype(np.int32), dense[nz])
    x = rng.random(40)
    print(np.abs(spmv(csr, x, np.zeros(50)) - dense @ x).max())
