// NumPy's whole-array reductions in @jit functions called on the host (sema/builtins_reductions.cpp,
// runtime/pykern/reductions.cuh): Numba's result types, its order of summation, NaN rules,
// empty-array errors and median selection. Expected values are Numba 0.68.1's.
#include <unistd.h>

#include <cmath>
#include <complex>
#include <filesystem>
#include <limits>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include "pykern/compiler.h"
#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

@njit
def total(a):
    return np.sum(a)

@njit
def product(a):
    return a.prod()

@njit
def average(a):
    return a.mean()

@njit
def nan_average(a):
    return np.nanmean(a)

@njit
def variance(a):
    return np.var(a)

@njit
def smallest(a):
    return np.min(a)

@njit
def where_max(a):
    return a.argmax()

@njit
def where_min(a):
    return np.argmin(a)

@njit
def middle(a):
    return np.median(a)

@njit
def nan_smallest(a):
    return np.nanmin(a)

@njit
def truths(a):
    return np.all(a), a.any(), np.count_nonzero(a)

@njit
def of_numbers(x, b):
    return np.sum(x), np.prod(x), np.mean(x), np.min(x), np.amax(x), np.all(b), np.any(x)
)py";

Module load() {
  ModuleOptions options;
  options.cache_dir = (std::filesystem::temp_directory_path() / ("pykern-reductions-" + std::to_string(::getpid()))).string();
  auto module = Module::load_source(source, "stats.py", options);
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  return *module;
}

// The one value a call returns, with its Numba type.
struct Got {
  std::string type;
  Scalar scalar;
  double real() const { return scalar.value.real(); }
  int64_t integer() const { return scalar.integer; }
  std::complex<double> complex() const { return scalar.value; }
};
template <class... A> Got call(Module& module, const char* name, A&&... args) {
  auto returned = module.function(name)->call(std::forward<A>(args)...);
  REQUIRE_MESSAGE(returned.ok(), (returned.ok() ? std::string() : returned.error().describe()));
  REQUIRE(returned->values.size() == 1);
  return {returned->type, returned->values[0]};
}
// The message of a call that fails.
template <class... A> std::string failure(Module& module, const char* name, A&&... args) {
  auto returned = module.function(name)->call(std::forward<A>(args)...);
  REQUIRE_FALSE(returned.ok());
  return returned.error().message;
}

const double not_a_number = std::nan("");

}  // namespace

TEST_CASE("reductions give Numba's result types: NumPy's accumulators, float64 means of integers") {
  Module module = load();
  CHECK(call(module, "total", Array::from<int32_t>({1, 2, 3})).type == "int64");
  CHECK(call(module, "total", Array::from<uint8_t>({200, 100})).type == "uint64");
  CHECK(call(module, "total", Array::from<uint8_t>({200, 100})).integer() == 300);  // no wrap at 255
  CHECK(call(module, "total", Array::from<bool>({true, true, false})).type == "int64");
  CHECK(call(module, "total", Array::from<float>({1.5f, 2})).type == "float32");
  CHECK(call(module, "product", Array::from<int8_t>({100, 100, 3})).integer() == 30000);
  CHECK(call(module, "product", Array::from<int8_t>({1})).type == "int64");
  CHECK(call(module, "average", Array::from<int16_t>({1, 2})).type == "float64");
  CHECK(call(module, "average", Array::from<int16_t>({1, 2})).real() == 1.5);
  CHECK(call(module, "average", Array::from<float>({1, 2})).type == "float32");
  CHECK(call(module, "nan_average", Array::from<float>({1, 2})).type == "float64");
  CHECK(call(module, "variance", Array::from<float>({1, 2})).type == "float64");
  CHECK(call(module, "variance", Array::from<float>({1, 2})).real() == 0.25);
  CHECK(call(module, "smallest", Array::from<uint8_t>({7, 3, 9})).type == "uint8");
  CHECK(call(module, "where_min", Array::from<double>({3, 1, 2})).type == "int64");
  CHECK(call(module, "middle", Array::from<float>({1, 2})).type == "float64");
  auto truths = module.function("truths")->call(Array::from<double>({0.0, not_a_number, 2.0}));
  REQUIRE(truths.ok());
  CHECK(truths->values[0].value.real() == 0);  // 0.0 is false
  CHECK(truths->values[1].value.real() == 1);
  CHECK(truths->values[2].integer == 2);  // NaN is true
}

