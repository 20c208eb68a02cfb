// NumPy's reductions along an axis and its array-returning and order-statistic reductions in
// @jit functions on the host (sema/builtins_reductions.cpp, runtime/pykern/reductions_axis.cuh,
// statistics.cuh): result types and shapes, Numba's errors (axis out of range, empty arrays,
// bad q) at the call's line, and the edge values. Expected values are Numba 0.68.1's.
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/compiler.h"
#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

@njit
def sum_along(a, k):
    return np.sum(a, axis=k)

@njit
def sum_rows_as(a):
    return a.sum(1, np.float32)

@njit
def argmin_along(a, k):
    return np.argmin(a, axis=k)

@njit
def argmax_along(a, k):
    return a.argmax(k)

@njit
def running(a):
    return np.cumsum(a)

@njit
def running_along(a, k):
    return a.cumsum(axis=k)

@njit
def products(a):
    return np.cumprod(a)

@njit
def differences(a, n):
    return np.diff(a, n)

@njit
def spread(a):
    return np.ptp(a)

@njit
def moments(a, d):
    return np.nanvar(a, ddof=d), np.nanstd(a, ddof=d), np.nanmedian(a), np.nanprod(a)

@njit
def pct(a, q):
    return np.percentile(a, q)

@njit
def qtl(a, q):
    return np.quantile(a, q)

@njit
def nan_pct(a, q):
    return np.nanpercentile(a, q)

@njit
def skip_running(a):
    return np.nancumsum(a), np.nancumprod(a)

@njit
def nonzero_along(a, k):
    return np.count_nonzero(a, axis=k)

@njit
def weighted(a, w):
    return np.average(a, weights=w)

@njit
def plain_average(a):
    return np.average(a)
)py";

Module load() { return test::load_host_module(source, "axes.py", "reductions-axis"); }

using test::call;
using test::failure;
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const double not_a_number = std::nan("");

}  // namespace

TEST_CASE("np.sum along an axis: an array of one dimension less (a number for 1-D), any axis sign, any layout") {
  Module module = load();
  Array a = Array::from<int32_t>({0, 1, 2, 3, 4, 5}, {2, 3});
  Returned columns = call(module, "sum_along", a, int64_t(0));
  CHECK(columns.type == "array(int64, 1d, C)");
  REQUIRE(columns.arrays[0].shape() == std::vector<int64_t>{3});
  CHECK(columns.arrays[0].at<int64_t>(2) == 7);
  Returned rows = call(module, "sum_along", a, int64_t(-1));
  CHECK(rows.arrays[0].at<int64_t>(1) == 12);
  // The transposed (F) array: its axis 0 is a's axis 1.
  Returned transposed = call(module, "sum_along", a.transpose(), int64_t(0));
  CHECK(transposed.arrays[0].at<int64_t>(0) == 3);
  CHECK(transposed.arrays[0].at<int64_t>(1) == 12);
  Returned one = call(module, "sum_along", Array::from<double>({1.5, 2}), int64_t(0));
  CHECK(one.type == "float64");
  CHECK(one.values[0].value.real() == 3.5);
  Returned as = call(module, "sum_rows_as", Array::from<uint8_t>({200, 100, 1, 2}, {2, 2}));
  CHECK(as.type == "array(float32, 1d, C)");
  CHECK(as.arrays[0].at<float>(0) == 300.0f);
  // A 3-D array along its middle axis: each result meets its inputs in order along that axis.
  Array cube = Array::from<double>({1e16, 1, 2, 3, 1, 5, -1e16, 7}, {2, 2, 2});
  Returned middle = call(module, "sum_along", cube, int64_t(1));
  REQUIRE(middle.arrays[0].shape() == std::vector<int64_t>{2, 2});
  CHECK(middle.arrays[0].at<double>(0, 0) == 1e16 + 2);
  CHECK(middle.arrays[0].at<double>(1, 0) == 1 - 1e16);
}

TEST_CASE("an axis out of range is Numba's error at the call's line: AxisError for sum, ValueError for argmin, cumsum") {
  Module module = load();
  Array a = Array::from<double>({1, 2, 3, 4}, {2, 2});
  CHECK(has(failure(module, "sum_along", a, int64_t(2)),
            "axes.py:6: AxisError: axis 2 is out of bounds for array of dimension 2"));
  CHECK(has(failure(module, "sum_along", Array::from<double>({1}), int64_t(-2)),
            "AxisError: axis -2 is out of bounds for array of dimension 1"));
  CHECK(has(failure(module, "argmin_along", a, int64_t(-3)), "axes.py:14: ValueError: axis is out of bounds"));
  CHECK(has(failure(module, "running_along", a, int64_t(5)),
            "ValueError: axis 5 is out of bounds for array of dimension 2"));
}

