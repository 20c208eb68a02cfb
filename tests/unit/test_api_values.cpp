// What a C++ caller hands pykern, and what it gets back, without surprises: no pointer or
// string becomes a scalar, a failed Result says why when read, Array::at and Array::wrap check
// the element type, and launches take vectors and spans (pykern/arguments.h).
#include <cmath>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include "pykern/function.h"
#include "pykern/module.h"

using namespace pykern;

// A pointer or a string literal would have become Scalar(bool): now none compiles.
static_assert(!std::is_constructible_v<Scalar, const char*>);
static_assert(!std::is_constructible_v<Scalar, double*>);
static_assert(!std::is_constructible_v<Scalar, std::nullptr_t>);
static_assert(!std::is_convertible_v<const char*, Argument>);
static_assert(!std::is_convertible_v<float*, Argument>);
static_assert(!is_argument<const char(&)[4]>::value);
static_assert(!is_argument<float*>::value);
static_assert(is_argument<std::vector<float>&>::value);
static_assert(is_argument<const std::vector<double>&>::value);
static_assert(is_argument<std::span<int32_t>>::value);
static_assert(is_argument<std::span<const int32_t>>::value);
static_assert(is_argument<double>::value);
static_assert(is_argument<View<float, 2>>::value);
static_assert(!is_argument<std::vector<std::string>&>::value);

namespace {

const char* scale_source = R"py(from numba import cuda

@cuda.jit
def scale(a, factor):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * factor

@cuda.jit
def total(a, out):
    out[0] = 0.0
    for v in a:
        out[0] += v
)py";

Module scale_module() {
  ModuleOptions options;
  options.use_cache = false;
  auto module = Module::load_source(scale_source, "values.py", options);
  REQUIRE(module.ok());
  return *module;
}

}  // namespace

TEST_CASE("reading a failed Result throws BadResultAccess carrying the error's text") {
  Result<int> failed = Error::make(ErrorKind::invalid_argument, "no kernel named 'k'");
  try {
    (void)failed.value();
    FAIL("value() of an error did not throw");
  } catch (const BadResultAccess& e) {
    CHECK(std::string(e.what()).find("no kernel named 'k'") != std::string::npos);
    CHECK(e.error().kind == ErrorKind::invalid_argument);
  }
  CHECK_THROWS_AS((void)*failed, BadResultAccess);
  Result<int> fine = 3;
  CHECK_THROWS_AS((void)fine.error(), std::logic_error);
  CHECK(failed.value_or(7) == 7);
  CHECK(fine.value_or(7) == 3);
  auto doubled = fine.transform([](int v) { return v * 2.0; });
  static_assert(std::is_same_v<decltype(doubled), Result<double>>);
  CHECK(doubled.value() == 6.0);
  auto passed_on = failed.transform([](int v) { return v * 2.0; });
  REQUIRE_FALSE(passed_on.ok());
  CHECK(passed_on.error().message == "no kernel named 'k'");
  auto chained = fine.and_then([](int v) -> Result<std::string> { return std::to_string(v); });
  CHECK(chained.value() == "3");
  Status done = ok_status();
  CHECK(done.and_then([]() -> Result<int> { return 1; }).value() == 1);
}

TEST_CASE("Array::at checks the element type and the indices; Array::wrap ties a typed pointer to its dtype") {
  Array a = Array::from<float>({1.5f, 2.5f, 3.5f});
  CHECK(a.at<float>(1) == 2.5f);
  CHECK_THROWS_AS((void)a.at<double>(1), std::invalid_argument);  // float32 read as float64
  CHECK_THROWS_AS((void)a.at<int32_t>(1), std::invalid_argument);
  CHECK_THROWS_AS((void)a.at<float>(3), std::out_of_range);
  CHECK_THROWS_AS((void)a.at<float>(-1), std::out_of_range);
  CHECK_THROWS_AS((void)a.at<float>(0, 0), std::out_of_range);  // two indices for a 1-d array
  std::vector<double> memory = {1, 2, 3, 4, 5, 6};
  Array typed = Array::wrap(memory.data(), {2, 3});
  CHECK(typed.dtype() == DType::float_(64));
  CHECK(typed.at<double>(1, 2) == 6.0);
  CHECK_THROWS_AS(Array::wrap(memory.data(), DType::float_(32), {6}), std::invalid_argument);
  CHECK(Array::wrap(memory.data(), DType::float_(64), {6}).size() == 6);
  // Raw memory stays raw: a byte pointer takes any dtype.
  auto* bytes = reinterpret_cast<unsigned char*>(memory.data());
  CHECK(Array::wrap(bytes, DType::float_(64), {6}).at<double>(5) == 6.0);
}

