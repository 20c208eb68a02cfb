// @vectorize, @guvectorize, @cuda.reduce and xoroshiro128p states through the C++ API.
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include <doctest/doctest.h>

#include "helpers.h"
#include "pykern/npy.h"
#include "pykern/random.h"
#include "pykern/ufunc.h"

using namespace pykern;

namespace {
const char* source = R"py(
import math
from numba import cuda, vectorize, guvectorize, float32, float64, int64


@vectorize(['int64(int64, int64)', 'float32(float32, float32)', 'float64(float64, float64)'], target='cuda')
def add(x, y):
    return x + y


@vectorize(['float64(float64, float64, float64)'], target='cuda')
def fma3(a, b, c):
    return a * b + c


@guvectorize(['(float64[:, :], float64[:], float64[:])'], '(m,n),(n)->(m)', target='cuda')
def matvec(m, v, out):
    for i in range(m.shape[0]):
        acc = 0.0
        for j in range(m.shape[1]):
            acc += m[i, j] * v[j]
        out[i] = acc


@cuda.reduce
def total(a, b):
    return a + b


@cuda.reduce
def biggest(a, b):
    return max(a, b)


@cuda.reduce
def smallest(a, b):
    return min(a, b)
)py";

Module load() {
  ModuleOptions options;
  options.cache_dir = (std::filesystem::temp_directory_path() / ("pykern-gen-cache-" + std::to_string(::getpid()))).string();
  auto module = Module::load_source(source, "generators.py", options);
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  return *module;
}
}  // namespace

TEST_CASE("a multi-signature ufunc picks the signature of its arrays; scalars convert to it") {
  Module module = load();
  auto add = module.ufunc("add");
  REQUIRE(add.ok());
  auto ints = add->call({Array::from<int64_t>({1, 2, 3}), Array::from<int64_t>({10, 20, 30})});
  REQUIRE(ints.ok());
  CHECK(ints->dtype() == DType::int_(64));
  CHECK(ints->at<int64_t>(2) == 33);
  auto floats = add->call({Array::from<float>({1.5f, 2.5f}), 1.0});  // a Python float becomes float32
  REQUIRE(floats.ok());
  CHECK(floats->dtype() == DType::float_(32));
  CHECK(floats->at<float>(1) == 3.5f);
  auto mixed = add->call({Array::from<float>({1.5f}), Array::from<double>({1.0})});
  REQUIRE_FALSE(mixed.ok());
  CHECK(mixed.error().message.find("exactly") != std::string::npos);
}

TEST_CASE("ufuncs broadcast three inputs of different shapes and write into out=") {
  Module module = load();
  auto fma3 = module.ufunc("fma3");
  Array a = Array::from<double>({1, 2, 3}, {3});                 // (3,)
  Array b = Array::from<double>({10, 20}, {2, 1});               // (2, 1)
  Array out = Array::zeros(DType::float_(64), {2, 3});
  auto result = fma3->call({a, b, 0.5}, out);
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? std::string() : result.error().describe()));
  CHECK(result->data() == out.data());
  CHECK(out.at<double>(1, 2) == 3 * 20 + 0.5);
  CHECK(out.at<double>(0, 0) == 10.5);
  auto bad = fma3->call({a, Array::from<double>({1, 2}), 1.0});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("could not be broadcast") != std::string::npos);
}

TEST_CASE("a gufunc with two core dimensions loops over the rest") {
  Module module = load();
  auto matvec = module.ufunc("matvec");
  Array m = Array::zeros(DType::float_(64), {4, 2, 3});  // 4 matrices of 2x3
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) m.at<double>(k, i, j) = k + i * j;
  Array v = Array::from<double>({1, 2, 3});
  auto result = matvec->call({m, v});
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? std::string() : result.error().describe()));
  CHECK(result->shape() == std::vector<int64_t>{4, 2});
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i) CHECK(result->at<double>(k, i) == k * 6 + i * (0 + 2 + 6));
  auto wrong = matvec->call({m, Array::from<double>({1, 2})});
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message.find("core dimension 'n'") != std::string::npos);
}

TEST_CASE("reductions over 1, 2, 1000 and a million elements; max and min; init and res") {
  Module module = load();
  auto total = module.reduction("total");
  REQUIRE(total.ok());
  for (int64_t n : {int64_t(1), int64_t(2), int64_t(1000), int64_t(1000000)}) {
    CAPTURE(n);
    std::vector<int64_t> values(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = i + 1;
    auto sum = total->reduce(Array::from(values));
    REQUIRE(sum.ok());
    CHECK(sum->integer == n * (n + 1) / 2);
    CHECK(sum->type == DType::int_(64));
  }
  std::vector<double> values(10007);
  for (size_t i = 0; i < values.size(); ++i) values[i] = std::sin(static_cast<double>(i)) * 100;
  double want_max = *std::max_element(values.begin(), values.end());
  double want_min = *std::min_element(values.begin(), values.end());
  CHECK(module.reduction("biggest")->reduce(Array::from(values), -1e9)->value.real() == want_max);
  // init joins the fold: min over the values and 0.0 (the default init) is the smaller one.
  CHECK(module.reduction("smallest")->reduce(Array::from(values))->value.real() == std::min(want_min, 0.0));
  Array res = Array::zeros(DType::float_(64), {1});
  auto empty = total->reduce(Array::zeros(DType::float_(64), {0}), 5.0, res);
  REQUIRE(empty.ok());
  CHECK(empty->value.real() == 5.0);  // an empty array gives init
  CHECK(res.at<double>(0) == 5.0);
  CHECK_FALSE(total->reduce(Array::zeros(DType::float_(64), {2, 2})).ok());
  CHECK_FALSE(module.reduction("add").ok());
  CHECK_FALSE(module.ufunc("total").ok());
  std::filesystem::remove_all((std::filesystem::temp_directory_path() / ("pykern-gen-cache-" + std::to_string(::getpid()))));
}

TEST_CASE("xoroshiro128p states are Numba's, bit for bit") {
  auto numba = load_npy((test::source_dir() / "tests/corpus/seeds/s001_compute_pi_xoroshiro/inputs/rng_states.npy").string());
  REQUIRE(numba.ok());
  Array ours = create_xoroshiro128p_states(256, 1);
  REQUIRE(ours.dtype() == numba->dtype());
  CHECK(std::memcmp(ours.data(), numba->data(), 256 * 16) == 0);
  // subsequence_start k gives the states of generator k onwards.
  Array shifted = create_xoroshiro128p_states(4, 1, 3);
  CHECK(std::memcmp(shifted.data(), static_cast<const char*>(numba->data()) + 3 * 16, 4 * 16) == 0);
}
