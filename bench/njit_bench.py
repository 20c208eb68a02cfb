#!/usr/bin/python3
# A suite of @njit functions through pykern's C++ API (build/bench/pykern_bench_njit) and
# through Numba's CPU target, in the same run, on the same inputs. --suite njit (default):
# bench/njit_functions.py on bench/njit_cases.json; --suite numpy: NumPy inside @njit (issue 33),
# bench/numpy_functions.py on bench/numpy_cases.json, at each of its sizes (--size N to choose),
# with a geometric mean per family (creation, reduction, ...) besides the overall one:
#   1. each side's results are compared (returned values and arrays, and every array argument
#      after the first call); a case whose results differ is reported and left out of the ratios;
#   2. rounds taken in turn (pykern, Numba, pykern, Numba, ...): each round's warm call is the
#      median of --calls calls, every array reset to its inputs before each call, untimed;
#   3. per case, the median over rounds of pykern's time / Numba's, and their geometric mean
#      (without the launch_cost cases, which time the start of a parallel loop or a call itself).
# --first-call instead times the first call with nothing built, each case in a fresh process
# on each side, in turn per round: pykern's load of the file to the first result with an empty
# cache folder, against Numba's `import numba`, the module's import and the first call.
# --write-check writes bench/<suite>_check.json: Numba's results at the suite's check_size, which
# the ctest `pykern_bench_njit --suite numpy --check` compares pykern's with.
# Usage: python bench/njit_bench.py [--suite njit|numpy] [--size N ...] [--bench build/bench/pykern_bench_njit]
#                                   [--rounds 3] [--calls 20] [--clock wall|cpu] [--first-call]
#                                   [--write-check] [--markdown] [CASE ...]
# --clock cpu times process CPU time on both sides instead of the wall clock: on a shared,
# loaded machine it leaves out the time other processes hold the cores (for single-threaded
# cases; a prange case's CPU time sums its threads).
# NUMBA_NUM_THREADS applies to both sides.
import argparse, json, math, os, statistics, subprocess, sys, tempfile, time

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)


def load_suite(suite):
    return json.load(open(os.path.join(here, f"{suite}_cases.json")))


spec = load_suite("njit")

DTYPES = {"float32": np.float32, "float64": np.float64, "int32": np.int32, "int64": np.int64}


def sized(value, n):
    """A shape's extent or a scalar as a case file writes it: a number, "n" or "n/K" (n // K)."""
    if not isinstance(value, str):
        return value
    if value == "n":
        return n
    if value.startswith("n/"):
        return n // int(value[2:])
    raise ValueError(f'a size is a number, "n" or "n/K", not {value!r}')


def uses_n(case):
    return "\"n" in json.dumps(case["args"])


def filled(arg, n=None):
    dtype = DTYPES[arg["dtype"]]
    if arg["fill"] == "values":
        return np.array(arg["values"], dtype=dtype)
    shape = tuple(sized(e, n) for e in arg["shape"])
    i = np.arange(int(np.prod(shape)), dtype=np.int64) + arg.get("start", 0)
    if arg["fill"] == "zeros":
        return np.zeros(shape, dtype=dtype)
    if arg["fill"] == "int":
        values = (i * 7919 % 10007 % arg["mod"] + arg.get("offset", 0)).astype(np.float64)
    else:
        values = (i * 7919 % 10007) / 10007.0 * arg.get("scale", 1.0) + arg.get("offset", 0.0)
    if arg.get("nan_every"):
        values[(i - arg.get("start", 0)) % arg["nan_every"] == 0] = np.nan
    return values.astype(dtype).reshape(shape)


def inputs(case, n=None):
    return [filled(a, n) if "fill" in a else sized(a["scalar"], n) for a in case["args"]]


def numba_round(cases, functions, calls, clock=time.perf_counter, n=None):
    out = {}
    for case in cases:
        fn = getattr(functions, case["function"])
        pristine = inputs(case, n)
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


def numba_results(case, functions, n=None):
    """What Numba's call returns, item by item (numbers as floats, arrays as they are), and the
    arguments after it."""
    args = inputs(case, n)
    returned = getattr(functions, case["function"])(*args)
    if returned is None:
        returned = ()
    elif not isinstance(returned, tuple):
        returned = (returned,)
    return [v if isinstance(v, np.ndarray) else float(v) for v in returned], args


