// Whole modules as real @jit code writes them: decorator options read through module
// constants, calls that leave parameters to their defaults (None included), numba's types
// modules in signatures, to_fixed_tuple, and the refusals of what needs Python's interpreter.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/array.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
import numba
from numba import njit, jit, types, float64, int64, literal_unroll
from numba.core import types as core_types
from numba.np.unsafe.ndarray import to_fixed_tuple

FLAGS = {'nnan', 'ninf'}
FLAG_DICT = {'contract': True, 'arcp': False}
FAST = True
WIDTH = 2


@njit(fastmath=FLAGS)
def twice_set(x):
    return x * 2.0


@njit(fastmath=FLAG_DICT)
def twice_dict(x):
    return x * 2.0


@njit(fastmath=FAST)
def twice_bool(x):
    return x * 2.0


@njit
def scale(x, factor=2.0, offset=0.0):
    return x * factor + offset


@njit
def clamp(x, lo=None, hi=None):
    if lo is not None:
        x = max(x, lo)
    if hi is None:
        return x
    return min(x, hi)


@njit
def clamp_calls(x):
    return clamp(x), clamp(x, 0.0), clamp(x, hi=1.0), clamp(x, None, 0.5), clamp(hi=0.25, x=x)


@jit(nopython=True, cache=True, nogil=True, error_model='numpy')
def numpy_model(a, b, i, j):
    return a / b, i // j, i % j


@jit(nopython=True, error_model='python')
def python_model(i, j):
    return i // j


@jit(nopython=False)
def deprecated_flag(x):
    return x + 1


@jit(forceobj=True)
def object_mode(x):
    return x + 1


@njit
def with_objmode(x):
    with numba.objmode(y='float64'):
        y = x * 2.0
    return x


@njit
def uses_a_set(x):
    s = {1, 2}
    return x


@njit(core_types.int64(core_types.UniTuple(core_types.int64, 2)))
def cells(shape):
    return shape[0] * shape[1]


@njit(numba.types.float64(types.Array(types.float64, 2, 'C')))
def corner(grid):
    return grid[0, 0] + grid[-1, -1]


@njit
def fixed(a):
    t = to_fixed_tuple(a, 3)
    u = to_fixed_tuple(np.arange(WIDTH) + 4, WIDTH)
    s = 0.0
    for v in literal_unroll(t):
        s += v
    return t[0], t[2], cells((u[0], u[1])), s


@njit([float64(float64), int64(int64)])
def doubled(x):
    return x + x
)py";

Module load() { return test::load_host_module(source, "modules.py", "host-modules"); }

double real(const Returned& r, size_t k) { return r.values.at(k).value.real(); }

}  // namespace

TEST_CASE("fastmath= takes a module constant: a set of flags, a dict of flags, a bool") {
  Module module = load();
  CHECK(real(test::call(module, "twice_set", 1.5), 0) == 3.0);
  CHECK(real(test::call(module, "twice_dict", 1.5), 0) == 3.0);
  CHECK(real(test::call(module, "twice_bool", 1.5), 0) == 3.0);
}

TEST_CASE("a host call may leave parameters to their defaults, None included") {
  Module module = load();
  CHECK(real(test::call(module, "scale", 3.0), 0) == 6.0);
  CHECK(real(test::call(module, "scale", 3.0, 3.0), 0) == 9.0);
  CHECK(real(test::call(module, "scale", 3.0, 3.0, 1.0), 0) == 10.0);
  // hi=None: `if hi is None: return x` is decided when typed, so min(x, None) is never typed.
  CHECK(real(test::call(module, "clamp", 2.0), 0) == 2.0);
  CHECK(real(test::call(module, "clamp", -2.0, 0.0), 0) == 0.0);
  CHECK(real(test::call(module, "clamp", 2.0, 0.0, 1.0), 0) == 1.0);
  Returned calls = test::call(module, "clamp_calls", 0.75);
  REQUIRE(calls.values.size() == 5);
  CHECK(real(calls, 0) == 0.75);
  CHECK(real(calls, 1) == 0.75);
  CHECK(real(calls, 2) == 0.75);
  CHECK(real(calls, 3) == 0.5);
  CHECK(real(calls, 4) == 0.25);
}

TEST_CASE("error_model='numpy' divides by zero as NumPy does; 'python' raises") {
  Module module = load();
  Returned r = test::call(module, "numpy_model", 1.0, 0.0, int64_t(7), int64_t(0));
  REQUIRE(r.values.size() == 3);
  CHECK(std::isinf(real(r, 0)));
  CHECK(r.values[1].integer == 0);
  CHECK(r.values[2].integer == 0);
  CHECK(test::failure(module, "python_model", int64_t(7), int64_t(0)).find("ZeroDivisionError") != std::string::npos);
  // nopython=False has had no effect since Numba 0.59: still a nopython function.
  CHECK(test::call(module, "deprecated_flag", int64_t(1)).values.at(0).integer == 2);
}

TEST_CASE("object mode and objmode blocks are refused where used: there is no interpreter") {
  Module module = load();  // the module loads: the refusals wait for a call, as Numba's compilation does
  std::string forced = test::failure_described(module, "object_mode", 1.0);
  CHECK(forced.find("'object_mode' asks for Numba's object mode (forceobj=True)") != std::string::npos);
  CHECK(forced.find("modules.py:62:6") != std::string::npos);
  std::string block = test::failure_described(module, "with_objmode", 1.0);
  CHECK(block.find("modules.py:69:5: error: an objmode block runs in the Python interpreter") != std::string::npos);
}

TEST_CASE("what @jit functions refuse is said of @jit functions, not kernels") {
  Module module = load();
  std::string refused = test::failure_described(module, "uses_a_set", 1.0);
  CHECK(refused.find("a set is not supported in @jit functions") != std::string::npos);
  CHECK(refused.find("in kernels") == std::string::npos);
}

TEST_CASE("numba.types and numba.core.types spell signatures; to_fixed_tuple makes a UniTuple") {
  Module module = load();
  Array grid = Array::from<double>({1, 2, 3, 4, 5, 6}, {2, 3});
  CHECK(real(test::call(module, "corner", grid), 0) == 7.0);
  Returned r = test::call(module, "fixed", Array::from<double>({4, 5, 6, 7}));
  REQUIRE(r.values.size() == 4);
  CHECK(real(r, 0) == 4.0);
  CHECK(real(r, 1) == 6.0);
  CHECK(r.values[2].integer == 20);  // cells((4, 5)), typed by its numba.core.types signature
  CHECK(real(r, 3) == 15.0);
}

TEST_CASE("a host call picks among a decorator's signatures as Numba's overload resolution does") {
  Module module = load();
  Returned ints = test::call(module, "doubled", int64_t(3));
  CHECK(ints.type == "int64");
  CHECK(ints.values.at(0).integer == 6);
  Returned reals = test::call(module, "doubled", 1.25);
  CHECK(reals.type == "float64");
  CHECK(real(reals, 0) == 2.5);
}
