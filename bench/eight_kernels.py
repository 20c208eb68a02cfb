# Eight kernels of the seeds, each with its signature, for the file-of-8 compile benchmark
# (bench/bench_compile.cpp: nvrtc_file/1 compiles vector_add alone, nvrtc_file/8 all eight).
import math

from numba import cuda


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def vector_add(r, x, y):
    for i in range(cuda.grid(1), len(r), cuda.gridsize(1)):
        r[i] = x[i] + y[i]


@cuda.jit("void(float64[:, ::1], float64[:, ::1], float64[:, ::1])")
def matmul_naive(A, B, C):
    i, j = cuda.grid(2)
    if i < C.shape[0] and j < C.shape[1]:
        tmp = 0.
        for k in range(A.shape[1]):
            tmp += A[i, k] * B[k, j]
        C[i, j] = tmp


@cuda.jit("void(float32[::1], float32[::1])")
def activate(values, out):
    i = cuda.grid(1)
    if i < values.size:
        out[i] = (math.exp(values[i]) - math.exp(-values[i])) / (math.exp(values[i]) + math.exp(-values[i]))


@cuda.jit("void(float32[::1])")
def bubblesort(X):
    N = len(X)
    for end in range(N, 1, -1):
        for i in range(end - 1):
            cur = X[i]
            if cur > X[i + 1]:
                tmp = X[i]
                X[i] = X[i + 1]
                X[i + 1] = tmp


@cuda.jit(device=True)
def twice_exp(a, b):
    for i in range(2):
        a = math.exp(a * b)
    return a


@cuda.jit("void(float64[::1], float64[::1], float64[::1])")
def device_function(a, b, result):
    pos = cuda.grid(1)
    if pos < a.shape[0] and pos < b.shape[0]:
        result[pos] = twice_exp(a[pos], b[pos])


@cuda.jit("void(float32[::1], float32[::1])")
def normalize(grayscales, out):
    i = cuda.grid(1)
    if i < grayscales.size:
        out[i] = grayscales[i] / 255.0


@cuda.jit("void(float64[::1])")
def increment(io_array):
    pos = cuda.grid(1)
    if pos < io_array.size:
        io_array[pos] += 1


@cuda.jit("void(int32[::1], int32[::1])")
def histogram(values, bins):
    i = cuda.grid(1)
    if i < values.size:
        cuda.atomic.add(bins, values[i] % bins.size, 1)
