// 0-d arrays, complex sorts and statistics in @jit functions on the host (sema/zero_d.cpp,
// runtime/pykern/zero_d.cuh, sorting.cuh's lt_complex, statistics.cuh): Numba 0.68's types and
// results, and located errors where pykern or Numba refuses. The corpus cases cpu/z001..z004
// check values against Numba itself.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "host_module.h"
#include "pykern/function.h"
#include "pykern/module.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

@njit
def made():
    z = np.zeros(())
    z[()] = 5.0
    z[()] += 1.5
    z += 1
    e = np.empty(())
    e[...] = 2.0
    return z, e[()], np.full((), 3, np.int32), np.ones(()).item(), np.array(4.0) + 1, np.asarray(7) * 2

@njit
def operands(z, v):
    return z + 1, z * v, np.sqrt(z), -z, z > 2.0, z + z

@njit
def reduced(z):
    return z.sum(), np.mean(z), z.max(), np.argmax(z), np.cumsum(z), z.ravel()

@njit
def likes(z):
    return np.zeros_like(z), np.full_like(z, 9.0), z.copy(), np.copy(2.5), z.ndim, z.size

@njit
def small(z):
    return z * 2, z + 1.0

@njit
def same(z):
    return z

@njit
def listed():
    held = [np.zeros(()), np.ones(())]
    held.append(np.array(3.0))
    total = 0.0
    for z in held:
        total += z[()]
    return total, len(held)

@njit
def gather(a, r, c):
    return a[r, c]

@njit
def scatter(a, r, c, v):
    a[r, c] = v
    a[r, c] += 1.0

@njit
def pairs_into_rows(b, r, c):
    return b[r, c]

@njit
def sorted_complex(c):
    return np.sort(c), np.argsort(c), np.argsort(c, kind='mergesort')

@njit
def sort_in_place(c):
    c.sort()

@njit
def stats_complex(c):
    return np.ptp(c), np.nanvar(c), np.nanstd(c), np.nanvar(c, ddof=1)
)py";

Module load() { return test::load_host_module(source, "zero_d.py", "zero-d"); }

Array zero_d(double v) {
  Array z = Array::zeros(DType::of<double>(), {});
  z.at<double>() = v;
  return z;
}

}  // namespace

TEST_CASE("0-d arrays: made by np.zeros(()), np.empty(()), np.full, np.array(x); z[()] and z[...] store, z += 1") {
  Module module = load();
  Returned r = test::call(module, "made");
  CHECK(r.type == "Tuple(array(float64, 0d, C), float64, array(int32, 0d, C), float64, float64, int64)");
  REQUIRE(r.arrays.size() == 2);
  CHECK(r.arrays[0].ndim() == 0);
  CHECK(r.arrays[0].at<double>() == 7.5);
  CHECK(r.arrays[1].at<int32_t>() == 3);
  CHECK(r.values[0].value.real() == 2.0);
  CHECK(r.values[1].value.real() == 1.0);
  CHECK(r.values[2].value.real() == 5.0);  // np.array(4.0) + 1: a number, as Numba's ufuncs give
  CHECK(r.values[3].integer == 14);
}

TEST_CASE("0-d arrays in element-wise operations: numbers by the ufunc's loop, arrays where another operand has axes") {
  Module module = load();
  Returned r = test::call(module, "operands", zero_d(4.0), Array::from<double>({0, 1, 2}));
  CHECK(r.type == "Tuple(float64, array(float64, 1d, C), float64, float64, bool, float64)");
  CHECK(r.values[0].value.real() == 5.0);
  CHECK(r.arrays[0].at<double>(2) == 8.0);
  CHECK(r.values[1].value.real() == 2.0);
  CHECK(r.values[2].value.real() == -4.0);
  CHECK(r.values[3].integer == 1);
  CHECK(r.values[4].value.real() == 8.0);
  // Numba's loop choice as for arrays: a float32 0-d array times an int stays float32, plus a
  // float64 number is float64.
  Array f = Array::zeros(DType::of<float>(), {});
  f.at<float>() = 1.5f;
  Returned s = test::call(module, "small", f);
  CHECK(s.type == "Tuple(float32, float64)");
}

