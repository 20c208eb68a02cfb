// Patterns from real Numba-CUDA files (issue 30): signatures without a return type (@vectorize,
// device functions), @guvectorize signatures written as argument lists, and atomics with tuple
// indices on strided (A-layout) views, returning the old value, through the C++ API on the
// CPU simulator.
#include <unistd.h>

#include <filesystem>

#include <doctest/doctest.h>

#include "pykern/module.h"
#include "pykern/ufunc.h"

using namespace pykern;

namespace {

ModuleOptions test_options() {
  ModuleOptions options;
  options.cache_dir =
      (std::filesystem::temp_directory_path() / ("pykern-sigs-cache-" + std::to_string(::getpid()))).string();
  return options;
}

Module load(const std::string& text) {
  auto module = Module::load_source(text, "world_patterns.py", test_options());
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  return *module;
}

#define REQUIRE_OK(status) REQUIRE_MESSAGE((status).ok(), ((status).ok() ? std::string() : (status).error().describe()))

// Every other column of a C array: a strided view that the launch specialises as layout A.
Array every_other_column(const Array& base) {
  auto view = base.slice(1, Slice{std::nullopt, std::nullopt, 2});
  REQUIRE(view.ok());
  return *view;
}

}  // namespace

TEST_CASE("atomics with tuple indices update strided 2-d and 3-d views and return the old value") {
  // One thread, so that each old value is known.
  Module module = load(R"py(
from numba import cuda


@cuda.jit
def tally(grid2, grid3, counts, values, old, old_counts):
    for i in range(values.shape[0]):
        v = values[i]
        old[i, 0] = cuda.atomic.sub(grid2, (i % 2, i % 3), v)
        old[i, 1] = cuda.atomic.add(grid3, (i % 2, i % 3, 1), v)
        old[i, 2] = cuda.atomic.max(grid2, (1, 2), v)
        old[i, 3] = cuda.atomic.min(grid3, (0, 0, 0), -v)
        old_counts[i, 0] = cuda.atomic.inc(counts, (0, 1), 2)
        old_counts[i, 1] = cuda.atomic.dec(counts, (1, 0), 3)
        old_counts[i, 2] = cuda.atomic.exch(counts, (1, 1), i)
        old_counts[i, 3] = cuda.atomic.cas(counts, (0, 0), i, i + 1)
)py");
  Array base2 = Array::zeros(DType::float_(64), {2, 6});
  Array base3 = Array::zeros(DType::float_(64), {2, 3, 4});
  Array base_counts = Array::zeros(DType::uint(32), {2, 4});
  Array grid2 = every_other_column(base2);                                  // 2x3, strides (48, 16)
  auto grid3 = base3.slice(2, Slice{std::nullopt, std::nullopt, 2});        // 2x3x2, strides (96, 32, 16)
  REQUIRE(grid3.ok());
  Array counts = every_other_column(base_counts);                           // 2x2, strides (16, 8)
  Array values = Array::from<double>({1, 2, 3, 4, 5, 6, 7});
  Array old = Array::zeros(DType::float_(64), {7, 4});
  Array old_counts = Array::zeros(DType::uint(32), {7, 4});
  auto status = module.kernel("tally")->launch(Launch(1, 1).backend(Backend::cpu), grid2, *grid3, counts, values, old,
                                               old_counts);
  REQUIRE_OK(status);
  // What Python computes element by element, the atomics' old values included.
  double g2[2][3] = {}, g3[2][3][2] = {};
  uint32_t c[2][2] = {};
  for (int i = 0; i < 7; ++i) {
    double v = i + 1;
    CHECK(old.at<double>(i, 0) == g2[i % 2][i % 3]);
    g2[i % 2][i % 3] -= v;
    CHECK(old.at<double>(i, 1) == g3[i % 2][i % 3][1]);
    g3[i % 2][i % 3][1] += v;
    CHECK(old.at<double>(i, 2) == g2[1][2]);
    g2[1][2] = std::max(g2[1][2], v);
    CHECK(old.at<double>(i, 3) == g3[0][0][0]);
    g3[0][0][0] = std::min(g3[0][0][0], -v);
    CHECK(old_counts.at<uint32_t>(i, 0) == c[0][1]);
    c[0][1] = c[0][1] >= 2 ? 0 : c[0][1] + 1;
    CHECK(old_counts.at<uint32_t>(i, 1) == c[1][0]);
    c[1][0] = (c[1][0] == 0 || c[1][0] > 3) ? 3 : c[1][0] - 1;
    CHECK(old_counts.at<uint32_t>(i, 2) == c[1][1]);
    c[1][1] = static_cast<uint32_t>(i);
    CHECK(old_counts.at<uint32_t>(i, 3) == c[0][0]);
    if (c[0][0] == static_cast<uint32_t>(i)) c[0][0] = static_cast<uint32_t>(i + 1);
  }
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 3; ++k) {
      CHECK(grid2.at<double>(r, k) == g2[r][k]);
      CHECK(base2.at<double>(r, 2 * k + 1) == 0.0);  // the columns between are untouched
      for (int m = 0; m < 2; ++m) CHECK(grid3->at<double>(r, k, m) == g3[r][k][m]);
    }
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 2; ++k) CHECK(counts.at<uint32_t>(r, k) == c[r][k]);
}

