# A row view a[i] whose index lies outside the array: Numba's IndexError names the index as
# written (-6, not the -2 it wraps to), and pykern names the kernel's line.
from numba import cuda


@cuda.jit
def shifted_row_sums(a, out):
    i = cuda.grid(1)
    if i < out.size:
        row = a[i - 6]
        s = 0.0
        for j in range(row.size):
            s += row[j]
        out[i] = s
