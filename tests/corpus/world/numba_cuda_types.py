#!/usr/bin/env python3
"""Does real numba-cuda accept a corpus case's kernel?

Numba's simulator (which makes the expected outputs) runs kernels as Python, so it also runs code
that numba-cuda refuses to compile: `cuda.shared.array((N, N + 1), ...)` (N + 1 is not a literal
to Numba), a local that holds an int8 in one branch and an IntEnum member in another, iteration
over a heterogeneous tuple.  This script types each kernel case with numba-cuda's own compiler
(`cuda.compile_ptx` for sm_90), which needs NVVM but no GPU, and prints one line per case:

    CASE: numba-cuda accepts
    CASE: NUMBA REFUSES: TypingError: ...

Run it with numba-cuda from PyPI (python3 -m venv v && v/bin/pip install numba-cuda numpy), with
CUDA_HOME naming a CUDA toolkit:  CUDA_HOME=/usr/local/cuda v/bin/python numba_cuda_types.py w0*
Only `kernel` cases are typed; ufuncs, gufuncs, reductions and @jit functions are skipped.
"""
import functools
import json
import os
import re
import sys
import types

import numpy as np
from numba import cuda, typeof
import numba.cuda.dispatcher as cuda_dispatcher


class _Sm90:
    compute_capability = (9, 0)


# Device functions ask the current device for its compute capability when they compile; there is
# no device here, so they are typed for sm_90, as the kernels are.
cuda_dispatcher.get_current_device = lambda: _Sm90()

# An eager signature compiles at import, which needs a driver: drop it and type the kernel for the
# case's arguments instead (the signature's own types are the case's, by construction).
EAGER_SIGNATURE = re.compile(r"@cuda\.jit\((['\"])[^'\"]*\1(, )?")


def argument_types(case_dir, case):
    found = []
    for arg in case["args"]:
        if "scalar" in arg:
            value = arg["scalar"]
            found.append(typeof(np.dtype(arg["dtype"]).type(value) if "dtype" in arg else value))
        else:
            found.append(typeof(np.load(os.path.join(case_dir, "inputs", arg["name"] + ".npy"))))
    return tuple(found)


def check(case_dir):
    with open(os.path.join(case_dir, "case.json")) as f:
        case = json.load(f)
    if case["kind"] != "kernel":
        return f"{case['case']}: skipped ({case['kind']})"
    path = os.path.join(case_dir, "kernel.py")
    with open(path) as f:
        source = EAGER_SIGNATURE.sub("@cuda.jit(", f.read())
    module = types.ModuleType("kernel_" + case["case"])
    module.__file__ = path
    try:
        exec(compile(source, path, "exec"), module.__dict__)
    except Exception as error:  # cuda.jit(sig)(f) compiles at import too, and wants a driver
        return f"{case['case']}: not typed: the module did not import here ({type(error).__name__})"
    kernel = functools.reduce(getattr, case["function"].split("."), module)
    try:
        cuda.compile_ptx(kernel.py_func, argument_types(case_dir, case), cc=(9, 0))
    except Exception as error:  # the point is to report whatever numba-cuda says
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return f"{case['case']}: NUMBA REFUSES: {type(error).__name__}: {first_line}"
    return f"{case['case']}: numba-cuda accepts"


def main(case_dirs):
    refused = 0
    for case_dir in case_dirs:
        line = check(case_dir.rstrip("/"))
        refused += "REFUSES" in line
        print(line)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
