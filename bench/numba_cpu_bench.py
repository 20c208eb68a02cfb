#!/usr/bin/python3
# Numba's CPU target on the cases bench_cpu_functions.cpp times (bench/cpu_cases.json):
#   first call: exec the kernel file (its decorators: an eager signature compiles there) and
#               make the first call (typing + LLVM), after `import numba`, in a fresh process
#               per case so nothing is compiled before;
#   call: the median of repeated calls of the compiled function.
# Usage: python3 bench/numba_cpu_bench.py [--threads N]   (NUMBA_NUM_THREADS also applies)
import json, os, statistics, subprocess, sys, time

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
spec = json.load(open(os.path.join(root, "bench", "cpu_cases.json")))


def ramp(n, dtype):
    import numpy as np
    return ((np.arange(n, dtype=np.int64) * 7919 % 20000) / 100.0 - 100.0).astype(dtype)


def load(case):
    # exec runs the decorators: an eager signature compiles here, so it is timed as first call.
    path = os.path.join(root, "tests", "corpus", "features", case["case"], "kernel.py")
    module = type(sys)("bench_" + case["name"])
    module.__file__ = path
    exec(compile(open(path).read(), path, "exec"), module.__dict__)
    return getattr(module, case["function"])


def one_case(name, threads):
    import numba
    if threads:
        numba.set_num_threads(threads)
    case = next(c for c in spec["cases"] if c["name"] == name)
    args = [ramp(a["ramp"], a["dtype"]) if "ramp" in a else a["scalar"] for a in case["args"]]
    start = time.perf_counter()
    fn = load(case)
    fn(*args)
    first = time.perf_counter() - start
    times = []
    deadline = time.perf_counter() + 2.0
    while time.perf_counter() < deadline or len(times) < 5:
        batch = 1000 if name == "hypot" else 1
        start = time.perf_counter()
        for _ in range(batch):
            fn(*args)
        times.append((time.perf_counter() - start) / batch)
    print(json.dumps({"case": name, "first_call_ms": first * 1e3, "call_us": statistics.median(times) * 1e6}))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        one_case(sys.argv[2], int(sys.argv[3]))
        sys.exit(0)
    threads = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 0
    import numba
    print(f"numba {numba.__version__}, threads {threads or numba.get_num_threads()}")
    for case in spec["cases"]:
        subprocess.run([sys.executable, __file__, "--one", case["name"], str(threads)], check=True)
