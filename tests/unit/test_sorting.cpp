// NumPy's sorting, searching and counting in @jit functions called on the host
// (sema/builtins_sorting.cpp, runtime/pykern/sorting.cuh): Numba's result types, its quicksort's
// order of equal keys, NaNs last, searchsorted's sides, histogram's edges, and its errors at the
// call's line. Expected values are Numba 0.68.1's.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <vector>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/compiler.h"
#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

@njit
def sorted_copy(a):
    return np.sort(a)

@njit
def sort_here(a):
    a.sort()

@njit
def sort_stable(a):
    a.sort(kind="mergesort")

@njit
def order(a):
    return np.argsort(a)

@njit
def order_stable(a):
    return a.argsort(kind='stable')

@njit
def find_left(a, v):
    return np.searchsorted(a, v)

@njit
def find_right(a, v):
    return np.searchsorted(a, v, side="right")

@njit
def distinct(a):
    return np.unique(a)

@njit
def counts(x):
    return np.bincount(x)

@njit
def weighted(x, w, n):
    return np.bincount(x, w, minlength=n)

@njit
def hist(a, n):
    return np.histogram(a, n)

@njit
def hist_range(a, n, lo, hi):
    return np.histogram(a, bins=n, range=(lo, hi))

@njit
def hist_edges(a, edges):
    return np.histogram(a, edges)

@njit
def bin_of(x, bins, right):
    return np.digitize(x, bins, right)

@njit
def where_true(a):
    return np.nonzero(a)

@njit
def flat_true(a):
    return np.flatnonzero(a)

@njit
def where_rows(a):
    return np.argwhere(a)
)py";

Module load() { return test::load_host_module(source, "order.py", "sorting"); }

template <class... A> Returned run(Module& module, const char* name, A&&... args) {
  return test::call(module, name, std::forward<A>(args)...);
}
using test::failure;
// The elements in C order.
template <class T> std::vector<T> items(const Array& a) {
  Array c = a.copy();
  const T* data = static_cast<const T*>(c.data());
  return std::vector<T>(data, data + c.size());
}

const double not_a_number = std::nan("");

}  // namespace

TEST_CASE("np.sort: a sorted copy, NaNs last, -0.0 and 0.0 left as Numba's quicksort leaves them") {
  Module module = load();
  std::vector<double> zeros;
  for (int i = 0; i < 10; ++i) zeros.push_back(0.0), zeros.push_back(-0.0);
  zeros.push_back(1.0), zeros.push_back(not_a_number), zeros.push_back(-1.0);
  Returned sorted = run(module, "sorted_copy", Array::from<double>(zeros));
  CHECK(sorted.type == "array(float64, 1d, C)");
  std::vector<double> got = items<double>(sorted.arrays[0]);
  CHECK(got[0] == -1.0);
  // Numba: -1.0, -0.0, 0.0, -0.0, 0.0, ... 1.0, nan
  for (int i = 1; i <= 20; ++i) CHECK(std::signbit(got[i]) == (i % 2 == 1));
  CHECK(got[21] == 1.0);
  CHECK(std::isnan(got[22]));
  // 2-d: each row along the last axis, into a C array whatever the argument's layout.
  Array m = Array::from<int32_t>({3, 1, 2, 0, -1, 5}, {2, 3});
  Returned rows = run(module, "sorted_copy", m);
  CHECK(rows.type == "array(int32, 2d, C)");
  CHECK(items<int32_t>(rows.arrays[0]) == std::vector<int32_t>{1, 2, 3, -1, 0, 5});
  Returned columns = run(module, "sorted_copy", m.transpose());  // [[3, 0], [1, -1], [2, 5]]
  CHECK(items<int32_t>(columns.arrays[0]) == std::vector<int32_t>{0, 3, -1, 1, 2, 5});
}

TEST_CASE("a.sort() sorts in place, a strided view too; kind='mergesort' is stable") {
  Module module = load();
  std::vector<double> data = {5, 0, 4, 0, 3, 0, 2, 0, 1, 0};
  Array strided = Array::wrap(data.data(), {5}, {16});
  run(module, "sort_here", strided);
  CHECK(data == std::vector<double>{1, 0, 2, 0, 3, 0, 4, 0, 5, 0});
  std::vector<double> big;
  for (int i = 0; i < 100; ++i) big.push_back((i * 37) % 100);
  Array a = Array::wrap(big.data(), {100}, {8});
  run(module, "sort_stable", a);
  for (int i = 0; i < 100; ++i) CHECK(big[i] == i);
}

