// NumPy's axis permutations, np.round with decimals, ufuncs' output arrays and np.linalg's eig
// family in @jit functions on the host (sema/builtins_numpy_misc.cpp, builtins_linalg.cpp,
// runtime/pykern/numpy_misc.cuh, linalg_more.cuh): Numba 0.68's types, views that share their
// array's storage, and Numba's run-time errors. The corpus cases cpu/n001..n005 check values
// against Numba itself.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "host_module.h"
#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

@njit
def permuted(a, x, y, z):
    t = a.transpose(x, y, z)
    t[0, 0, 0] = -1.0
    return t, np.swapaxes(a, x, z), np.moveaxis(a, x, z), np.transpose(a, (2, 0, 1))

@njit
def moved(a):
    return np.moveaxis(a, (0, 1), (2, 0))

@njit
def rounded(a, x, d):
    return np.round(a, d), np.round(x, d), np.round(np.int32(25), -1), np.around(a)

@njit
def into(a, b, out):
    r = np.add(a, b, out)
    np.sqrt(out, out)
    return r

@njit
def eig(a):
    return np.linalg.eig(a)

@njit
def eigvals(a):
    return np.linalg.eigvals(a)

@njit
def power(a, n):
    return np.linalg.matrix_power(a, n)

@njit
def measures(a):
    sign, logdet = np.linalg.slogdet(a)
    return sign, logdet, np.linalg.matrix_rank(a), np.linalg.cond(a)

@njit
def cond_1(a):
    return np.linalg.cond(a, 1)

@njit
def pinv(a):
    return np.linalg.pinv(a)

@njit
def only(a):
    return a.item(), a[:1].item()
)py";

Module load() { return test::load_host_module(source, "numpy_misc.py", "numpy-misc"); }

Array volume() {
  std::vector<double> values(24);
  for (size_t k = 0; k < values.size(); ++k) values[k] = static_cast<double>(k);
  return Array::from<double>(values, {2, 3, 4});
}

}  // namespace

TEST_CASE("a.transpose, np.swapaxes and np.moveaxis: views of layout A sharing the array, Numba's axis errors") {
  Module module = load();
  Array a = volume();
  Returned made = test::call(module, "permuted", a, int64_t(2), int64_t(0), int64_t(1));
  CHECK(made.type == "UniTuple(array(float64, 3d, A) x 4)");
  CHECK(made.arrays[0].shape() == std::vector<int64_t>{4, 2, 3});
  CHECK(made.arrays[0].at<double>(1, 1, 2) == 21.0);  // a[1, 2, 1]
  CHECK(a.at<double>(0, 0, 0) == -1.0);               // written through the view
  CHECK(made.arrays[1].shape() == std::vector<int64_t>{2, 4, 3});  // axes 2 and 1 swapped
  CHECK(made.arrays[2].shape() == std::vector<int64_t>{2, 4, 3});  // axis 2 moved to 1
  CHECK(made.arrays[3].shape() == std::vector<int64_t>{4, 2, 3});
  // Numba checks the axes as given: -1 and 2 are not "repeated", a repeated one is.
  Returned negative = test::call(module, "permuted", a, int64_t(-1), int64_t(0), int64_t(1));
  CHECK(negative.arrays[0].shape() == std::vector<int64_t>{4, 2, 3});
  CHECK(test::failure(module, "permuted", a, int64_t(0), int64_t(0), int64_t(1)).find(
            "ValueError: repeated axis in transpose") != std::string::npos);
  CHECK(test::failure(module, "permuted", a, int64_t(3), int64_t(0), int64_t(1)).find(
            "ValueError: axis is out of bounds for array of given dimension") != std::string::npos);
  Returned both = test::call(module, "moved", a);
  CHECK(both.arrays[0].shape() == std::vector<int64_t>{3, 4, 2});
  CHECK(both.arrays[0].at<double>(2, 1, 0) == a.at<double>(0, 2, 1));
}

