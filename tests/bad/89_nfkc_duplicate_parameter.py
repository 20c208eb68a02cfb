# CPython reads identifiers NFKC-normalised: the ligature ﬁ is fi, so these are one name.
from numba import cuda

@cuda.jit
def k(fi, ﬁ):
    fi[0] = 1
