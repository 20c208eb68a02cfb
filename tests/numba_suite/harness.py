#!/usr/bin/env python3
"""numba-cuda's own test suite as pykern's yardstick (run on demand, not in CI).

  record OUT [MODULE...]   runs numba-cuda's tests (numba.cuda.tests.cudapy and doc_examples,
                           or the named modules) under its simulator and records every kernel
                           launch whose kernel stands alone as a corpus case under OUT: the
                           kernel's source with the imports, constants and device functions it
                           uses, the launch configuration, the arguments before the launch
                           (inputs/) and after it (expected/).
  replay OUT [--pykern P]  runs each recorded case through `pykern run --backend cpu` and
                           compares with what the simulator produced; writes OUT/report.json
                           and prints the pass rate and the failures grouped by cause.
  keep OUT DEST [--max-bytes N]
                           copies the cases that passed into DEST (the committed corpus,
                           tests/corpus/numba_suite), smallest first, up to N bytes.

Run it with an interpreter that has numba-cuda and NumPy, e.g.
  python3 -m venv /tmp/ncvenv && /tmp/ncvenv/bin/pip install numba-cuda numpy
  /tmp/ncvenv/bin/python tests/numba_suite/harness.py record /tmp/suite
  /tmp/ncvenv/bin/python tests/numba_suite/harness.py replay /tmp/suite --pykern build/pykern

A kernel stands alone when everything it names is a module (numpy, math, numba.cuda, ...), a
number, a tuple of numbers, a numeric, complex or record NumPy array, an Enum class, a Numba
scalar type, a function importable by name from math/numpy/numba.cuda, or another cuda.jit
function that stands alone itself. test_atomics' kernels made from a template string are
recorded by record_templates.py. Launches
that do not stand alone are counted by reason, not replayed.
"""
import ast
import builtins
import collections
import enum
import hashlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
SUITES = ("numba.cuda.tests.cudapy", "numba.cuda.tests.doc_examples")
MODULE_TIMEOUT_S = 300
LAUNCHES_PER_KERNEL = 3
MAX_INPUT_BYTES = 1 << 20
MAX_THREADS = 1 << 16


SIGNATURES = {}  # function -> the signature string it was cuda.jit-compiled with


def remember_signatures():
    """The simulator's cuda.jit drops the signature; keep string signatures so the replay types
    the kernel as numba-cuda would on the GPU (scalars converted to the declared types)."""
    import numba.cuda
    from numba.cuda.simulator import api
    original = api.jit

    def jit(func_or_sig=None, *args, **kwargs):
        made = original(func_or_sig, *args, **kwargs)
        if isinstance(func_or_sig, str):
            def wrapper(fn):
                SIGNATURES[fn] = func_or_sig
                return made(fn)
            return wrapper
        return made

    api.jit = jit
    numba.cuda.jit = jit


class NotStandalone(Exception):
    """The launch cannot be replayed without Python: the reason names the cause."""


# ---------------------------------------------------------------- the kernel's source


