// Advanced indexing in @jit functions on the host (sema/fancy_index.cpp,
// runtime/pykern/fancy_index.cuh), with Numba 0.68's results and types: a 1-D mask or integer
// positions on one axis beside integers and slices, stores through them, and Ellipsis.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <variant>

#include "host_module.h"
#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

@njit
def by_mask(a, m):
    return a[m]

@njit
def rows_by_mask(a, m):
    return a[m, :], a[:, m[:a.shape[1]]]

@njit
def by_index(a, idx):
    return a[idx]

@njit
def index_forms(a, idx, i):
    return a[idx, i], a[i, idx]

@njit
def index_first(a, idx):
    return a[1, :, idx]

@njit
def mask_in_place(a, m):
    return a[1, :, m]

@njit
def set_mask(a, m, v):
    a[m] = v
    return a

@njit
def set_mask_array(a, m, v):
    a[m] = v
    return a

@njit
def set_index_rows(a, idx, v):
    a[idx] = v
    return a

@njit
def shift_by_index(a, idx):
    a[idx] = a[::-1]
    return a

@njit
def ellipsis_forms(a):
    a[..., 0] = 9.0
    a[1, ...] = 4.0
    return a[..., 1], a[0, ...], a[()]

@njit
def dots_then_index(a, idx):
    return a[..., idx]

@njit
def fill_all(a, v):
    a[...] = v
    return a
)py";

Module load() { return test::load_host_module(source, "fancy.py", "fancy-index"); }

std::string message(const Result<Returned>& r) { return r.ok() ? "(ok)" : r.error().describe(); }

Array mask(std::vector<int> bits) {
  Array m = Array::zeros(DType::boolean(), {static_cast<int64_t>(bits.size())});
  for (size_t k = 0; k < bits.size(); ++k) m.at<bool>(static_cast<int64_t>(k)) = bits[k] != 0;
  return m;
}

Array matrix(int64_t rows, int64_t cols) {  // element (i, j) is 10 i + j
  std::vector<double> values;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) values.push_back(10.0 * i + j);
  return Array::from(values, {rows, cols});
}

std::vector<double> items(const Array& a) {
  std::vector<double> out;
  int64_t n = 1;
  for (int64_t e : a.shape()) n *= e;
  for (int64_t k = 0; k < n; ++k) out.push_back(static_cast<const double*>(a.data())[k]);
  return out;
}

}  // namespace

TEST_CASE("a[mask] of a 1-D array is a new C array of the elements where the mask is true") {
  Module module = load();
  Array a = Array::from<double>({1, 2, 3, 4, 5});
  auto got = module.function("by_mask")->call(a, mask({1, 0, 1, 1, 0}));
  REQUIRE_MESSAGE(got.ok(), message(got));
  CHECK(got->type == "array(float64, 1d, C)");
  CHECK(items(got->arrays[0]) == std::vector<double>{1, 3, 4});
  CHECK(got->arrays[0].data() != a.data());
  // A mask shorter than the axis picks from its part, as Numba reads it; none true is empty.
  auto short_mask = module.function("by_mask")->call(a, mask({0, 1}));
  REQUIRE_MESSAGE(short_mask.ok(), message(short_mask));
  CHECK(items(short_mask->arrays[0]) == std::vector<double>{2});
  auto none = module.function("by_mask")->call(a, mask({0, 0, 0, 0, 0}));
  REQUIRE_MESSAGE(none.ok(), message(none));
  CHECK(none->arrays[0].shape() == std::vector<int64_t>{0});
}

TEST_CASE("a mask with a true past the axis is Numba's IndexError, not a read outside the array") {
  Module module = load();
  auto got = module.function("by_mask")->call(Array::from<double>({1, 2}), mask({0, 0, 1}));
  REQUIRE_FALSE(got.ok());
  CHECK(got.error().message.find("fancy.py:6: IndexError") != std::string::npos);
}

TEST_CASE("a 1-D mask picks rows with a[m, :] and columns with a[:, m]") {
  Module module = load();
  auto got = module.function("rows_by_mask")->call(matrix(3, 3), mask({1, 0, 1}));
  REQUIRE_MESSAGE(got.ok(), message(got));
  CHECK(got->type == "UniTuple(array(float64, 2d, C) x 2)");
  CHECK(got->arrays[0].shape() == std::vector<int64_t>{2, 3});
  CHECK(items(got->arrays[0]) == std::vector<double>{0, 1, 2, 20, 21, 22});
  CHECK(items(got->arrays[1]) == std::vector<double>{0, 2, 10, 12, 20, 22});
}

TEST_CASE("a[idx] gathers by integer positions: negative ones wrap, any integer type, out of range is IndexError") {
  Module module = load();
  Array a = Array::from<double>({1, 2, 3, 4, 5});
  auto got = module.function("by_index")->call(a, Array::from<int64_t>({4, -1, 0, 0}));
  REQUIRE_MESSAGE(got.ok(), message(got));
  CHECK(items(got->arrays[0]) == std::vector<double>{5, 5, 1, 1});
  auto narrow = module.function("by_index")->call(a, Array::from<uint8_t>({2, 1}));
  REQUIRE_MESSAGE(narrow.ok(), message(narrow));
  CHECK(items(narrow->arrays[0]) == std::vector<double>{3, 2});
  auto rows = module.function("by_index")->call(matrix(3, 2), Array::from<int32_t>({2, -3}));
  REQUIRE_MESSAGE(rows.ok(), message(rows));
  CHECK(rows->arrays[0].shape() == std::vector<int64_t>{2, 2});
  CHECK(items(rows->arrays[0]) == std::vector<double>{20, 21, 0, 1});
  auto past = module.function("by_index")->call(a, Array::from<int64_t>({0, 5}));
  REQUIRE_FALSE(past.ok());
  CHECK(past.error().message.find("fancy.py:14: IndexError") != std::string::npos);
  auto before = module.function("by_index")->call(a, Array::from<int64_t>({-6}));
  REQUIRE_FALSE(before.ok());
  CHECK(before.error().message.find("IndexError") != std::string::npos);
}