TEST_CASE("np.moveaxis with tuples of different lengths is Numba's ValueError") {
  const char* text = R"py(import numpy as np
from numba import njit

@njit
def uneven(a):
    return np.moveaxis(a, (0, 1), (2,))

@njit
def swap_far(a, k):
    return np.swapaxes(a, 0, k)
)py";
  Module module = test::load_host_module(text, "uneven.py", "numpy-misc-uneven");
  CHECK(test::failure(module, "uneven", volume()).find(
            "ValueError: `source` and `destination` arguments must have the same number of parameters") !=
        std::string::npos);
  CHECK(test::failure(module, "swap_far", volume(), int64_t(5)).find(
            "ValueError: np.swapaxes: Argument axis2 out of bounds for dimensions of the array") != std::string::npos);
}

TEST_CASE("np.round with decimals: half to even after scaling, Numba's types for arrays and numbers") {
  Module module = load();
  Array a = Array::from<double>({0.125, 2.675, -0.35, 15.0});
  Returned one = test::call(module, "rounded", a, 2.5, int64_t(1));
  CHECK(one.type == "Tuple(array(float64, 1d, C), float64, int64, array(float64, 1d, C))");
  CHECK(one.arrays[0].at<double>(0) == 0.1);
  CHECK(one.arrays[0].at<double>(1) == 2.7);
  CHECK(one.arrays[0].at<double>(2) == -0.4);  // -3.5 to even
  CHECK(one.values[0].value.real() == 2.5);
  CHECK(one.values[1].integer == 20);  // 2.5 tens to even: 2
  CHECK(one.arrays[1].at<double>(1) == 3.0);
  Returned tens = test::call(module, "rounded", a, 25.0, int64_t(-1));
  CHECK(tens.arrays[0].at<double>(3) == 20.0);  // 1.5 tens to even
  CHECK(tens.values[0].value.real() == 20.0);
  Returned huge = test::call(module, "rounded", a, 1.25, int64_t(-400));
  CHECK(std::isnan(huge.values[0].value.real()));  // x / inf * inf, as Numba computes it
  Array f32 = Array::from<float>({2.25f, 0.3425f});
  Returned single = test::call(module, "rounded", f32, 0.3425, int64_t(3));
  CHECK(single.type == "Tuple(array(float32, 1d, C), float64, int64, array(float32, 1d, C))");
  CHECK(single.arrays[0].at<float>(1) == 0.343f);  // scaled in float64: 342.50000119 rounds up
}

TEST_CASE("a ufunc's output array: written in place, broadcast into, returned as itself") {
  Module module = load();
  Array a = Array::from<double>({1, 2, 3});
  Array b = Array::from<double>({3, 7, 13});
  Array out = Array::from<double>({0, 0, 0, 0, 0, 0}, {2, 3});
  Returned r = test::call(module, "into", a, b, out);
  CHECK(r.type == "array(float64, 2d, C)");
  CHECK(r.arrays[0].data() == out.data());
  CHECK(out.at<double>(1, 2) == 4.0);
  CHECK(out.at<double>(0, 1) == 3.0);
  Array wrong = Array::from<double>({0, 0});
  CHECK(test::failure(module, "into", a, b, wrong).find("ValueError") != std::string::npos);
}

TEST_CASE("np.linalg.eig and eigvals: real results for real eigenvalues, Numba's domain-change error") {
  Module module = load();
  Returned sym = test::call(module, "eig", Array::from<double>({2, 1, 1, 2}, {2, 2}));
  CHECK(sym.type == "Tuple(array(float64, 1d, C), array(float64, 2d, F))");
  double w0 = sym.arrays[0].at<double>(0), w1 = sym.arrays[0].at<double>(1);
  CHECK(std::min(w0, w1) == doctest::Approx(1.0));
  CHECK(std::max(w0, w1) == doctest::Approx(3.0));
  // a v = w v for the first column
  const Array& v = sym.arrays[1];
  CHECK(2 * v.at<double>(0, 0) + v.at<double>(1, 0) == doctest::Approx(w0 * v.at<double>(0, 0)));
  Array rotation = Array::from<double>({0, -1, 1, 0}, {2, 2});
  CHECK(test::failure(module, "eig", rotation).find("ValueError: eig() argument must not cause a domain change.") !=
        std::string::npos);
  CHECK(test::failure(module, "eigvals", rotation).find(
            "ValueError: eigvals() argument must not cause a domain change.") != std::string::npos);
  Returned complex_values = test::call(module, "eigvals", Array::from<std::complex<double>>({{0, 0}, {-1, 0}, {1, 0}, {0, 0}}, {2, 2}));
  CHECK(complex_values.type == "array(complex128, 1d, C)");
  CHECK(std::abs(complex_values.arrays[0].at<std::complex<double>>(0).imag()) == doctest::Approx(1.0));
  CHECK(test::failure(module, "eig", Array::from<double>({1, 2, 3, 4, 5, 6}, {2, 3})).find(
            "LinAlgError: Last 2 dimensions of the array must be square.") != std::string::npos);
  CHECK(test::failure(module, "eigvals", Array::from<double>({NAN, 1, 1, 1}, {2, 2})).find(
            "LinAlgError: Array must not contain infs or NaNs.") != std::string::npos);
}