namespace {
const char* gufuncs = R"py(
from numba import guvectorize, float64, int32


@guvectorize(['float64[:], float64, int32, float64[:]'], '(n),(),()->(n)', target='cuda')
def scale_shift(x, a, b, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * a + b


@guvectorize([(float64, float64, float64[:])], '(),()->()', target='cuda')
def hypot2(a, b, out):
    out[0] = a * a + b * b


@guvectorize('float64[:], float64[:]', '(n)->()', target='cuda')
def total(x, out):
    acc = 0.0
    for i in range(x.shape[0]):
        acc += x[i]
    out[0] = acc
)py";
}  // namespace

TEST_CASE("gufunc signatures as argument lists take Python scalars and 0-d arrays for their () core dimensions") {
  Module module = load(gufuncs);
  Array x = Array::from<double>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto scale_shift = module.ufunc("scale_shift");
  REQUIRE_OK(scale_shift);
  auto scaled = scale_shift->call({x, 2.0, 3});  // Python float and int: converted to float64 and int32
  REQUIRE_OK(scaled);
  REQUIRE(scaled->shape() == std::vector<int64_t>{2, 3});
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) CHECK(scaled->at<double>(r, c) == x.at<double>(r, c) * 2 + 3);
  Array two = Array::zeros(DType::float_(64), {});
  two.at<double>() = 2.0;
  Array shift = Array::zeros(DType::int_(32), {});
  shift.at<int32_t>() = -1;
  auto zero_d = scale_shift->call({x, two, shift});  // 0-d arrays of the signature's types
  REQUIRE_OK(zero_d);
  CHECK(zero_d->at<double>(1, 2) == 11.0);

  // Only 0-d inputs: one call, and a 0-d result (numba-cuda's loop shape is then ()).
  auto hypot2 = module.ufunc("hypot2");
  REQUIRE_OK(hypot2);
  auto one = hypot2->call({3.0, two});
  REQUIRE_OK(one);
  CHECK(one->ndim() == 0);
  CHECK(one->at<double>() == 13.0);
  auto many = hypot2->call({Array::from<double>({1, 2, 3}), 4.0});
  REQUIRE_OK(many);
  CHECK(many->at<double>(2) == 25.0);

  // A () output passed by the caller: each loop element writes its own slot.
  auto total = module.ufunc("total");
  REQUIRE_OK(total);
  Array sums = Array::zeros(DType::float_(64), {2});
  auto into = total->call_all({x, sums});
  REQUIRE_OK(into);
  CHECK(sums.at<double>(0) == 6.0);
  CHECK(sums.at<double>(1) == 15.0);

  Array into_out = Array::zeros(DType::float_(64), {2});
  auto with_out = total->call({x}, into_out);  // out=: the one output
  REQUIRE_OK(with_out);
  CHECK(into_out.at<double>(1) == 15.0);
  CHECK(with_out->data() == into_out.data());
  auto wrong_shape = total->call_all({x, Array::zeros(DType::float_(64), {1})});
  REQUIRE_FALSE(wrong_shape.ok());
  CHECK(wrong_shape.error().message ==
        "gufunc 'total': output 1 must be a float64 array of shape (2,), not float64 of shape (1,)");
  auto wrong_dtype = total->call({x}, Array::zeros(DType::float_(32), {2}));
  REQUIRE_FALSE(wrong_dtype.ok());
  CHECK(wrong_dtype.error().message.find("must be a float64 array of shape (2,), not float32") != std::string::npos);

  auto scalar_for_array = total->call({4.0});
  REQUIRE_FALSE(scalar_for_array.ok());
  CHECK(scalar_for_array.error().message ==
        "gufunc 'total': argument 1 has 1 core dimension, so it takes an array, not a scalar");
}

