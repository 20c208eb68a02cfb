# Where Python's arithmetic differs from C's: // and % floor, ** on ints and floats,
# round half to even, negative indices, range with a negative step, int() truncation.
from numba import cuda


@cuda.jit
def arithmetic(a, b, ints, floats):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        ints[i, 0] = x // y
        ints[i, 1] = x % y
        ints[i, 2] = (x % 7) ** 3
        ints[i, 3] = round(x / 4)
        ints[i, 4] = int(x / 3)
        ints[i, 5] = a[-1 - i]
        total = 0
        for k in range(x % 10, -5, -3):
            total += k
        ints[i, 6] = total
        f = x / 4.0
        floats[i, 0] = f // 1.5
        floats[i, 1] = f % 1.5
        floats[i, 2] = f ** 2
        floats[i, 3] = abs(f) ** 0.5
        floats[i, 4] = round(f)
        floats[i, 5] = max(f, y, 0.5) - min(x, y)
