# Recorded from numba.cuda.tests.cudapy.test_idiv (TestCudaIDiv.test_inplace_div_double) by tests/numba_suite/harness.py
from numba import cuda
from numba import float64
from numba import int32
from numba import none as void




@cuda.jit
def div_double(grid, l_x, l_y):
    for x in range(l_x):
        for y in range(l_y):
            grid[x, y] /= 2.0
