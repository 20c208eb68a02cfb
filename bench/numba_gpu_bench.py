"""numba-cuda (and CuPy, for launch overhead) on the cases of bench/gpu_cases.json, measured as
bench_gpu.cpp measures pykern. Prints one JSON object. Run on the GPU machine:

    python3 bench/numba_gpu_bench.py > numba.json
"""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
from numba import cuda

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = os.path.join(ROOT, "tests", "corpus", "seeds")


def load_kernel(path, function):
    spec = importlib.util.spec_from_file_location("case_%d" % abs(hash(path)), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, function)


def case_function(name):
    with open(os.path.join(SEEDS, name, "case.json")) as f:
        return json.load(f)["function"]


def random_array(spec, rng):
    """Floats in [0, 1), integers 0..99, as bench_gpu.cpp makes them."""
    dtype = np.dtype(spec["dtype"])
    if dtype.kind == "f":
        return rng.random(spec["shape"]).astype(dtype)
    return rng.integers(0, 100, spec["shape"]).astype(dtype)


def device_arguments(specs, rng):
    return [s["scalar"] if "scalar" in s else cuda.to_device(random_array(s, rng)) for s in specs]


def median(values):
    return sorted(values)[len(values) // 2]


def copy_bandwidth_gbs():
    nbytes = 1 << 30
    src = cuda.device_array(nbytes, dtype=np.uint8)
    dst = cuda.device_array(nbytes, dtype=np.uint8)
    start, end = cuda.event(), cuda.event()
    times = []
    for _ in range(20):
        start.record()
        dst.copy_to_device(src)
        end.record()
        end.synchronize()
        times.append(cuda.event_elapsed_time(start, end))
    return 2.0 * nbytes / (median(times) * 1e-3) / 1e9


def cold_ms(case, rng):
    """First call: Numba's compile, module load and launch (import numba.cuda excluded)."""
    name = case["case"]
    args = device_arguments(case["args"], rng)
    start = time.perf_counter()
    kernel = load_kernel(os.path.join(SEEDS, name, "kernel.py"), case_function(name))
    kernel[tuple(case["grid"]), tuple(case["block"])](*args)
    cuda.synchronize()
    return (time.perf_counter() - start) * 1e3


def kernel_ms(case, rng):
    name = case["case"]
    args = device_arguments(case["args"], rng)
    kernel = load_kernel(os.path.join(SEEDS, name, "kernel.py"), case_function(name))
    launch = kernel[tuple(case["grid"]), tuple(case["block"])]
    for _ in range(3):
        launch(*args)
    start, end = cuda.event(), cuda.event()
    times = []
    for _ in range(50):
        start.record()
        launch(*args)
        end.record()
        end.synchronize()
        times.append(cuda.event_elapsed_time(start, end))
    return median(times)


def per_launch_us(one, launches):
    for _ in range(1000):
        one()
    cuda.synchronize()
    start = time.perf_counter()
    for _ in range(launches):
        one()
    cuda.synchronize()
    return (time.perf_counter() - start) * 1e6 / launches


CUPY_ADD = r"""
extern "C" __global__ void add(const long long* x, const long long* y, long long* out, long long n) {
  long long start = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = start; i < n; i += stride) out[i] = x[i] + y[i];
}
"""


def launch_overhead(spec):
    name, n, launches = spec["case"], spec["n"], spec["launches"]
    dtype = np.dtype(spec["dtype"])
    a, b, out = (cuda.device_array(n, dtype=dtype) for _ in range(3))
    kernel = load_kernel(os.path.join(SEEDS, name, "kernel.py"), case_function(name))
    launch = kernel[tuple(spec["grid"]), tuple(spec["block"])]
    result = {"numba_us": per_launch_us(lambda: launch(a, b, out), launches), "launches": launches}
    try:
        import cupy
        raw = cupy.RawKernel(CUPY_ADD, "add")
        ca, cb, cout = (cupy.zeros(n, dtype=dtype) for _ in range(3))
        grid, block = tuple(spec["grid"]), tuple(spec["block"])

        def one():
            raw(grid, block, (ca, cb, cout, np.int64(n)))

        for _ in range(1000):
            one()
        cupy.cuda.Device().synchronize()
        start = time.perf_counter()
        for _ in range(launches):
            one()
        cupy.cuda.Device().synchronize()
        result["cupy_raw_us"] = (time.perf_counter() - start) * 1e6 / launches
    except Exception as error:  # CuPy missing or failing: say so in the report
        result["cupy_raw_error"] = str(error)
    return result


WARM_CHILD = r"""
import sys, time, json, importlib.util
import numpy as np
from numba import cuda
path, function, case_dir = sys.argv[1], sys.argv[2], sys.argv[3]
start = time.perf_counter()
spec = importlib.util.spec_from_file_location("warm", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
kernel = getattr(module, function)
case = json.load(open(case_dir + "/case.json"))
args = [np.load(case_dir + "/inputs/" + a["name"] + ".npy") for a in case["args"]]
kernel[tuple(case["launch"]["grid"]), tuple(case["launch"]["block"])](*args)
cuda.synchronize()
print("%.3f" % ((time.perf_counter() - start) * 1e3))
"""


def warm_starts(names):
    """New processes with cache=True and the cache populated: load to first launch done (after
    `import numba.cuda`, as pykern's is after the process starts), and the whole process."""
    out = {}
    for name in names:
        work = tempfile.mkdtemp(prefix="numba-warm-")
        with open(os.path.join(SEEDS, name, "kernel.py")) as f:
            text = re.sub(r"@cuda\.jit\s*$", "@cuda.jit(cache=True)", f.read(), flags=re.M)
        path = os.path.join(work, "kernel.py")
        with open(path, "w") as f:
            f.write(text)
        command = [sys.executable, "-c", WARM_CHILD, path, case_function(name), os.path.join(SEEDS, name)]
        inside, process = [], []
        for run in range(11):  # the first run fills the cache
            start = time.perf_counter()
            ms = float(subprocess.check_output(command, env=dict(os.environ, NUMBA_CACHE_DIR=work)).decode().split()[-1])
            if run:
                process.append((time.perf_counter() - start) * 1e3)
                inside.append(ms)
        out[name] = {"load_to_launch_ms": median(inside), "process_ms": median(process)}
        shutil.rmtree(work)
    return out


def main():
    with open(os.path.join(ROOT, "bench", "gpu_cases.json")) as f:
        config = json.load(f)
    import numba
    report = {"device": cuda.get_current_device().name.decode() if isinstance(cuda.get_current_device().name, bytes)
              else cuda.get_current_device().name,
              "numba_version": numba.__version__, "copy_bandwidth_gbs": copy_bandwidth_gbs(),
              "cold_ms": {}, "kernel_ms": {}}
    try:
        import numba_cuda
        report["numba_cuda_version"] = numba_cuda.__version__
    except Exception:
        pass
    rng = np.random.default_rng(12345)
    for case in config["cases"]:
        print("numba: " + case["case"], file=sys.stderr)
        report["cold_ms"][case["case"]] = cold_ms(case, rng)
        report["kernel_ms"][case["case"]] = kernel_ms(case, rng)
    report["launch_overhead"] = launch_overhead(config["launch_overhead"])
    report["warm_start"] = warm_starts(config["warm_start"])
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
