void(float64[:, ::1], float64[::1], int32[::1])
# Views, array attributes, enumerate/zip, local and shared k, atomics, device functions
# returning tuples.
from numba import cuda, float64, int32
# pykern: --sig k=void(float64[:, ::1], float64[::1], int32[::1])
N = 4
SCALE = 2 * N + 0.5

@cuda.jit(device=True)
def divmod_pair(a, b):
    return a // b, a % b

@cuda.jit
def k(matrix, vector, counts):
    row = matrix[1]
    column = matrix[:, 0]
    vector[0] = row[0] + column[-1] + matrix.shape[1] + matrix.size
    for i, v in enumerate(vector[1:3]):
        counts[i] = int(v)
    for u, w in zip(row, vector):
        vector[0] += u * w
    scratch = cuda.local.array(N, float64)
    tile = cuda.shared.array((N, N), dtype=int32)
    scratch[0] = SCALE
    tile[0, 1] = 3
    cuda.syncthreads()
    q, r = divmod_pair(counts[0], 3)
    cuda.atomic.add(counts, 0, q + r)
    old = cuda.atomic.max(vector, 1, scratch[0])
