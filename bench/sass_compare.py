#!/usr/bin/env python3
"""Compares the SASS pykern makes for the corpus kernels with numba-cuda's (issue 32).

Each kernel case of tests/corpus/{seeds,features,world,numba_suite} is compiled to PTX twice,
by pykern (`pykern compile --like ... --arch compute_90 --emit ptx`, NVRTC) and by numba-cuda
(`numba.cuda.compile_ptx`, NVVM), for the types the case's own arguments give (a decorator's
signature wins, as it does when Numba runs the case). Both PTX files go through the same
`ptxas -arch=sm_90 -O3 -v`; its report gives registers, spill stores and loads, stack frame,
shared and constant bytes, and each cubin's code sections give the SASS instruction count (NOPs
left out, every function of the cubin counted: the kernel and the device functions it calls
that were not inlined; with --keep, checked against `nvdisasm`'s listing). No GPU is needed.

Setup, once (numba-cuda finds the toolkit's libnvvm through CUDA_HOME; the nvdisasm wheel
stands in where the toolkit has no nvdisasm):

    python3 -m venv /work/venv-nc
    /work/venv-nc/bin/pip install numba-cuda cuda-bindings nvidia-cuda-nvdisasm

Run (about an hour for the 647 kernel cases on 2 busy cores; both sides' PTX is kept in
--cache, so a second run of the same pykern build takes minutes):

    CUDA_HOME=/usr/local/cuda /work/venv-nc/bin/python bench/sass_compare.py build/pykern
    ... --filter 'f00[1-5]'     only the cases whose group/name matches this regex
    ... --keep DIR              keep both sides' PTX, cubin and SASS (nvdisasm) in DIR/<case>/
    ... --json FILE             every row as JSON (to compare two runs: --before FILE)
    ... --before FILE           print each kernel's instruction count change against FILE
    ... -j N                    N cases at a time
    ... --report FILE           the table and summary of an earlier --json FILE

Prints one row per kernel, then a summary: how many kernels pykern's code uses more or fewer
registers and instructions for, the geometric mean of the instruction-count ratio
(pykern / numba-cuda), spills, and the cases left out, with why.
"""
import argparse
import contextlib
import glob
import hashlib
import importlib.util
import json
import math
import multiprocessing
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "cubin"))
from check_resources import like_arguments  # noqa: E402  the case's arguments as --like takes them

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROUPS = ["seeds", "features", "world", "numba_suite"]


# ---------------------------------------------------------------- the corpus cases

def kernel_cases(pattern):
    """(name, case directory, case.json) for every kernel case whose name matches pattern."""
    regex = re.compile(pattern) if pattern else None
    for group in GROUPS:
        for case_dir in sorted(glob.glob(os.path.join(ROOT, "tests", "corpus", group, "*"))):
            spec_path = os.path.join(case_dir, "case.json")
            if not os.path.exists(spec_path):
                continue
            spec = json.load(open(spec_path))
            name = group + "/" + os.path.basename(case_dir)
            if spec["kind"] != "kernel" or (regex and not regex.search(name)):
                continue
            yield name, case_dir, spec


# ---------------------------------------------------------------- pykern's side

