// Numba's CPU ufuncs and gufuncs (@vectorize / @guvectorize, targets 'cpu' and 'parallel'):
// loops chosen as NumPy chooses them, loops a signature-less @vectorize (a DUFunc) compiles per
// input types, gufunc layouts, outputs and dimension checks, and ufuncs called from @jit
// functions. The values and types expected are what Numba 0.68 with NumPy 2 gives.
#include <cmath>
#include <complex>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/ufunc.h"

using namespace pykern;

namespace {

const char* source = R"py(
import math
import numpy as np
from numba import njit, vectorize, guvectorize, float64, int64


@vectorize
def twice_plus(x, y):
    return x * 2 + y


@vectorize
def half(x):
    return x / 2


@vectorize(['int8(int8, int8)', 'int32(int32, int32)', 'float32(float32, float32)', 'float64(float64, float64)'])
def add(x, y):
    return x + y


@vectorize(['float64(float64, float64)'], target='parallel')
def hypot_par(x, y):
    return math.sqrt(x * x + y * y)


@guvectorize(['void(float64[:], float64[:], float64, float64, float64[:])'], '(n),(m),(),()->(m)', nopython=True)
def blend(a, b, wa, wb, out):
    mean_a = 0.0
    for v in a:
        mean_a += v
    mean_a /= a.shape[0]
    for j in range(b.shape[0]):
        out[j] = wa * mean_a + wb * b[j]


@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n)->(),()', target='parallel')
def extremes(a, lo, hi):
    lo[0] = a[0]
    hi[0] = a[0]
    for v in a:
        lo[0] = min(lo[0], v)
        hi[0] = max(hi[0], v)


@guvectorize('(n)->()')
def total(a, out):
    s = 0.0
    for v in a:
        s += v
    out[0] = s


@vectorize
def reciprocal(x):
    return 1.0 / x


@njit
def use_dufunc(a, k):
    return twice_plus(a, k), twice_plus(3, 0.5), half(a)


@njit
def use_frozen(a, b):
    return add(a, b), add(a, 1.5)
)py";

Module load() { return test::load_host_module(source, "cpu_ufuncs.py", "cpu-ufuncs"); }

Array call_ok(const Ufunc& u, const std::vector<Argument>& args) {
  auto result = u.call(args);
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? std::string() : result.error().describe()));
  return *result;
}

std::string call_error(const Ufunc& u, const std::vector<Argument>& args) {
  auto result = u.call(args);
  REQUIRE_FALSE(result.ok());
  return result.error().message;
}

}  // namespace

TEST_CASE("a @vectorize without signatures compiles a loop per input types, then NumPy picks among its loops") {
  Module module = load();
  CHECK(module.kind_of("twice_plus") == "vectorize");
  auto f = module.ufunc("twice_plus");
  REQUIRE(f.ok());
  // float32 * 2 + float32: the function returns float64 for (float32, float32), as Numba's 'ff->d'
  Array a = call_ok(*f, {Array::from<float>({0, 1, 2}), f32(1)});
  CHECK(a.dtype() == DType::float_(64));
  CHECK(a.at<double>(2) == 5.0);
  // A Python int next to a float32 array fits the 'ff' loop: no new loop, float64 again
  CHECK(call_ok(*f, {Array::from<float>({0, 1, 2}), i64(1)}).dtype() == DType::float_(64));
  // int64 array and a Python float: no loop fits, so 'ld->d' is compiled
  Array b = call_ok(*f, {Array::from<int64_t>({1, 2, 3}), 1.5});
  CHECK(b.dtype() == DType::float_(64));
  CHECK(b.at<double>(0) == 3.5);
  // int32 array and a Python int: 'ld' takes them (int32 to int64 safely, the int as weak)
  Array c = call_ok(*f, {Array::from<int32_t>({1, 2}), i64(2)});
  CHECK(c.dtype() == DType::float_(64));
  CHECK(c.at<double>(1) == 6.0);
  // two Python ints: int64 each, so 'ld' again; a 0-d result
  Array d = call_ok(*f, {i64(2), i64(3)});
  CHECK(d.ndim() == 0);
  CHECK(d.dtype() == DType::float_(64));
  CHECK(d.at<double>() == 7.0);
  auto h = module.ufunc("half");
  CHECK(call_ok(*h, {Array::from<int64_t>({1, 2})}).at<double>(0) == 0.5);
}

