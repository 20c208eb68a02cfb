from numba import cuda


@cuda.jit(device=True)
def nothing(a):
    unused = None
    a[1] = 5.0


@cuda.jit
def fill(a):
    result = None
    done = nothing(a)
    if done is None:
        a[0] = 1.0
    result = done
