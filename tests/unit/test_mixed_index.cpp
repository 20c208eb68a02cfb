// Index arrays mixed with integers and slices in one subscript, in @jit functions on the host,
// with Numba 0.68's results (sema/fancy_index.cpp, sema/fancy_mixed.cpp,
// runtime/pykern/fancy_mixed.cuh): a[idx, :], a[:, idx], a[i, idx], a[mask, 1:3], a[idx, ::2]
// and stores through them; two or more index arrays beside slices and integers (b[idx, :, cols]
// moves the picked axis first, b[:, idx, cols] keeps it in place); a mask beside another index
// array refused as Numba cannot compile it; the gather's fast path (blocks checked once) and
// np.concatenate's contiguous pieces.
#include <doctest/doctest.h>

#include <vector>

#include "host_module.h"
#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

@njit
def rows_and_columns(a, idx, mask):
    return a[idx, :], a[:, idx], a[1, idx], a[mask, 1:3], a[idx, ::2]

@njit
def store_columns(a, idx, rows):
    a[:, idx] = 0.0
    a[idx, :] = rows
    return a

@njit
def picked_first(b, rows, cols):
    return b[rows, :, cols]

@njit
def picked_in_place(b, rows, cols):
    return b[:, rows, cols]

@njit
def with_integer(b, rows, cols):
    return b[1, rows, cols], b[rows, 1, cols], b[rows, 1:3, cols]

@njit
def store_mixed(b, rows, cols, v):
    b[rows, :, cols] = v
    return b

@njit
def add_mixed(b, rows, cols):
    b[:, rows, cols] += 100.0
    return b

@njit
def gather(x, idx):
    return x[idx]

@njit
def halves(x):
    h = x.shape[0] // 2
    return np.concatenate((x[h:], x[:h]))

@njit
def shift_left(x):
    x[:-1] = x[1:]
    return x
)py";

Module load() { return test::load_host_module(source, "mixed.py", "mixed-index"); }

Array mask(std::vector<int> bits) {
  Array m = Array::zeros(DType::boolean(), {static_cast<int64_t>(bits.size())});
  for (size_t k = 0; k < bits.size(); ++k) m.at<bool>(static_cast<int64_t>(k)) = bits[k] != 0;
  return m;
}

Array counting(std::vector<int64_t> shape) {  // 0, 1, 2, ... in C order
  int64_t n = 1;
  for (int64_t e : shape) n *= e;
  std::vector<double> values;
  for (int64_t k = 0; k < n; ++k) values.push_back(static_cast<double>(k));
  return Array::from(values, shape);
}

std::vector<double> items(const Array& a) {
  std::vector<double> out;
  int64_t n = 1;
  for (int64_t e : a.shape()) n *= e;
  for (int64_t k = 0; k < n; ++k) out.push_back(static_cast<const double*>(a.data())[k]);
  return out;
}

}  // namespace

TEST_CASE("one index array beside slices and integers: a[idx, :], a[:, idx], a[i, idx], a[mask, 1:3], a[idx, ::2]") {
  Module module = load();
  auto got = test::call(module, "rows_and_columns", counting({4, 6}), Array::from<int64_t>({2, 0, -1}),
                        mask({1, 0, 1, 1}));
  CHECK(got.type == "Tuple(array(float64, 2d, C), array(float64, 2d, C), array(float64, 1d, C), "
                    "array(float64, 2d, C), array(float64, 2d, C))");
  CHECK(got.arrays[0].shape() == std::vector<int64_t>{3, 6});
  CHECK(items(got.arrays[0]) == std::vector<double>{12, 13, 14, 15, 16, 17, 0, 1, 2, 3, 4, 5, 18, 19, 20, 21, 22, 23});
  CHECK(got.arrays[1].shape() == std::vector<int64_t>{4, 3});
  CHECK(items(got.arrays[1]) == std::vector<double>{2, 0, 5, 8, 6, 11, 14, 12, 17, 20, 18, 23});
  CHECK(items(got.arrays[2]) == std::vector<double>{8, 6, 11});
  CHECK(items(got.arrays[3]) == std::vector<double>{1, 2, 13, 14, 19, 20});
  CHECK(items(got.arrays[4]) == std::vector<double>{12, 14, 16, 0, 2, 4, 18, 20, 22});
}

