# Seed 004: @jit("void(f4[:])", nopython=True) bubblesort, sorting its argument in place.
from numba import jit


@jit("void(f4[:])",nopython=True) #without simulator you can use cuda.jit
def bubblesort(X):
    N = len(X)
    for end in range(N, 1, -1):
        for i in range(end - 1):
            cur = X[i]
            if cur > X[i + 1]:
                tmp = X[i]
                X[i] = X[i + 1]
                X[i + 1] = tmp