TEST_CASE("launches take vectors and spans: writable ones in place, const ones as inputs the kernel sees a copy of") {
  Module module = scale_module();
  auto scale = module.kernel("scale");
  REQUIRE(scale.ok());
  Launch on_cpu = Launch(1, 32).backend(Backend::cpu);
  std::vector<float> values = {1, 2, 3};
  REQUIRE(scale->launch(on_cpu, values, 2.0f).ok());
  CHECK(values == std::vector<float>{2, 4, 6});
  std::span<float> tail(values.data() + 1, 2);
  REQUIRE(scale->launch(on_cpu, tail, 0.5f).ok());
  CHECK(values == std::vector<float>{2, 2, 3});
  const std::vector<float> fixed = {1, 1, 1};
  REQUIRE(scale->launch(on_cpu, fixed, 3.0f).ok());  // compiles; the kernel writes a copy
  CHECK(fixed == std::vector<float>{1, 1, 1});
  std::span<const float> read_only(values);
  REQUIRE(scale->launch(on_cpu, read_only, 3.0f).ok());
  CHECK(values == std::vector<float>{2, 2, 3});
  // An input span and an output vector: the sum lands in the vector.
  std::vector<double> data = {0.5, 1.5, 2.0};
  std::vector<double> out(1);
  REQUIRE(module.kernel("total")->launch(Launch(1, 1).backend(Backend::cpu), std::span<const double>(data), out).ok());
  CHECK(out[0] == 4.0);
}

TEST_CASE("a kernel lists its specialisations, as Numba's kernel.signatures, and shows its types") {
  Module module = scale_module();
  auto scale = module.kernel("scale");
  REQUIRE(scale.ok());
  CHECK(scale->signatures().empty());
  std::vector<float> values = {1, 2};
  REQUIRE(scale->launch(Launch(1, 32).backend(Backend::cpu), values, 2.0f).ok());
  REQUIRE(scale->specialize("void(float64[::1], int64)").ok());
  CHECK(scale->signatures() ==
        std::vector<std::string>{"(array(float64, 1d, C), int64)", "(array(float32, 1d, C), float32)"});
  auto types = scale->inspect_types("void(float64[::1], float64)");
  REQUIRE(types.ok());
  CHECK(types->find("# a: array(float64, 1d, C)") != std::string::npos);
  CHECK(types->find("# i: int64") != std::string::npos);
}

TEST_CASE("float() and ord() of a string literal are computed as Python computes them") {
  ModuleOptions options;
  options.use_cache = false;
  auto module = Module::load_source(R"py(from numba import cuda

@cuda.jit
def constants(out):
    out[0] = float(" -Infinity ")
    out[1] = float("1_000.5")
    out[2] = float("1e999")
    out[3] = float("1e-999")
    out[4] = float("+2.5E-3")
    out[5] = float("nan")
    out[6] = ord("A") + ord("é") * 1000
)py", "floats.py", options);
  REQUIRE(module.ok());
  std::vector<double> out(7);
  REQUIRE(module->kernel("constants")->launch(Launch(1, 1).backend(Backend::cpu), out).ok());
  CHECK(out[0] == -std::numeric_limits<double>::infinity());
  CHECK(out[1] == 1000.5);
  CHECK(out[2] == std::numeric_limits<double>::infinity());
  CHECK(out[3] == 0.0);
  CHECK(out[4] == 2.5e-3);
  CHECK(std::isnan(out[5]));
  CHECK(out[6] == 65 + 233 * 1000);  // ord() of a literal: its code point
}

TEST_CASE("reductions of module arrays are NumPy's at import: pairwise sums, mean, max, and arrays normalised by them") {
  ModuleOptions options;
  options.use_cache = false;
  auto module = Module::load_source(R"py(import numpy as np
from numba import cuda

WAVE = np.cos(np.arange(300) * 0.37)
TOTAL = WAVE.sum()
MEAN = np.mean(WAVE)
PEAK = WAVE.max()
COUNT = np.arange(10).sum()
TAPS = np.exp(-np.arange(-3.0, 4.0) ** 2 / 4.5)
TAPS = (TAPS / TAPS.sum()).astype(np.float32)

@cuda.jit
def read(out, taps):
    out[0] = TOTAL
    out[1] = MEAN
    out[2] = PEAK
    out[3] = COUNT
    for k in range(7):
        taps[k] = TAPS[k]
)py", "reductions.py", options);
  REQUIRE(module.ok());
  std::vector<double> out(4);
  std::vector<float> taps(7);
  REQUIRE(module->kernel("read")->launch(Launch(1, 1).backend(Backend::cpu), out, taps).ok());
  CHECK(out[0] == -1.5586353528858141);  // NumPy's pairwise sum; a loop in order gives ...8121
  CHECK(out[1] == -0.005195451176286047);
  CHECK(out[2] == 1.0);
  CHECK(out[3] == 45.0);
  CHECK(taps[3] == 0.27068216f);
  CHECK(taps[0] == 0.036632847f);
}
