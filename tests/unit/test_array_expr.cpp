// Whole-array expressions in @jit functions on the host (sema/array_exprs.cpp,
// sema/builtins_ufuncs.cpp, runtime/pykern/array_expr.cuh): NumPy's loop choice as Numba makes
// it, broadcasting, in-place updates, the fused loop, and the errors. Expected types and values
// are Numba 0.68's.
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/compiler.h"
#include "pykern/function.h"
#include "sema/array_exprs.h"

using namespace pykern;
using sema::find_ufunc_loop;
using sema::Type;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

@njit
def scaled(a, b):
    return a * 2.0, b + 1, b / b, a + 1, b > 0, -b, np.sqrt(b), np.maximum(b, a)

@njit
def outer(col, row):
    return col.reshape(col.size, 1) + row

@njit
def shifted(v):
    v[1:] = v[:-1] * 2.0
    return v

@njit
def update(a, b):
    a += b
    a *= 2
    return a

@njit
def chosen(a):
    return np.where(a > 1.0, a, 0), np.clip(a, 0.5, 2.5), np.sum(a * a)

@njit
def mismatch(a, b):
    return a + b

@njit
def bytes_mean(a, b):
    return (a + b) / 2.0, a + b

@njit
def logic(a):
    return np.logical_not(a > 1.0), np.sign(a), np.logical_or(a > 2, a < 0.5)

@njit
def rows(m, w):
    out = np.empty_like(m)
    for i in range(m.shape[0]):
        out[i, :] = m[i] * w
    return out
)py";

Module load() { return test::load_host_module(source, "exprs.py", "array-expr"); }

using test::call;

template <class T> std::vector<T> values(const Array& a) {
  Array c = a.copy();
  const T* p = static_cast<const T*>(c.data());
  return std::vector<T>(p, p + c.size());
}

std::string output_of(std::string_view loops, std::vector<Type> inputs, std::optional<Type> out = std::nullopt) {
  auto loop = find_ufunc_loop(loops, inputs, out);
  return loop ? sema::to_string(loop->output) : "none";
}

}  // namespace

TEST_CASE("a ufunc's loop is the first its operands convert to safely, integers to any float when kinds mix") {
  const char* add = "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ff->f dd->d FF->F DD->D";
  CHECK(output_of(add, {Type::i32(), Type::i32()}) == "int32");
  CHECK(output_of(add, {Type::i32(), Type::i64()}) == "int64");     // int32 array + 1
  CHECK(output_of(add, {Type::f32(), Type::f64()}) == "float64");   // float32 array * 2.0
  CHECK(output_of(add, {Type::f32(), Type::i64()}) == "float32");   // float32 array + 1: kinds mix
  CHECK(output_of(add, {Type::i64(), Type::u64()}) == "float64");   // no integer holds both
  CHECK(output_of(add, {Type::boolean(), Type::boolean()}) == "bool");
  CHECK(output_of(add, {Type::int_(8, false), Type::int_(8)}) == "int16");
  CHECK(output_of("ff->f dd->d FF->F DD->D", {Type::i32(), Type::i32()}) == "float64");  // true_divide
  CHECK(output_of("f->f d->d", {Type::int_(16)}) == "float32");                           // np.sqrt(int16)
  CHECK(output_of("f->f d->d", {Type::complex(128)}) == "none");
  // In place (a += b), the loop's result must convert to the target within its kind.
  CHECK(output_of(add, {Type::i64(), Type::f64()}, Type::i64()) == "none");
  CHECK(output_of(add, {Type::f32(), Type::f64()}, Type::f32()) == "float64");
  CHECK(sema::ufunc_named("divide") == sema::ufunc_named("true_divide"));
  CHECK(sema::ufunc_named("cumsum") == nullptr);
}

TEST_CASE("operators and ufuncs on arrays give Numba's element types and values") {
  Module module = load();
  Returned r = call(module, "scaled", Array::from<float>({1, 4, 9}), Array::from<int32_t>({1, 4, 9}));
  CHECK(r.type ==
        "Tuple(array(float64, 1d, C), array(int64, 1d, C), array(float64, 1d, C), array(float32, 1d, C), "
        "array(bool, 1d, C), array(int32, 1d, C), array(float64, 1d, C), array(float32, 1d, C))");
  REQUIRE(r.arrays.size() == 8);
  CHECK(values<double>(r.arrays[0]) == std::vector<double>{2, 8, 18});
  CHECK(values<int64_t>(r.arrays[1]) == std::vector<int64_t>{2, 5, 10});
  CHECK(values<bool>(r.arrays[4]) == std::vector<bool>{true, true, true});
  CHECK(values<int32_t>(r.arrays[5]) == std::vector<int32_t>{-1, -4, -9});
  CHECK(values<double>(r.arrays[6]) == std::vector<double>{1, 2, 3});
}

