# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_intrinsic_forloop_step) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[:,::1])')
def intrinsic_forloop_step(c):
    startX, startY = cuda.grid(2)
    gridX = cuda.gridDim.x * cuda.blockDim.x
    gridY = cuda.gridDim.y * cuda.blockDim.y
    height, width = c.shape

    for x in range(startX, width, gridX):
        for y in range(startY, height, gridY):
            c[y, x] = x + y
