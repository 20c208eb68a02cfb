// Constructs that whole @jit programs of audio, astrodynamics, particle physics and molecular
// dynamics use (issues 33, 34), each as small as it comes: module constants computed with a
// division, ... The corpus cases cpu/b001..b014 run the programs themselves against Numba 0.68.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "host_module.h"
#include "pykern/function.h"
#include "pykern/module.h"

using namespace pykern;

TEST_CASE("module constants computed with / fold in @jit functions, as Numba freezes them at import") {
  // A @jit function checks divisors at run time (ZeroDivisionError); a constant's division is
  // Python's at import, so the quotient is frozen (DEG = math.pi / 180.0, Q = 1 / math.sqrt(2)).
  static const char* source = R"py(import math
import numpy as np
from numba import njit

DEG = math.pi / 180.0
Q = 1 / math.sqrt(2.0)
SIGMA, R_CUT = 1.0, 2.5
E_SHIFT = 4.0 * ((SIGMA / R_CUT) ** 12 - (SIGMA / R_CUT) ** 6)
WCA_CUT = 2.0 ** (1.0 / 6.0)
HALF = np.float32(1.0) / np.float32(3.0)
RATIO = 7 / 2

@njit
def constants(x):
    return x * DEG, Q, E_SHIFT, WCA_CUT, HALF, RATIO
)py";
  Module module = test::load_host_module(source, "constants.py", "survey-constants");
  Returned r = test::call(module, "constants", 180.0);
  CHECK(r.type == "Tuple(float64, float64, float64, float64, float32, float64)");
  CHECK(r.values[0].value.real() == 180.0 * (M_PI / 180.0));
  CHECK(r.values[1].value.real() == 1 / std::sqrt(2.0));
  CHECK(r.values[2].value.real() == 4.0 * (std::pow(0.4, 12) - std::pow(0.4, 6)));
  CHECK(r.values[3].value.real() == std::pow(2.0, 1.0 / 6.0));
  CHECK(r.values[4].value.real() == double(1.0f / 3.0f));
  CHECK(r.values[5].value.real() == 3.5);
}

TEST_CASE("np.degrees, np.radians, np.rad2deg and np.deg2rad take arrays, as Numba's ufuncs do") {
  static const char* source = R"py(import numpy as np
from numba import njit

@njit
def angles(a, f, k):
    return np.degrees(a), np.radians(np.degrees(a)), np.rad2deg(f), np.deg2rad(k), np.degrees(0.5)
)py";
  Module module = test::load_host_module(source, "angles.py", "survey-angles");
  std::vector<double> a = {0.0, M_PI / 2, -M_PI};
  std::vector<float> f = {1.0f, 2.0f};
  std::vector<int64_t> k = {90, 180};
  Returned r = test::call(module, "angles", a, f, k);
  CHECK(r.type == "Tuple(array(float64, 1d, C), array(float64, 1d, C), array(float32, 1d, C), "
                  "array(float64, 1d, C), float64)");
  CHECK(r.arrays[0].at<double>(1) == 90.0);
  CHECK(r.arrays[0].at<double>(2) == -180.0);
  CHECK(r.arrays[1].at<double>(1) == M_PI / 2);
  CHECK(r.arrays[2].at<float>(1) == 114.59156f);  // Numba: 2.0f * float(180 / math.pi), not 2.0f * (180.0f / 3.1415927f)
  CHECK(r.arrays[3].at<double>(0) == 90 * (M_PI / 180));
  CHECK(r.values[0].value.real() == 0.5 * (180 / M_PI));
}

TEST_CASE("a tuple stored into a 1-d view: a row, a slice, a strided slice, converted item by item") {
  // out[k] = jet (a clustering loop's 4-tuples), energies[0] = kinetic, potential (an MD log).
  static const char* source = R"py(import numpy as np
from numba import njit

@njit
def rows(n):
    out = np.zeros((n, 3))
    for k in range(n):
        out[k] = (k, 2 * k, 3 * k)
    out[0, 1:] = 7.5, -1.0
    pair = (1.5, 2.5)
    e = np.empty(4, dtype=np.float32)
    e[::2] = pair
    e[1::2] = (True, False)
    return out, e

@njit
def wrong(n):
    out = np.zeros((2, n))
    out[1] = (1.0, 2.0, 3.0)
    return out
)py";
  Module module = test::load_host_module(source, "rows.py", "survey-rows");
  Returned r = test::call(module, "rows", int64_t(3));
  CHECK(r.arrays[0].at<double>(0, 1) == 7.5);
  CHECK(r.arrays[0].at<double>(0, 2) == -1.0);
  CHECK(r.arrays[0].at<double>(2, 0) == 2.0);
  CHECK(r.arrays[0].at<double>(2, 2) == 6.0);
  CHECK(r.arrays[1].at<float>(0) == 1.5f);
  CHECK(r.arrays[1].at<float>(1) == 1.0f);
  CHECK(r.arrays[1].at<float>(2) == 2.5f);
  CHECK(r.arrays[1].at<float>(3) == 0.0f);
  // Numba 0.68's CPU wording
  CHECK(test::failure(module, "wrong", int64_t(2)) ==
        "rows.py:19: ValueError: cannot assign slice of shape (2,) from input of shape (3,)");
  Returned fits = test::call(module, "wrong", int64_t(3));
  CHECK(fits.arrays[0].at<double>(1, 2) == 3.0);
}

TEST_CASE("a nested tuple of numbers returned from a host call comes back (the simulator build links new[])") {
  static const char* source = R"py(from numba import njit

@njit
def nested(x):
    return x, (x * 2, 3)
)py";
  Module module = test::load_host_module(source, "nested.py", "survey-nested");
  Returned r = test::call(module, "nested", 2.0);
  REQUIRE(r.other.has_value());
  CHECK(r.value().to_string() == "(2.0, (4.0, 3))");
}
