#!/usr/bin/python3
# Times Numba's CUDA simulator on the corpus kernels that bench_simulator.cpp times (Debian numba).
import json, os, sys, time
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
import numpy as np
from numba import cuda
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "corpus", "seeds")
for name in ["s003_matmul_shared", "s003_matmul_naive", "s001_compute_pi_xoroshiro", "s001_vector_add_gridstride", "s004_bubblesort", "s002_check_prime_kernel_12"]:
    d = os.path.join(root, name)
    spec = json.load(open(os.path.join(d, "case.json")))
    src = open(os.path.join(d, "kernel.py")).read()
    mod = type(sys)("k_" + name); mod.__file__ = os.path.join(d, "kernel.py")
    exec(compile(src, mod.__file__, "exec"), mod.__dict__)
    fn = getattr(mod, spec["function"])
    args = []
    for a in spec["args"]:
        if "scalar" in a: args.append(a["scalar"])
        else: args.append(np.load(os.path.join(d, "inputs", a["name"] + ".npy")))
    L = spec["launch"]
    t = time.perf_counter()
    if "forall" in L: fn.forall(L["forall"])(*args)
    else: fn[tuple(L["grid"]), tuple(L["block"])](*args)
    print(f"{name}: {time.perf_counter() - t:.3f} s", flush=True)
