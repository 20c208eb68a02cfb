# Recorded from numba.cuda.tests.cudapy.test_ssa (TestSSA.test_unhandled_undefined) by tests/numba_suite/harness.py
from numba import cuda

NONE_SENTINEL = 99


@cuda.jit
def function1(arg1, arg2, arg3, arg4, arg5):
    # This function is auto-generated.
    if arg1:
        var1 = arg2
        var2 = arg3
        var3 = var2
        var4 = arg1
        return
    else:
        if arg2:
            if arg4:
                var5 = arg4  # noqa: F841
                return
            else:
                var6 = var4
                return
            return var6
        else:
            if arg5:
                if var1:
                    if arg5:
                        var1 = var6
                        return
                    else:
                        var7 = arg2  # noqa: F841
                        return arg2
                    return
                else:
                    if var2:
                        arg5 = arg2
                        return arg1
                    else:
                        var6 = var3
                        return var4
                    return
                return
            else:
                var8 = var1
                return
            return var8
        var9 = var3  # noqa: F841
        var10 = arg5  # noqa: F841
        return var1


@cuda.jit
def function1_caller(result, arg1, arg2, arg3, arg4, arg5):
    retval = function1(arg1, arg2, arg3, arg4, arg5)
    if retval is None:
        result[0] = NONE_SENTINEL
    else:
        result[0] = retval
