// The faster loops of issue 33 (BENCHMARKS.md, "NumPy inside @njit functions"), each checked
// against what Numba returns: x[x > t] with the comparison fused into the selection
// (runtime/pykern/fused_index.cuh), x[idx] checked as it copies (fancy_index.cuh), argsort on
// keys held beside their indices (sorting.cuh), histogram's vector loops (histogram_loops.cuh),
// and N-d copies walked by an odometer (array.cuh each_row). Expected values are NumPy's rules
// computed here, or Numba 0.68.1's results (checksums of its permutations).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

@njit
def above(x, t):
    return x[x > t]

@njit
def above_every_third(x, t):
    v = x[::3]
    return v[v > t]

@njit
def where_other(x, y):
    return x[y > 0.0]

@njit
def rows_where(m):
    return m[m[:, 0] > 0.5]

@njit
def bump_above(x, t):
    x[x > t] += 1.0
    return x

@njit
def gather(x, idx):
    return x[idx]

@njit
def gather_before(x, idx):
    return x[idx - 1]

@njit
def order(x):
    return np.argsort(x)

@njit
def order_stable(x):
    return np.argsort(x, kind='mergesort')

@njit
def order_every_third(x):
    return np.argsort(x[::3])

@njit
def counts(x, bins):
    return np.histogram(x, bins)

@njit
def counts_every_third(x, bins):
    return np.histogram(x[::3], bins)

@njit
def cube_copy(a):
    return a[::2, ::-1, 1:].copy()

@njit
def joined(a, b):
    return np.concatenate((a[:, ::2], b[:, 1:]), axis=1)

@njit
def joined_rows(a, b):
    return np.concatenate((a[::-1], b[1:, ::-1]))

@njit
def shift_rows(a):
    a[1:, :] = a[:-1, :]
    return a

@njit
def flat_of(a):
    return a[:, ::-2].flatten()

@njit
def as_ints(a):
    return a[::2, 1:].astype(np.int32)
)py";

Module& module() {
  static Module loaded = test::load_host_module(source, "fast.py", "fast-paths");
  return loaded;
}

std::vector<double> doubles(const Array& a) {
  std::vector<double> out;
  int64_t n = 1;
  for (int64_t e : a.shape()) n *= e;
  for (int64_t k = 0; k < n; ++k) out.push_back(static_cast<const double*>(a.data())[k]);
  return out;
}

template <class T> std::vector<T> items_of(const Array& a) {
  std::vector<T> out(static_cast<size_t>(a.shape().empty() ? 1 : a.shape()[0]));
  int64_t n = 1;
  for (int64_t e : a.shape()) n *= e;
  out.resize(static_cast<size_t>(n));
  std::memcpy(out.data(), a.data(), out.size() * sizeof(T));
  return out;
}

// Element i of the bench's ramp: a permutation of 0..10006 scaled into [0, 1), repeating.
double ramp(int64_t i) { return static_cast<double>(i * 7919 % 10007) / 10007.0; }

// What Numba's permutation hashes to (the same sum of the indices in order, made from its result).
uint64_t checksum(const std::vector<int64_t>& indices) {
  unsigned __int128 s = 0;
  for (int64_t v : indices) s = (s * 1000003 + static_cast<uint64_t>(v) + 1) % (static_cast<unsigned __int128>(1) << 61);
  return static_cast<uint64_t>(s);
}

}  // namespace

TEST_CASE("x[x > t] fuses the comparison into the selection: the elements where it holds, in order") {
  std::vector<double> x;
  for (int64_t i = 0; i < 2000; ++i) x.push_back(ramp(i) * 2.0 - 1.0);
  x[5] = NAN;  // a NaN compares false: never selected
  auto got = test::call(module(), "above", Array::from(x), 0.25);
  CHECK(got.type == "array(float64, 1d, C)");
  std::vector<double> want;
  for (double v : x)
    if (v > 0.25) want.push_back(v);
  CHECK(doubles(got.arrays[0]) == want);
  auto every_third = test::call(module(), "above_every_third", Array::from(x), 0.25);
  want.clear();
  for (size_t i = 0; i < x.size(); i += 3)
    if (x[i] > 0.25) want.push_back(x[i]);
  CHECK(doubles(every_third.arrays[0]) == want);
  auto none = test::call(module(), "above", Array::from(x), 5.0);
  CHECK(none.arrays[0].shape() == std::vector<int64_t>{0});
  auto empty = test::call(module(), "above", Array::from(std::vector<double>{}), 0.0);
  CHECK(empty.arrays[0].shape() == std::vector<int64_t>{0});
  // The last element selected: the copy stops exactly at the end.
  auto last = test::call(module(), "above", Array::from<double>({0, 0, 0, 1}), 0.5);
  CHECK(doubles(last.arrays[0]) == std::vector<double>{1});
}

