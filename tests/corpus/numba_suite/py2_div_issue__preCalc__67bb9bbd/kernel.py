# Recorded from numba.cuda.tests.cudapy.test_py2_div_issue (TestCudaPy2Div.test_py2_div_issue) by tests/numba_suite/harness.py
from numba import cuda
from numba import float32
from numba import int32
from numba import none as void




@cuda.jit
def preCalc(y, yA, yB, numDataPoints):
    i = cuda.grid(1)
    # k is unused, but may be part of the trigger for the bug this
    # tests for.
    k = i % numDataPoints  # noqa: F841

    ans = float32(1.001 * float32(i))

    y[i] = ans
    yA[i] = ans * 1.0
    yB[i] = ans / 1.0