def pykern_ptx(pykern, case_dir, spec, ptx_path, cache_dir):
    """Writes pykern's PTX for the case's kernel; returns (signature text, None) or (None, why).
    --cache keeps the PTX under the hash of the CUDA C++ and of the pykern binary (which holds
    the runtime headers it includes): a rerun of the same build runs no NVRTC."""
    command = [pykern, "compile", os.path.join(case_dir, "kernel.py"), "--like",
               spec["function"] + "=" + like_arguments(case_dir, spec), "--kernel", spec["function"],
               "--arch", "compute_90", "--no-cache"]
    cuda_path = ptx_path[:-len(".ptx")] + ".cu"
    run = subprocess.run(command + ["--emit", "cuda", "--json", "-o", cuda_path], capture_output=True, text=True,
                         timeout=600)
    if run.returncode != 0:
        lines = run.stderr.strip().splitlines()
        return None, lines[0] if lines else "exit %d" % run.returncode
    kernels = [k for k in json.loads(run.stdout)["kernels"] if k["function"] == spec["function"]]
    signature = kernels[0]["signature"] if kernels else "?"
    key = hashlib.sha256(open(cuda_path, "rb").read() + binary_hash(pykern).encode()).hexdigest()[:24]
    cached = os.path.join(cache_dir, "pykern-" + key + ".ptx")
    if os.path.exists(cached):
        shutil.copyfile(cached, ptx_path)
        return signature, None
    run = subprocess.run(command + ["--emit", "ptx", "-o", ptx_path], capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        lines = run.stderr.strip().splitlines()
        return None, lines[0] if lines else "exit %d" % run.returncode
    shutil.copyfile(ptx_path, cached)
    return signature, None


_BINARY_HASH = {}


def binary_hash(path):
    """The hash of the pykern binary, which holds the runtime headers the CUDA C++ includes."""
    if path not in _BINARY_HASH:
        digest = hashlib.sha256()
        with open(path, "rb") as binary:
            for block in iter(lambda: binary.read(1 << 20), b""):
                digest.update(block)
        _BINARY_HASH[path] = digest.hexdigest()
    return _BINARY_HASH[path]


# ---------------------------------------------------------------- numba-cuda's side

class NumbaSide:
    """Compiles a case's kernel with numba-cuda, in this process (numba is imported once)."""

    def __init__(self, cache_dir):
        warnings.simplefilter("ignore")
        import numba
        from numba import cuda
        import numpy
        self.numba, self.cuda, self.np = numba, cuda, numpy
        self.cache_dir = os.path.join(cache_dir, "numba")
        os.makedirs(self.cache_dir, exist_ok=True)
        self.version = getattr(cuda, "__version__", None) or _distribution_version("numba-cuda")
        self._defer_kernel_signatures()
        self._compile_device_functions_for_sm_90()

    def _defer_kernel_signatures(self):
        """A kernel declared with a signature compiles when it is defined, which needs a GPU;
        the module is executed with a cuda.jit that keeps such a signature aside instead."""
        cuda = self.cuda
        original = cuda.jit

        def jit(*args, **kws):
            signature = args[0] if args and not callable(args[0]) else kws.get("signature")
            if signature is None or kws.get("device"):
                return original(*args, **kws)
            kws.pop("signature", None)

            def decorate(func):
                dispatcher = original(**kws)(func)
                dispatcher._sass_compare_signature = signature
                return dispatcher
            return decorate
        cuda.jit = jit

    def _compile_device_functions_for_sm_90(self):
        """A device function compiles for the current GPU's compute capability; there is none
        here, so the dispatcher is told of an sm_90 one (the kernels compile for cc=(9, 0))."""
        import importlib
        dispatcher = importlib.import_module(self.cuda.__name__ + ".dispatcher")

        class Sm90:
            compute_capability = (9, 0)
        dispatcher.get_current_device = lambda: Sm90()

    def argument_types(self, case_dir, spec):
        """Numba's types for the case's arguments, as typeof gives them when the case runs."""
        np, numba = self.np, self.numba
        types = []
        for arg in spec["args"]:
            if "rng_states" in arg:  # the .npy's record is packed; Numba's states are its xoroshiro128p_type
                from numba.cuda.random import xoroshiro128p_type
                types.append(xoroshiro128p_type[::1])
            elif "scalar" in arg:
                value = arg["scalar"]
                types.append(numba.from_dtype(np.dtype(arg["dtype"])) if "dtype" in arg else numba.typeof(value))
            else:
                types.append(numba.typeof(np.load(os.path.join(case_dir, "inputs", arg["name"] + ".npy"))))
        return tuple(types)

    def type_name(self, numba_type):
        """str() of the type, with the random states' record named as pykern names it."""
        from numba.cuda.random import xoroshiro128p_dtype
        text = str(numba_type)
        return text.replace(str(self.numba.from_dtype(xoroshiro128p_dtype)), "xoroshiro128p_type")

    def load(self, case_dir, function):
        name = "sass_compare_" + hashlib.sha1(case_dir.encode()).hexdigest()[:12]
        spec = importlib.util.spec_from_file_location(name, os.path.join(case_dir, "kernel.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
            spec.loader.exec_module(module)
        found = module
        for part in function.split("."):  # Class.method for kernels defined in a class
            found = getattr(found, part)
        return found

    def signature_of(self, dispatcher, argument_types):
        numba = self.numba
        declared = getattr(dispatcher, "_sass_compare_signature", None)
        if declared is None:
            return numba.void(*argument_types)
        if isinstance(declared, (list, tuple)):
            declared = declared[0]
        if isinstance(declared, str):
            from numba.core import sigutils
            args, ret = sigutils.normalize_signature(declared)
            return (ret or numba.void)(*args)
        return declared

    def ptx(self, case_dir, spec, ptx_path, timeout_s=300):
        """Writes numba-cuda's PTX; returns (signature text, options, None) or (None, None, why).
        --cache keeps it under the hash of the source, the types and numba-cuda's version."""
        signature, options, error = None, None, None
        previous = signal.signal(signal.SIGALRM, _timeout)
        signal.alarm(timeout_s)
        try:
            dispatcher = self.load(case_dir, spec["function"])
            sig = self.signature_of(dispatcher, self.argument_types(case_dir, spec))
            signature = "(" + ", ".join(self.type_name(t) for t in sig.args) + ")"
            target = dispatcher.targetoptions
            options = {k: target[k] for k in ("fastmath", "debug", "lineinfo", "opt", "max_registers") if target.get(k)}
            key = hashlib.sha256(open(os.path.join(case_dir, "kernel.py"), "rb").read() + spec["function"].encode() +
                                 repr((signature, sorted(options.items()), self.version)).encode()).hexdigest()[:24]
            cached = os.path.join(self.cache_dir, key)
            if os.path.exists(cached + ".ptx"):
                shutil.copyfile(cached + ".ptx", ptx_path)
                return signature, options, None
            if options.get("debug"):
                raise NotCompared("debug=True: numba-cuda's PTX carries debug information ptxas -O3 refuses")
            call = {k: v for k, v in options.items() if k != "max_registers"}
            ptx, _ = self.cuda.compile_ptx(dispatcher.py_func, sig.args, cc=(9, 0), **call)
            open(ptx_path, "w").write(ptx)
            shutil.copyfile(ptx_path, cached + ".ptx")
        except Exception as exc:  # numba-cuda refuses the kernel: counted, not compared
            error = "%s: %s" % (type(exc).__name__, (str(exc).strip().splitlines() or [""])[0][:160])
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        return signature, options, error


class NotCompared(Exception):
    pass


def _timeout(signum, frame):
    raise TimeoutError("numba-cuda took too long")


def _distribution_version(name):
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:
        return "?"


# ---------------------------------------------------------------- ptxas and the SASS

def assemble(ptxas, nvdisasm, ptx_path, cubin_path, max_registers=None):
    """ptxas -v's figures for the entry function (spills and stack summed over all functions)
    and the cubin's SASS instruction count; with nvdisasm, the SASS text too (else None)."""
    command = [ptxas, "-arch=sm_90", "-O3", "-v", ptx_path, "-o", cubin_path]
    if max_registers:
        command.insert(1, "-maxrregcount=%d" % max_registers)
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        raise RuntimeError("ptxas: " + (run.stderr.strip().splitlines() or ["?"])[0])
    figures = parse_ptxas(run.stderr)
    figures["instructions"] = count_instructions(open(cubin_path, "rb").read())
    if not nvdisasm:
        return figures, None
    sass = subprocess.run([nvdisasm, "-c", cubin_path], capture_output=True, text=True, check=True).stdout
    listed = sum(1 for m in SASS_INSTRUCTION.finditer(sass) if m.group(1) != "NOP")
    if listed != figures["instructions"]:
        raise RuntimeError("%s: %d instructions counted in the cubin, nvdisasm lists %d" % (
            cubin_path, figures["instructions"], listed))
    return figures, sass


def parse_ptxas(report):
    """{"registers", "spill_stores", "spill_loads", "stack", "shared", "cmem", "local"} of ptxas -v."""
    figures = {"registers": 0, "spill_stores": 0, "spill_loads": 0, "stack": 0, "shared": 0, "cmem": 0, "local": 0}
    entry, function = None, None
    for line in report.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            entry = m.group(1)
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            function = m.group(1)
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            figures["spill_stores"] += int(m.group(2))
            figures["spill_loads"] += int(m.group(3))
            if function == entry:
                figures["stack"] = int(m.group(1))
        m = re.search(r"Used (\d+) registers", line)
        if m and function == entry:
            figures["registers"] = int(m.group(1))
            for amount, what in re.findall(r"(\d+) bytes (smem|cmem\[0\]|lmem)", line):
                figures[{"smem": "shared", "cmem[0]": "cmem", "lmem": "local"}[what]] = int(amount)
    return figures


SASS_INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")
SM90_NOP = 0x918  # the opcode field (the low 12 bits) of NOP in sm_90's 128-bit instructions


def count_instructions(cubin):
    """The instructions of the cubin's .text sections, NOPs (the padding) left out: read from
    the ELF, as nvdisasm would list them (checked against it when --keep asks for the SASS)."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", cubin, 0x3a)
    sections = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * entry_size) for i in range(count)]
    names_offset = sections[names_index][4]
    total = 0
    for section in sections:
        start = names_offset + section[0]
        if not cubin[start:cubin.index(b"\0", start)].startswith(b".text."):
            continue
        body = cubin[section[4]:section[4] + section[5]]
        total += sum(1 for i in range(0, len(body) - 15, 16)
                     if struct.unpack_from("<Q", body, i)[0] & 0xfff != SM90_NOP)
    return total


# ---------------------------------------------------------------- the report

def compare_case(name, case_dir, spec, numba_side, args, scratch):
    row = {"case": name}
    where = os.path.join(args.keep, name.replace("/", "__")) if args.keep else scratch
    os.makedirs(where, exist_ok=True)
    paths = {side: os.path.join(where, side) for side in ("pykern", "numba")}
    pk_signature, why = pykern_ptx(args.pykern, case_dir, spec, paths["pykern"] + ".ptx", args.cache)
    if why:
        row["skipped"] = "pykern: " + why
        return row
    nb_signature, options, why = numba_side.ptx(case_dir, spec, paths["numba"] + ".ptx")
    if why:
        row["skipped"] = "numba-cuda: " + why
        return row
    row["signature"] = pk_signature
    if nb_signature != pk_signature:
        row["numba_signature"] = nb_signature
    max_registers = (options or {}).get("max_registers")
    for side in ("pykern", "numba"):
        try:
            figures, sass = assemble(args.ptxas, args.nvdisasm if args.keep else None, paths[side] + ".ptx",
                                     paths[side] + ".cubin", max_registers)
        except RuntimeError as exc:
            # numba-cuda links a library of C++ shims (float16 operations, reshape) into the
            # kernel when it loads it; compile_ptx's PTX alone leaves those functions external.
            unresolved = side == "numba" and "Unresolved extern function" in str(exc)
            row["skipped"] = ("numba-cuda (shims linked at load): " if unresolved else side + " (ptxas): ") + str(exc)
            row.pop("pykern", None)
            return row
        row[side] = figures
        if sass:
            open(paths[side] + ".sass", "w").write(sass)
    return row


def print_row(row, before):
    if "skipped" in row:
        return
    p, n = row["pykern"], row["numba"]
    change = ""
    if before and row["case"] in before and "pykern" in before[row["case"]]:
        change = "%+d" % (p["instructions"] - before[row["case"]]["pykern"]["instructions"])
    print("%-58s %4d %4d  %5d %5d  %5.2f  %4s %4s  %4d %4d  %s" % (
        row["case"][-58:], p["registers"], n["registers"], p["instructions"], n["instructions"],
        p["instructions"] / max(n["instructions"], 1), spill_text(p), spill_text(n), p["stack"], n["stack"], change),
        flush=True)


def spill_text(figures):
    total = figures["spill_stores"] + figures["spill_loads"]
    return "%d/%d" % (figures["spill_stores"], figures["spill_loads"]) if total else "-"


def summarize(rows):
    compared = [r for r in rows if "pykern" in r]
    skipped = [r for r in rows if "skipped" in r]
    print()
    print("kernel cases: %d; compared: %d; left out: %d" % (len(rows), len(compared), len(skipped)))
    if compared:
        def count(field, test):
            return sum(1 for r in compared if test(r["pykern"][field], r["numba"][field]))
        for field in ("registers", "instructions"):
            print("%-13s pykern more: %3d, equal: %3d, fewer: %3d" % (
                field, count(field, lambda a, b: a > b), count(field, lambda a, b: a == b),
                count(field, lambda a, b: a < b)))
        ratios = [r["pykern"]["instructions"] / max(r["numba"]["instructions"], 1) for r in compared]
        geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        regs = [r["pykern"]["registers"] / max(r["numba"]["registers"], 1) for r in compared]
        print("instruction count pykern/numba-cuda: geomean %.3f, min %.2f, max %.2f" % (
            geomean, min(ratios), max(ratios)))
        print("registers pykern/numba-cuda: geomean %.3f" % math.exp(sum(math.log(x) for x in regs) / len(regs)))
        print("total SASS instructions: pykern %d, numba-cuda %d" % (
            sum(r["pykern"]["instructions"] for r in compared), sum(r["numba"]["instructions"] for r in compared)))
        for side in ("pykern", "numba"):
            spilling = [r["case"] for r in compared if r[side]["spill_stores"] or r[side]["spill_loads"]]
            stack = sum(1 for r in compared if r[side]["stack"])
            print("%-6s kernels that spill: %d %s; with a stack frame: %d" % (
                side, len(spilling), " ".join(spilling[:5]), stack))
        same = [r for r in compared if "numba_signature" not in r]
        if same:
            same_ratios = [r["pykern"]["instructions"] / max(r["numba"]["instructions"], 1) for r in same]
            print("same argument types on both sides (%d kernels): instructions pykern more: %d, fewer: %d, "
                  "geomean %.3f; registers pykern more: %d, fewer: %d" % (
                      len(same), sum(1 for r in same if r["pykern"]["instructions"] > r["numba"]["instructions"]),
                      sum(1 for r in same if r["pykern"]["instructions"] < r["numba"]["instructions"]),
                      math.exp(sum(math.log(x) for x in same_ratios) / len(same_ratios)),
                      sum(1 for r in same if r["pykern"]["registers"] > r["numba"]["registers"]),
                      sum(1 for r in same if r["pykern"]["registers"] < r["numba"]["registers"])))
        differ = [r for r in compared if "numba_signature" in r]
        print("signatures that differ (a decorator's [:] is A to Numba, C to pykern for a C argument): %d" % len(differ))
        for r in differ[:10]:
            print("  %s: pykern %s, numba-cuda %s" % (r["case"], r["signature"], r["numba_signature"]))
        worst = sorted(compared, key=lambda r: -r["pykern"]["instructions"] / max(r["numba"]["instructions"], 1))[:10]
        print("largest instruction-count ratios: " + ", ".join(
            "%s %d/%d" % (r["case"].split("/")[-1], r["pykern"]["instructions"], r["numba"]["instructions"]) for r in worst))
    reasons = {}
    for r in skipped:
        side = r["skipped"].split(": ")[0]
        reasons.setdefault(side, []).append(r)
    for side, items in sorted(reasons.items()):
        print("left out, %s: %d" % (side, len(items)))
        for r in items:
            print("  %s: %s" % (r["case"], r["skipped"][len(side) + 2:][:150]))


def default_tool(name, wheel_bin):
    found = shutil.which(name) or (os.path.join("/usr/local/cuda/bin", name)
                                   if os.path.exists(os.path.join("/usr/local/cuda/bin", name)) else None)
    if found:
        return found
    for site in sys.path:
        candidate = os.path.join(site, "nvidia", wheel_bin, "bin", name)
        if os.path.exists(candidate):
            return candidate
    return name


_WORKER = {}


def _start_worker(args):
    _WORKER["args"] = args
    _WORKER["numba"] = NumbaSide(args.cache)
    _WORKER["scratch"] = tempfile.mkdtemp(prefix="sass_compare_")


def _compare_in_worker(case):
    name, case_dir, spec = case
    try:
        return compare_case(name, case_dir, spec, _WORKER["numba"], _WORKER["args"], _WORKER["scratch"])
    except (RuntimeError, subprocess.SubprocessError) as exc:
        return {"case": name, "skipped": "tools: %s" % exc}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pykern")
    parser.add_argument("--ptxas", default=default_tool("ptxas", "cu13"))
    parser.add_argument("--nvdisasm", default=default_tool("nvdisasm", "cu13"))
    parser.add_argument("--filter", default="")
    parser.add_argument("--keep")
    parser.add_argument("--json")
    parser.add_argument("--before")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--report", help="print the table and summary of a --json FILE, compiling nothing")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "sass_compare_ptx"))
    args = parser.parse_args()
    args.pykern = os.path.abspath(args.pykern)
    os.environ.setdefault("CUDA_HOME", "/usr/local/cuda")
    before = {r["case"]: r for r in json.load(open(args.before))} if args.before else None
    print("ptxas %s; nvdisasm %s; numba-cuda %s" % (args.ptxas, args.nvdisasm, _distribution_version("numba-cuda")))
    print("%-58s %9s  %11s  %5s  %9s  %9s" % ("kernel case", "registers", "SASS instr", "ratio", "spills", "stack"))
    print("%-58s %4s %4s  %5s %5s  %5s  %4s %4s  %4s %4s" % ("", "pk", "nb", "pk", "nb", "pk/nb", "pk", "nb", "pk", "nb"))
    if args.report:
        rows = json.load(open(args.report))
        for row in rows:
            print_row(row, before)
        summarize(rows)
        return 0
    cases = list(kernel_cases(args.filter))
    rows = []
    with multiprocessing.Pool(args.jobs, _start_worker, (args,)) as pool:
        for row in pool.imap(_compare_in_worker, cases):
            rows.append(row)
            print_row(row, before)
    summarize(rows)
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