TEST_CASE("a sum runs in Numba's order: memory order for an F array, C order for any other view") {
  Module module = load();
  // [[1e16, 1], [-1e16, 1]] transposed: C order would add 1e16 - 1e16 + 1 + 1 = 2; memory order
  // loses the first 1 in 1e16 + 1, as Numba's sum does, and gives 1.
  Array c = Array::from<double>({1e16, 1.0, -1e16, 1.0}, {2, 2});
  CHECK(call(module, "total", c.transpose()).real() == 1.0);
  // A 3-D view, reversed on one axis and stepped on another (layout A): Numba's value.
  std::vector<double> data(24);
  for (int i = 0; i < 24; ++i) data[i] = i * 0.1;
  Array view = Array::wrap(data.data() + 8, {2, 3, 2}, {96, -32, 16});
  CHECK(call(module, "total", view).real() == 13.200000000000001);
  // argmax counts in C order whatever the layout: the transposed array's 1e16 is at [0, 0].
  CHECK(call(module, "where_max", c.transpose()).integer() == 0);
  CHECK(call(module, "where_min", c.transpose()).integer() == 1);
}

TEST_CASE("NaN: min propagates it, argmin/argmax find the first, nanmin skips it, median selects as Numba") {
  Module module = load();
  CHECK(std::isnan(call(module, "smallest", Array::from<double>({1, not_a_number, -5})).real()));
  CHECK(call(module, "where_min", Array::from<double>({3, not_a_number, 0, not_a_number})).integer() == 1);
  CHECK(call(module, "where_max", Array::from<double>({3, 4, not_a_number})).integer() == 2);
  CHECK(call(module, "nan_smallest", Array::from<double>({not_a_number, 2, 1})).real() == 1.0);
  CHECK(std::isnan(call(module, "nan_smallest", Array::from<double>({not_a_number, not_a_number})).real()));
  CHECK(std::isnan(call(module, "middle", Array::from<double>({3, not_a_number, 1, 2})).real()));
  CHECK(call(module, "middle", Array::from<double>({not_a_number, 1, 2})).real() == 2.0);
  CHECK(call(module, "middle", Array::from<double>({1, 2, not_a_number})).real() == 2.0);
  CHECK(call(module, "middle", Array::from<int64_t>({5, 1, 4, 2, 3})).real() == 3.0);
  CHECK(call(module, "middle", Array::from<int8_t>({1, 2, 3, 4})).real() == 2.5);
  CHECK(std::isnan(call(module, "nan_average", Array::from<double>({not_a_number})).real()));
}

TEST_CASE("empty arrays: Numba's ValueError and ZeroDivisionError, NaN means, zero sums") {
  Module module = load();
  Array empty = Array::from<double>({}, {0});
  CHECK(failure(module, "smallest", empty).find("stats.py:26: ValueError: zero-size array to reduction operation "
                                                "minimum which has no identity") != std::string::npos);
  CHECK(failure(module, "where_max", empty).find("ValueError: attempt to get argmax of an empty sequence") !=
        std::string::npos);
  CHECK(failure(module, "where_min", empty).find("ValueError: attempt to get argmin of an empty sequence") !=
        std::string::npos);
  CHECK(failure(module, "variance", empty).find("ZeroDivisionError: division by zero") != std::string::npos);
  CHECK(failure(module, "nan_smallest", empty).find("ValueError: zero-size array to reduction operation not possible") !=
        std::string::npos);
  CHECK(std::isnan(call(module, "average", empty).real()));
  CHECK(std::isnan(call(module, "middle", empty).real()));
  CHECK(call(module, "total", empty).real() == 0.0);
  CHECK(call(module, "product", empty).real() == 1.0);
}

