# Recorded from numba.cuda.tests.cudapy.test_slicing (TestCudaSlicing.test_slice_as_arg) by tests/numba_suite/harness.py
from numba import cuda




@cuda.jit('void(int32[:], int32[:])', device=True)
def cufoo(inp, out):
    for i in range(out.shape[0]):
        out[i] = inp[i]


@cuda.jit('void(int32[:,:], int32[:,:])')
def copy(inp, out):
    i = cuda.grid(1)
    cufoo(inp[i, :], out[i, :])
