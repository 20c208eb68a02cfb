// np.diag, the window functions (np.hanning, np.hamming, np.blackman, np.bartlett) and dict
// views taken as lists by sorted() and list(), in @jit functions called on the host
// (sema/diag_windows.cpp, sema/dict_lists.cpp). Expected values are Numba 0.68's.
#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

@njit
def diagonals(a, v):
    d0 = np.diag(a)
    d1 = np.diag(a, 1)
    dm = np.diag(a, k=-2)
    far = np.diag(a, 9)
    m = np.diag(v)
    m1 = np.diag(v, -1)
    return d0, d1, dm, far.shape[0], m, m1, np.diag(a.T)

@njit
def windows(m):
    return np.hanning(m), np.hamming(m), np.blackman(m), np.bartlett(m), np.hanning(1), np.hanning(0).shape[0]

@njit
def views(n):
    d = {}
    for i in range(n):
        d[(i * 7) % 5] = i * 0.5
    keys = sorted(d.keys())
    values = sorted(d.values(), reverse=True)
    items = sorted(d.items())
    order = list(d.keys())
    return np.array(keys), np.array(values), items[0][0], items[-1][1], np.array(order)
)py";

Module load() { return test::load_host_module(source, "diag_windows.py", "diag_windows"); }
using test::call;

double number(const Returned& r, size_t k) { return std::get<Scalar>(r.item(k)).value.real(); }
Array array(const Returned& r, size_t k) { return std::get<Array>(r.item(k)); }

}  // namespace

TEST_CASE("np.diag: a 2-d array's k-th diagonal as a new 1-d array, a 1-d array's square matrix") {
  Module module = load();
  std::vector<double> a(12);
  for (int i = 0; i < 12; ++i) a[i] = i;
  Returned r = call(module, "diagonals", Array::from<double>(a, {3, 4}), Array::from<int64_t>({1, 2, 3}));
  std::vector<double> d0 = {0, 5, 10}, d1 = {1, 6, 11};
  for (int64_t i = 0; i < 3; ++i) {
    CHECK(array(r, 0).at<double>(i) == d0[i]);
    CHECK(array(r, 1).at<double>(i) == d1[i]);
    CHECK(array(r, 6).at<double>(i) == d0[i]);  // of a transposed (F-ordered) view
  }
  CHECK(array(r, 2).shape()[0] == 1);
  CHECK(array(r, 2).at<double>(0) == 8);
  CHECK(number(r, 3) == 0);  // past the corner: empty
  Array m = array(r, 4), m1 = array(r, 5);
  CHECK(m.shape()[0] == 3);
  CHECK(m.at<int64_t>(1, 1) == 2);
  CHECK(m.at<int64_t>(0, 1) == 0);
  CHECK(m1.shape()[0] == 4);
  CHECK(m1.at<int64_t>(3, 2) == 3);
  CHECK(m1.at<int64_t>(2, 2) == 0);
}

TEST_CASE("np.hanning, np.hamming, np.blackman and np.bartlett as Numba computes them; M of 1 and 0") {
  Module module = load();
  Returned r = call(module, "windows", int64_t(5));
  std::vector<std::vector<double>> want = {{0, 0.5, 1, 0.5, 0},
                                           {0.08000000000000002, 0.54, 1, 0.54, 0.08000000000000002},
                                           {-1.3877787807814457e-17, 0.34000000000000002, 0.99999999999999989,
                                            0.34000000000000002, -1.3877787807814457e-17},
                                           {0, 0.5, 1, 0.5, 0}};
  for (size_t w = 0; w < want.size(); ++w)
    for (int64_t i = 0; i < 5; ++i)
      CHECK_MESSAGE(std::abs(array(r, w).at<double>(i) - want[w][i]) < 1e-16, "window " << w << " item " << i);
  CHECK(array(r, 4).at<double>(0) == 1.0);
  CHECK(number(r, 5) == 0);
}

TEST_CASE("sorted(d.keys()), sorted(d.values(), reverse=True), sorted(d.items()) and list(d.keys())") {
  Module module = load();
  Returned r = call(module, "views", int64_t(6));
  std::vector<int64_t> keys = {0, 1, 2, 3, 4}, order = {0, 2, 4, 1, 3};
  std::vector<double> values = {2.5, 2.0, 1.5, 1.0, 0.5};
  for (int64_t i = 0; i < 5; ++i) {
    CHECK(array(r, 0).at<int64_t>(i) == keys[i]);
    CHECK(array(r, 1).at<double>(i) == values[i]);
    CHECK(array(r, 4).at<int64_t>(i) == order[i]);
  }
  CHECK(number(r, 2) == 0);
  CHECK(number(r, 3) == 1.0);
}
