// Tuples, lists and exceptions in @jit functions on the host (issue 34): literal_unroll over a
// tuple of several types (sema/unroll.cpp), sort and sorted with a key (sema/key_sort.cpp),
// list slice assignment and deletion (sema/list_slices.cpp, runtime/pykern/list_slices.cuh),
// and `except builtins.Exception:`. Expected values are Numba 0.68's (CPython's where Numba
// fails to compile the form: del l[a:b], l[1:] = l).
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(import builtins
import numpy as np
from numba import cuda, njit, literal_unroll

@cuda.jit
def unrolled_kernel(out, scale):
    i = cuda.grid(1)
    if i < out.shape[0]:
        acc = 0.0
        for x in literal_unroll((1, True, 2.5, scale)):
            y = x * 2
            if y > 4:
                break
            acc += y
        out[i] = acc + i

@njit
def array_stats(a, b, c):
    arrays = (a, b, c)
    total = 0.0
    count = 0
    largest = 0
    for arr in literal_unroll(arrays):
        s = arr.sum()            # int64 for the int array, float32/float64 for the others
        total += s
        count += arr.size
        if arr.ndim > largest:
            largest = arr.ndim
    return total, count, largest

@njit
def scalars_until(limit):
    t = (1, 2.5, True, 4, 7.25, 3)
    acc = 0.0
    seen = 0
    for x in literal_unroll(t):
        seen += 1
        if x > limit:
            break
        if x == 1:
            continue
        acc += x * 2
    return acc, seen

@njit
def weigh(t):
    out = 0.0
    for field in literal_unroll(t):
        doubled = field + field
        out += doubled
    return out

@njit
def record_weight(n):
    return weigh((n, 0.5, np.int32(3), True))

@njit
def mixed_with_arrays(n):
    t = (np.arange(n), (1, 2), np.ones(2))
    acc = 0.0
    for item in literal_unroll(t):
        for v in item:
            acc += v
    return acc

@njit
def magnitude(v):
    return abs(v)

@njit
def by_key(i):
    return i[1]

@njit
def rank(n):
    pts = [(i, (i * 7) % 5 - 0.5 * i) for i in range(n)]
    best = sorted(pts, key=by_key, reverse=True)
    worst = sorted(pts, key=by_key)
    scores = [3.5, -1.0, 2.0, 7.25, 0.0]
    scores.sort(key=magnitude)
    neg = lambda v: -v
    ordered = sorted([4, 1, 3, 2], key=neg)
    return best[0][0], best[-1][0], worst[0][0], scores[0], scores[-1], ordered[0], ordered[3]

@njit
def rank_lambda(n):
    words = [(3, 1.0), (1, 2.0), (2, 0.5)]
    words.sort(key=lambda w: w[1], reverse=True)
    s = sorted(range(n), key=lambda k: (k % 3, -k))
    return words[0][0], words[2][0], s[0], s[1], s[-1]

@njit
def edit_list(n):
    l = list(range(n))
    l[1:3] = [10, 11, 12]
    l[::2] = [0] * len(l[::2])
    l[-2:] = [7]
    l[:0] = [5, 5]
    return len(l), l[0], l[2], l[3], l[4], l[-1], sum(l)

@njit
def deletions(n):
    l = list(range(n))
    del l[1:3]
    del l[::2]
    m = list(range(n))
    del m[::-3]
    k = list(range(n))
    k[1:] = k
    f = [0.5, 1.5]
    f[1:1] = [7, 8]
    return len(l), l[0], l[-1], len(m), m[0], m[1], len(k), k[1], k[-1], f[1], f[3]

@njit
def wrong_size(n):
    l = list(range(n))
    l[::2] = [1, 2]
    return len(l)

@njit
def zero_step(n, s):
    l = list(range(n))
    return len(l[::s])

@njit
def zero_step_store(n, s):
    l = list(range(n))
    l[::s] = [1]
    return len(l)

@njit
def zero_step_delete(n, s):
    l = list(range(n))
    del l[::s]
    return len(l)

@njit
def catch_builtin(x):
    try:
        r = 10 // x
    except builtins.Exception:
        r = -1
    return r
)py";

Module load() { return test::load_host_module(source, "sequences.py", "sequences"); }
using test::call;
using test::failure;

