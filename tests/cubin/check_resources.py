#!/usr/bin/env python3
"""Checks `pykern compile --resources` against `cuobjdump -res-usage` for every corpus kernel.

Each kernel case of tests/corpus is compiled to an sm_90 cubin by `pykern compile --like`
(typed by its inputs, as the case runs), pykern reads the cubin (--resources --json) and
cuobjdump reads the same file; every kernel's REG, STACK, SHARED, LOCAL and CONSTANT[0] must
agree (and a device function's SHARED, LOCAL and CONSTANT[0]: cuobjdump prints no registers or
stack for those). Prints the distribution of registers, spills, stack and occupancy (BENCHMARKS.md).

    tests/cubin/check_resources.py PYKERN [CUOBJDUMP]     (cuobjdump: on PATH by default)

cuobjdump comes with the CUDA Toolkit, or from PyPI: pip install nvidia-cuda-cuobjdump.
Exit status 0 when every kernel agrees.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def like_arguments(case_dir, spec):
    """The case's arguments as `--like` takes them: .npy paths and typed scalars."""
    out = []
    for arg in spec["args"]:
        if "scalar" not in arg:
            out.append(os.path.join(case_dir, "inputs", arg["name"] + ".npy"))
            continue
        value = arg["scalar"]
        text = repr(value) if not isinstance(value, float) or not value.is_integer() else "%.1f" % value
        out.append(arg["dtype"] + ":" + text if "dtype" in arg else text)
    return ",".join(out)


def cuobjdump_usage(cuobjdump, cubin):
    """{function: {"REG": n, "STACK": n, ...}} from cuobjdump -res-usage."""
    text = subprocess.run([cuobjdump, "-res-usage", cubin], check=True, capture_output=True, text=True).stdout
    usage, function = {}, None
    for line in text.splitlines():
        m = re.match(r"\s*Function (\S+):", line)
        if m:
            function = m.group(1)
        elif function and "REG:" in line:
            usage[function] = {k: int(v) for k, v in re.findall(r"([A-Z]+(?:\[\d+\])?):(\d+)", line)}
            function = None
    return usage


def main():
    pykern = sys.argv[1]
    cuobjdump = sys.argv[2] if len(sys.argv) > 2 else "cuobjdump"
    corpus = os.path.join(ROOT, "tests", "corpus")
    checked, failures, skipped = 0, [], []
    kernels = []
    with tempfile.TemporaryDirectory() as scratch:
        cubin = os.path.join(scratch, "k.cubin")
        for group in sorted(os.listdir(corpus)):
            group_dir = os.path.join(corpus, group)
            if not os.path.isdir(group_dir):
                continue
            for case in sorted(os.listdir(group_dir)):
                case_dir = os.path.join(group_dir, case)
                spec_path = os.path.join(case_dir, "case.json")
                if not os.path.exists(spec_path):
                    continue
                spec = json.load(open(spec_path))
                if spec["kind"] != "kernel":
                    continue
                name = group + "/" + case
                block = []
                if "block" in spec.get("launch", {}):
                    threads = 1
                    for extent in spec["launch"]["block"]:
                        threads *= extent
                    block = ["--block", str(threads)]
                run = subprocess.run([pykern, "compile", os.path.join(case_dir, "kernel.py"), "--like",
                                      spec["function"] + "=" + like_arguments(case_dir, spec), "--kernel",
                                      spec["function"], "--arch", "sm_90", "--resources", "--json", "-o", cubin] + block,
                                     capture_output=True, text=True)
                if run.returncode != 0:
                    skipped.append((name, run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "?"))
                    continue
                ours = json.loads(run.stdout)["functions"]
                theirs = cuobjdump_usage(cuobjdump, cubin)
                if set(ours) != set(theirs):
                    failures.append((name, "functions differ: %s vs %s" % (sorted(ours), sorted(theirs))))
                    continue
                for function, usage in theirs.items():
                    mine = ours[function]
                    pairs = [("REG", "registers"), ("STACK", "stack_bytes"), ("SHARED", "shared_bytes"),
                             ("LOCAL", "local_bytes"), ("CONSTANT[0]", "constant_bytes")]
                    # For a device function (debug builds keep them) cuobjdump prints 0 registers
                    # and 0 stack; pykern gives the cubin's own count and frame, as ptxas -v does.
                    if not mine["kernel"]:
                        pairs = pairs[2:]
                    for field, key in pairs:
                        if usage.get(field, 0) != mine[key]:
                            failures.append((name, "%s %s: cuobjdump %s, pykern %s" % (function, field, usage.get(field), mine[key])))
                    if mine["kernel"]:
                        kernels.append((name, mine))
                checked += 1
    for name, why in failures:
        print("MISMATCH %s: %s" % (name, why))
    for name, why in skipped:
        print("skipped %s: %s" % (name, why))
    print("%d kernel cases checked against cuobjdump, %d mismatches, %d not compiled" % (checked, len(failures), len(skipped)))
    summarize(kernels)
    return 1 if failures else 0


