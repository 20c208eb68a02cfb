// The GPU suite: every corpus kernel case on Backend::cuda, compared with Numba's outputs;
// host arrays (strided ones too) copied in and back; a debug kernel's out-of-bounds access
// reported; driver errors as results. Skips itself when no GPU is present, so CI stays green.
#include <unistd.h>

#include <doctest/doctest.h>

#include "../unit/compare.h"
#include "../unit/corpus_case.h"
#include "../unit/helpers.h"
#include "cuda/driver.h"
#include "pykern/module.h"
#include "pykern/npy.h"
#include "pykern/ufunc.h"

namespace fs = std::filesystem;
using namespace pykern;

namespace {

bool have_gpu() {
  static const bool present = [] {
    auto devices = cuda::list_devices();
    if (!devices.ok() || devices->empty()) {
      MESSAGE("no GPU: the GPU suite is skipped (" << (devices.ok() ? "no device" : devices.error().message) << ")");
      return false;
    }
    return true;
  }();
  return present;
}

ModuleOptions options() {
  ModuleOptions o;
  o.cache_dir = (fs::temp_directory_path() / ("pykern-gpu-cache-" + std::to_string(::getpid()))).string();
  return o;
}

}  // namespace

TEST_CASE("every corpus kernel case runs on the GPU and matches Numba") {
  if (!have_gpu()) return;
  for (const fs::path& case_dir : test::corpus_case_dirs()) {
    auto spec = nlohmann::json::parse(test::read(case_dir / "case.json"));
    if (spec["kind"] != "kernel") continue;
    CAPTURE(case_dir.filename().string());
    auto module = Module::load_file((case_dir / "kernel.py").string(), options());
    REQUIRE(module.ok());
    auto [args, arrays] = test::case_arguments(case_dir, spec);
    Launch launch = test::case_launch(spec["launch"], Backend::cuda);
    auto status = module->kernel(spec["function"])->launch(launch, args);
    if (spec.contains("expect_error")) {
      CHECK_FALSE(status.ok());  // a debug build traps on the out-of-bounds access
      continue;
    }
    REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
    for (auto& [name, tol] : spec["check"].items()) {
      auto want = load_npy((case_dir / "expected" / (name + ".npy")).string());
      REQUIRE(want.ok());
      std::string why = test::compare_arrays(arrays.at(name), *want, tol);
      CHECK_MESSAGE(why.empty(), (name + ": " + why));
    }
  }
}

TEST_CASE("every corpus ufunc, gufunc and reduction runs on the GPU and matches Numba") {
  if (!have_gpu()) return;
  for (const fs::path& case_dir : test::corpus_case_dirs()) {
    auto spec = nlohmann::json::parse(test::read(case_dir / "case.json"));
    if (spec["kind"] == "kernel") continue;
    CAPTURE(case_dir.filename().string());
    auto module = Module::load_file((case_dir / "kernel.py").string(), options());
    REQUIRE(module.ok());
    auto args = test::case_arguments(case_dir, spec).args;
    Array result;
    if (spec["kind"] == "reduce") {
      const Array& values = std::get<Array>(args[0]);
      auto value = module->reduction(spec["function"])->reduce(values, std::nullopt, std::nullopt, Backend::cuda);
      REQUIRE_MESSAGE(value.ok(), (value.ok() ? std::string() : value.error().describe()));
      result = Array::zeros(values.dtype(), {});
      value->store(values.dtype(), result.data());
    } else {
      auto called = module->ufunc(spec["function"])->call(args, std::nullopt, Backend::cuda);
      REQUIRE_MESSAGE(called.ok(), (called.ok() ? std::string() : called.error().describe()));
      result = *called;
    }
    auto want = load_npy((case_dir / "expected/result.npy").string());
    REQUIRE(want.ok());
    std::string why = test::compare_arrays(result, *want, spec["check"]["result"], test::first_input_abs_sum(case_dir, spec));
    CHECK_MESSAGE(why.empty(), why);
  }
}

TEST_CASE("strided host views go to the GPU and come back") {
  if (!have_gpu()) return;
  auto module = Module::load_source(
      "from numba import cuda\n@cuda.jit\ndef twice(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] *= 2\n",
      "twice.py", options());
  REQUIRE(module.ok());
  Array a = Array::from<float>({0, 1, 2, 3, 4, 5, 6, 7});
  auto odd = a.slice(0, {1, std::nullopt, 2});
  REQUIRE(odd.ok());
  auto status = module->kernel("twice")->launch(Launch(1, 32).backend(Backend::cuda), *odd);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
  CHECK(a.at<float>(1) == 2);
  CHECK(a.at<float>(2) == 2);  // untouched
  CHECK(a.at<float>(7) == 14);
}