TEST_CASE("np.argsort orders equal keys as Numba's quicksort does; mergesort keeps them in place") {
  Module module = load();
  Array ties = Array::from<int64_t>({3, 1, 2, 3, 1, 2, 3, 1, 2, 0, 0, 3, 1, 2, 3, 1, 2, 3, 1, 2, 0, 0, 5, 4, 3});
  Returned quick = run(module, "order", ties);
  CHECK(quick.type == "array(int64, 1d, C)");
  CHECK(items<int64_t>(quick.arrays[0]) == std::vector<int64_t>{21, 20, 9, 10, 12, 1, 15, 4, 7, 18, 13, 8, 16,
                                                                 5, 2, 19, 17, 0, 24, 11, 6, 3, 14, 23, 22});
  Returned stable = run(module, "order_stable", ties);
  CHECK(items<int64_t>(stable.arrays[0]) == std::vector<int64_t>{9, 10, 20, 21, 1, 4, 7, 12, 15, 18, 2, 5, 8,
                                                                  13, 16, 19, 0, 3, 6, 11, 14, 17, 24, 23, 22});
  Returned nans = run(module, "order", Array::from<double>({3, not_a_number, 1, 2, not_a_number, -0.0, 0.0}));
  CHECK(items<int64_t>(nans.arrays[0]) == std::vector<int64_t>{5, 6, 2, 3, 0, 1, 4});
  CHECK(run(module, "order", Array::from<double>({}, {0})).arrays[0].size() == 0);
}

TEST_CASE("np.searchsorted: int64 for a number, an array of the keys' shape, both sides, NaN last") {
  Module module = load();
  Array a = Array::from<double>({1, 2, 2, 3, not_a_number});
  Returned one = run(module, "find_left", a, 2.5);
  CHECK(one.type == "int64");
  CHECK(one.values[0].integer == 3);
  CHECK(run(module, "find_left", a, not_a_number).values[0].integer == 4);
  Array keys = Array::from<double>({2, not_a_number, 0, 5, 2});
  CHECK(items<int64_t>(run(module, "find_left", a, keys).arrays[0]) == std::vector<int64_t>{1, 4, 0, 4, 1});
  CHECK(items<int64_t>(run(module, "find_right", a, keys).arrays[0]) == std::vector<int64_t>{3, 5, 0, 4, 3});
  // An unsorted array: Numba's narrowed searches, not a plain bisection's answers.
  Array unsorted = Array::from<double>({5, 1, 4, 2, 3});
  CHECK(items<int64_t>(run(module, "find_left", unsorted, Array::from<double>({3, 1, 4, 0.5, 2})).arrays[0]) ==
        std::vector<int64_t>{2, 0, 2, 0, 2});
  // Mixed types compare as Numba compares them: int64 for narrow integers of both signs,
  // float64 for int64 against uint64 or a float.
  CHECK(run(module, "find_left", Array::from<uint32_t>({1, 2, 3}), int32_t(-1)).values[0].integer == 0);
  CHECK(run(module, "find_left", Array::from<uint64_t>({1, 2, 3}), int64_t(-1)).values[0].integer == 0);
  CHECK(run(module, "find_left", Array::from<int64_t>({1, 2, 3}), 2.5f).values[0].integer == 2);
  Array big = Array::from<int64_t>({int64_t(1) << 53, (int64_t(1) << 53) + 1, (int64_t(1) << 53) + 2});
  CHECK(run(module, "find_left", big, 9007199254740993.0).values[0].integer == 0);
  Returned grid = run(module, "find_right", Array::from<int64_t>({1, 2, 3}), Array::from<int32_t>({0, 1, 2, 3}, {2, 2}));
  CHECK(grid.type == "array(int64, 2d, C)");
  CHECK(items<int64_t>(grid.arrays[0]) == std::vector<int64_t>{0, 1, 2, 3});
}