def summarize(kernels):
    if not kernels:
        return
    regs = sorted(k["registers"] for _, k in kernels)
    def pct(p):
        return regs[min(len(regs) - 1, int(p * len(regs)))]
    print("kernels: %d; registers min %d, median %d, p90 %d, max %d" % (len(regs), regs[0], pct(0.5), pct(0.9), regs[-1]))
    buckets = collections.Counter()
    for r in regs:
        buckets["<=16" if r <= 16 else "17-32" if r <= 32 else "33-64" if r <= 64 else "65-128" if r <= 128 else ">128"] += 1
    print("registers: " + ", ".join("%s: %d" % (b, buckets[b]) for b in ["<=16", "17-32", "33-64", "65-128", ">128"]))
    spilling = [(n, k) for n, k in kernels if k["spill_store_bytes"] or k["spill_load_bytes"]]
    print("kernels that spill: %d" % len(spilling))
    for n, k in spilling:
        print("  %s: %d B stored, %d B loaded, %d registers" % (n, k["spill_store_bytes"], k["spill_load_bytes"], k["registers"]))
    stack = [(n, k) for n, k in kernels if k["stack_bytes"]]
    print("kernels with a stack: %d (max %d B)" % (len(stack), max([k["stack_bytes"] for _, k in stack] or [0])))
    shared = [k for _, k in kernels if k["shared_bytes"]]
    print("kernels with static shared memory: %d (max %d B)" % (len(shared), max([k["shared_bytes"] for k in shared] or [0])))
    full = collections.Counter(k["occupancy"]["warps_per_sm"] * 100 // k["occupancy"]["max_warps_per_sm"] for _, k in kernels)
    print("best occupancy (% of warps): " + ", ".join("%d%%: %d" % (p, full[p]) for p in sorted(full, reverse=True)))
    heavy = sorted(kernels, key=lambda nk: -nk[1]["registers"])[:3]
    print("most registers: " + ", ".join("%s %d" % (n, k["registers"]) for n, k in heavy))
    at_block = [k["occupancy_at_block"] for _, k in kernels if k.get("occupancy_at_block")]
    own = collections.Counter(o["warps_per_sm"] * 100 // o["max_warps_per_sm"] for o in at_block)
    print("occupancy at the case's own block size (%d kernels): " % len(at_block) +
          ", ".join("%d%%: %d" % (p, own[p]) for p in sorted(own, reverse=True)))
    own_limits = collections.Counter(o["limited_by"] for o in at_block)
    print("  limited by: " + ", ".join("%s: %d" % kv for kv in own_limits.most_common()))
    limited = collections.Counter(k["occupancy"]["limited_by"] for _, k in kernels if k["occupancy"]["warps_per_sm"] < k["occupancy"]["max_warps_per_sm"])
    for why, count in limited.most_common():
        print("  below 100%% limited by %s: %d" % (why, count))


if __name__ == "__main__":
    sys.exit(main())