def pykern_round(bench, names, calls, out_dir=None, cache_dir=None, clock="wall", suite="njit", n=None):
    command = [bench, "--suite", suite, "--calls", str(calls), "--clock", clock]
    command += (["--size", str(n)] if n is not None else []) + (["--out", out_dir] if out_dir else [])
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


def returned_differs(name, numba_items, pykern_items, out_dir):
    """Why pykern's returned items are not Numba's, or None when they agree."""
    if len(numba_items) != len(pykern_items):
        return f"returned {pykern_items}, Numba {len(numba_items)} items"
    for k, (expected, got) in enumerate(zip(numba_items, pykern_items)):
        if isinstance(expected, np.ndarray):
            if not isinstance(got, dict):
                return f"item {k} is {got}, Numba's an array"
            array = np.load(os.path.join(out_dir, f"{name}.r{got['array']}.npy"))
            if array.dtype != expected.dtype or not agree(expected, array, exact=expected.dtype.kind in "iub"):
                return f"returned array {k} ({array.dtype}{list(array.shape)}) differs from Numba's ({expected.dtype}{list(expected.shape)})"
        elif isinstance(got, dict) or not agree(expected, got, exact=False):
            return f"returned {pykern_items}, Numba {numba_items}"
    return None


def check(cases, functions, pykern, n=None):
    """The names of the cases whose results differ from Numba's, with why."""
    wrong = {}
    for case in cases:
        name = case["name"]
        line = pykern["lines"].get(name)
        if line is None or "error" in line:
            wrong[name] = line["error"] if line else "no result"
            continue
        returned, args = numba_results(case, functions, n)
        why = returned_differs(name, returned, line["returned"], pykern["dir"])
        if why:
            wrong[name] = why
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
case = [c for c in njit_bench.load_suite({suite!r})["cases"] if c["name"] == {name!r}][0]
args = njit_bench.inputs(case, {n!r})
start = time.perf_counter()
import numba
import {suite}_functions as functions
getattr(functions, case["function"])(*args)
print(json.dumps({{"first_ms": (time.perf_counter() - start) * 1e3}}))
"""


def numba_first_call(name, suite="njit", n=None):
    done = subprocess.run([sys.executable, "-c", NUMBA_FIRST_CALL.format(here=here, name=name, suite=suite, n=n)],
                          capture_output=True, text=True)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return lines[-1]["first_ms"] if lines else None


def pykern_first_call(bench, name, suite="njit", n=None):
    with tempfile.TemporaryDirectory() as empty_cache:
        line = pykern_round(bench, [name], 0, cache_dir=empty_cache, suite=suite, n=n).get(name, {})
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
            ours.append(pykern_first_call(options.bench, name, options.suite, options.n))
            theirs.append(numba_first_call(name, options.suite, options.n))
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


def geomean(ratios):
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios))


def write_check(options, cases):
    """bench/<suite>_check.json: Numba's results at the suite's check_size, each returned array
    as its shape and the float64 sum of its elements in C order (what --check compares)."""
    import importlib
    functions = importlib.import_module(f"{options.suite}_functions")
    n = load_suite(options.suite).get("check_size")
    expected = {}
    for case in cases:
        items, _ = numba_results(case, functions, n)
        expected[case["name"]] = [
            {"shape": list(v.shape), "sum": float(np.cumsum(v.astype(np.float64).ravel())[-1]) if v.size else 0.0}
            if isinstance(v, np.ndarray) else v for v in items]
    path = os.path.join(here, f"{options.suite}_check.json")
    with open(path, "w") as out:
        out.write("{\n" + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in expected.items()) + "\n}\n")
    print(f"wrote {path}: {len(expected)} cases at n = {n}")
    return 0


def timed_size(options, cases, functions, n):
    """One size's rounds: per case, (Numba's median µs, pykern's, the median ratio), or why not."""
    names = [c["name"] for c in cases]
    with tempfile.TemporaryDirectory() as scratch:
        first = pykern_round(options.bench, names, 1, scratch, suite=options.suite, n=n)  # builds (or finds) each library
        wrong = check(cases, functions, {"lines": first, "dir": scratch}, n)
    for name, why in wrong.items():
        print(f"{name}{f' (n = {n})' if n else ''}: results differ from Numba's: {why}", file=sys.stderr)
    ratios = {name: [] for name in names}
    pykern_us = {name: [] for name in names}
    numba_us = {name: [] for name in names}
    for _ in range(options.rounds):
        ours = pykern_round(options.bench, names, options.calls, clock=options.clock, suite=options.suite, n=n)
        theirs = numba_round(cases, functions, options.calls,
                             time.process_time if options.clock == "cpu" else time.perf_counter, n)
        for name in names:
            if name in wrong or name not in ours or "call_us" not in ours[name]:
                continue
            pykern_us[name].append(ours[name]["call_us"])
            numba_us[name].append(theirs[name])
            ratios[name].append(ours[name]["call_us"] / theirs[name])
    results = {}
    for name in names:
        if not ratios[name]:
            results[name] = "differs" if name in wrong else "failed"
        else:
            results[name] = (statistics.median(numba_us[name]), statistics.median(pykern_us[name]),
                             statistics.median(ratios[name]))
    return results, bool(wrong)