TEST_CASE("complex arrays sum and average as complex numbers; a complex argmin is refused, as in Numba") {
  Module module = load();
  auto z = Array::from<std::complex<double>>({{1, 2}, {3, -1}});
  Got sum = call(module, "total", z);
  CHECK(sum.type == "complex128");
  CHECK(sum.complex() == std::complex<double>(4, 1));
  CHECK(call(module, "average", z).complex() == std::complex<double>(2, 0.5));
  auto refused = module.function("where_min")->call(z);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().describe().find("np.argmin() of a 'array(complex128, 1d, C)' is not supported") !=
        std::string::npos);
}

TEST_CASE("reductions of a number give the number, typed as the array form's result, as Numba's overloads do") {
  Module module = load();
  auto ints = module.function("of_numbers")->call(int32_t(3), 0.0);
  REQUIRE_MESSAGE(ints.ok(), (ints.ok() ? std::string() : ints.error().describe()));
  CHECK(ints->type == "Tuple(int64, int64, float64, int32, int32, bool, bool)");
  CHECK(ints->values[2].value.real() == 3.0);
  CHECK(ints->values[5].integer == 0);
  CHECK(ints->values[6].integer == 1);
  auto floats = module.function("of_numbers")->call(2.5f, true);
  REQUIRE(floats.ok());
  CHECK(floats->type == "Tuple(float32, float32, float32, float32, float32, bool, bool)");
}

namespace {

// Numba's min/max/argmin/argmax loops (numba/np/arraymath.py) over elements in their order: the
// first NaN, else the first element that no later one beats (a strict compare).
template <class T> struct Extremes {
  T min, max;
  int64_t argmin, argmax;
};
template <class T> bool is_nan_value(T v) { return v != v; }
template <class T> Extremes<T> numba_extremes(const std::vector<T>& in_order, const std::vector<T>& in_c_order) {
  auto extreme = [](const std::vector<T>& v, bool max) {
    T best = v[0];
    for (T x : v) {
      if (is_nan_value(x)) return x;
      if (max ? x > best : x < best) best = x;
    }
    return best;
  };
  auto arg = [](const std::vector<T>& v, bool max) {
    int64_t best = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      if (is_nan_value(v[i])) return static_cast<int64_t>(i);
      if (max ? v[i] > v[best] : v[i] < v[best]) best = static_cast<int64_t>(i);
    }
    return best;
  };
  return {extreme(in_order, false), extreme(in_order, true), arg(in_c_order, false), arg(in_c_order, true)};
}

// The same value, bit for bit where the type has bits that compare equal (a zero's sign).
template <class T> bool same_value(T expected, const Scalar& got) {
  double g = got.value.real();
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(expected)) return std::isnan(g);
    return g == static_cast<double>(expected) && std::signbit(g) == std::signbit(expected);
  } else {
    return got.integer == static_cast<int64_t>(expected) || got.unsigned_integer == static_cast<uint64_t>(expected);
  }
}

// Arrays of n elements from a small set of values (many ties, signed zeros), NaNs at `nans`.
template <class T> std::vector<T> tie_heavy(size_t n, unsigned seed, std::vector<size_t> nans) {
  std::vector<T> v(n);
  unsigned state = seed * 2654435761u + 1;
  for (size_t i = 0; i < n; ++i) {
    state = state * 1103515245u + 12345u;
    int pick = static_cast<int>((state >> 16) % 7);
    if constexpr (std::is_floating_point_v<T>) {
      // Seed 1: the minimum is a zero, seed 2: the maximum is; which one is first is the answer.
      const T values[] = {T(0), T(-0.0), T(1.5), seed % 3 == 1 ? T(2) : T(-2.25), seed % 3 == 2 ? T(-1) : T(3),
                          T(-0.0), T(0)};
      v[i] = values[pick];
    } else {
      v[i] = static_cast<T>(pick * 37 - 100);  // wraps for unsigned types: large values too
    }
  }
  if constexpr (std::is_floating_point_v<T>)
    for (size_t at : nans)
      if (at < n) v[at] = std::numeric_limits<T>::quiet_NaN();
  return v;
}

