#!/usr/bin/python3
# bench/njit_functions.py through pykern's C++ API (build/bench/pykern_bench_njit) and through
# Numba's CPU target, in the same run, on the same inputs (bench/njit_cases.json):
#   1. each side's results are compared (return values and every array argument after the
#      first call); a case whose results differ is reported and left out of the ratios;
#   2. rounds taken in turn (pykern, Numba, pykern, Numba, ...): each round's warm call is the
#      median of --calls calls, every array reset to its inputs before each call, untimed;
#   3. per case, the median over rounds of pykern's time / Numba's, and their geometric mean
#      (without the launch_cost cases, which time the start of a parallel loop or a call itself).
# --first-call instead times the first call with nothing built, each case in a fresh process
# on each side, in turn per round: pykern's load of the file to the first result with an empty
# cache folder, against Numba's `import numba`, the module's import and the first call.
# Usage: python bench/njit_bench.py [--bench build/bench/pykern_bench_njit] [--rounds 3]
#                                   [--calls 20] [--clock wall|cpu] [--first-call] [--markdown] [CASE ...]
# --clock cpu times process CPU time on both sides instead of the wall clock: on a shared,
# loaded machine it leaves out the time other processes hold the cores (for single-threaded
# cases; a prange case's CPU time sums its threads).
# NUMBA_NUM_THREADS applies to both sides.
import argparse, json, math, os, statistics, subprocess, sys, tempfile, time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
spec = json.load(open(os.path.join(here, "njit_cases.json")))

DTYPES = {"float32": np.float32, "float64": np.float64, "int32": np.int32, "int64": np.int64}


def filled(arg):
    dtype = DTYPES[arg["dtype"]]
    if arg["fill"] == "values":
        return np.array(arg["values"], dtype=dtype)
    shape = tuple(arg["shape"])
    i = np.arange(int(np.prod(shape)), dtype=np.int64) + arg.get("start", 0)
    if arg["fill"] == "zeros":
        return np.zeros(shape, dtype=dtype)
    if arg["fill"] == "int":
        return (i * 7919 % 10007 % arg["mod"]).astype(dtype).reshape(shape)
    ramp = (i * 7919 % 10007) / 10007.0 * arg.get("scale", 1.0) + arg.get("offset", 0.0)
    return ramp.astype(dtype).reshape(shape)


def inputs(case):
    return [filled(a) if "fill" in a else a["scalar"] for a in case["args"]]


def numba_round(cases, functions, calls, clock=time.perf_counter):
    out = {}
    for case in cases:
        fn = getattr(functions, case["function"])
        pristine = inputs(case)
        args = [a.copy() if isinstance(a, np.ndarray) else a for a in pristine]
        times = []
        for _ in range(calls):
            for a, p in zip(args, pristine):
                if isinstance(a, np.ndarray):
                    np.copyto(a, p)
            start = clock()
            fn(*args)
            times.append((clock() - start) * 1e6)
        out[case["name"]] = statistics.median(times)
    return out


def numba_results(case, functions):
    args = inputs(case)
    returned = getattr(functions, case["function"])(*args)
    if returned is None:
        returned = ()
    elif not isinstance(returned, tuple):
        returned = (returned,)
    return [float(v) for v in returned], args


def pykern_round(bench, names, calls, out_dir=None, cache_dir=None, clock="wall"):
    command = [bench, "--calls", str(calls), "--clock", clock] + (["--out", out_dir] if out_dir else [])
    command += (["--cache-dir", cache_dir] if cache_dir else []) + names
    done = subprocess.run(command, capture_output=True, text=True)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {line["case"]: line for line in lines}


def agree(expected, got, exact):
    expected = np.asarray(expected)
    got = np.asarray(got)
    if expected.shape != got.shape:
        return False
    if exact:
        return np.array_equal(expected, got)
    return np.allclose(got, expected, rtol=1e-9, atol=1e-12, equal_nan=True)


def check(cases, functions, pykern):
    """The names of the cases whose results differ from Numba's, with why."""
    wrong = {}
    for case in cases:
        name = case["name"]
        line = pykern["lines"].get(name)
        if line is None or "error" in line:
            wrong[name] = line["error"] if line else "no result"
            continue
        returned, args = numba_results(case, functions)
        if not agree(returned, line["returned"], exact=False):
            wrong[name] = f"returned {line['returned']}, Numba {returned}"
            continue
        for k, a in enumerate(args):
            if isinstance(a, np.ndarray):
                got = np.load(os.path.join(pykern["dir"], f"{name}.{k}.npy"))
                if not agree(a, got, exact=a.dtype.kind in "iu"):
                    worst = np.nanmax(np.abs(got.astype(np.float64) - a.astype(np.float64)))
                    wrong[name] = f"argument {k + 1} differs (largest difference {worst:g})"
                    break
    return wrong