TEST_CASE("a @vectorize with signatures takes the first loop its inputs cast to safely") {
  Module module = load();
  auto add = module.ufunc("add");
  REQUIRE(add.ok());
  Array i8 = Array::from<int8_t>({1, 2});
  CHECK(call_ok(*add, {i8, i8}).dtype() == DType::int_(8));
  CHECK(call_ok(*add, {i8, i64(1)}).dtype() == DType::int_(8));          // a Python int is weak
  CHECK(call_ok(*add, {i8, 1.5}).dtype() == DType::float_(64));     // a float is above the array's kind
  CHECK(call_ok(*add, {Array::from<int16_t>({1}), Array::from<int16_t>({1})}).dtype() == DType::int_(32));
  CHECK(call_ok(*add, {Array::from<uint8_t>({1}), Array::from<int8_t>({1})}).dtype() == DType::int_(32));
  CHECK(call_ok(*add, {Array::from<int64_t>({1}), Array::from<int64_t>({1})}).dtype() == DType::float_(64));
  Array f = call_ok(*add, {Array::from<float>({1.5f}), 2.25});
  CHECK(f.dtype() == DType::float_(32));
  CHECK(f.at<float>(0) == 3.75f);
  CHECK(call_ok(*add, {Array::from<bool>({true, false}), Array::from<bool>({true, true})}).at<int8_t>(0) == 2);
  CHECK(call_ok(*add, {i8, i32(1)}).dtype() == DType::int_(32));   // a C++ int is a NumPy int32 scalar: strong
  CHECK(call_error(*add, {i8, i64(300)}) == "OverflowError: Python integer 300 out of bounds for int8");
  CHECK(call_error(*add, {Array::from<std::complex<double>>({{1, 1}}), i64(1)}) ==
        "TypeError: ufunc 'add' not supported for the input types, and the inputs could not be safely coerced to any "
        "supported types according to the casting rule ''safe''");
}

TEST_CASE("a parallel @vectorize broadcasts a 2-d array against a row and writes into out=") {
  Module module = load();
  auto hyp = module.ufunc("hypot_par");
  Array x = Array::zeros(DType::float_(64), {50, 40});
  for (int i = 0; i < 50; ++i)
    for (int j = 0; j < 40; ++j) x.at<double>(i, j) = i;
  Array y = Array::zeros(DType::float_(64), {40});
  for (int j = 0; j < 40; ++j) y.at<double>(j) = j;
  Array out = Array::zeros(DType::float_(64), {50, 40});
  auto result = hyp->call({x, y}, out);
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? std::string() : result.error().describe()));
  CHECK(out.at<double>(3, 4) == 5.0);
  CHECK(out.at<double>(49, 39) == std::sqrt(49.0 * 49 + 39.0 * 39));
  // int32 arrays cast to the float64 loop
  Array z = call_ok(*hyp, {Array::from<int32_t>({6}), Array::from<int32_t>({8})});
  CHECK(z.at<double>(0) == 10.0);
}

TEST_CASE("a gufunc '(n),(m),(),()->(m)' takes numbers for its scalar cores and broadcasts its loop dimensions") {
  Module module = load();
  auto blend = module.ufunc("blend");
  REQUIRE(blend.ok());
  Array a = Array::from<double>({1, 2, 3, 4, 5, 6}, {2, 3});  // two rows: means 2 and 5
  Array b = Array::from<double>({10, 20});
  Array r = call_ok(*blend, {a, b, 0.5, i64(2)});
  CHECK(r.shape() == std::vector<int64_t>{2, 2});
  CHECK(r.at<double>(0, 1) == 0.5 * 2 + 2 * 20);
  CHECK(r.at<double>(1, 0) == 0.5 * 5 + 2 * 10);
  // int64 inputs cast to the float64 loop, as NumPy casts them
  Array ints = call_ok(*blend, {Array::from<int64_t>({2, 4}), Array::from<int64_t>({1}), i64(1), i64(1)});
  CHECK(ints.at<double>(0) == 3 + 1);
  // a core dimension bound twice with two sizes: NumPy's ValueError
  std::string mismatch =
      call_error(*blend, {a, b, Array::from<double>({1, 2, 3}), 1.0});  // the scalar core broadcasts: (3,) vs (2,)
  CHECK(mismatch.find("could not be broadcast") != std::string::npos);
}

TEST_CASE("core dimensions that disagree are NumPy's ValueError, naming the operand and both sizes") {
  Module module = load();
  const char* src = R"py(
from numba import guvectorize

@guvectorize(['void(float64[:], float64[:], float64[:])'], '(n), (n) -> ()')
def dot(a, b, out):
    acc = 0.0
    for i in range(a.shape[0]):
        acc += a[i] * b[i]
    out[0] = acc
)py";
  Module dots = test::load_host_module(src, "dots.py", "cpu-ufuncs-dot");
  auto dot = dots.ufunc("dot");
  CHECK(call_error(*dot, {Array::from<double>({1, 2, 3, 4, 5}), Array::from<double>({1, 2, 3, 4})}) ==
        "ValueError: dot: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n),(n)->() "
        "(size 4 is different from 5)");
  CHECK(call_ok(*dot, {Array::from<double>({1, 2, 3}), Array::from<double>({1, 1, 1})}).at<double>() == 6.0);
}