TEST_CASE("a fused mask longer than the axis picks from its part; a true past the axis is Numba's IndexError") {
  auto shorter = test::call(module(), "where_other", Array::from<double>({1, 2, 3, 4}), Array::from<double>({-1, 1}));
  CHECK(doubles(shorter.arrays[0]) == std::vector<double>{2});
  auto past_false = test::call(module(), "where_other", Array::from<double>({1, 2}), Array::from<double>({1, 0, -1}));
  CHECK(doubles(past_false.arrays[0]) == std::vector<double>{1});
  std::string message = test::failure(module(), "where_other", Array::from<double>({1, 2}), Array::from<double>({0, 0, 1}));
  CHECK(message.find("fast.py:15: IndexError") != std::string::npos);
  CHECK(message.find("index 2 is out of bounds for axis 0 with size 2") != std::string::npos);
}

TEST_CASE("a fused mask of a 2-d array's rows, and x[x > t] += 1 picking the same elements to read and write") {
  auto rows = test::call(module(), "rows_where", Array::from<double>({0.9, 1, 0.1, 2, 0.7, 3}, {3, 2}));
  CHECK(rows.arrays[0].shape() == std::vector<int64_t>{2, 2});
  CHECK(doubles(rows.arrays[0]) == std::vector<double>{0.9, 1, 0.7, 3});
  Array x = Array::from<double>({0.1, 0.6, 0.4, 0.9});
  auto bumped = test::call(module(), "bump_above", x, 0.5);
  CHECK(doubles(bumped.arrays[0]) == std::vector<double>{0.1, 1.6, 0.4, 1.9});
}

TEST_CASE("x[idx] checks each position as it copies: negative ones wrap, one outside is Numba's IndexError") {
  std::vector<double> x = {10, 11, 12, 13, 14};
  auto got = test::call(module(), "gather", Array::from(x), Array::from<int64_t>({4, -1, 0, -5, 2}));
  CHECK(doubles(got.arrays[0]) == std::vector<double>{14, 14, 10, 10, 12});
  // Positions read through a strided view, of another integer type.
  std::vector<int32_t> positions = {3, 99, 1, 99, -2};
  auto strided = test::call(module(), "gather", Array::from(x), Array::wrap(positions.data(), {3}, {8}));
  CHECK(doubles(strided.arrays[0]) == std::vector<double>{13, 11, 13});
  auto none = test::call(module(), "gather", Array::from(x), Array::from(std::vector<int64_t>{}));
  CHECK(none.arrays[0].shape() == std::vector<int64_t>{0});
  std::string past = test::failure(module(), "gather", Array::from(x), Array::from<int64_t>({0, 1, 5}));
  CHECK(past.find("fast.py:28: IndexError") != std::string::npos);
  CHECK(past.find("index 5 is out of bounds for axis 0 with size 5") != std::string::npos);
  std::string before = test::failure(module(), "gather", Array::from(x), Array::from<int64_t>({-6}));
  CHECK(before.find("index -6 is out of bounds") != std::string::npos);
  // An index computed by an expression is read where it is used: idx - 1 with 0 wraps to the last.
  auto shifted = test::call(module(), "gather_before", Array::from(x), Array::from<int64_t>({0, 1, 5}));
  CHECK(doubles(shifted.arrays[0]) == std::vector<double>{14, 10, 14});
  std::string shifted_past = test::failure(module(), "gather_before", Array::from(x), Array::from<int64_t>({7}));
  CHECK(shifted_past.find("index 6 is out of bounds") != std::string::npos);
}

TEST_CASE("argsort of keys with ties, NaNs and both zeros gives Numba's permutation, quicksort and mergesort") {
  std::vector<double> ties;
  for (int64_t i = 0; i < 5000; ++i) ties.push_back(static_cast<double>(i * 7919 % 10007 % 97) * 0.5);
  // Checksums of Numba 0.68.1's np.argsort on the same arrays.
  CHECK(checksum(items_of<int64_t>(test::call(module(), "order", Array::from(ties)).arrays[0])) == 99977728731670040ull);
  CHECK(checksum(items_of<int64_t>(test::call(module(), "order_stable", Array::from(ties)).arrays[0])) ==
        361567718757019172ull);
  auto every_third = test::call(module(), "order_every_third", Array::from(ties));
  CHECK(every_third.arrays[0].shape() == std::vector<int64_t>{1667});
  CHECK(checksum(items_of<int64_t>(every_third.arrays[0])) == 1986823294759329064ull);
  std::vector<double> nans = ties;
  for (size_t i = 0; i < nans.size(); i += 13) nans[i] = NAN;
  for (size_t i = 5; i < nans.size(); i += 17) nans[i] = -0.0;
  for (size_t i = 6; i < nans.size(); i += 19) nans[i] = 0.0;
  CHECK(checksum(items_of<int64_t>(test::call(module(), "order", Array::from(nans)).arrays[0])) == 1165942131755186776ull);
  CHECK(checksum(items_of<int64_t>(test::call(module(), "order_stable", Array::from(nans)).arrays[0])) ==
        1121460767236981386ull);
  std::vector<int32_t> ints;
  for (int64_t i = 0; i < 5000; ++i) ints.push_back(static_cast<int32_t>(i * 7919 % 10007 % 500 - 250));
  CHECK(checksum(items_of<int64_t>(test::call(module(), "order", Array::from(ints)).arrays[0])) == 590152278824632840ull);
  // Distinct keys take the radix sort: the one sorted order.
  std::vector<double> distinct;
  for (int64_t i = 0; i < 5000; ++i) distinct.push_back(ramp(i));
  std::vector<int64_t> got = items_of<int64_t>(test::call(module(), "order", Array::from(distinct)).arrays[0]);
  bool sorted = true;
  for (size_t k = 1; k < got.size(); ++k) sorted &= distinct[static_cast<size_t>(got[k - 1])] < distinct[static_cast<size_t>(got[k])];
  CHECK(sorted);
}

