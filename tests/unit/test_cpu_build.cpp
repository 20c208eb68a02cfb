// How host calls of @jit functions are built: as Numba's CPU target builds them (for this
// machine's CPU, bounds checked only with boundscheck=True or NUMBA_BOUNDSCHECK=1, fastmath as
// -ffast-math), while kernels on the simulator keep every check and no CPU tuning.
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "cache/cache.h"
#include "pykern/function.h"
#include "pykern/ufunc.h"
#include "sim/host_cpu.h"
#include "sim/simulator.h"

using namespace pykern;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const char* cpu_source = R"py(from numba import njit

@njit
def at(a, i):
    return a[i]

@njit(boundscheck=True)
def checked_at(a, i):
    return a[i]

@njit
def product_plus(a, b, c):
    return a * b + c

@njit(fastmath={'nnan', 'ninf', 'contract'})
def finite_dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s

@njit(fastmath=True)
def fast_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s

import math

@njit
def root(x):
    return math.sqrt(x)
)py";

// A fresh cache folder per test, removed afterwards.
struct CacheDir {
  std::filesystem::path path;
  explicit CacheDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("pykern-cpu-build-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
  }
  ~CacheDir() { std::filesystem::remove_all(path); }
  // The compiler flags of the one library built for this CPU (host_cpu in its record).
  std::string host_library_options() const {
    cache::KernelCache cache(path);
    std::string options;
    int found = 0;
    for (const cache::CacheEntryInfo& entry : cache.list()) {
      if (!entry.record.is_object() || entry.record.value("output", "") != "so" || !entry.record.contains("host_cpu"))
        continue;
      CHECK(entry.record["host_cpu"] == sim::host_cpu_identity());
      options = entry.record.value("options", "");
      ++found;
    }
    CHECK(found == 1);
    return options;
  }
};

Module load(const CacheDir& cache) {
  ModuleOptions options;
  options.cache_dir = cache.path.string();
  auto module = Module::load_source(cpu_source, "cpu.py", options);
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  return *module;
}

// Sets NUMBA_BOUNDSCHECK for one scope (unset: nullptr), and puts back what was there.
struct BoundscheckEnv {
  std::string saved;
  bool had;
  explicit BoundscheckEnv(const char* value) : had(std::getenv("NUMBA_BOUNDSCHECK") != nullptr) {
    if (had) saved = std::getenv("NUMBA_BOUNDSCHECK");
    if (value) ::setenv("NUMBA_BOUNDSCHECK", value, 1);
    else ::unsetenv("NUMBA_BOUNDSCHECK");
  }
  ~BoundscheckEnv() {
    if (had) ::setenv("NUMBA_BOUNDSCHECK", saved.c_str(), 1);
    else ::unsetenv("NUMBA_BOUNDSCHECK");
  }
};

}  // namespace

TEST_CASE("kernels on the simulator check every index and are portable; @jit functions build for this CPU") {
  sim::BuildOptions kernel;
  CHECK(has(sim::build_flags(kernel), "-DPK_BOUNDSCHECK=1"));
  CHECK_FALSE(has(sim::build_flags(kernel), "-march"));
  CHECK_FALSE(has(sim::build_flags(kernel), "PK_NO_LOOP_TICKS"));  // a launch's timeout stops its loops
  kernel.fastmath = FastMath::all();  // a kernel's fastmath is NVRTC's; the simulator keeps IEEE arithmetic
  CHECK_FALSE(has(sim::build_flags(kernel), "fast-math"));

  sim::BuildOptions function;
  function.cpu_function = true;
  CHECK(has(sim::build_flags(function), "-march=native"));
  CHECK(has(sim::build_flags(function), "-DPK_NO_LOOP_TICKS=1"));  // a host call takes no timeout
  CHECK_FALSE(has(sim::build_flags(function), "PK_BOUNDSCHECK"));
  CHECK_FALSE(has(sim::build_flags(function), "fast-math"));
  CHECK(has(sim::build_flags(function), "-ffp-contract=off"));
  CHECK(has(sim::build_flags(function), "-fno-math-errno"));
  function.boundscheck = true;
  CHECK(has(sim::build_flags(function), "-DPK_BOUNDSCHECK=1"));
  function.fastmath = FastMath::all();
  CHECK(has(sim::build_flags(function), "-ffast-math"));
  CHECK_FALSE(has(sim::build_flags(function), "-ffp-contract=off"));
}