template <class T> void check_extremes(Module& module, const std::vector<T>& values) {
  size_t n = values.size();
  // As a C array, and as the transpose of a (2, n/2) C array: an F array whose min/max walk
  // memory order (Numba's nditer) and whose argmin/argmax count in C order.
  std::vector<std::pair<Array, std::vector<T>>> views;  // the view, its elements in C order
  views.push_back({Array::from<T>(values), values});
  if (n % 2 == 0) {
    Array f = Array::from<T>(values, {2, static_cast<int64_t>(n / 2)}).transpose();
    std::vector<T> c_order;
    for (size_t i = 0; i < n / 2; ++i)
      for (size_t j = 0; j < 2; ++j) c_order.push_back(values[j * (n / 2) + i]);
    views.push_back({f, c_order});
  }
  for (size_t k = 0; k < views.size(); ++k) {
    Extremes<T> want = numba_extremes<T>(values, views[k].second);  // memory order is nditer's for both
    auto got = module.function("extremes")->call(views[k].first);
    REQUIRE_MESSAGE(got.ok(), (got.ok() ? std::string() : got.error().describe()));
    INFO("n ", n, k ? ", F array" : ", C array");
    CHECK(same_value(want.min, got->values[0]));
    CHECK(same_value(want.max, got->values[1]));
    CHECK(got->values[2].integer == want.argmin);
    CHECK(got->values[3].integer == want.argmax);
  }
}
template <class T> void check_extremes(Module& module, size_t n, unsigned seed, std::vector<size_t> nans) {
  INFO("seed ", seed, ", NaN at ", nans.empty() ? -1 : static_cast<int64_t>(nans[0]));
  check_extremes<T>(module, tie_heavy<T>(n, seed, nans));
}

}  // namespace

TEST_CASE("min, max, argmin and argmax of contiguous arrays (vectorised) give Numba's element: first NaN, first of equals, a zero's sign") {
  ModuleOptions options;
  options.cache_dir = (std::filesystem::temp_directory_path() / ("pykern-reductions-" + std::to_string(::getpid()))).string();
  auto module = Module::load_source(R"py(import numpy as np
from numba import njit

@njit
def extremes(a):
    return np.min(a), a.max(), np.argmin(a), a.argmax()
)py", "extremes.py", options);
  REQUIRE(module.ok());
  // Sizes around the edges of a vector (8 float64 with AVX-512) and of a group of 8 vectors
  // between NaN tests (64 float64, 128 float32, 512 int8).
  for (size_t n : {1, 2, 8, 9, 63, 64, 65, 127, 128, 129, 300, 511, 512, 513, 1000, 4098}) {
    for (unsigned seed = 0; seed < 3; ++seed) {
      check_extremes<double>(*module, n, seed, {});
      check_extremes<float>(*module, n, seed, {});
      check_extremes<int8_t>(*module, n, seed, {});
      check_extremes<uint64_t>(*module, n, seed, {});
    }
    // A NaN first, in a vector group, in the scalar tail, and two NaNs (the first is the one).
    for (size_t at : {size_t(0), n / 3, n - 1}) check_extremes<double>(*module, n, 7, {at});
    check_extremes<float>(*module, n, 8, {n / 2, n / 4});
  }
  // The extreme is a zero, -0.0 met first (index 8) and +0.0 later (index 32): the vector lanes
  // meet +0.0 first, and the first in order must still win.
  for (double zero : {-0.0, 0.0}) {
    std::vector<double> mins(200, 1.5), maxes(200, -1.5);
    mins[8] = maxes[8] = zero;
    mins[32] = maxes[32] = -zero;
    check_extremes<double>(*module, mins);
    check_extremes<double>(*module, maxes);
  }
}
