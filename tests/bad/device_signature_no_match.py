# pykern: --sig smooth=void(float64[:, ::1], float64[:])
from numba import cuda


@cuda.jit('(float32[:], float32)', device=True)
def mean_scaled(row, gain):
    acc = 0.0
    for i in range(row.shape[0]):
        acc += row[i] * gain
    return acc / row.shape[0]


@cuda.jit
def smooth(rows, out):
    i = cuda.grid(1)
    if i < rows.shape[0]:
        out[i] = mean_scaled(rows[i], 0.5)