TEST_CASE("Numba's fastmath flags become the g++ options they justify, never more") {
  auto options_for = [](std::initializer_list<FastMathFlag> flags) {
    sim::BuildOptions function;
    function.cpu_function = true;
    for (FastMathFlag flag : flags) function.fastmath.add(flag);
    return sim::build_flags(function);
  };
  using F = FastMathFlag;
  std::string finite = options_for({F::nnan, F::ninf});
  CHECK(has(finite, "-ffinite-math-only"));
  CHECK(has(finite, "-ffp-contract=off"));  // contract not asked: a * b + c still rounds twice
  CHECK_FALSE(has(finite, "-ffast-math"));
  CHECK_FALSE(has(options_for({F::nnan}), "-ffinite-math-only"));  // g++ has no option for nnan alone
  CHECK(has(options_for({F::contract}), "-ffp-contract=fast"));
  CHECK(has(options_for({F::nsz}), "-fno-signed-zeros"));
  CHECK(has(options_for({F::arcp}), "-freciprocal-math"));
  CHECK_FALSE(has(options_for({F::reassoc}), "-fassociative-math"));  // needs nsz too in g++
  CHECK(has(options_for({F::reassoc, F::nsz}), "-fassociative-math"));
  CHECK(has(options_for({F::fast}), "-ffast-math"));
}

TEST_CASE("fastmath={'nnan', 'ninf', 'contract'} builds a host call with those flags only") {
  BoundscheckEnv unset(nullptr);
  CacheDir cache("fastmath_set");
  Module module = load(cache);
  auto dot = module.function("finite_dot")->call(Array::from<double>({1, 2, 3}), Array::from<double>({4, 5, 6}));
  REQUIRE(dot.ok());
  CHECK(dot->values.at(0).value.real() == 32.0);
  std::string options = cache.host_library_options();
  CAPTURE(options);
  CHECK(has(options, "-ffinite-math-only"));
  CHECK(has(options, "-ffp-contract=fast"));
  CHECK_FALSE(has(options, "-ffast-math"));
}

TEST_CASE("a library built for this CPU is keyed by its features: an entry another CPU made is never loaded") {
  CHECK_FALSE(sim::host_cpu_identity().empty());
  CHECK(sim::host_cpu_identity() == sim::host_cpu_identity());
  sim::BuildOptions function;
  function.cpu_function = true;
  std::string source = "// some generated source\n";
  CHECK(sim::library_key(source, function, "x86 AuthenticAMD avx512") !=
        sim::library_key(source, function, "x86 GenuineIntel avx2"));
  CHECK(sim::library_key(source, function, "cpu a") == sim::library_key(source, function, "cpu a"));
  sim::BuildOptions kernel;  // the same everywhere: a shared cache serves every machine
  CHECK(sim::library_key(source, kernel, "x86 AuthenticAMD avx512") ==
        sim::library_key(source, kernel, "x86 GenuineIntel avx2"));
  CHECK(sim::library_key(source, kernel, "cpu a") != sim::library_key(source, function, "cpu a"));
}

TEST_CASE("a host call is built without bounds checks unless asked, and its negative indices still wrap") {
  BoundscheckEnv unset(nullptr);
  CacheDir cache("plain");
  Module module = load(cache);
  Array a = Array::from<double>({1, 2, 3});
  auto last = module.function("at")->call(a, int64_t(-1));
  REQUIRE_MESSAGE(last.ok(), last.error().message);
  CHECK(last->values.at(0).value.real() == 3.0);
  auto first = module.function("at")->call(a, int64_t(-3));
  REQUIRE(first.ok());
  CHECK(first->values.at(0).value.real() == 1.0);
  std::string options = cache.host_library_options();
  CAPTURE(options);
  CHECK(has(options, "-march=native"));
  CHECK_FALSE(has(options, "PK_BOUNDSCHECK"));
}

TEST_CASE("boundscheck=True makes an out-of-bounds index Numba's IndexError, and negative ones still wrap") {
  BoundscheckEnv unset(nullptr);
  CacheDir cache("checked");
  Module module = load(cache);
  Array a = Array::from<double>({1, 2, 3});
  auto wrapped = module.function("checked_at")->call(a, int64_t(-2));
  REQUIRE(wrapped.ok());
  CHECK(wrapped->values.at(0).value.real() == 2.0);
  auto failed = module.function("checked_at")->call(a, int64_t(3));
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().message == "cpu.py:9: IndexError: index 3 is out of bounds for axis 0 with size 3");
  auto below = module.function("checked_at")->call(a, int64_t(-4));
  REQUIRE_FALSE(below.ok());
  CHECK(has(below.error().message, "index -4 is out of bounds for axis 0 with size 3"));
  CHECK(has(cache.host_library_options(), "-DPK_BOUNDSCHECK=1"));
}