TEST_CASE("np.unique flattens, sorts and keeps one NaN; np.bincount counts and sums weights") {
  Module module = load();
  Returned u = run(module, "distinct", Array::from<int16_t>({3, 1, 1, 2}, {2, 2}));
  CHECK(u.type == "array(int16, 1d, C)");
  CHECK(items<int16_t>(u.arrays[0]) == std::vector<int16_t>{1, 2, 3});
  std::vector<double> d = items<double>(run(module, "distinct", Array::from<double>({not_a_number, 1, not_a_number, 0})).arrays[0]);
  REQUIRE(d.size() == 3);
  CHECK(std::isnan(d[2]));
  Returned c = run(module, "counts", Array::from<int32_t>({1, 3, 1}));
  CHECK(c.type == "array(int64, 1d, C)");
  CHECK(items<int64_t>(c.arrays[0]) == std::vector<int64_t>{0, 2, 0, 1});
  Returned w = run(module, "weighted", Array::from<int64_t>({1, 3, 1}), Array::from<int32_t>({1, 2, 3}), int64_t(6));
  CHECK(w.type == "array(float64, 1d, C)");
  CHECK(items<double>(w.arrays[0]) == std::vector<double>{0, 4, 0, 2, 0, 0});
  CHECK(run(module, "counts", Array::from<int64_t>({}, {0})).arrays[0].size() == 0);
}

TEST_CASE("np.histogram: evenly spaced edges with the last bin closed, or the given edges by bisection") {
  Module module = load();
  std::vector<double> ten;
  for (int i = 0; i < 10; ++i) ten.push_back(i);
  Returned h = run(module, "hist", Array::from<double>(ten), int64_t(4));
  CHECK(h.type == "Tuple(array(int64, 1d, C), array(float64, 1d, C))");
  CHECK(items<int64_t>(h.arrays[0]) == std::vector<int64_t>{3, 2, 2, 3});
  CHECK(items<double>(h.arrays[1]) == std::vector<double>{0, 2.25, 4.5, 6.75, 9});
  Returned r = run(module, "hist_range", Array::from<double>(ten), int64_t(3), int64_t(0), int64_t(9));
  CHECK(items<int64_t>(r.arrays[0]) == std::vector<int64_t>{3, 3, 4});
  Returned nan = run(module, "hist", Array::from<double>({1, not_a_number}), int64_t(3));
  CHECK(items<int64_t>(nan.arrays[0]) == std::vector<int64_t>{0, 0, 0});
  CHECK(items<double>(nan.arrays[1]) == std::vector<double>{1, 1, 1, 1});
  Returned e = run(module, "hist_edges", Array::from<double>(ten), Array::from<int64_t>({0, 2, 5, 9}));
  CHECK(e.type == "UniTuple(array(int64, 1d, C) x 2)");
  CHECK(items<int64_t>(e.arrays[0]) == std::vector<int64_t>{2, 3, 5});
  CHECK(items<int64_t>(e.arrays[1]) == std::vector<int64_t>{0, 2, 5, 9});
}

TEST_CASE("np.digitize: increasing and decreasing bins, right=, a number or an array") {
  Module module = load();
  Array x = Array::from<double>({0.5, 1, 2.5, 10});
  CHECK(items<int64_t>(run(module, "bin_of", x, Array::from<double>({1, 2, 3}), false).arrays[0]) ==
        std::vector<int64_t>{0, 1, 2, 3});
  CHECK(items<int64_t>(run(module, "bin_of", x, Array::from<double>({1, 2, 3}), true).arrays[0]) ==
        std::vector<int64_t>{0, 0, 2, 3});
  CHECK(items<int64_t>(run(module, "bin_of", x, Array::from<double>({3, 2, 1}), false).arrays[0]) ==
        std::vector<int64_t>{3, 2, 1, 0});
  CHECK(run(module, "bin_of", 2.5, Array::from<double>({1, 2, 3}), false).values[0].integer == 2);
}

TEST_CASE("np.nonzero, np.flatnonzero and np.argwhere: int64 indices in C order") {
  Module module = load();
  Array m = Array::from<int64_t>({0, 1, 2, 0}, {2, 2});
  Returned nz = run(module, "where_true", m);
  CHECK(nz.type == "UniTuple(array(int64, 1d, C) x 2)");
  CHECK(items<int64_t>(nz.arrays[0]) == std::vector<int64_t>{0, 1});
  CHECK(items<int64_t>(nz.arrays[1]) == std::vector<int64_t>{1, 0});
  CHECK(items<int64_t>(run(module, "flat_true", m.transpose()).arrays[0]) == std::vector<int64_t>{1, 2});
  Returned rows = run(module, "where_rows", m);
  CHECK(rows.type == "array(int64, 2d, A)");
  CHECK(items<int64_t>(rows.arrays[0]) == std::vector<int64_t>{0, 1, 1, 0});
}