def size_label(n):
    if n is None:
        return ""
    exponent = round(math.log10(n)) if n > 0 else 0
    return f"1e{exponent}" if n == 10 ** exponent else str(n)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", default=os.path.join(here, "..", "build", "bench", "pykern_bench_njit"))
    parser.add_argument("--suite", choices=["njit", "numpy"], default="njit")
    parser.add_argument("--size", type=int, action="append", help="what a case file's n stands for (repeatable)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int)
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    parser.add_argument("--first-call", action="store_true")
    parser.add_argument("--write-check", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("cases", nargs="*")
    options = parser.parse_args()
    suite = load_suite(options.suite)
    options.calls = options.calls or suite.get("calls", 20)
    sizes = options.size or suite.get("sizes") or [None]
    options.n = sizes[0]
    cases = [c for c in suite["cases"] if not options.cases or c["name"] in options.cases]
    names = [c["name"] for c in cases]
    if options.write_check:
        return write_check(options, cases)
    if options.first_call:
        return first_calls(options, names)

    import importlib
    import numba
    functions = importlib.import_module(f"{options.suite}_functions")

    rows = []  # (case, n, result)
    any_wrong = False
    for k, n in enumerate(sizes):
        # A case whose inputs do not depend on n runs at the first size only.
        at_size = [c for c in cases if k == 0 or uses_n(c)]
        results, wrong = timed_size(options, at_size, functions, n)
        any_wrong |= wrong
        rows += [(c, n, results[c["name"]]) for c in at_size]

    print(f"numba {numba.__version__}, threads {numba.get_num_threads()}, {options.rounds} rounds of "
          f"{options.calls} calls, {options.clock} clock; ratio = pykern / Numba (median of the rounds' ratios)")
    sized_rows = sizes != [None]
    if options.markdown:
        print("| function |" + (" n |" if sized_rows else "") + " Numba call | pykern call | pykern ÷ Numba |")
        print("|---|" + ("---:|" if sized_rows else "") + "---:|---:|---:|")
    kept, by_family = [], {}
    for case, n, result in rows:
        label = [case["name"]] + ([size_label(n)] if sized_rows else [])
        if isinstance(result, str):
            row = label + ["-", "-", result]
        else:
            numba_call, pykern_call, ratio = result
            if not case.get("launch_cost"):  # a parallel loop's start, timed alone: not in the mean
                kept.append(ratio)
                by_family.setdefault(case.get("family"), []).append(ratio)
            row = label + [micros(numba_call), micros(pykern_call), f"{ratio:.2f}×"]
        print("| " + " | ".join(row) + " |" if options.markdown else "  ".join(f"{c:>20}" for c in row))
    means = [(f"{family}: geometric mean of {len(r)}", geomean(r)) for family, r in by_family.items() if family]
    if kept:
        means.append((f"geometric mean of {len(kept)}", geomean(kept)))
    for label, value in means:
        pad = " |" * (1 + sized_rows)
        print(f"| **{label}** |{pad} | **{value:.2f}×** |" if options.markdown else f"{label:>20}  {value:.2f}×")
    return 1 if any_wrong else 0


if __name__ == "__main__":
    sys.exit(main())
