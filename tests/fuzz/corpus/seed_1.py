void(int32[:], int64)
# for-else, while-else, chained comparisons, conditional expressions, swaps.
from numba import cuda
# pykern: --sig k=void(int32[:], int64)

@cuda.jit
def k(out, n):
    for i in range(2, n):
        if n % i == 0:
            break
    else:
        out[0] = n
    k = 0
    while k < 10:
        k += 3
        if k == 100:
            break
    else:
        out[1] = k
    x, y = 1, 2
    x, y = y, x
    out[2] = x if 0 < x < y else y
    if not (x > 1 and y > 1) or n == 0:
        out[3] = 1
    elif n > 5:
        out[3] = 2
    else:
        pass
