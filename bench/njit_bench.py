#!/usr/bin/python3
# bench/njit_functions.py through pykern's C++ API (build/bench/pykern_bench_njit) and through
# Numba's CPU target, in the same run, on the same inputs (bench/njit_cases.json):
#   1. each side's results are compared (return values and every array argument after the
#      first call); a case whose results differ is reported and left out of the ratios;
#   2. rounds taken in turn (pykern, Numba, pykern, Numba, ...): each round's warm call is the
#      median of --calls calls, every array reset to its inputs before each call, untimed;
#   3. per case, the median over rounds of pykern's time / Numba's, and their geometric mean
#      (without the launch_cost cases, which time the start of a parallel loop, not work).
# Usage: python bench/njit_bench.py [--bench build/bench/pykern_bench_njit] [--rounds 3]
#                                   [--calls 20] [--markdown] [CASE ...]
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


def numba_round(cases, functions, calls):
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
            start = time.perf_counter()
            fn(*args)
            times.append((time.perf_counter() - start) * 1e6)
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


def pykern_round(bench, names, calls, out_dir=None):
    command = [bench, "--calls", str(calls)] + (["--out", out_dir] if out_dir else []) + names
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


def micros(value):
    return f"{value:.0f} µs" if value >= 100 else f"{value:.3g} µs"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", default=os.path.join(here, "..", "build", "bench", "pykern_bench_njit"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("cases", nargs="*")
    options = parser.parse_args()
    cases = [c for c in spec["cases"] if not options.cases or c["name"] in options.cases]
    names = [c["name"] for c in cases]

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
        ours = pykern_round(options.bench, names, options.calls)
        theirs = numba_round(cases, functions, options.calls)
        for name in names:
            if name in wrong or name not in ours or "call_us" not in ours[name]:
                continue
            pykern_us[name].append(ours[name]["call_us"])
            numba_us[name].append(theirs[name])
            ratios[name].append(ours[name]["call_us"] / theirs[name])

    print(f"numba {numba.__version__}, threads {numba.get_num_threads()}, {options.rounds} rounds of "
          f"{options.calls} calls; ratio = pykern / Numba (median of the rounds' ratios)")
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
