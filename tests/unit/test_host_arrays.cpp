// Arrays that @jit functions on the host make and return (runtime/pykern/owned_array.cuh,
// Returned::arrays): they own their memory and outlive the module, views of an argument share
// its memory, module constants come back as copies, and nothing is leaked.
#include <doctest/doctest.h>
#include <malloc.h>
#include <unistd.h>

#include <filesystem>
#include <variant>

#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

LUT = np.array([1.5, 2.5, 3.5])

@njit
def grid(n):
    g = np.zeros((n, n + 1), dtype=np.int32)
    for i in range(n):
        for j in range(n + 1):
            g[i, j] = 10 * i + j
    return g, n * (n + 1), g.T

@njit
def tail(a):
    return a[1:]

@njit
def table():
    return LUT

@njit
def churn(n, rounds):
    total = 0.0
    for r in range(rounds):
        a = np.ones(n)
        b = a[1:]
        total += b[0] + a.copy()[0]
    return total

@njit
def big(n):
    return np.full(n, 2.0)

@njit
def sizes(n, m):
    return np.empty((n, m)).shape[1]

@njit
def pick(a, whole):
    if whole:
        x = a
    else:
        x = a[::2]
    return x[0] + x.shape[0]
)py";

Module load() {
  ModuleOptions options;
  options.cache_dir =
      (std::filesystem::temp_directory_path() / ("pykern-host-arrays-" + std::to_string(::getpid()))).string();
  auto module = Module::load_source(source, "arrays.py", options);
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  return *module;
}

std::string message(const Result<Returned>& r) { return r.ok() ? "(ok)" : r.error().describe(); }

size_t heap_in_use() {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

}  // namespace

TEST_CASE("a returned tuple of arrays and scalars: items in order, arrays owning their memory past the module") {
  Returned made;
  {
    Module module = load();
    auto called = module.function("grid")->call(int64_t(3));
    REQUIRE_MESSAGE(called.ok(), message(called));
    made = *called;
  }  // the module and its compiled library are gone; the arrays are not
  CHECK(made.is_tuple);
  CHECK(made.type == "Tuple(array(int32, 2d, C), int64, array(int32, 2d, F))");
  REQUIRE(made.size() == 3);
  REQUIRE(made.arrays.size() == 2);
  REQUIRE(made.values.size() == 1);
  CHECK(made.array_items == std::vector<bool>{true, false, true});
  const Array& g = made.arrays[0];
  CHECK(g.dtype() == DType::int_(32));
  CHECK(g.shape() == std::vector<int64_t>{3, 4});
  CHECK(g.is_c_contiguous());
  CHECK(g.at<int32_t>(2, 3) == 23);
  CHECK(std::get<Scalar>(made.item(1)).integer == 12);
  // The transpose views the same storage, F-ordered.
  Array t = std::get<Array>(made.item(2));
  CHECK(t.shape() == std::vector<int64_t>{4, 3});
  CHECK(t.is_f_contiguous());
  CHECK(t.data() == g.data());
  CHECK(t.at<int32_t>(3, 2) == 23);
}

TEST_CASE("a returned view of an argument shares its memory; a module constant comes back as a copy") {
  Module module = load();
  Array a = Array::from<double>({1, 2, 3, 4});
  auto tail = module.function("tail")->call(a);
  REQUIRE_MESSAGE(tail.ok(), message(tail));
  REQUIRE(tail->arrays.size() == 1);
  Array view = tail->arrays[0];
  CHECK(view.shape() == std::vector<int64_t>{3});
  CHECK(view.data() == static_cast<double*>(a.data()) + 1);
  a = Array();  // the view keeps the argument's memory alive
  CHECK(view.at<double>(2) == 4.0);
  auto table = module.function("table")->call();
  REQUIRE_MESSAGE(table.ok(), message(table));
  REQUIRE(table->arrays.size() == 1);
  CHECK(table->arrays[0].at<double>(1) == 2.5);
  table->arrays[0].at<double>(1) = 0.0;  // a copy: the constant stays
  auto again = module.function("table")->call();
  REQUIRE(again.ok());
  CHECK(again->arrays[0].at<double>(1) == 2.5);
}

TEST_CASE("arrays made and dropped in a loop, and returned arrays dropped by the caller, are freed") {
  Module module = load();
  auto churn = module.function("churn");
  auto big = module.function("big");
  REQUIRE(churn.ok());
  REQUIRE(big.ok());
  auto warm = churn->call(int64_t(1000), int64_t(1));  // compiled before measuring
  REQUIRE_MESSAGE(warm.ok(), message(warm));
  REQUIRE(big->call(int64_t(10)).ok());
  size_t before = heap_in_use();
  // 200 rounds of 800 KB arrays (and their copies) inside, and 200 returned ones: 320 MB if kept.
  auto churned = churn->call(int64_t(100000), int64_t(200));
  REQUIRE_MESSAGE(churned.ok(), message(churned));
  CHECK(churned->values[0].value.real() == 400.0);
  for (int i = 0; i < 200; ++i) {
    auto made = big->call(int64_t(100000));
    REQUIRE(made.ok());
    CHECK(made->arrays[0].at<double>(99999) == 2.0);
  }
  size_t after = heap_in_use();
  CHECK(after < before + (32u << 20));
}

TEST_CASE("array creation's run-time errors are Numba's: negative and too large shapes") {
  Module module = load();
  auto negative = module.function("sizes")->call(int64_t(2), int64_t(-1));
  REQUIRE_FALSE(negative.ok());
  CHECK(negative.error().message == "arrays.py:37: ValueError: negative dimensions not allowed");
  auto huge = module.function("sizes")->call(int64_t(1) << 40, int64_t(1) << 40);
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().message.find("ValueError: array is too big") != std::string::npos);
  auto fits = module.function("sizes")->call(int64_t(2), int64_t(5));
  REQUIRE_MESSAGE(fits.ok(), message(fits));
  CHECK(fits->values[0].integer == 5);
}

TEST_CASE("a name holding a C array on one path and a strided view on another is an A array (both convert)") {
  Module module = load();
  Array a = Array::from<double>({1, 2, 3, 4, 5});
  auto whole = module.function("pick")->call(a, true);
  REQUIRE_MESSAGE(whole.ok(), message(whole));
  CHECK(whole->values[0].value.real() == 6.0);
  auto strided = module.function("pick")->call(a, false);
  REQUIRE_MESSAGE(strided.ok(), message(strided));
  CHECK(strided->values[0].value.real() == 4.0);
}