TEST_CASE("argmin/argmax along an axis: the first extreme or the first NaN of each slice; an empty axis fails") {
  Module module = load();
  Array a = Array::from<double>({3, 1, 2, 0, not_a_number, 5, 1, 1, 9}, {3, 3});
  Returned down = call(module, "argmin_along", a, int64_t(0));
  CHECK(down.type == "array(int64, 1d, C)");
  CHECK(down.arrays[0].at<int64_t>(0) == 1);
  CHECK(down.arrays[0].at<int64_t>(1) == 1);  // the NaN
  CHECK(down.arrays[0].at<int64_t>(2) == 0);
  Returned across = call(module, "argmax_along", a, int64_t(1));
  CHECK(across.arrays[0].at<int64_t>(1) == 1);
  CHECK(across.arrays[0].at<int64_t>(2) == 2);
  CHECK(call(module, "argmax_along", Array::from<int16_t>({4, 9, 9}), int64_t(0)).values[0].integer == 1);
  Array empty = Array::from<double>({}, {0, 3});
  CHECK(has(failure(module, "argmin_along", empty, int64_t(0)), "ZeroDivisionError: integer modulo by zero"));
  CHECK(call(module, "argmin_along", empty, int64_t(1)).arrays[0].shape() == std::vector<int64_t>{0});
}

TEST_CASE("cumsum/cumprod: the accumulator's type, flattened in C order or along an axis; nancumsum holds at NaN") {
  Module module = load();
  Array a = Array::from<int8_t>({100, 100, 100, 1}, {2, 2});
  Returned sums = call(module, "running", a.transpose());
  CHECK(sums.type == "array(int64, 1d, C)");
  CHECK(sums.arrays[0].at<int64_t>(1) == 200);  // C order of the transpose: 100, 100, ...
  CHECK(sums.arrays[0].at<int64_t>(3) == 301);
  Returned down = call(module, "running_along", a, int64_t(0));
  CHECK(down.type == "array(int64, 2d, C)");
  CHECK(down.arrays[0].at<int64_t>(1, 0) == 200);
  CHECK(down.arrays[0].at<int64_t>(1, 1) == 101);
  Returned product = call(module, "products", Array::from<bool>({true, true, false}));
  CHECK(product.type == "array(int64, 1d, C)");
  CHECK(product.arrays[0].at<int64_t>(2) == 0);
  Returned skipping = call(module, "skip_running", Array::from<double>({2, not_a_number, 3}));
  CHECK(skipping.arrays[0].at<double>(1) == 2.0);
  CHECK(skipping.arrays[1].at<double>(2) == 6.0);
}

TEST_CASE("np.diff along the last axis in the dtype; n=0 copies, n past the extent is empty, negative n fails") {
  Module module = load();
  Array a = Array::from<uint8_t>({1, 4, 2, 7}, {1, 4});
  Returned first = call(module, "differences", a, int64_t(1));
  CHECK(first.type == "array(uint8, 2d, C)");
  CHECK(first.arrays[0].at<uint8_t>(0, 1) == 254);  // 2 - 4 wraps, as Numba stores it
  Returned second = call(module, "differences", a, int64_t(2));
  CHECK(second.arrays[0].shape() == std::vector<int64_t>{1, 2});
  CHECK(second.arrays[0].at<uint8_t>(0, 1) == 7);
  CHECK(call(module, "differences", a, int64_t(0)).arrays[0].at<uint8_t>(0, 3) == 7);
  CHECK(call(module, "differences", a, int64_t(9)).arrays[0].shape() == std::vector<int64_t>{1, 0});
  CHECK(has(failure(module, "differences", a, int64_t(-1)), "ValueError: diff(): order must be non-negative"));
}

