from numba import cuda, njit
# pykern: --sig k=void(int64[:])

@njit
def evens(n):
    out = []
    for i in range(n):
        if i % 2 == 0:
            out.append(i)
    return len(out)

@cuda.jit
def k(a):
    xs = [1, 2, 3]
    a[0] = evens(a[1])