TEST_CASE("Numba's run-time errors at the call's line: bincount, histogram, digitize") {
  Module module = load();
  CHECK(failure(module, "counts", Array::from<int64_t>({1, -3, 1}))
            .find("order.py:38: ValueError: bincount(): first argument must be non-negative") != std::string::npos);
  CHECK(failure(module, "weighted", Array::from<int64_t>({1}), Array::from<double>({1, 2}), int64_t(0))
            .find("ValueError: bincount(): weights and list don't have the same length") != std::string::npos);
  CHECK(failure(module, "weighted", Array::from<int64_t>({1}), Array::from<double>({1}), int64_t(-1))
            .find("ValueError: 'minlength' must not be negative") != std::string::npos);
  CHECK(failure(module, "hist", Array::from<double>({}, {0}), int64_t(3))
            .find("ValueError: histogram(): max must be larger than min in range parameter") != std::string::npos);
  CHECK(failure(module, "hist", Array::from<double>({1, 2}), int64_t(0))
            .find("ValueError: histogram(): `bins` should be a positive integer") != std::string::npos);
  CHECK(failure(module, "hist_edges", Array::from<double>({1}), Array::from<double>({0, 2, 1}))
            .find("ValueError: histogram(): bins must increase monotonically") != std::string::npos);
  CHECK(failure(module, "bin_of", Array::from<double>({1}), Array::from<double>({1, 3, 2}), false)
            .find("ValueError: bins must be monotonically increasing or decreasing") != std::string::npos);
}

TEST_CASE("large arrays take the radix path only where its result is Numba's: zeros of both signs, tied argsort keys") {
  Module module = load();
  // -0.0 beside 0.0: Numba's quicksort decides where each zero goes; the radix sort must step aside.
  std::vector<double> zeros(1000);
  for (int i = 0; i < 1000; ++i) zeros[i] = i % 3 == 0 ? 0.0 : i % 3 == 1 ? -0.0 : double(i % 7) - 3.0;
  std::vector<double> sorted = items<double>(run(module, "sorted_copy", Array::from<double>(zeros)).arrays[0]);
  int64_t negative_zero_positions = 0, negative = 0;
  for (int i = 0; i < 1000; ++i) {
    negative += std::signbit(sorted[i]) ? 1 : 0;
    if (sorted[i] == 0 && std::signbit(sorted[i])) negative_zero_positions += i;
  }
  CHECK(negative == 476);
  CHECK(negative_zero_positions == 165981);
  // Distinct keys and two NaNs: one order, the NaNs last in index order.
  std::vector<double> distinct(2000);
  for (int i = 0; i < 2000; ++i) distinct[i] = double((int64_t(i) * 7919) % 10007);
  distinct[5] = distinct[17] = not_a_number;
  std::vector<int64_t> order = items<int64_t>(run(module, "order", Array::from<double>(distinct)).arrays[0]);
  CHECK(std::vector<int64_t>(order.begin(), order.begin() + 5) == std::vector<int64_t>{0, 1687, 647, 1294, 254});
  CHECK(std::vector<int64_t>(order.end() - 3, order.end()) == std::vector<int64_t>{1040, 5, 17});
  // Thirteen keys over 2000 elements: Numba's quicksort order of the ties.
  std::vector<int64_t> tied(2000);
  for (int i = 0; i < 2000; ++i) tied[i] = (int64_t(i) * 7919) % 13;
  std::vector<int64_t> quick = items<int64_t>(run(module, "order", Array::from<int64_t>(tied)).arrays[0]);
  CHECK(std::vector<int64_t>(quick.begin(), quick.begin() + 8) ==
        std::vector<int64_t>{1625, 494, 1638, 481, 468, 1651, 455, 1664});
  CHECK(std::vector<int64_t>(quick.end() - 4, quick.end()) == std::vector<int64_t>{1423, 1826, 994, 1254});
}
