# -*- coding: latin-1 -*-
from numba import cuda

@cuda.jit
def k(a):
    a[0] = 1  # café, à la Latin-1
