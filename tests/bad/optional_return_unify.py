from numba import cuda, njit
# pykern: --sig k=void(int64[:])
# None, an int64 and a tuple returned by one function: Numba cannot unify the value types of
# the Optional ("Can't unify return type from the following types: UniTuple(int64 x 2), int64, none").

@njit
def pick(flag, n):
    if n < 0:
        return None
    if flag:
        return n
    return (n, n)

@cuda.jit
def k(a):
    r = pick(a[0] > 0, a[1])
    if r is not None:
        a[2] = 1