# One fresh Python process: numpy and the inputs are made first, untimed; then the clock runs
# over `import numba`, the functions' module and the first call (Numba's dispatcher compiles
# on it), as a program starting up pays them.
NUMBA_FIRST_CALL = """
import json, sys, time
sys.path.insert(0, {here!r})
import numpy as np
import njit_bench
case = [c for c in njit_bench.spec["cases"] if c["name"] == {name!r}][0]
args = njit_bench.inputs(case)
start = time.perf_counter()
import numba
import njit_functions
getattr(njit_functions, case["function"])(*args)
print(json.dumps({{"first_ms": (time.perf_counter() - start) * 1e3}}))
"""


def numba_first_call(name):
    done = subprocess.run([sys.executable, "-c", NUMBA_FIRST_CALL.format(here=here, name=name)],
                          capture_output=True, text=True)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return lines[-1]["first_ms"] if lines else None


def pykern_first_call(bench, name):
    with tempfile.TemporaryDirectory() as empty_cache:
        line = pykern_round(bench, [name], 0, cache_dir=empty_cache).get(name, {})
    return line.get("first_ms")


def first_calls(options, names):
    """Per case, the median over rounds of pykern's first call / Numba's, each from nothing."""
    print(f"first call with nothing built, {options.rounds} rounds; ratio = pykern / Numba (median of the rounds' ratios)")
    if options.markdown:
        print("| function | Numba import + first call | pykern load + first call | pykern ÷ Numba |\n|---|---:|---:|---:|")
    medians = []
    for name in names:
        ours, theirs = [], []
        for _ in range(options.rounds):
            ours.append(pykern_first_call(options.bench, name))
            theirs.append(numba_first_call(name))
        if None in ours or None in theirs:
            row = [name, "-", "-", "failed"]
        else:
            ratio = statistics.median(a / b for a, b in zip(ours, theirs))
            medians.append(ratio)
            row = [name, f"{statistics.median(theirs):.0f} ms", f"{statistics.median(ours):.0f} ms", f"{ratio:.2f}×"]
        print("| " + " | ".join(row) + " |" if options.markdown else "  ".join(f"{c:>20}" for c in row))
    if medians:
        label = f"median of {len(medians)}"
        value = f"{statistics.median(medians):.2f}×"
        print(f"| **{label}** | | | **{value}** |" if options.markdown else f"{label:>20}  {value}")
    return 0


def micros(value):
    return f"{value:.0f} µs" if value >= 100 else f"{value:.3g} µs"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", default=os.path.join(here, "..", "build", "bench", "pykern_bench_njit"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    parser.add_argument("--first-call", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("cases", nargs="*")
    options = parser.parse_args()
    cases = [c for c in spec["cases"] if not options.cases or c["name"] in options.cases]
    names = [c["name"] for c in cases]
    if options.first_call:
        return first_calls(options, names)

    import numba
    import njit_functions as functions

    with tempfile.TemporaryDirectory() as scratch:
        first = pykern_round(options.bench, names, 1, scratch)  # builds (or finds) each library
        wrong = check(cases, functions, {"lines": first, "dir": scratch})
    for name, why in wrong.items():
        print(f"{name}: results differ from Numba's: {why}", file=sys.stderr)
    ratios = {name: [] for name in names}
    pykern_us = {name: [] for name in names}
    numba_us = {name: [] for name in names}
    for _ in range(options.rounds):
        ours = pykern_round(options.bench, names, options.calls, clock=options.clock)
        theirs = numba_round(cases, functions, options.calls,
                             time.process_time if options.clock == "cpu" else time.perf_counter)
        for name in names:
            if name in wrong or name not in ours or "call_us" not in ours[name]:
                continue
            pykern_us[name].append(ours[name]["call_us"])
            numba_us[name].append(theirs[name])
            ratios[name].append(ours[name]["call_us"] / theirs[name])

    print(f"numba {numba.__version__}, threads {numba.get_num_threads()}, {options.rounds} rounds of "
          f"{options.calls} calls, {options.clock} clock; ratio = pykern / Numba (median of the rounds' ratios)")
    if options.markdown:
        print("| function | Numba call | pykern call | pykern ÷ Numba |\n|---|---:|---:|---:|")
    kept = []
    launch_cost = {c["name"] for c in cases if c.get("launch_cost")}
    for name in names:
        if not ratios[name]:
            row = [name, "-", "-", "differs" if name in wrong else "failed"]
        else:
            ratio = statistics.median(ratios[name])
            if name not in launch_cost:  # a parallel loop's start, timed alone: not in the mean
                kept.append(ratio)
            row = [name, micros(statistics.median(numba_us[name])), micros(statistics.median(pykern_us[name])),
                   f"{ratio:.2f}×"]
        print("| " + " | ".join(row) + " |" if options.markdown else "  ".join(f"{c:>20}" for c in row))
    if kept:
        geomean = math.exp(sum(math.log(r) for r in kept) / len(kept))
        label = f"geometric mean of {len(kept)}"
        print(f"| **{label}** | | | **{geomean:.2f}×** |" if options.markdown else f"{label:>20}  {geomean:.2f}×")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
