# Optional values, as Numba types them: a device function that returns a value on some paths
# and None on others (or falls off its end), tested with `is None` / `is not None`, used as its
# value, and a variable that is None until a loop finds something.
from numba import cuda


@cuda.jit(device=True)
def first_negative(a, row):
    for j in range(a.shape[1]):
        if a[row, j] < 0:
            return j
    return None


@cuda.jit(device=True)
def half_if_even(x):
    if x % 2 == 0:
        return x // 2


@cuda.jit
def optionals(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        j = first_negative(a, i)
        if j is None:
            out[i, 0] = -1
        else:
            out[i, 0] = j
        out[i, 1] = j is not None
        h = half_if_even(i)
        out[i, 2] = 99 if h is None else h + 100
        found = None
        for k in range(a.shape[1]):
            if a[i, k] > 0.5:
                found = k
        out[i, 3] = -5 if found is None else found