TEST_CASE("ptp, nanvar/nanstd with ddof, nanmedian, nanprod: Numba's types and values, NaN where it gives NaN") {
  Module module = load();
  Returned ints = call(module, "spread", Array::from<int32_t>({5, -3, 2}));
  CHECK(ints.type == "int64");
  CHECK(ints.values[0].integer == 8);
  CHECK(call(module, "spread", Array::from<float>({1.5f, 0.25f})).type == "float64");
  CHECK(std::isnan(call(module, "spread", Array::from<double>({1, not_a_number})).values[0].value.real()));
  CHECK(has(failure(module, "spread", Array::from<double>({})), "ValueError: zero-size array reduction not possible"));
  Returned m = call(module, "moments", Array::from<double>({1, not_a_number, 2, 3, 4}), int64_t(1));
  CHECK(m.type == "UniTuple(float64 x 4)");
  CHECK(m.values[0].value.real() == doctest::Approx(1.6666666666666667).epsilon(1e-15));
  CHECK(m.values[2].value.real() == 2.5);
  CHECK(m.values[3].value.real() == 24.0);
  Returned few = call(module, "moments", Array::from<int32_t>({7}), int64_t(1));
  CHECK(std::isnan(few.values[0].value.real()));  // count <= ddof
  CHECK(few.values[3].value.real() == 7.0);
}

TEST_CASE("percentiles and quantiles: linear interpolation, NaN propagation, Numba's range errors") {
  Module module = load();
  Array a = Array::from<double>({4, 1, 3, 2});
  CHECK(call(module, "pct", a, 50.0).values[0].value.real() == 2.5);
  CHECK(call(module, "pct", a, int64_t(100)).values[0].value.real() == 4.0);
  CHECK(call(module, "qtl", a, 0.25).values[0].value.real() == 1.75);
  Returned several = call(module, "pct", a, Array::from<double>({0, 30, 100}));
  CHECK(several.type == "array(float64, 1d, C)");
  CHECK(several.arrays[0].at<double>(1) == doctest::Approx(1.9).epsilon(1e-15));
  Array with_nan = Array::from<double>({4, not_a_number, 2});
  CHECK(std::isnan(call(module, "pct", with_nan, 50.0).values[0].value.real()));
  CHECK(call(module, "nan_pct", with_nan, 50.0).values[0].value.real() == 3.0);
  CHECK(has(failure(module, "pct", a, 101.0), "ValueError: Percentiles must be in the range [0, 100]"));
  CHECK(has(failure(module, "qtl", a, -0.5), "ValueError: Quantiles must be in the range [0, 1]"));
  CHECK(has(failure(module, "pct", Array::from<double>({}), 50.0), "AssertionError"));
}

TEST_CASE("count_nonzero along an axis: int64 counts of true elements, sum's AxisError") {
  Module module = load();
  Array a = Array::from<double>({0, 0.5, not_a_number, 0, 0, 2}, {2, 3});
  Returned down = call(module, "nonzero_along", a, int64_t(0));
  CHECK(down.type == "array(int64, 1d, C)");
  CHECK(down.arrays[0].at<int64_t>(0) == 0);
  CHECK(down.arrays[0].at<int64_t>(1) == 1);
  CHECK(down.arrays[0].at<int64_t>(2) == 2);  // NaN is true
  CHECK(call(module, "nonzero_along", Array::from<int8_t>({1, 0, 3}), int64_t(-1)).values[0].integer == 2);
  CHECK(has(failure(module, "nonzero_along", a, int64_t(2)), "AxisError: axis 2 is out of bounds for array of dimension 2"));
}

TEST_CASE("np.average: the mean, or weighted as Numba types it; 1-D weights broadcast along the last axis") {
  Module module = load();
  Returned ints = call(module, "weighted", Array::from<int32_t>({0, 1, 2, 3, 4, 5}), Array::from<int32_t>({0, 1, 2, 3, 4, 5}));
  CHECK(ints.type == "float64");
  CHECK(ints.values[0].value.real() == doctest::Approx(3.6666666666666665).epsilon(1e-15));
  Returned floats = call(module, "weighted", Array::from<float>({0, 1, 2, 3, 4, 5}), Array::from<float>({0, 1, 2, 3, 4, 5}));
  CHECK(floats.type == "float32");
  Returned rows = call(module, "weighted", Array::from<double>({0, 1, 2, 3, 4, 5}, {2, 3}), Array::from<double>({0, 1, 2}));
  CHECK(rows.values[0].value.real() == doctest::Approx(6.333333333333333).epsilon(1e-15));
  CHECK(has(failure(module, "weighted", Array::from<double>({1, 2}), Array::from<double>({0, 0})),
            "ZeroDivisionError: Weights sum to zero, can't be normalized."));
  CHECK(has(failure(module, "weighted", Array::from<double>({0, 1, 2, 3, 4, 5}, {2, 3}), Array::from<double>({1, 1, 1, 1, 1, 1}, {3, 2})),
            "TypeError: 1D weights expected when shapes of a and weights differ."));
  CHECK(call(module, "plain_average", Array::from<int16_t>({1, 2})).values[0].value.real() == 1.5);
}
