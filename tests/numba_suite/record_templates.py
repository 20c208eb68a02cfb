#!/usr/bin/env python3
"""Records test_atomics' kernels that numba-cuda makes by exec() of a template string
(gen_atomic_extreme_funcs: atomic max/min/nanmax/nanmin on a 2-D array, a 1-D array and shared
memory), which harness.py skips because inspect finds no source for them.

  record_templates.py OUT

The template is read from the test module's source, filled with the atomic it was made for (the
attribute after `atomic` in the code's names) and the function is renamed after the module global
holding it (atomic_max, atomic_nanmin_double_shared, ...), so each operation is its own kernel.
Then harness.py replay OUT and keep OUT DEST as usual. Run it like harness.py (numba-cuda, NumPy).
"""
import ast
import inspect
import os
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
import harness  # noqa: E402

MODULE = "numba.cuda.tests.cudapy.test_atomics"


def template_source(tests):
    factory = ast.parse(inspect.getsource(tests.gen_atomic_extreme_funcs))
    return next(n.value for n in ast.walk(factory)
                if isinstance(n, ast.Constant) and isinstance(n.value, str) and "def atomic" in n.value)


def main(out_dir):
    import importlib
    tests = importlib.import_module(MODULE)
    template = template_source(tests)
    original = inspect.getsource

    def getsource(obj):
        code = getattr(obj, "__code__", None)
        if code is None or code.co_filename != "<string>":
            return original(obj)
        operation = code.co_names[code.co_names.index("atomic") + 1]
        text = textwrap.dedent(template).format(func=f"cuda.atomic.{operation}")
        node = next(n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef) and n.name == code.co_name)
        return "\n".join(text.splitlines()[node.lineno - 1:node.end_lineno]) + "\n"

    inspect.getsource = getsource
    for global_name, value in list(vars(tests).items()):
        code = getattr(value, "__code__", None)
        if code is not None and code.co_filename == "<string>":
            value.__name__ = value.__qualname__ = global_name
    os.makedirs(os.path.join(out_dir, "_modules"), exist_ok=True)
    harness.record_module(MODULE, out_dir)
    print(harness.record_summary(out_dir))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
