// The name pass (src/sema/name_resolution.cpp), through compile_source as `pykern compile` uses
// it: kernels without a signature are checked for the names they read; what Python binds is
// never reported (scoping, closures, factories, imports under aliases, pruned branches).
#include <string>

#include <doctest/doctest.h>

#include "pykern/compiler.h"

using namespace pykern;

namespace {

// Translates `text` to CUDA C++ as `pykern compile FILE --emit cuda` would: every kernel,
// signature or not. The error's text, or the warnings with "ok\n" before them.
std::string check(const std::string& text, std::vector<std::string> kernels = {}) {
  CompileOptions options;
  options.emit = EmitKind::cuda;
  options.use_cache = false;
  options.kernels = std::move(kernels);
  auto result = compile_source(text, "names.py", options);
  return result.ok() ? "ok\n" + result->warnings : result.error().message;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("names: what Python binds is found, in the patterns real kernels use") {
  const char* source = R"py(import math
from math import sqrt as msqrt
import numpy as np
import numba
import numba.cuda as cu
from numba import cuda, float32, prange, types
from numba.cuda.random import xoroshiro128p_uniform_float32
from enum import IntEnum

DEBUG = False
N = 16
TABLE = np.arange(4, dtype=np.float64)

class Color(IntEnum):
    RED = 1

def make(op):
    @cuda.jit
    def apply(a):
        i = cuda.grid(1)
        a[i] = op(a[i], 1.0)
    return apply

@cuda.jit(device=True)
def add(x, y):
    return x + y

made = make(add)

@cuda.jit
def everything(a, states):
    i = cu.grid(1)
    j = numba.cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    s = cuda.shared.array(N, dtype=float32)
    l = cuda.local.array(4, types.float64)
    scale = 3.0

    def inner(x):
        return x * scale + later

    f = lambda x: x + scale
    later = 1.0
    x, (y, z) = 1, (2, 3)
    for k in range(4):
        l[k] = TABLE[k]
    if DEBUG:
        print(only_when_debugging)
    if i < a.size:
        a[i] = inner(a[i]) + f(1.0) + msqrt(4.0) + math.pi + np.float32(1) + Color.RED + l[0]
        a[i] += xoroshiro128p_uniform_float32(states, i) + numba.float32(1.0) + np.finfo(np.float64).eps
        cuda.atomic.add(a, 0, 1.0)
        s[0] = y + z + x + j + len(a) + abs(-1) + min(1, 2)
        cuda.syncthreads()
    if i > a.size:
        raise ValueError("bad")

@numba.njit(parallel=True)
def host(a):
    for i in prange(a.size):
        a[i] = math.sqrt(a[i])
)py";
  CHECK(check(source) == "ok\n");
}

TEST_CASE("names: a misspelling is found in an inner function, through an import's alias, and in a factory's kernel") {
  std::string out = check(R"py(import numba.cuda as cu

def make(n):
    @cu.jit
    def made(a):
        a[0] = n + offest
    return made

k2 = make(3)

@cu.jit
def k(a):
    scale = 2.0
    def inner(x):
        return x * scael
    a[0] = inner(a[0]) + cu.blockIdx.xx
)py");
  CHECK_MESSAGE(has(out, "names.py:6:20: error: name 'offest' is not defined [unknown-name]"), out);
  CHECK_MESSAGE(has(out, "names.py:15:20: error: name 'scael' is not defined [unknown-name]"), out);
  CHECK_MESSAGE(has(out, "hint: did you mean 'scale'?"), out);
  CHECK_MESSAGE(has(out, "names.py:16:26: error: unknown attribute 'xx' of module 'numba.cuda.blockIdx'"), out);
}

TEST_CASE("names: after `from M import *` any name may be bound, so none is reported as undefined") {
  const char* source = R"py(from math import *
from numba import cuda

@cuda.jit
def k(a):
    a[0] = sqrt(a[1])
)py";
  CHECK(check(source) == "ok\n");
}

TEST_CASE("names: a device function no kernel calls gets warnings, and none when --kernel picks the kernels") {
  const char* source = R"py(from numba import cuda

@cuda.jit(device=True)
def unused(x):
    return x + missing

@cuda.jit
def k(a):
    a[0] = 1.0
)py";
  std::string whole = check(source);
  CHECK_MESSAGE(has(whole, "ok\n"), whole);
  CHECK_MESSAGE(has(whole, "names.py:5:16: warning: function 'unused', which no kernel calls, cannot be compiled: "
                           "name 'missing' is not defined"),
                whole);
  CHECK(check(source, {"k"}) == "ok\n");
}

TEST_CASE("names: a construct pykern does not lower may bind names, so its function's names are not judged") {
  // `with ... as f` binds f; the lowering reports the 'with' alone.
  std::string out = check(R"py(from numba import cuda

@cuda.jit
def k(a):
    with open("x") as f:
        pass
    a[0] = f
)py");
  CHECK_MESSAGE(has(out, "'with' statement is not supported"), out);
  CHECK_FALSE(has(out, "name 'f' is not defined"));
}