double number(const Returned& r, size_t k) { return std::get<Scalar>(r.item(k)).value.real(); }

void check_all(const Returned& r, const std::vector<double>& want) {
  for (size_t k = 0; k < want.size(); ++k) CHECK_MESSAGE(number(r, k) == want[k], "item " << k);
}

}  // namespace

TEST_CASE("literal_unroll over a tuple of arrays of different dtypes and ndims types the body per array") {
  Module module = load();
  std::vector<double> a = {0, 1, 2, 3};
  std::vector<int64_t> b = {0, 1, 2, 3, 4, 5};
  std::vector<float> c(5, 1.0f);
  Returned r = call(module, "array_stats", Array::from<double>(a), Array::from<int64_t>(b, {2, 3}),
                    Array::from<float>(c));
  check_all(r, {26.0, 15, 2});
}

TEST_CASE("literal_unroll is found however it was imported: through numba renamed, or renamed itself") {
  Module module = test::load_host_module(R"py(import numba as nb
from numba import njit
from numba import literal_unroll as lu

@njit
def through_module(scale):
    acc = 0.0
    for x in nb.literal_unroll((1, 2.5, True)):
        acc += x * scale
    return acc

@njit
def through_alias(scale):
    acc = 0.0
    for x in lu((2, 0.5)):
        acc += x * scale
    return acc
)py", "unroll_imports.py", "unroll-imports");
  check_all(call(module, "through_module", 2.0), {9.0});
  check_all(call(module, "through_alias", 2.0), {5.0});
}

TEST_CASE("literal_unroll over mixed scalars: break and continue leave or go on with the one loop") {
  Module module = load();
  check_all(call(module, "scalars_until", 5.0), {13.0, 5});
  check_all(call(module, "scalars_until", 100.0), {33.5, 6});
}

TEST_CASE("literal_unroll over a tuple parameter of mixed types, and over scalars, arrays and tuples") {
  Module module = load();
  CHECK(number(call(module, "record_weight", int64_t(2)), 0) == 13.0);
  CHECK(number(call(module, "mixed_with_arrays", int64_t(4)), 0) == 11.0);
}

TEST_CASE("literal_unroll over a tuple of several types in a kernel, as numba-cuda versions it") {
  Module module = load();
  Array out = Array::zeros(DType::float_(64), {8});
  auto status = module.kernel("unrolled_kernel")->launch({1}, {8}, out, int64_t(3));
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
  for (int i = 0; i < 8; ++i) CHECK(out.at<double>(i) == 4.0 + i);  // 1 -> 2, True -> 2, 2.5 -> 5.0 breaks
}

TEST_CASE("sorted and sort with an @njit key or a lambda, reverse, as Numba orders them") {
  Module module = load();
  check_all(call(module, "rank", int64_t(9)), {2, 8, 8, 0.0, 7.25, 4, 1});
  check_all(call(module, "rank_lambda", int64_t(7)), {1, 2, 6, 3, 2});
}

TEST_CASE("list slice assignment grows, shrinks and fills extended slices; del of slices") {
  Module module = load();
  check_all(call(module, "edit_list", int64_t(8)), {10, 5, 0, 10, 0, 7, 43});
  // l = [0, 3, 4, 5, 6, 7, 8, 9] -> del l[::2] -> [3, 5, 7, 9]; m: del m[::-3] of range(10) drops 9, 6, 3, 0
  check_all(call(module, "deletions", int64_t(10)), {4, 3, 9, 6, 1, 2, 11, 0, 9, 7.0, 1.5});
}

TEST_CASE("a wrong-sized extended slice and a slice step of zero are ValueErrors") {
  Module module = load();
  CHECK(failure(module, "wrong_size", int64_t(5)).find("ValueError: cannot resize extended list slice with step != 1") !=
        std::string::npos);
  for (const char* name : {"zero_step", "zero_step_store", "zero_step_delete"})
    CHECK_MESSAGE(failure(module, name, int64_t(5), int64_t(0)).find("ValueError: slice step cannot be zero") !=
                      std::string::npos,
                  name);
}

TEST_CASE("except builtins.Exception: catches as except Exception: does") {
  Module module = load();
  CHECK(number(call(module, "catch_builtin", int64_t(0)), 0) == -1);
  CHECK(number(call(module, "catch_builtin", int64_t(3)), 0) == 3);
}
