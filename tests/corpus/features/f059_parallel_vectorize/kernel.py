# Seed 004: @vectorize with target='parallel' and fastmath, a float32 ufunc on 2-d arrays.
import numpy as np
from numba import vectorize, int64, float32


@vectorize([float32(float32, float32)], target='parallel', fastmath=True)
#to use cuda target must become cuda. Since emulator has a bug we use parallel
def vec_add(x, y):
    c =  x + y
    return c