TEST_CASE("a[:, idx] = 0.0 and a[idx, :] = rows store in place; rows of another shape are Numba's ValueError") {
  Module module = load();
  Array rows = Array::from<double>({-1, -2, -3, -4, -5, -6}, {1, 6});
  auto got = test::call(module, "store_columns", counting({3, 6}), Array::from<int64_t>({-1, 1}), rows);
  CHECK(items(got.arrays[0]) == std::vector<double>{0, 0, 2, 3, 4, 0, -1, -2, -3, -4, -5, -6, -1, -2, -3, -4, -5, -6});
  std::string wrong = test::failure(module, "store_columns", counting({3, 6}), Array::from<int64_t>({0, 1}),
                                    counting({3, 6}));
  CHECK(wrong.find("ValueError: cannot assign slice of shape (2, 6) from input of shape (3, 6)") != std::string::npos);
}

TEST_CASE("index arrays split by a slice put their axis first; side by side they keep its place") {
  Module module = load();
  Array rows = Array::from<int64_t>({2, 0, -1}), cols = Array::from<int64_t>({1, 1, 0});
  auto first = test::call(module, "picked_first", counting({3, 4, 5}), rows, cols);
  CHECK(first.type == "array(float64, 2d, C)");
  CHECK(first.arrays[0].shape() == std::vector<int64_t>{3, 4});  // Numba: (3, 4), b[2, :, 1] first
  CHECK(items(first.arrays[0]) == std::vector<double>{41, 46, 51, 56, 1, 6, 11, 16, 40, 45, 50, 55});
  auto kept = test::call(module, "picked_in_place", counting({3, 4, 5}), rows, cols);
  CHECK(kept.arrays[0].shape() == std::vector<int64_t>{3, 3});
  CHECK(items(kept.arrays[0]) == std::vector<double>{11, 1, 15, 31, 21, 35, 51, 41, 55});
}

TEST_CASE("an integer in the run of index arrays stays with them; one beyond a slice sends them first") {
  Module module = load();
  auto got = test::call(module, "with_integer", counting({3, 4, 5}), Array::from<int64_t>({2, 0, -1}),
                        Array::from<int32_t>({1, 1, 0}));
  CHECK(items(got.arrays[0]) == std::vector<double>{31, 21, 35});
  CHECK(items(got.arrays[1]) == std::vector<double>{46, 6, 45});
  CHECK(got.arrays[2].shape() == std::vector<int64_t>{3, 2});
  CHECK(items(got.arrays[2]) == std::vector<double>{46, 51, 6, 11, 45, 50});
}

TEST_CASE("b[rows, :, cols] = v: a number, a broadcast array, Numba's ValueError for a shape that does not fit") {
  Module module = load();
  Array rows = Array::from<int64_t>({0, 2}), cols = Array::from<int64_t>({4, -5});
  auto number = test::call(module, "store_mixed", counting({3, 2, 5}), rows, cols, -1.0);
  std::vector<double> want = items(counting({3, 2, 5}));
  for (int64_t j = 0; j < 2; ++j) want[0 * 10 + j * 5 + 4] = -1, want[2 * 10 + j * 5 + 0] = -1;
  CHECK(items(number.arrays[0]) == want);
  auto block = test::call(module, "store_mixed", counting({3, 2, 5}), rows, cols, Array::from<double>({7, 8}));
  for (int64_t j = 0; j < 2; ++j) want[0 * 10 + j * 5 + 4] = 7 + j, want[2 * 10 + j * 5 + 0] = 7 + j;
  CHECK(items(block.arrays[0]) == want);
  std::string wrong =
      test::failure(module, "store_mixed", counting({3, 2, 5}), rows, cols, Array::from<double>({1, 2, 3}));
  CHECK(wrong.find("ValueError: cannot assign slice of shape (2, 2) from input of shape (3,)") != std::string::npos);
}

