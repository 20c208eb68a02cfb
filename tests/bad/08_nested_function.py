from numba import cuda
# An inner function may read the kernel's variables, but not call itself: Numba refuses a
# recursive inner function.

@cuda.jit
def k(a, n):
    def fact(m):
        if m <= 1:
            return 1
        return m * fact(m - 1)
    a[0] = fact(n)
