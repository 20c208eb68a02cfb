#!/usr/bin/env python3
# One corpus kernel under Numba's CUDA simulator, as a whole process does it: import Numba with
# NUMBA_ENABLE_CUDASIM=1, read the case's .npy inputs, launch with the case's grid and block,
# write the arguments back as .npy files into OUT (what `pykern run ... --out OUT` does).
# Usage: numba_sim_process.py CASE_DIR OUT_DIR
import json, os, sys
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
import numpy as np
from numba import cuda

case, out = sys.argv[1], sys.argv[2]
spec = json.load(open(os.path.join(case, "case.json")))
path = os.path.join(case, "kernel.py")
module = type(sys)("kernel")
module.__file__ = path
exec(compile(open(path).read(), path, "exec"), module.__dict__)
kernel = getattr(module, spec["function"])
args, names = [], []
for a in spec["args"]:
    if "scalar" in a:
        args.append(a["scalar"])
    else:
        args.append(np.load(os.path.join(case, "inputs", a["name"] + ".npy")))
        names.append((a["name"], args[-1]))
launch = spec["launch"]
if "forall" in launch:
    kernel.forall(launch["forall"])(*args)
else:
    kernel[tuple(launch["grid"]), tuple(launch["block"])](*args)
for name, array in names:
    np.save(os.path.join(out, name + ".npy"), array)