TEST_CASE("b[:, rows, cols] += v reads and writes the same elements; a position out of range is an IndexError") {
  Module module = load();
  auto got = test::call(module, "add_mixed", counting({2, 3, 4}), Array::from<int64_t>({0, -1}),
                        Array::from<int64_t>({3, 3}));
  std::vector<double> want = items(counting({2, 3, 4}));
  for (int64_t i = 0; i < 2; ++i) want[i * 12 + 0 * 4 + 3] += 100, want[i * 12 + 2 * 4 + 3] += 100;
  CHECK(items(got.arrays[0]) == want);
  std::string past = test::failure(module, "picked_first", counting({3, 4, 5}), Array::from<int64_t>({0, 1}),
                                   Array::from<int64_t>({0, 5}));
  CHECK(past.find("mixed.py:16: IndexError: index 5 is out of bounds for axis 2 with size 5") != std::string::npos);
  std::string lengths = test::failure(module, "picked_first", counting({3, 4, 5}), Array::from<int64_t>({0, 1}),
                                      Array::from<int64_t>({0, 1, 2}));
  CHECK(lengths.find("ValueError: shape mismatch: objects cannot be broadcast to a single shape") != std::string::npos);
}

TEST_CASE("x[idx] on contiguous arrays: blocks of positions checked once, the first bad one reported") {
  Module module = load();
  const int64_t n = 10000;
  std::vector<double> x(n);
  std::vector<int64_t> idx(n);
  for (int64_t k = 0; k < n; ++k) x[k] = static_cast<double>(k), idx[k] = (k % 3 == 0) ? -1 - k : k;
  auto got = test::call(module, "gather", Array::from(x, {n}), Array::from(idx, {n}));
  std::vector<double> values = items(got.arrays[0]);
  REQUIRE(values.size() == static_cast<size_t>(n));
  CHECK(values[0] == n - 1);
  CHECK(values[3] == n - 4);
  CHECK(values[9998] == 9998);
  CHECK(values[9999] == n - 1 - 9999);
  // Past the first block, and two bad positions in one block: the first is the one reported.
  idx[6000] = n;
  idx[6001] = -n - 1;
  std::string past = test::failure(module, "gather", Array::from(x, {n}), Array::from(idx, {n}));
  CHECK(past.find("IndexError: index 10000 is out of bounds for axis 0 with size 10000") != std::string::npos);
  idx[6000] = 0;
  std::string before = test::failure(module, "gather", Array::from(x, {n}), Array::from(idx, {n}));
  CHECK(before.find("IndexError: index -10001 is out of bounds") != std::string::npos);
  // Unsigned positions never wrap; an empty axis takes no position.
  auto small = test::call(module, "gather", Array::from<double>({1, 2, 3}), Array::from<uint64_t>({2, 0}));
  CHECK(items(small.arrays[0]) == std::vector<double>{3, 1});
  std::string huge = test::failure(module, "gather", Array::from<double>({1, 2, 3}),
                                   Array::from<uint64_t>({18446744073709551615ULL}));
  CHECK(huge.find("IndexError") != std::string::npos);
  std::string empty = test::failure(module, "gather", Array::from<double>({}), Array::from<int64_t>({0}));
  CHECK(empty.find("IndexError: index 0 is out of bounds for axis 0 with size 0") != std::string::npos);
}

TEST_CASE("np.concatenate of contiguous pieces and an overlapping forward copy keep every element") {
  Module module = load();
  auto got = test::call(module, "halves", counting({9}));
  CHECK(items(got.arrays[0]) == std::vector<double>{4, 5, 6, 7, 8, 0, 1, 2, 3});
  auto shifted = test::call(module, "shift_left", counting({6}));
  CHECK(items(shifted.arrays[0]) == std::vector<double>{1, 2, 3, 4, 5, 5});
}
