// Constructs that whole @jit programs of audio, astrodynamics, particle physics and molecular
// dynamics use (issues 33, 34), each as small as it comes: module constants computed with a
// division, ... The corpus cases cpu/b001..b014 run the programs themselves against Numba 0.68.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

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
