# Recorded from numba.cuda.tests.cudapy.test_nondet (TestCudaNonDet.test_for_pre) by tests/numba_suite/harness.py
from numba import cuda
from numba import float32
from numba import none as void




@cuda.jit
def diagproduct(c, a, b):
    startX, startY = cuda.grid(2)
    gridX = cuda.gridDim.x * cuda.blockDim.x
    gridY = cuda.gridDim.y * cuda.blockDim.y
    height = c.shape[0]
    width = c.shape[1]

    for x in range(startX, width, (gridX)):
        for y in range(startY, height, (gridY)):
            c[y, x] = a[y, x] * b[x]