def function_names(tree):
    """Names a function reads that it does not bind itself (parameters, assignments, the inner
    functions it defines)."""
    loads, bound = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node is not tree:
            bound.add(node.name)
        elif isinstance(node, ast.Name):
            (loads if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return sorted(loads - bound)


def numba_type_name(value):
    try:
        from numba.core import types as nbtypes
    except ImportError:
        return None
    if isinstance(value, nbtypes.Type):
        name = str(value)
        import numba
        if getattr(numba, name, None) is value:
            return name
    return None


def array_dtype_text(dtype):
    """The dtype of a module array as kernel.py spells it: numpy.float32, or for a record
    numpy.dtype([("x", numpy.float64), ...], align=True); None for anything else."""
    if dtype.kind in "biufc":
        return f"numpy.{dtype.name}"
    if not dtype.names or dtype.fields is None:
        return None
    fields = []
    for field in dtype.names:
        field_type = dtype.fields[field][0]
        if field_type.kind not in "biufc" or field_type.shape:
            return None
        fields.append(f"({field!r}, numpy.{field_type.name})")
    aligned = ", align=True" if dtype.isalignedstruct else ""
    return f"numpy.dtype([{', '.join(fields)}]{aligned})"


class ModuleText:
    """The standalone kernel.py being assembled: imports, constants, then functions."""

    def __init__(self):
        self.imports = ["from numba import cuda"]
        self.constants = []
        self.functions = []
        self.seen = {}  # function object -> name it was written under

    def add_import(self, line):
        if line not in self.imports:
            self.imports.append(line)

    def text(self):
        return "\n".join(self.imports) + "\n\n" + "\n".join(self.constants) + "\n\n\n" + "\n\n\n".join(self.functions) + "\n"

    def bind(self, name, value):
        """Makes `name` mean `value` in the module, or raises NotStandalone."""
        from numba.cuda.simulator.kernel import FakeCUDAKernel
        if isinstance(value, types.ModuleType):
            module = value.__name__
            if module.split(".")[0] not in ("numpy", "math", "cmath", "numba", "operator"):
                raise NotStandalone(f"uses the module {module}, which is not numpy, math, cmath, operator or numba")
            if module.startswith("numba.cuda.simulator"):
                module = "numba.cuda"
            if "." in module:
                parent, last = module.rsplit(".", 1)
                self.add_import(f"from {parent} import {last}" + (f" as {name}" if name != last else ""))
            else:
                self.add_import(f"import {module}" + (f" as {name}" if name != module else ""))
            return
        if isinstance(value, FakeCUDAKernel):
            self.add_function(value.fn, name, device=value._device)
            return
        type_name = numba_type_name(value)
        if type_name:
            self.add_import(f"from numba import {type_name}" + (f" as {name}" if name != type_name else ""))
            return
        if isinstance(value, bool) or (isinstance(value, int) and -2**63 <= value < 2**64):
            self.constants.append(f"{name} = {value!r}")
            return
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise NotStandalone("a non-finite float global")
            self.constants.append(f"{name} = {value!r}")
            return
        import numpy as np
        if isinstance(value, np.generic) and value.dtype.kind in "biuf":
            self.add_import("import numpy")
            self.constants.append(f"{name} = numpy.{value.dtype.name}({value.item()!r})")
            return
        if isinstance(value, tuple) and all(isinstance(v, (int, float, bool)) for v in value):
            self.constants.append(f"{name} = {value!r}")
            return
        if isinstance(value, np.ndarray):
            dtype = array_dtype_text(value.dtype)
            if dtype is None or value.size > 4096 or value.ndim == 0:
                raise NotStandalone("a global array that is not a small numeric array")
            self.add_import("import numpy")
            self.constants.append(f"{name} = numpy.array({value.tolist()!r}, dtype={dtype})")
            return
        if isinstance(value, enum.EnumMeta):
            self.add_enum(name, value)
            return
        if callable(value) and getattr(value, "__name__", None):
            for module in ("math", "numpy", "numba.cuda", "numba.cuda.random", "cmath", "operator"):
                owner = sys.modules.get(module)
                if owner is not None and getattr(owner, value.__name__, None) is value:
                    self.add_import(f"from {module} import {value.__name__}" + (f" as {name}" if name != value.__name__ else ""))
                    return
            raise NotStandalone("calls a Python function that is not cuda.jit-compiled")
        raise NotStandalone(f"uses a global of type {type(value).__name__}")

    def add_enum(self, name, cls):
        """An Enum class the kernel names: its class statement, under its own name, with the
        enum bases it derives from imported."""
        if self.seen.get(cls, name) != name or name != cls.__name__:
            raise NotStandalone("an Enum class under another name")
        if cls in self.seen:
            return
        self.seen[cls] = name
        try:
            source = textwrap.dedent(inspect.getsource(cls))
        except (OSError, TypeError):
            raise NotStandalone("no source for an Enum class")
        for base in cls.__bases__:
            if base.__module__ == "enum":
                self.add_import(f"from enum import {base.__name__}")
            elif base not in (int,):
                raise NotStandalone("an Enum class with a base that is not from enum")
        self.constants.append(source.rstrip("\n") + "\n")

    def add_function(self, fn, name, device):
        if fn in self.seen:
            if self.seen[fn] != name:
                raise NotStandalone("one function under two names")
            return
        self.seen[fn] = name
        try:
            source = textwrap.dedent(inspect.getsource(fn))
        except (OSError, TypeError):
            raise NotStandalone("no source for a function")
        tree = ast.parse(source)
        node = next((n for n in tree.body if isinstance(n, ast.FunctionDef)), None)
        if node is None:
            raise NotStandalone("a function made by a lambda or a factory")
        lines = source.splitlines()[node.lineno - 1:node.end_lineno]
        lines[0] = lines[0].replace(f"def {node.name}(", f"def {name}(", 1)
        signature = SIGNATURES.get(fn)
        options = ([repr(signature)] if signature else []) + (["device=True"] if device else [])
        decorator = "@cuda.jit" + (f"({', '.join(options)})" if options else "")
        closure = dict(zip(fn.__code__.co_freevars, [c.cell_contents for c in (fn.__closure__ or ())]))
        for ref in function_names(node):
            if ref == name:
                continue
            value = closure.get(ref, fn.__globals__.get(ref))
            if ref == node.name and getattr(value, "fn", None) is fn:
                # A recursive call under the function's own name: it calls `name` here.
                body = "\n".join(lines[1:])
                lines = [lines[0]] + re.sub(rf"\b{re.escape(ref)}\b", name, body).split("\n")
                continue
            if ref in closure:
                self.bind(ref, closure[ref])
            elif ref in fn.__globals__:
                self.bind(ref, fn.__globals__[ref])
            elif not hasattr(builtins, ref):
                raise NotStandalone(f"names {ref!r}, which is not defined where the kernel is")
        self.functions.append(decorator + "\n" + "\n".join(lines))


# ---------------------------------------------------------------- recording launches


def capture(arg):
    """('array', ndarray) or ('scalar', json value, dtype or None), or raises NotStandalone."""
    import numpy as np
    from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray
    if isinstance(arg, FakeCUDAArray):
        arg = arg.copy_to_host()
    if isinstance(arg, np.ndarray):
        if arg.ndim == 0:
            raise NotStandalone("a 0-d array argument")
        if arg.dtype.kind not in "biufc" and not arg.dtype.names:
            raise NotStandalone(f"an array of dtype {arg.dtype}")
        return ("array", np.array(arg, copy=True))
    if isinstance(arg, enum.Enum):
        # An IntEnum member is an int to Python but keeps its class in numba-cuda
        # (Shape.circle is not IntEnumWithNegatives.two though both are 2): no plain scalar.
        raise NotStandalone("an Enum member argument")
    if isinstance(arg, (bool, np.bool_)):
        return ("scalar", bool(arg), None)
    if isinstance(arg, int):
        if not -2**63 <= arg < 2**63:
            raise NotStandalone("an integer argument outside int64")
        return ("scalar", arg, None)
    if isinstance(arg, float):
        if not np.isfinite(arg):
            raise NotStandalone("a non-finite scalar argument")
        return ("scalar", arg, None)
    if isinstance(arg, np.generic) and arg.dtype.kind in "iuf":
        if not np.isfinite(arg):
            raise NotStandalone("a non-finite scalar argument")
        return ("scalar", arg.item(), arg.dtype.name)
    if isinstance(arg, (complex, np.complexfloating)):
        raise NotStandalone("a complex scalar argument")
    if isinstance(arg, tuple):
        raise NotStandalone("a tuple argument")
    if isinstance(arg, np.void):
        raise NotStandalone("a record scalar argument")
    raise NotStandalone(f"an argument of type {type(arg).__name__}")


def tolerance(dtype):
    if dtype.kind == "f" and dtype.itemsize <= 4 or dtype.kind == "c" and dtype.itemsize <= 8:
        return {"rtol": 1e-5, "atol": 1e-6}
    if dtype.kind in "fc":
        return {"rtol": 1e-12, "atol": 1e-14}
    return {}


class Recorder:
    def __init__(self, out_dir, module_name):
        self.out_dir = out_dir
        self.module_name = module_name
        self.test_id = ""
        self.per_kernel = collections.Counter()
        self.seen = set()
        self.skipped = collections.Counter()
        self.recorded = 0

    def launch(self, kernel, args, run):
        try:
            source = ModuleText()
            source.add_function(kernel.fn, kernel.fn.__name__, device=False)
            before = [capture(a) for a in args]
        except NotStandalone as why:
            self.skipped[str(why)] += 1
            return run()
        grid, block = tuple(kernel.grid_dim), tuple(kernel.block_dim)
        threads = 1
        for d in grid + block:
            threads *= d
        input_bytes = sum(c[1].nbytes for c in before if c[0] == "array")
        # Scalars by value: a kernel launched with x = 300, 450, 550 takes a different branch each time.
        key = (kernel.fn.__qualname__, grid, block,
               tuple((c[0], str(c[1].dtype), c[1].ndim) if c[0] == "array" else (c[0], c[2], type(c[1]).__name__, c[1]) for c in before))
        kernel_key = (self.module_name, kernel.fn.__qualname__)
        result = run()  # exceptions propagate: a launch that fails under the simulator is not recorded
        if threads > MAX_THREADS or input_bytes > MAX_INPUT_BYTES:
            self.skipped["too large to keep (threads or bytes)"] += 1
            return result
        if key in self.seen or self.per_kernel[kernel_key] >= LAUNCHES_PER_KERNEL:
            return result
        self.seen.add(key)
        self.per_kernel[kernel_key] += 1
        after = [capture(a) for a in args]
        self.write(kernel, source, before, after, grid, block, int(kernel.dynshared_size or 0))
        return result

    def write(self, kernel, source, before, after, grid, block, shared_bytes):
        import numpy as np
        short = self.module_name.rsplit(".", 1)[-1].removeprefix("test_")
        text = source.text()
        digest = hashlib.sha1((text + repr([(c[0], c[1].tobytes() if c[0] == "array" else c[1]) for c in before])).encode()).hexdigest()[:8]
        name = f"{short}__{kernel.fn.__name__}__{digest}"
        case_dir = os.path.join(self.out_dir, name)
        if os.path.exists(case_dir):
            return
        os.makedirs(os.path.join(case_dir, "inputs"))
        os.makedirs(os.path.join(case_dir, "expected"))
        params = list(inspect.signature(kernel.fn).parameters)
        args, check = [], {}
        for i, (b, a) in enumerate(zip(before, after)):
            arg_name = params[i] if i < len(params) else f"arg{i}"
            if b[0] == "array":
                np.save(os.path.join(case_dir, "inputs", arg_name + ".npy"), b[1])
                np.save(os.path.join(case_dir, "expected", arg_name + ".npy"), a[1])
                args.append({"name": arg_name, "recorded": True})
                check[arg_name] = tolerance(b[1].dtype)
            else:
                entry = {"name": arg_name, "scalar": b[1]}
                if b[2]:
                    entry["dtype"] = b[2]
                args.append(entry)
        launch = {"grid": list(grid), "block": list(block)}
        if shared_bytes:
            launch["shared_bytes"] = shared_bytes
        case = {"case": name, "function": kernel.fn.__name__, "kind": "kernel", "launch": launch,
                "args": args, "check": check,
                "source": {"module": self.module_name, "test": self.test_id}}
        with open(os.path.join(case_dir, "case.json"), "w") as f:
            json.dump(case, f, indent=1)
        with open(os.path.join(case_dir, "kernel.py"), "w") as f:
            f.write(f"# Recorded from {self.module_name} ({self.test_id}) by tests/numba_suite/harness.py\n")
            f.write(text)
        self.recorded += 1


def record_module(module_name, out_dir):
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    import unittest
    from numba.cuda.simulator import kernel as simkernel
    remember_signatures()
    recorder = Recorder(out_dir, module_name)
    original_call = simkernel.FakeCUDAKernel.__call__

    def recording_call(self, *args):
        if self._device or simkernel._kernel_context:
            return original_call(self, *args)
        return recorder.launch(self, args, lambda: original_call(self, *args))

    simkernel.FakeCUDAKernel.__call__ = recording_call

    class Result(unittest.TestResult):
        def startTest(self, test):
            recorder.test_id = test.id().rsplit(".", 2)[-2] + "." + test.id().rsplit(".", 1)[-1]
            super().startTest(test)

    suite = unittest.defaultTestLoader.loadTestsFromName(module_name)
    result = Result()
    suite.run(result)
    summary = {"module": module_name, "recorded": recorder.recorded, "skipped": dict(recorder.skipped),
               "tests": result.testsRun, "test_errors": len(result.errors) + len(result.failures)}
    with open(os.path.join(out_dir, "_modules", module_name + ".json"), "w") as f:
        json.dump(summary, f, indent=1)


def suite_modules():
    import importlib
    names = []
    for package in SUITES:
        path = os.path.dirname(importlib.import_module(package).__file__)
        names += [f"{package}.{f[:-3]}" for f in sorted(os.listdir(path)) if f.startswith("test_") and f.endswith(".py")]
    return names


def record(out_dir, modules):
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    os.makedirs(os.path.join(out_dir, "_modules"), exist_ok=True)
    modules = modules or suite_modules()
    running = []
    jobs = max(1, os.cpu_count() or 1)
    for module in modules:
        while len(running) >= jobs:
            running = [p for p in running if not finished(p)]
        command = [sys.executable, os.path.abspath(__file__), "record-module", module, out_dir]
        log = open(os.path.join(out_dir, "_modules", module + ".log"), "w")
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        running.append((process, log, time.monotonic()))
    while running:
        running = [p for p in running if not finished(p)]
    print(record_summary(out_dir))


def finished(entry, poll_s=0.2):
    """Whether a module's process is done; one past MODULE_TIMEOUT_S is killed."""
    process, log, started = entry
    try:
        process.wait(timeout=poll_s)
    except subprocess.TimeoutExpired:
        if time.monotonic() - started < MODULE_TIMEOUT_S:
            return False
        process.kill()
        process.wait()
        log.write(f"\nharness: killed after {MODULE_TIMEOUT_S} s\n")
    log.close()
    return True


def record_summary(out_dir):
    skipped, recorded, modules = collections.Counter(), 0, 0
    folder = os.path.join(out_dir, "_modules")
    for f in os.listdir(folder):
        if f.endswith(".json"):
            s = json.load(open(os.path.join(folder, f)))
            skipped.update(s["skipped"])
            recorded += s["recorded"]
            modules += 1
    lines = [f"{modules} modules ran; {recorded} standalone launches recorded; not standalone: {sum(skipped.values())}"]
    lines += [f"  {n:5d}  {why}" for why, n in skipped.most_common()]
    return "\n".join(lines)


# ---------------------------------------------------------------- replaying through pykern


def case_dirs(out_dir):
    return sorted(os.path.join(out_dir, d) for d in os.listdir(out_dir)
                  if os.path.isfile(os.path.join(out_dir, d, "case.json")))


def run_command(pykern, case_dir, case, result_dir):
    command = [pykern, "run", os.path.join(case_dir, "kernel.py"), case["function"], "--backend", "cpu",
               "--out", result_dir, "--timeout", "60"]
    launch = case["launch"]
    command += ["--grid", ",".join(map(str, launch["grid"])), "--block", ",".join(map(str, launch["block"]))]
    if launch.get("shared_bytes"):
        command += ["--shared-bytes", str(launch["shared_bytes"])]
    for arg in case["args"]:
        if "scalar" in arg:
            value = arg["scalar"]
            text = ("True" if value else "False") if isinstance(value, bool) else json.dumps(value)
            command.append((arg["dtype"] + ":" if "dtype" in arg else "") + text)
        else:
            command.append(os.path.join(case_dir, "inputs", arg["name"] + ".npy"))
    return command


def failure_cause(stderr):
    """The first error's message without its location, names or paths: failures with the same
    cause group together ("float16 is not supported in kernels yet")."""
    import re
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    message = next((l.split(": error: ", 1)[1] for l in lines if ": error: " in l), None)
    if message is None:
        message = next((l for l in lines if "rror" in l), lines[-1] if lines else "failed with no message")
    message = re.sub(r"^\S*(kernel\.py|\.npy)(:\d+)*: ", "", message)
    message = re.sub(r"^(pykern: )?(error: )?", "", message)
    message = re.sub(r"kernel '[^']*': argument \d+: ", "", message)
    return message


def replay(out_dir, pykern):
    sys.path.insert(0, os.path.join(HERE, "..", "corpus"))
    import contextlib
    import io
    import oracle
    results = {}
    for case_dir in case_dirs(out_dir):
        case = json.load(open(os.path.join(case_dir, "case.json")))
        result_dir = os.path.join(out_dir, "_results", case["case"])
        shutil.rmtree(result_dir, ignore_errors=True)
        try:
            run = subprocess.run(run_command(pykern, case_dir, case, result_dir), capture_output=True, text=True,
                                 timeout=120, errors="replace")
        except subprocess.TimeoutExpired:
            results[case["case"]] = {"ok": False, "cause": "timed out"}
            continue
        if run.returncode != 0:
            results[case["case"]] = {"ok": False, "cause": failure_cause(run.stderr), "stderr": run.stderr[-4000:]}
            continue
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            same = oracle.compare(case_dir, result_dir)
        results[case["case"]] = {"ok": bool(same), "cause": None if same else "different numbers",
                                 "detail": printed.getvalue()[-2000:]}
    with open(os.path.join(out_dir, "report.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(replay_summary(results))


# Why a failure happens, by a piece of its cause or of its case's name: a feature pykern lacks,
# or a difference between numba-cuda's simulator and numba-cuda on a GPU. Every failure should
# match one; replay lists the ones that do not as unexplained.
EXPLANATIONS = [
    ("no attribute 'copy'", "missing feature: allocating arrays in kernels (a.copy() makes a new array, which "
     "numba-cuda allocates on the device heap)"),
    ("unsupported dtype '<U", "missing feature: string arrays (unicode and bytes dtypes)"),
    ("unsupported dtype '|S", "missing feature: string arrays (unicode and bytes dtypes)"),
    ("no signature of kernel", "test quirk: the launch's arguments do not match the kernel's declared signature "
     "(numba-cuda refuses it on a GPU; its simulator ignores signatures)"),
    ("sm_creation__udt_global", "simulator artefact: the kernel reads shared memory it never wrote (undefined in CUDA)"),
    ("freevar__foo__", "simulator artefact: the kernel reads shared memory it never wrote (undefined in CUDA)"),
]


def explanation(case, result):
    text = (result.get("cause") or "") + " " + case
    return next((why for key, why in EXPLANATIONS if key in text), None)


def replay_summary(results):
    passed = sum(r["ok"] for r in results.values())
    causes = collections.Counter(explanation(c, r) or "unexplained: " + r["cause"]
                                 for c, r in results.items() if not r["ok"])
    lines = [f"{passed} of {len(results)} recorded launches match ({100.0 * passed / max(1, len(results)):.1f} %)"]
    lines += [f"  {n:4d}  {cause}" for cause, n in causes.most_common()]
    return "\n".join(lines)


def keep(out_dir, dest, max_bytes):
    results = json.load(open(os.path.join(out_dir, "report.json")))

    def size(path):
        return sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(path) for f in fs)

    passing = sorted((size(d), d) for d in case_dirs(out_dir) if results.get(os.path.basename(d), {}).get("ok"))
    os.makedirs(dest, exist_ok=True)
    total = kept = 0
    for bytes_, d in passing:
        if total + bytes_ > max_bytes:
            continue
        shutil.copytree(d, os.path.join(dest, os.path.basename(d)), dirs_exist_ok=True)
        total += bytes_
        kept += 1
    print(f"kept {kept} of {len(passing)} passing cases, {total} bytes")


def main(argv):
    if len(argv) >= 2 and argv[0] == "record":
        record(argv[1], argv[2:])
        return 0
    if len(argv) == 3 and argv[0] == "record-module":
        record_module(argv[1], argv[2])
        return 0
    if len(argv) >= 2 and argv[0] == "replay":
        pykern = argv[argv.index("--pykern") + 1] if "--pykern" in argv else os.path.join(HERE, "..", "..", "build", "pykern")
        replay(argv[1], os.path.abspath(pykern))
        return 0
    if len(argv) >= 3 and argv[0] == "keep":
        max_bytes = int(argv[argv.index("--max-bytes") + 1]) if "--max-bytes" in argv else 2 << 20
        keep(argv[1], argv[2], max_bytes)
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
