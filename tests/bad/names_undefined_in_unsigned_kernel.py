# A kernel without a signature is still checked: `pykern compile FILE` resolves every name it
# reads before anything is typed (Numba: "NameError: name 'TOTL' is not defined" at the launch).
from numba import cuda

TOTAL = 10


@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < TOTL:
        a[i] = never_defined + 1
