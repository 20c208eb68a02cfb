# Recorded from numba.cuda.tests.cudapy.test_intrinsics (TestCudaIntrinsic.test_3dgrid_2) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit
def foo(out):
    x, y, z = cuda.grid(3)
    a, b, c = cuda.gridsize(3)
    grid_is_right = (
        x == cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
        and y == cuda.threadIdx.y + cuda.blockIdx.y * cuda.blockDim.y
        and z == cuda.threadIdx.z + cuda.blockIdx.z * cuda.blockDim.z
    )
    gridsize_is_right = (
        a == cuda.blockDim.x * cuda.gridDim.x
        and b == cuda.blockDim.y * cuda.gridDim.y
        and c == cuda.blockDim.z * cuda.gridDim.z
    )
    out[x, y, z] = grid_is_right and gridsize_is_right
