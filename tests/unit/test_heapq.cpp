// heapq on a list in @jit functions called on the host (sema/heapq.cpp,
// runtime/pykern/heapq.cuh): heappush/heappop on a list of (float, int) tuples, heapify,
// heapreplace, heappushpop, heaps of strings, and Numba's IndexErrors. Expected values are
// Numba 0.68's.
#include <cmath>
#include <vector>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(import heapq
from heapq import heappush, heappop
import numpy as np
from numba import njit

@njit
def drain(values):
    heap = [(values[0], 0)]
    for i in range(1, values.shape[0]):
        heappush(heap, (values[i], i))
    out_v = np.empty(values.shape[0])
    out_i = np.empty(values.shape[0], dtype=np.int64)
    k = 0
    while heap:
        v, i = heappop(heap)
        out_v[k] = v
        out_i[k] = i
        k += 1
    return out_v, out_i

@njit
def replace_and_pushpop(n):
    h = [5, 3, 8, 1, 9, 2, 7, 7, 0, 4]
    heapq.heapify(h)
    first = heapq.heapreplace(h, 6)
    below = heapq.heappushpop(h, -1)
    above = heapq.heappushpop(h, 10)
    order = np.empty(len(h), dtype=np.int64)
    for k in range(len(h)):
        order[k] = h[k]
    return first, below, above, order

@njit
def ties(n):
    # equal keys: the tuples' next items order them
    heap = [(1.0, 0)]
    for i in range(1, n):
        heapq.heappush(heap, (float(i % 3), i))
    first = np.empty(n, dtype=np.int64)
    for k in range(n):
        first[k] = heapq.heappop(heap)[1]
    return first

@njit
def strings(n):
    h = ["pear", "apple", "fig"]
    heapq.heapify(h)
    heapq.heappush(h, "banana")
    return heapq.heappop(h) == "apple", heapq.heappop(h) == "banana", len(h)

@njit
def pop_empty(n):
    h = [1.0]
    heapq.heappop(h)
    return heapq.heappop(h)

@njit
def replace_empty(n):
    h = [1.0]
    h.pop()
    return heapq.heapreplace(h, 2.0)
)py";

Module load() { return test::load_host_module(source, "heaps.py", "heapq"); }
using test::call;
using test::failure;

double number(const Returned& r, size_t k) { return std::get<Scalar>(r.item(k)).value.real(); }

}  // namespace

TEST_CASE("heappush and heappop on a list of (float, int) tuples drain it in order, NaN as Numba places it") {
  Module module = load();
  std::vector<double> values = {3.0, 1.0, 2.0, 1.0, NAN, 0.5};
  Returned r = call(module, "drain", Array::from<double>(values));
  Array v = std::get<Array>(r.item(0));
  Array i = std::get<Array>(r.item(1));
  std::vector<double> want_v = {0.5, 1, 1, 2, 3};
  std::vector<int64_t> want_i = {5, 1, 3, 2, 0, 4};
  for (size_t k = 0; k < want_v.size(); ++k) CHECK_MESSAGE(v.at<double>(k) == want_v[k], "item " << k);
  CHECK(std::isnan(v.at<double>(5)));
  for (size_t k = 0; k < want_i.size(); ++k) CHECK_MESSAGE(i.at<int64_t>(k) == want_i[k], "item " << k);
}

TEST_CASE("heapify, heapreplace and heappushpop leave the heap laid out as CPython's sift steps do") {
  Module module = load();
  Returned r = call(module, "replace_and_pushpop", int64_t(0));
  CHECK(number(r, 0) == 0);
  CHECK(number(r, 1) == -1);
  CHECK(number(r, 2) == 1);
  Array order = std::get<Array>(r.item(3));
  std::vector<int64_t> want = {2, 3, 7, 5, 4, 8, 10, 7, 6, 9};
  for (size_t k = 0; k < want.size(); ++k) CHECK_MESSAGE(order.at<int64_t>(k) == want[k], "item " << k);
}

TEST_CASE("heaps of tuples with equal keys and heaps of strings") {
  Module module = load();
  Array first = std::get<Array>(call(module, "ties", int64_t(12)).item(0));
  std::vector<int64_t> want = {3, 6, 9, 0, 1, 4, 7, 10, 2, 5, 8, 11};
  for (size_t k = 0; k < want.size(); ++k) CHECK_MESSAGE(first.at<int64_t>(k) == want[k], "item " << k);
  Returned s = call(module, "strings", int64_t(0));
  CHECK(number(s, 0) == 1);
  CHECK(number(s, 1) == 1);
  CHECK(number(s, 2) == 2);
}

TEST_CASE("heappop and heapreplace of an empty heap raise Numba's IndexErrors") {
  Module module = load();
  CHECK(failure(module, "pop_empty", int64_t(0)).find("IndexError: pop from empty list") != std::string::npos);
  CHECK(failure(module, "replace_empty", int64_t(0)).find("IndexError: getitem out of range") != std::string::npos);
}