TEST_CASE("np.linalg.matrix_power, slogdet, matrix_rank, cond and pinv: Numba's results and errors") {
  Module module = load();
  Array m = Array::from<double>({2, 1, 1, 3}, {2, 2});
  Returned cube = test::call(module, "power", m, int64_t(3));
  CHECK(cube.type == "array(float64, 2d, C)");
  CHECK(cube.arrays[0].at<double>(1, 1) == 35.0);
  Returned eighth = test::call(module, "power", m, int64_t(8));
  Returned inverse = test::call(module, "power", m, int64_t(-1));
  CHECK(inverse.arrays[0].at<double>(0, 0) == doctest::Approx(0.6));
  Returned identity = test::call(module, "power", Array::from<double>({1, 2, 3, 4, 5, 6}, {2, 3}), int64_t(0));
  CHECK(identity.arrays[0].at<double>(1, 1) == 1.0);
  CHECK(eighth.arrays[0].at<double>(0, 0) > 0);
  CHECK(test::failure(module, "power", Array::from<double>({1, 2, 3, 4, 5, 6}, {2, 3}), int64_t(2)).find(
            "ValueError: input must be a square array") != std::string::npos);
  CHECK(test::failure(module, "power", Array::from<double>({1, 1, 1, 1}, {2, 2}), int64_t(-2)).find(
            "LinAlgError: Matrix is singular to machine precision.") != std::string::npos);
  Returned measured = test::call(module, "measures", m);
  CHECK(measured.type == "Tuple(float64, float64, int64, float64)");
  CHECK(measured.values[0].value.real() == 1.0);
  CHECK(measured.values[1].value.real() == doctest::Approx(std::log(5.0)));
  CHECK(measured.values[2].integer == 2);
  CHECK(test::call(module, "cond_1", m).values[0].value.real() == doctest::Approx(3.2));
  Returned singular = test::call(module, "measures", Array::from<double>({1, 2, 2, 4}, {2, 2}));
  CHECK(singular.values[0].value.real() == 0.0);
  CHECK(std::isinf(singular.values[1].value.real()));
  CHECK(singular.values[2].integer == 1);
  CHECK(std::isinf(singular.values[3].value.real()) == false);  // s[0] / s[1] of a rounding-level s[1]
  CHECK(test::failure(module, "cond_1", Array::from<double>({1, 2, 2, 4}, {2, 2})).find(
            "LinAlgError: Matrix is singular to machine precision.") != std::string::npos);
  CHECK(test::failure(module, "measures", Array::from<double>({}, {0, 0})).find(
            "LinAlgError: Arrays cannot be empty") != std::string::npos);
  Returned tall = test::call(module, "pinv", Array::from<double>({1, 2, 2, 4, 0, 1}, {3, 2}));
  CHECK(tall.type == "array(float64, 2d, F)");
  CHECK(tall.arrays[0].shape() == std::vector<int64_t>{2, 3});
  CHECK(tall.arrays[0].at<double>(0, 2) == doctest::Approx(-2.0));
  CHECK(tall.arrays[0].at<double>(1, 2) == doctest::Approx(1.0));
}

TEST_CASE("a.item(): the element of a one-element array, of its dtype; Numba's ValueError for any other size") {
  Module module = load();
  Returned one = test::call(module, "only", Array::from<int32_t>({7}));
  CHECK(one.type == "UniTuple(int32 x 2)");
  CHECK(one.values[0].integer == 7);
  CHECK(test::failure(module, "only", Array::from<int32_t>({7, 8})).find(
            "ValueError: item(): can only convert an array of size 1 to a Python scalar") != std::string::npos);
}
