# Recorded from numba.cuda.tests.cudapy.test_complex (TestCMath.test_isfinite) by tests/numba_suite/harness.py
from numba import cuda
import cmath




@cuda.jit(device=True)
def device_func(x):
    return cmath.isfinite(x)


@cuda.jit
def kernel_func(out, a):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = device_func(a[i])