TEST_CASE("broadcasting stretches extents of 1; shapes that do not broadcast are Numba's located ValueError") {
  Module module = load();
  Returned r = call(module, "outer", Array::from<double>({1, 2}), Array::from<double>({10, 20, 30}));
  REQUIRE(r.arrays.size() == 1);
  CHECK(r.arrays[0].shape() == std::vector<int64_t>{2, 3});
  CHECK(values<double>(r.arrays[0]) == std::vector<double>{11, 21, 31, 12, 22, 32});
  auto failed = module.function("mismatch")->call(Array::from<double>({1, 2, 3}), Array::from<double>({1, 2}));
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().message.find("exprs.py:29: ValueError: unable to broadcast argument 1 to output array") !=
        std::string::npos);
  // A row written from a row expression.
  Returned written = call(module, "rows", Array::from<double>({1, 2, 3, 4}, {2, 2}), Array::from<double>({10, 100}));
  CHECK(values<double>(written.arrays[0]) == std::vector<double>{10, 200, 30, 400});
}

TEST_CASE("in-place updates write into the array itself, in its type; an overlapping source is read first") {
  Module module = load();
  std::vector<double> data = {1, 2, 3, 4};
  Array v = Array::wrap(data.data(), {4});
  call(module, "shifted", v);
  CHECK(data == std::vector<double>{1, 2, 4, 6});  // NumPy's result: the source read before it is overwritten
  std::vector<int64_t> ints = {1, 2, 3};
  Returned r = call(module, "update", Array::wrap(ints.data(), {3}), Array::from<int32_t>({5, 5, 5}));
  CHECK(r.type == "array(int64, 1d, C)");
  CHECK(values<int64_t>(r.arrays[0]) == std::vector<int64_t>{12, 14, 16});
}

TEST_CASE("np.where and np.clip broadcast scalars; a reduction takes an expression as an array") {
  Module module = load();
  Returned r = call(module, "chosen", Array::from<float>({0.5f, 1.5f, 3.0f}));
  CHECK(r.type == "Tuple(array(float64, 1d, C), array(float32, 1d, C), float32)");
  CHECK(values<double>(r.arrays[0]) == std::vector<double>{0, 1.5, 3});
  CHECK(values<float>(r.arrays[1]) == std::vector<float>{0.5f, 1.5f, 2.5f});
  CHECK(r.values[0].value.real() == doctest::Approx(11.5));
}

TEST_CASE("a fused expression computes by the scalar rules and converts only its result, as Numba's rewrite does") {
  Module module = load();
  // uint8 + uint8 is a uint8 array (wrapping at 256), but inside (a + b) / 2.0 the sum is
  // Numba's scalar integer sum: 200 + 100 = 300, halved to 150, not 44 / 2.
  Returned r = call(module, "bytes_mean", Array::from<uint8_t>({200, 1}), Array::from<uint8_t>({100, 2}));
  CHECK(r.type == "Tuple(array(float64, 1d, C), array(uint8, 1d, C))");
  CHECK(values<double>(r.arrays[0]) == std::vector<double>{150, 1.5});
  CHECK(values<uint8_t>(r.arrays[1]) == std::vector<uint8_t>{44, 3});
}

TEST_CASE("np.sign keeps NaN; the logical ufuncs take their operands' truth") {
  Module module = load();
  Returned r = call(module, "logic", Array::from<double>({0.0, 1.5, std::nan(""), -2.0}));
  CHECK(values<bool>(r.arrays[0]) == std::vector<bool>{true, false, true, true});
  std::vector<double> sign = values<double>(r.arrays[1]);
  CHECK(sign[0] == 0.0);
  CHECK(sign[1] == 1.0);
  CHECK(std::isnan(sign[2]));
  CHECK(sign[3] == -1.0);
  CHECK(values<bool>(r.arrays[2]) == std::vector<bool>{true, false, false, true});
}
