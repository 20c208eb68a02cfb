// None and Optional values in @jit functions, as Numba 0.68 types them: branches on an argument
// that is None (given or left to its default) pruned before typing (sema/branch_pruning.cpp, as
// numba/core/analysis.py dead_branch_prune), both arms typed for an argument of another type,
// functions returning Optional(T), and the TypeError an Optional holding None raises where its
// value is used. Expected values and types are Numba's.
#include <doctest/doctest.h>

#include "host_module.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit


@njit
def clipped_sum(x, lo=None, hi=None):
    if lo is None:
        lo = 0.0
    if hi is None:
        hi = np.inf
    s = 0.0
    for v in x:
        if lo <= v <= hi:
            s += v
    return s


@njit
def default_or_given(lo=None):
    if lo is None:
        lo = 0.5
    return lo


@njit
def local_unified(x):
    n = x.shape[0]
    if n is None:
        n = 0.5
    return n


@njit
def call_defaults(x):
    return clipped_sum(x), clipped_sum(x, None, 2.0), clipped_sum(x, 1.0), default_or_given(), default_or_given(None)


@njit
def forms(a=None, b=None):
    r = 0
    if a is None and b is None:
        r += 1
    if None is a:
        r += 10
    if a == None:
        r += 100
    if not (a is not None):
        r += 1000
    if a != None or b is not None:
        r += 10000
    else:
        r += 20000
    k = 7 if b is None else b + 0.5
    return r, k


@njit
def forms_given(x, y):
    r0, k0 = forms(x, y)
    r1, k1 = forms(None, y)
    r2, k2 = forms(x)
    r3, k3 = forms()
    return r0, k0, r1, k1, r2, k2, r3, k3


@njit
def untyped_arm(a=None):
    if a is not None:
        return a.sum()
    else:
        return -1.0


@njit
def find(x, v):
    for i in range(x.shape[0]):
        if x[i] == v:
            return i
    return None


@njit
def use_found(x, v):
    r = find(x, v)
    if r is None:
        return -1
    return r * 2


@njit
def use_unchecked(x, v):
    r = find(x, v)
    return r * 2


@njit
def loop_optional(x, lo=None):
    s = 0.0
    for v in x:
        if lo is None:
            lo = v
        if lo <= v:
            s += v
    return s


@njit
def inner(lo, v):
    if lo is None:
        return v
    return max(lo, v)


@njit
def pass_optional(x, v):
    return inner(find(x, v), 7)


@njit
def optional_tuple(x, v):
    t = (find(x, v), 1)
    if t[0] is None:
        return -t[1]
    return t[0] + t[1]
)py";

Module load() { return test::load_host_module(source, "opt.py", "optional"); }

Array samples() { return Array::from<double>({0.5, 1.5, 2.5, 3.5, -1.0}); }

double real(const Returned& r, size_t k) { return r.values.at(k).value.real(); }

}  // namespace

TEST_CASE("a None argument, left out or passed, prunes `if lo is None:` before typing: lo stays a float64") {
  Module module = load();
  Returned r = test::call(module, "call_defaults", samples());
  CHECK(r.type == "UniTuple(float64 x 5)");
  CHECK(real(r, 0) == 8.0);
  CHECK(real(r, 1) == 2.0);
  CHECK(real(r, 2) == 7.5);
  CHECK(real(r, 3) == 0.5);
  CHECK(real(r, 4) == 0.5);
  Returned left_out = test::call(module, "clipped_sum", samples());
  CHECK(left_out.type == "float64");
  CHECK(real(left_out, 0) == 8.0);
}

TEST_CASE("a variable of another type is not pruned: both arms are typed and n = 0.5 unifies with the int64") {
  Module module = load();
  Returned r = test::call(module, "local_unified", samples());
  CHECK(r.type == "float64");
  CHECK(real(r, 0) == 5.0);
  Returned defaulted = test::call(module, "default_or_given");
  CHECK(defaulted.type == "float64");
  CHECK(real(defaulted, 0) == 0.5);
}

TEST_CASE("is None, None is, == None, not, and/or, else arms and conditional expressions are pruned piece by piece") {
  Module module = load();
  Returned r = test::call(module, "forms_given", int64_t(2), int64_t(3));
  REQUIRE(r.values.size() == 8);
  CHECK(r.values[0].integer == 10000);
  CHECK(real(r, 1) == 3.5);
  CHECK(r.values[2].integer == 11110);
  CHECK(real(r, 3) == 3.5);
  CHECK(r.values[4].integer == 10000);
  CHECK(r.values[5].integer == 7);
  CHECK(r.values[6].integer == 21111);
  CHECK(r.values[7].integer == 7);
  // The arm for a given array is never typed when the argument is left to None.
  Returned none = test::call(module, "untyped_arm");
  CHECK(real(none, 0) == -1.0);
  Returned given = test::call(module, "untyped_arm", samples());
  CHECK(real(given, 0) == 7.0);
}

TEST_CASE("a function returning None on one path is Optional; callers test it and use it as its value") {
  Module module = load();
  Returned found = test::call(module, "find", samples(), 3.5);
  CHECK(found.type == "OptionalType(int64)");
  CHECK(found.values.at(0).integer == 3);
  CHECK(test::call(module, "find", samples(), 9.0).values.empty());
  Returned used = test::call(module, "use_found", samples(), 2.5);
  CHECK(used.type == "int64");
  CHECK(used.values.at(0).integer == 4);
  CHECK(test::call(module, "use_found", samples(), 9.0).values.at(0).integer == -1);
  CHECK(test::call(module, "use_unchecked", samples(), 2.5).values.at(0).integer == 4);
  CHECK(test::call(module, "loop_optional", samples()).values.at(0).value.real() == 8.0);
  CHECK(test::call(module, "loop_optional", samples(), 1.0).values.at(0).value.real() == 7.5);
  CHECK(test::call(module, "pass_optional", samples(), 3.5).values.at(0).integer == 7);
  CHECK(test::call(module, "pass_optional", samples(), 9.0).values.at(0).integer == 7);
  CHECK(test::call(module, "optional_tuple", samples(), 3.5).values.at(0).integer == 4);
  CHECK(test::call(module, "optional_tuple", samples(), 9.0).values.at(0).integer == -1);
}

TEST_CASE("an Optional holding None used as its value raises Numba's TypeError at its line") {
  Module module = load();
  std::string error = test::failure(module, "use_unchecked", samples(), 9.0);
  CAPTURE(error);
  CHECK(error.find("TypeError: expected int64, got None") != std::string::npos);
  CHECK(error.find("opt.py:93") != std::string::npos);
}
