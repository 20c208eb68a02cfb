# Recorded from numba.cuda.tests.cudapy.test_ssa (TestSSA.test_phi_propagation) by tests/numba_suite/harness.py
from numba import cuda
from numba.cuda import jit




@cuda.jit
def foo(result, actions):
    n = 1

    i = 0
    ct = 0
    while n > 0 and i < len(actions):
        n -= 1

        while actions[i]:
            if actions[i]:
                if actions[i]:
                    n += 10
                actions[i] -= 1
            else:
                if actions[i]:
                    n += 20
                actions[i] += 1

            ct += n
        ct += n
    result[0] = ct
    result[1] = n