TEST_CASE("0-d arrays reduce as their one element; cumsum and ravel give 1-d arrays, as in Numba") {
  Module module = load();
  Returned r = test::call(module, "reduced", zero_d(3.0));
  CHECK(r.type == "Tuple(float64, float64, float64, int64, array(float64, 1d, C), array(float64, 1d, C))");
  CHECK(r.values[0].value.real() == 3.0);
  CHECK(r.values[1].value.real() == 3.0);
  CHECK(r.values[3].integer == 0);
  CHECK(r.arrays[0].shape() == std::vector<int64_t>{1});
  CHECK(r.arrays[1].at<double>(0) == 3.0);
}

TEST_CASE("0-d arrays: the _like makers, copies, ndim and size; passed in and returned as themselves") {
  Module module = load();
  Array z = zero_d(4.0);
  Returned r = test::call(module, "likes", z);
  CHECK(r.type == "Tuple(array(float64, 0d, C), array(float64, 0d, C), array(float64, 0d, C), "
                  "array(float64, 0d, C), int64, int64)");
  CHECK(r.arrays[0].at<double>() == 0.0);
  CHECK(r.arrays[1].at<double>() == 9.0);
  CHECK(r.arrays[2].at<double>() == 4.0);
  CHECK(r.arrays[2].data() != z.data());
  CHECK(r.arrays[3].at<double>() == 2.5);
  CHECK(r.values[0].integer == 0);
  CHECK(r.values[1].integer == 1);
  Returned back = test::call(module, "same", z);
  CHECK(back.type == "array(float64, 0d, C)");
  CHECK(back.arrays[0].data() == z.data());
}

TEST_CASE("a list of 0-d arrays: displayed, appended to, iterated") {
  Module module = load();
  Returned r = test::call(module, "listed");
  CHECK(r.type == "Tuple(float64, int64)");
  CHECK(r.values[0].value.real() == 4.0);
  CHECK(r.values[1].integer == 3);
}

TEST_CASE("np.sort, a.sort and np.argsort of complex numbers: NumPy's lexicographic order, NaNs last") {
  Module module = load();
  const double nan = std::nan("");
  using C = std::complex<double>;
  Array c = Array::from<C>({{3, 1}, {1, 5}, {nan, 0}, {1, 2}, {0, nan}, {2, -1}});
  Returned r = test::call(module, "sorted_complex", c);
  CHECK(r.type == "Tuple(array(complex128, 1d, C), array(int64, 1d, C), array(int64, 1d, C))");
  std::vector<int64_t> want = {3, 1, 5, 0, 4, 2};  // (0, nan) before (nan, 0): a NaN real part sorts last
  for (size_t k = 0; k < want.size(); ++k) {
    CHECK(r.arrays[1].at<int64_t>(static_cast<int64_t>(k)) == want[k]);
    CHECK(r.arrays[2].at<int64_t>(static_cast<int64_t>(k)) == want[k]);
  }
  CHECK(r.arrays[0].at<C>(0) == C(1, 2));
  CHECK(r.arrays[0].at<C>(3) == C(3, 1));
  CHECK(std::isnan(r.arrays[0].at<C>(5).real()));
  test::call(module, "sort_in_place", c);
  CHECK(c.at<C>(1) == C(1, 5));
}

