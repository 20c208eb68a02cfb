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

With --pykern PATH (the pykern binary) it also compares the type of every local variable of the
kernel and of the device functions it calls with what `pykern compile --types` infers, and prints
a line for each variable whose types differ:  CASE: FUNCTION.NAME: numba [...] pykern [...]
(A float32 computed in float64 hides under the tolerances the simulator needs; this does not.)
"""
import functools
import json
import os
import re
import subprocess
import sys
import types

import numpy as np
from numba import cuda, typeof
import numba.cuda.dispatcher as cuda_dispatcher
from numba.cuda.compiler import compile_cuda


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


def signature_text(t):
    """A Numba type as pykern's --sig reads it: float32[:, ::1] for a C array."""
    if not (hasattr(t, "dtype") and hasattr(t, "ndim")):
        return str(t)
    dims = [":"] * t.ndim
    if t.layout == "C":
        dims[-1] = "::1"
    elif t.layout == "F":
        dims[0] = "::1"
    return f"{t.dtype}[{', '.join(dims)}]"


def numba_local_types(module, kernel, argtys):
    """{function: {variable: {type, ...}}} for the kernel and the device functions it compiled."""
    found = {}

    def add(name, typemap):
        for var, ty in typemap.items():
            if not var.startswith("$") and not var.startswith("arg."):
                # SSA versions (x.1, x.2) are one Python name; literal ints unify with int64
                text = re.sub(r"Literal\[int\]\(-?\d+\)", "int64", str(ty))
                found.setdefault(name, {}).setdefault(var.split(".")[0], set()).add(text)

    add(kernel.py_func.__name__, compile_cuda(kernel.py_func, None, argtys, cc=(9, 0)).fndesc.typemap)
    for obj in vars(module).values():
        if obj is not kernel and hasattr(obj, "overloads") and hasattr(obj, "py_func"):
            for compiled in obj.overloads.values():
                if hasattr(compiled, "fndesc"):
                    add(obj.py_func.__name__, compiled.fndesc.typemap)
    return found


def pykern_local_types(pykern, path, function, argtys):
    sig = f"{function}=void({', '.join(signature_text(t) for t in argtys)})"
    run = subprocess.run([pykern, "compile", path, "--types", "--sig", sig], capture_output=True, text=True)
    found, current = {}, None
    for line in run.stdout.splitlines():
        header = re.match(r"# (?:kernel|function) (\w+)\(", line)
        if header:
            current = found.setdefault(header.group(1), {})
            continue
        typed = re.match(r"\s+\|\s+# (\w+): (.+)$", line)
        if typed and current is not None:
            current.setdefault(typed.group(1), set()).add(typed.group(2).strip())
    return found


def compare_types(case, module, kernel, argtys, path, pykern):
    ours = pykern_local_types(pykern, path, case["function"].split(".")[-1], argtys)
    lines = []
    for function, variables in numba_local_types(module, kernel, argtys).items():
        for name, numba_types in sorted(variables.items()):
            pykern_types = ours.get(function, {}).get(name)
            if pykern_types is not None and not (pykern_types & numba_types):
                lines.append(f"{case['case']}: {function}.{name}: numba {sorted(numba_types)} "
                             f"pykern {sorted(pykern_types)}")
    return lines


def check(case_dir, pykern=None):
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
    argtys = argument_types(case_dir, case)
    try:
        cuda.compile_ptx(kernel.py_func, argtys, cc=(9, 0))
    except Exception as error:  # the point is to report whatever numba-cuda says
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return f"{case['case']}: NUMBA REFUSES: {type(error).__name__}: {first_line}"
    differences = compare_types(case, module, kernel, argtys, path, pykern) if pykern else []
    return "\n".join([f"{case['case']}: numba-cuda accepts"] + differences)


def main(args):
    pykern = None
    if args[:1] == ["--pykern"]:
        pykern, args = args[1], args[2:]
    problems = 0
    for case_dir in args:
        text = check(case_dir.rstrip("/"), pykern)
        problems += "REFUSES" in text or "pykern [" in text
        print(text)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
