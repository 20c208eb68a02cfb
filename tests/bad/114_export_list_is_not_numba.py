# pykern's hand-over of a host call's list is not part of numba.cuda for anyone else.
from numba import cuda, njit

# pykern: --sig k=void(int64[::1])


@njit
def evens(n):
    found = []
    for i in range(n):
        if i % 2 == 0:
            found.append(i)
    cuda.__pk_export_list(found)
    return len(found)


@cuda.jit
def k(out):
    out[0] = evens(10)