TEST_CASE("NUMBA_BOUNDSCHECK=1 checks every function and 0 none, whatever the decorators say") {
  Array a = Array::from<double>({1, 2, 3});
  SUBCASE("1: a function without boundscheck=True raises IndexError") {
    BoundscheckEnv on("1");
    CacheDir cache("env-on");
    Module module = load(cache);
    auto failed = module.function("at")->call(a, int64_t(5));
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.error().message == "cpu.py:5: IndexError: index 5 is out of bounds for axis 0 with size 3");
  }
  SUBCASE("0: boundscheck=True is overridden (its build has no checks)") {
    BoundscheckEnv off("0");
    CacheDir cache("env-off");
    Module module = load(cache);
    auto inside = module.function("checked_at")->call(a, int64_t(1));
    REQUIRE(inside.ok());
    CHECK(inside->values.at(0).value.real() == 2.0);
    CHECK_FALSE(has(cache.host_library_options(), "PK_BOUNDSCHECK"));
  }
  SUBCASE("not an integer: ignored, as Numba warns and ignores it") {
    BoundscheckEnv junk("yes");
    CacheDir cache("env-junk");
    Module module = load(cache);
    REQUIRE(module.function("checked_at")->call(a, int64_t(1)).ok());
    CHECK(has(cache.host_library_options(), "-DPK_BOUNDSCHECK=1"));
  }
}

TEST_CASE("a * b + c rounds twice in a host call, as Numba's does without fastmath (no FMA)") {
  BoundscheckEnv unset(nullptr);
  CacheDir cache("contract");
  Module module = load(cache);
  // (1 + 2^-30)(1 - 2^-30) = 1 - 2^-60 rounds to 1, so the sum is 0; one FMA gives -2^-60.
  double a = 1.0 + std::ldexp(1.0, -30), b = 1.0 - std::ldexp(1.0, -30);
  auto sum = module.function("product_plus")->call(a, b, -1.0);
  REQUIRE(sum.ok());
  CHECK(sum->values.at(0).value.real() == 0.0);
  CHECK(has(cache.host_library_options(), "-ffp-contract=off"));
}

TEST_CASE("a ufunc called on the CPU is built for this CPU too: its loop is pykern's own, over in-bounds indices") {
  CacheDir cache("ufunc");
  ModuleOptions options;
  options.cache_dir = cache.path.string();
  auto module = Module::load_source("from numba import vectorize\n\n@vectorize(['float64(float64, float64)'], "
                                    "target='parallel')\ndef add(x, y):\n    return x + y\n",
                                    "ufunc.py", options);
  REQUIRE(module.ok());
  auto add = module->ufunc("add");
  REQUIRE(add.ok());
  auto sum = add->call({Array::from<double>({1, 2, 3}), Array::from<double>({10, 20, 30})}, std::nullopt, Backend::cpu);
  REQUIRE_MESSAGE(sum.ok(), sum.error().message);
  CHECK(sum->at<double>(2) == 33.0);
  std::string flags = cache.host_library_options();
  CHECK(has(flags, "-march=native"));
  CHECK_FALSE(has(flags, "PK_BOUNDSCHECK"));
}

TEST_CASE("a host call's math functions leave errno alone, as Numba's do (and g++ inlines sqrt)") {
  BoundscheckEnv unset(nullptr);
  CacheDir cache("errno");
  Module module = load(cache);
  REQUIRE(module.function("root")->call(4.0).ok());  // built now: the build may touch errno
  errno = 0;
  auto root = module.function("root")->call(-1.0);
  int after = errno;
  REQUIRE(root.ok());
  CHECK(std::isnan(root->values.at(0).value.real()));
  CHECK(after == 0);  // glibc's sqrt sets EDOM
}

TEST_CASE("fastmath=True builds a host call with -ffast-math") {
  BoundscheckEnv unset(nullptr);
  CacheDir cache("fastmath");
  Module module = load(cache);
  auto sum = module.function("fast_sum")->call(Array::from<double>({1, 2, 3, 4}));
  REQUIRE(sum.ok());
  CHECK(sum->values.at(0).value.real() == 10.0);
  std::string options = cache.host_library_options();
  CHECK(has(options, "-ffast-math"));
  CHECK(has(options, "-march=native"));
}