TEST_CASE("a @vectorize signature without a return type gives the output the type the body returns") {
  Module module = load(R"py(
from numba import vectorize


@vectorize(['(int16, int16)', 'float32(float32, float32)'], target='cuda')
def ratio(x, y):
    return x / y


@vectorize(['(int32,)', '(float32,)'], target='cuda')
def halve(x):
    return x // 2


@vectorize(['(int64,)'], target='cuda')
def pair(x):
    return x, x
)py");
  auto ratio = module.ufunc("ratio");
  REQUIRE_OK(ratio);
  Array x = Array::zeros(DType::int_(16), {3}), y = Array::zeros(DType::int_(16), {3});
  for (int i = 0; i < 3; ++i) x.at<int16_t>(i) = static_cast<int16_t>(i + 1), y.at<int16_t>(i) = 3;
  auto divided = ratio->call({x, y});
  REQUIRE_OK(divided);
  CHECK(divided->dtype() == DType::float_(64));  // int16 / int16 is float64 in Numba
  CHECK(divided->at<double>(0) == 1.0 / 3.0);
  CHECK(divided->at<double>(2) == 1.0);
  auto f32 = ratio->call({Array::from<float>({1, 2}), Array::from<float>({4, 4})});
  REQUIRE_OK(f32);
  CHECK(f32->dtype() == DType::float_(32));  // the declared return type stays

  auto halve = module.ufunc("halve");
  REQUIRE_OK(halve);
  auto ints = halve->call({Array::from<int32_t>({7, -7})});
  REQUIRE_OK(ints);
  CHECK(ints->dtype() == DType::int_(64));  // int32 // int literal: int64
  CHECK(ints->at<int64_t>(1) == -4);
  auto floats = halve->call({Array::from<float>({7.5f})});
  REQUIRE_OK(floats);
  CHECK(floats->dtype() == DType::float_(64));  // float32 // int literal: float64, as Numba's CPU ufunc too
  CHECK(floats->at<double>(0) == 3.0);
  // out= must have the inferred type.
  auto wrong_out = halve->call({Array::from<int32_t>({1})}, Array::zeros(DType::int_(32), {1}));
  REQUIRE_FALSE(wrong_out.ok());
  CHECK(wrong_out.error().message.find("out= must be a int64 array") != std::string::npos);

  auto pair = module.ufunc("pair");
  REQUIRE_OK(pair);
  auto tuple = pair->call({Array::from<int64_t>({1})});
  REQUIRE_FALSE(tuple.ok());
  CHECK(tuple.error().message == "ufunc 'pair' returns UniTuple(int64 x 2) for (int64); a ufunc's function returns one number");
}

TEST_CASE("a device function with signatures in its decorator converts its arguments to the one Numba picks") {
  Module module = load(R"py(
from numba import cuda


@cuda.jit('f4(i4, i4)', device=True)
def third(a, b):
    return a / b


@cuda.jit('(i4, i4)', device=True)
def exact_third(a, b):
    return a / b


@cuda.jit(['(int32,)', '(float64,)'], device=True)
def twice(x):
    return x + x


@cuda.jit('(float32[:], float32)', device=True)
def scaled_sum(a, s):
    t = 0
    for i in range(a.shape[0]):
        t += a[i] * s
    return t


@cuda.jit('(UniTuple(int32, 2), float32)', device=True)
def flat(ij, s):
    return (ij[0] * 10 + ij[1]) / s


@cuda.jit
def calls(values, out):
    out[0] = third(1, 3)          # float32 result: 1/3 rounded to float32
    out[1] = exact_third(1, 3)    # the body's float64
    out[2] = third(2.9, 1)        # 2.9 converts to int32: 2
    out[3] = twice(2.75)          # the float64 signature: no unsafe conversion
    out[4] = twice(7)             # int64 -> int32 is unsafe, -> float64 safe: the float64 one
    out[5] = scaled_sum(values, 0.1)  # 0.1 converts to float32
    out[6] = flat((1, 2), 4.0)    # a tuple converts element by element
)py");
  Array out = Array::zeros(DType::float_(64), {7});
  Array values = Array::from<float>({0, 1, 2, 3, 4});
  REQUIRE_OK(module.kernel("calls")->launch(Launch(1, 1).backend(Backend::cpu), values, out));
  CHECK(out.at<double>(0) == static_cast<double>(1.0f / 3.0f));
  CHECK(out.at<double>(1) == 1.0 / 3.0);
  CHECK(out.at<double>(2) == 2.0);
  CHECK(out.at<double>(3) == 5.5);
  CHECK(out.at<double>(4) == 14.0);
  double expected = 0;  // int64 0 + float32 products: float64, the products rounded to float32
  for (int i = 0; i < 5; ++i) expected += static_cast<double>(static_cast<float>(i) * 0.1f);
  CHECK(out.at<double>(5) == expected);
  CHECK(out.at<double>(6) == 3.0);
}

TEST_CASE("a tuple of signature strings is a list of signatures for @vectorize and @guvectorize") {
  Module module = load(R"py(
from numba import vectorize, guvectorize


@vectorize(('float32(float32)', 'float64(float64)'), target='cuda')
def square(x):
    return x * x


@guvectorize(('float64[:], float64[:]', 'int64[:], int64[:]'), '(n)->()', target='cuda')
def biggest(x, out):
    m = x[0]
    for v in x:
        m = max(m, v)
    out[0] = m
)py");
  auto square = module.ufunc("square");
  REQUIRE_OK(square);
  auto squared = square->call({Array::from<float>({1.5f, -2})});
  REQUIRE_OK(squared);
  CHECK(squared->dtype() == DType::float_(32));
  CHECK(squared->at<float>(1) == 4.0f);
  auto biggest = module.ufunc("biggest");
  REQUIRE_OK(biggest);
  auto found = biggest->call({Array::from<int64_t>({3, 9, -1, 4}, {2, 2})});
  REQUIRE_OK(found);
  CHECK(found->dtype() == DType::int_(64));
  CHECK(found->at<int64_t>(0) == 9);
  CHECK(found->at<int64_t>(1) == 4);
}
