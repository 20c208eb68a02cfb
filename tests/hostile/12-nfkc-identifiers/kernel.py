from numba import cuda

SCALE = 3

@cuda.jit
def k(ﬁ):
    fi[0] = 𝐒𝐂𝐀𝐋𝐄