TEST_CASE("a[idx, j] and a[i, idx] pick along one axis with the other fixed") {
  Module module = load();
  auto got = module.function("index_forms")->call(matrix(3, 4), Array::from<int64_t>({0, 2, -1}), int64_t(1));
  REQUIRE_MESSAGE(got.ok(), message(got));
  CHECK(items(got->arrays[0]) == std::vector<double>{1, 21, 21});
  CHECK(items(got->arrays[1]) == std::vector<double>{10, 12, 13});
}

TEST_CASE("integer positions split from an integer by a slice move first (NumPy's rule); a mask keeps its place") {
  Module module = load();
  std::vector<double> cube;
  for (int k = 0; k < 24; ++k) cube.push_back(k);
  Array a = Array::from(cube, {2, 3, 4});
  auto first = module.function("index_first")->call(a, Array::from<int64_t>({0, 3}));
  REQUIRE_MESSAGE(first.ok(), message(first));
  CHECK(first->arrays[0].shape() == std::vector<int64_t>{2, 3});
  CHECK(items(first->arrays[0]) == std::vector<double>{12, 16, 20, 15, 19, 23});
  auto kept = module.function("mask_in_place")->call(a, mask({1, 0, 0, 1}));
  REQUIRE_MESSAGE(kept.ok(), message(kept));
  CHECK(kept->arrays[0].shape() == std::vector<int64_t>{3, 2});
  CHECK(items(kept->arrays[0]) == std::vector<double>{12, 15, 16, 19, 20, 23});
}

TEST_CASE("a[mask] = scalar and a[mask] = array store in place; a count that does not fit is Numba's ValueError") {
  Module module = load();
  Array a = Array::from<double>({1, 2, 3, 4, 5});
  auto got = module.function("set_mask")->call(a, mask({1, 0, 1, 0, 1}), 7.0);
  REQUIRE_MESSAGE(got.ok(), message(got));
  CHECK(items(a) == std::vector<double>{7, 2, 7, 4, 7});
  auto arrays = module.function("set_mask_array")
                    ->call(a, mask({0, 1, 0, 1, 0}), Array::from<double>({-1, -2}));
  REQUIRE_MESSAGE(arrays.ok(), message(arrays));
  CHECK(items(a) == std::vector<double>{7, -1, 7, -2, 7});
  auto one = module.function("set_mask_array")->call(a, mask({1, 1, 0, 0, 0}), Array::from<double>({0.5}));
  REQUIRE_MESSAGE(one.ok(), message(one));
  CHECK(items(a) == std::vector<double>{0.5, 0.5, 7, -2, 7});
  auto wrong = module.function("set_mask_array")->call(a, mask({1, 1, 1, 0, 0}), Array::from<double>({1, 2}));
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message.find("ValueError: cannot assign slice of shape (3,) from input of shape (2,)") !=
        std::string::npos);
}

TEST_CASE("a[idx] = rows broadcasts a row into every picked row; a source overlapping the array is read first") {
  Module module = load();
  Array a = matrix(3, 2);
  auto got = module.function("set_index_rows")->call(a, Array::from<int64_t>({0, -1}), Array::from<double>({5, 6}));
  REQUIRE_MESSAGE(got.ok(), message(got));
  CHECK(items(a) == std::vector<double>{5, 6, 10, 11, 5, 6});
  Array b = Array::from<double>({1, 2, 3, 4});
  auto shifted = module.function("shift_by_index")->call(b, Array::from<int64_t>({0, 1, 2, 3}));
  REQUIRE_MESSAGE(shifted.ok(), message(shifted));
  CHECK(items(b) == std::vector<double>{4, 3, 2, 1});
}

TEST_CASE("Ellipsis stands for the axes not named: reads are views, stores fill them") {
  Module module = load();
  Array a = matrix(2, 3);
  auto got = module.function("ellipsis_forms")->call(a);
  REQUIRE_MESSAGE(got.ok(), message(got));
  CHECK(items(a) == std::vector<double>{9, 1, 2, 4, 4, 4});
  CHECK(got->type == "Tuple(array(float64, 1d, A), array(float64, 1d, C), array(float64, 2d, C))");
  CHECK(got->arrays[2].data() == a.data());
  auto picked = module.function("dots_then_index")->call(matrix(2, 3), Array::from<int64_t>({0, 2}));
  REQUIRE_MESSAGE(picked.ok(), message(picked));
  CHECK(picked->type == "array(float64, 2d, C)");
  CHECK(items(picked->arrays[0]) == std::vector<double>{0, 2, 10, 12});
  auto filled = module.function("fill_all")->call(a, 2.5);
  REQUIRE_MESSAGE(filled.ok(), message(filled));
  CHECK(items(a) == std::vector<double>{2.5, 2.5, 2.5, 2.5, 2.5, 2.5});
}