TEST_CASE("a parallel gufunc with two outputs returns both; a signature-less gufunc needs its outputs passed") {
  Module module = load();
  auto extremes = module.ufunc("extremes");
  Array a = Array::zeros(DType::float_(64), {100, 7});
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 7; ++j) a.at<double>(i, j) = (i * 7 + j * 3) % 11 - i;
  auto both = extremes->call_all({a});
  REQUIRE_MESSAGE(both.ok(), (both.ok() ? std::string() : both.error().describe()));
  REQUIRE(both->size() == 2);
  for (int i = 0; i < 100; ++i) {
    double lo = a.at<double>(i, 0), hi = lo;
    for (int j = 0; j < 7; ++j) lo = std::min(lo, a.at<double>(i, j)), hi = std::max(hi, a.at<double>(i, j));
    CHECK((*both)[0].at<double>(i) == lo);
    CHECK((*both)[1].at<double>(i) == hi);
  }
  auto total = module.ufunc("total");
  REQUIRE(total.ok());
  CHECK(call_error(*total, {Array::from<double>({1, 2})}).find("Too few arguments for function 'total'") !=
        std::string::npos);
  Array sums = Array::zeros(DType::float_(64), {2});
  auto filled = total->call({Array::from<double>({1, 2, 3, 4, 5, 6}, {2, 3})}, sums);
  REQUIRE_MESSAGE(filled.ok(), (filled.ok() ? std::string() : filled.error().describe()));
  CHECK(sums.at<double>(0) == 6.0);
  CHECK(sums.at<double>(1) == 15.0);
}

TEST_CASE("@jit functions call a signature-less @vectorize on arrays and numbers") {
  Module module = load();
  Returned r = test::call(module, "use_dufunc", Array::from<int64_t>({1, 2, 3}), i64(10));
  Array first = std::get<Array>(r.item(0));
  CHECK(first.dtype() == DType::int_(64));  // int64 * 2 + int64
  CHECK(first.at<int64_t>(2) == 16);
  Scalar second = std::get<Scalar>(r.item(1));
  CHECK(second.type == DType::float_(64));
  CHECK(second.value.real() == 6.5);
  Array third = std::get<Array>(r.item(2));
  CHECK(third.dtype() == DType::float_(64));
  CHECK(third.at<double>(0) == 0.5);
  Returned f = test::call(module, "use_dufunc", Array::from<float>({1.5f}), f32(0.5));
  CHECK(std::get<Array>(f.item(0)).dtype() == DType::float_(64));  // float32 * int64 literal: float64
}

TEST_CASE("@jit functions call a @vectorize with signatures through the loop its operands convert to") {
  Module module = load();
  Returned r = test::call(module, "use_frozen", Array::from<int16_t>({1, 2}), Array::from<int16_t>({3, 4}));
  Array sum = std::get<Array>(r.item(0));
  CHECK(sum.dtype() == DType::int_(32));  // int16 operands take the int32 loop
  CHECK(sum.at<int32_t>(1) == 6);
  Array mixed = std::get<Array>(r.item(1));  // int16 and a float64: the float64 loop
  CHECK(mixed.dtype() == DType::float_(64));
  CHECK(mixed.at<double>(0) == 2.5);
}

TEST_CASE("a ufunc's function divides by zero as NumPy does (Numba's 'numpy' error model): inf, not an exception") {
  Module module = load();
  auto r = module.ufunc("reciprocal");
  Array x = call_ok(*r, {Array::from<double>({0.0, 4.0})});
  CHECK(std::isinf(x.at<double>(0)));
  CHECK(x.at<double>(1) == 0.25);
}

TEST_CASE("numba.vectorize defaults to the CPU target, cuda.vectorize to CUDA's; identity= and writable_args= load") {
  const char* src = R"py(
from numba import cuda, vectorize, guvectorize


@vectorize(identity=0)
def plus(x, y):
    return x + y


@cuda.vectorize
def on_gpu(x):
    return x + 1


@guvectorize(['void(float64[:], float64[:])'], '(n)->()', writable_args=('a',))
def first_then_clear(a, out):
    out[0] = a[0]
    a[0] = 0.0
)py";
  Module module = test::load_host_module(src, "targets.py", "cpu-ufuncs-targets");
  CHECK(module.ufunc("plus").ok());
  auto gpu = module.ufunc("on_gpu");
  REQUIRE_FALSE(gpu.ok());
  CHECK(gpu.error().message.find("CUDA ufuncs need them") != std::string::npos);
  Array a = Array::from<double>({4, 5, 6, 7}, {2, 2});
  Array firsts = call_ok(*module.ufunc("first_then_clear"), {a});
  CHECK(firsts.at<double>(1) == 6.0);
  CHECK(a.at<double>(1, 0) == 0.0);  // the function wrote its input, as writable_args allows
}