TEST_CASE("histogram's vector loops count as Numba's: NaNs skipped, the top edge in the last bin, the first zero kept") {
  std::vector<double> y;
  for (int64_t i = 0; i < 1000; ++i) y.push_back(ramp(i));
  y[7] = NAN;
  y[500] = 2.0;
  y[501] = -1.0;
  auto got = test::call(module(), "counts", Array::from(y), int64_t(7));
  CHECK(items_of<int64_t>(got.arrays[0]) == std::vector<int64_t>{1, 0, 286, 424, 287, 0, 1});
  CHECK(doubles(got.arrays[1]).front() == -1.0);
  CHECK(doubles(got.arrays[1]).back() == 2.0);
  auto strided = test::call(module(), "counts_every_third", Array::from(y), int64_t(7));
  CHECK(items_of<int64_t>(strided.arrays[0]) == std::vector<int64_t>{1, 0, 0, 46, 94, 95, 98});
  // The largest element is a zero: Numba's loop keeps the first zero met (-0.0 at 1, not 0.0 at
  // 32, which a vector lane meets first), and it is the last edge.
  std::vector<double> z;
  for (int64_t i = 0; i < 100; ++i) z.push_back(-0.25 - static_cast<double>(i * 37 % 101) / 101.0);
  z[1] = -0.0;
  z[32] = 0.0;
  auto top = test::call(module(), "counts", Array::from(z), int64_t(4));
  CHECK(items_of<int64_t>(top.arrays[0]) == std::vector<int64_t>{31, 30, 30, 9});
  CHECK(std::signbit(doubles(top.arrays[1]).back()));
  z[1] = 0.0;
  z[32] = -0.0;
  auto positive = test::call(module(), "counts", Array::from(z), int64_t(4));
  CHECK_FALSE(std::signbit(doubles(positive.arrays[1]).back()));
}

TEST_CASE("N-d copies of strided views: .copy(), concatenate, a shifted assignment, flatten and astype") {
  std::vector<double> cube;
  for (int k = 0; k < 60; ++k) cube.push_back(k);  // (3, 4, 5): element (i, j, k) is 20 i + 5 j + k
  auto copied = test::call(module(), "cube_copy", Array::from(cube, {3, 4, 5}));
  CHECK(copied.arrays[0].shape() == std::vector<int64_t>{2, 4, 4});
  std::vector<double> want;
  for (int i = 0; i < 3; i += 2)
    for (int j = 3; j >= 0; --j)
      for (int k = 1; k < 5; ++k) want.push_back(20 * i + 5 * j + k);
  CHECK(doubles(copied.arrays[0]) == want);

  std::vector<double> a, b;  // a (3, 4): 10 i + j; b (3, 3): 100 + 10 i + j
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) a.push_back(10 * i + j);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) b.push_back(100 + 10 * i + j);
  auto side = test::call(module(), "joined", Array::from(a, {3, 4}), Array::from(b, {3, 3}));
  CHECK(side.arrays[0].shape() == std::vector<int64_t>{3, 4});
  CHECK(doubles(side.arrays[0]) == std::vector<double>{0, 2, 101, 102, 10, 12, 111, 112, 20, 22, 121, 122});
  auto stacked = test::call(module(), "joined_rows", Array::from(b, {3, 3}), Array::from(b, {3, 3}));
  CHECK(stacked.arrays[0].shape() == std::vector<int64_t>{5, 3});
  CHECK(doubles(stacked.arrays[0]) ==
        std::vector<double>{120, 121, 122, 110, 111, 112, 100, 101, 102, 112, 111, 110, 122, 121, 120});
}

TEST_CASE("a[1:, :] = a[:-1, :] copies the rows last first, so each is read before it is overwritten") {
  std::vector<double> a;
  for (int k = 0; k < 12; ++k) a.push_back(k);
  Array m = Array::from(a, {4, 3});
  auto got = test::call(module(), "shift_rows", m);
  CHECK(doubles(got.arrays[0]) == std::vector<double>{0, 1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8});
  auto flat = test::call(module(), "flat_of", Array::from(a, {3, 4}));
  CHECK(doubles(flat.arrays[0]) == std::vector<double>{3, 1, 7, 5, 11, 9});
  std::vector<double> halves;
  for (int k = 0; k < 12; ++k) halves.push_back(k + 0.5);
  auto ints = test::call(module(), "as_ints", Array::from(halves, {4, 3}));
  CHECK(ints.arrays[0].shape() == std::vector<int64_t>{2, 2});
  CHECK(items_of<int32_t>(ints.arrays[0]) == std::vector<int32_t>{1, 2, 7, 8});
}