TEST_CASE("np.ptp, np.nanvar and np.nanstd of complex numbers, as Numba's arraymath computes them") {
  Module module = load();
  using C = std::complex<double>;
  const double nan = std::nan("");
  Returned r = test::call(module, "stats_complex", Array::from<C>({{1, 2}, {3, -1}, {0, nan}, {1, 5}}));
  CHECK(r.type == "Tuple(complex128, float64, float64, float64)");
  // Numba's running max is 3-1j, its min 0+nanj (0 < 1 by real part): 3+nanj
  CHECK(r.values[0].value.real() == 3.0);
  CHECK(std::isnan(r.values[0].value.imag()));
  // The non-NaN elements 1+2j, 3-1j, 1+5j: mean 5/3+2j, squared deviations 4/9, 16/9+9, 4/9+9
  CHECK(r.values[1].value.real() == doctest::Approx(6.888888888888889));
  CHECK(r.values[2].value.real() == doctest::Approx(2.6246692913372702));
  CHECK(r.values[3].value.real() == doctest::Approx(10.333333333333334));
  Returned plain = test::call(module, "stats_complex", Array::from<C>({{1, 2}, {3, -1}, {1, 5}}));
  CHECK(plain.values[0].value == C(2, -3));
  Returned stop = test::call(module, "stats_complex", Array::from<C>({{1, 2}, {nan, 1}, {5, 0}}));
  CHECK(std::isnan(stop.values[0].value.real()));  // a NaN real part ends it: nan+0j
  CHECK(stop.values[0].value.imag() == 0.0);
  CHECK(stop.values[1].value.real() == doctest::Approx(5.0));
  Returned both = test::call(module, "stats_complex", Array::from<C>({{1, 2}, {nan, nan}, {5, 0}}));
  CHECK(std::isnan(both.values[0].value.imag()));
}

TEST_CASE("a[rows, cols]: index arrays broadcast together, each pair one element, as Numba's FancyIndexer") {
  Module module = load();
  Array a = Array::from<double>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  Returned r = test::call(module, "gather", a, Array::from<int64_t>({0, 2, -1}), Array::from<int64_t>({1, 3, 0}));
  CHECK(r.type == "array(float64, 1d, C)");
  CHECK(r.arrays[0].shape() == std::vector<int64_t>{3});
  CHECK(r.arrays[0].at<double>(0) == 1.0);
  CHECK(r.arrays[0].at<double>(1) == 11.0);
  CHECK(r.arrays[0].at<double>(2) == 8.0);  // -1 wraps to the last row
  Returned one_row = test::call(module, "gather", a, Array::from<int64_t>({1}), Array::from<int32_t>({0, 1, 2}));
  CHECK(one_row.arrays[0].at<double>(2) == 6.0);  // a length-1 index repeats
  CHECK(test::failure(module, "gather", a, Array::from<int64_t>({0, 1}), Array::from<int64_t>({0, 1, 2})).find(
            "ValueError: shape mismatch: objects cannot be broadcast to a single shape") != std::string::npos);
  CHECK(test::failure(module, "gather", a, Array::from<int64_t>({0, 9}), Array::from<int64_t>({0, 1})).find(
            "IndexError: index 9 is out of bounds for axis 0 with size 3") != std::string::npos);
  test::call(module, "scatter", a, Array::from<int64_t>({0, 2}), Array::from<int64_t>({3, 0}),
             Array::from<double>({-5, -6}));
  CHECK(a.at<double>(0, 3) == -4.0);
  CHECK(a.at<double>(2, 0) == -5.0);
  CHECK(test::failure(module, "scatter", a, Array::from<int64_t>({0, 2}), Array::from<int64_t>({3, 0}),
                      Array::from<double>({1, 2, 3}))
            .find("ValueError: cannot assign slice of shape (2,) from input of shape (3,)") != std::string::npos);
  Array b = Array::from<double>(std::vector<double>(24, 1.0), {2, 3, 4});
  b.at<double>(1, 2, 3) = 7.0;
  Returned rows = test::call(module, "pairs_into_rows", b, Array::from<int64_t>({1, 0}), Array::from<int64_t>({2, 2}));
  CHECK(rows.type == "array(float64, 2d, C)");
  CHECK(rows.arrays[0].shape() == std::vector<int64_t>{2, 4});
  CHECK(rows.arrays[0].at<double>(0, 3) == 7.0);
}
