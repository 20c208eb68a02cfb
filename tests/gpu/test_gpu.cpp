// The GPU suite: every corpus case on Backend::cuda, compared with Numba's outputs, with host
// arrays (copied in and back by the launch) and with device arrays (to_device, copy_to_host);
// strided views; a device array through DLPack; streams and events; pinned memory; launch limits; a debug kernel's
// out-of-bounds report; a kernel fault in a child process; a bundle's cubin and PTX; the
// resources and occupancy read from cubins against the driver's. Skips itself without a GPU
// (ctest: skipped), so CI stays green; .ci/device-run runs it on a GPU machine.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "../unit/bundle_data.h"
#include "../unit/case_selection.h"
#include "../unit/compare.h"
#include "../unit/corpus_case.h"
#include "../unit/helpers.h"
#include "cuda/driver.h"
#include "cuda/gpu.h"
#include "pykern/compiler.h"
#include "pykern/device.h"
#include "pykern/module.h"
#include "pykern/npy.h"
#include "pykern/ufunc.h"

namespace fs = std::filesystem;
using namespace pykern;

namespace {

// Whether there is a GPU to test on; without one the calling test case skips itself, and a run
// in which all did exits with test::kSkipped, which ctest reports as skipped.
bool have_gpu() {
  static const std::string missing = [] {
    auto devices = cuda::list_devices();
    if (!devices.ok() || devices->empty())
      return "no GPU: the GPU suite is skipped (" + (devices.ok() ? std::string("no device") : devices.error().message) + ")";
    return std::string();
  }();
  if (!missing.empty()) test::skip(missing);
  return missing.empty();
}

ModuleOptions options() {
  ModuleOptions o;
  // $PYKERN_CACHE_DIR: one cache for the processes .ci/device-run starts, one case each.
  const char* shared = std::getenv("PYKERN_CACHE_DIR");
  o.cache_dir = shared && *shared ? std::string(shared)
                                  : (fs::temp_directory_path() / ("pykern-gpu-cache-" + std::to_string(::getpid()))).string();
  return o;
}

// One corpus case, run by one of the three checks below: "" when it passed, else why not.
// Nothing in it stops the test (no REQUIRE): one case's failure leaves the others to run.
using CaseCheck = std::string (*)(const fs::path& case_dir, const nlohmann::json& spec);

std::string error_text(const Error& e) { return e.describe(); }

std::string compare_checked(const fs::path& case_dir, const nlohmann::json& spec, std::map<std::string, Array>& arrays) {
  std::string why;
  for (auto& [name, tol] : spec["check"].items()) {
    auto want = load_npy((case_dir / "expected" / (name + ".npy")).string());
    if (!want.ok()) return name + ": no expected output: " + error_text(want.error());
    auto found = arrays.find(name);
    if (found == arrays.end()) return name + ": not an argument of the case";
    std::string differs = test::compare_arrays(found->second, *want, tol);
    if (!differs.empty()) why += (why.empty() ? "" : "; ") + name + ": " + differs;
  }
  return why;
}

// A kernel case with host arrays: the launch copies them in and back.
std::string run_kernel_case(const fs::path& case_dir, const nlohmann::json& spec) {
  auto module = Module::load_file((case_dir / "kernel.py").string(), options());
  if (!module.ok()) return "load: " + error_text(module.error());
  auto [args, arrays] = test::case_arguments(case_dir, spec);
  auto kernel = module->kernel(spec["function"]);
  if (!kernel.ok()) return "kernel: " + error_text(kernel.error());
  auto status = kernel->launch(test::case_launch(spec["launch"], Backend::cuda), args);
  if (spec.contains("expect_error"))  // a debug build traps on the out-of-bounds access
    return status.ok() ? "the launch succeeded; an error was expected" : "";
  if (!status.ok()) return "launch: " + error_text(status.error());
  return compare_checked(case_dir, spec, arrays);
}

// A kernel case on device arrays (to_device, launch on a stream, copy_to_host).
std::string run_device_array_case(const fs::path& case_dir, const nlohmann::json& spec) {
  auto module = Module::load_file((case_dir / "kernel.py").string(), options());
  if (!module.ok()) return "load: " + error_text(module.error());
  auto [args, arrays] = test::case_arguments(case_dir, spec);
  auto stream = Stream::create(Backend::cuda);
  if (!stream.ok()) return "stream: " + error_text(stream.error());
  std::vector<Argument> device_args;
  for (const Argument& a : args) {
    const Array* host = std::get_if<Array>(&a);
    if (!host) {
      device_args.push_back(a);
      continue;
    }
    auto device = to_device(*host, *stream, Backend::cuda);
    if (!device.ok()) return "to_device: " + error_text(device.error());
    device_args.push_back(*device);
  }
  auto kernel = module->kernel(spec["function"]);
  if (!kernel.ok()) return "kernel: " + error_text(kernel.error());
  auto status = kernel->launch(test::case_launch(spec["launch"], Backend::cuda).stream(*stream), device_args);
  if (!status.ok()) return "launch: " + error_text(status.error());
  size_t index = 0;
  for (const auto& arg : spec["args"]) {
    if (!arg.contains("scalar")) {
      auto copied = copy_to_host(std::get<Array>(device_args[index]), arrays.at(arg["name"]), *stream);
      if (!copied.ok()) return "copy_to_host: " + error_text(copied.error());
    }
    ++index;
  }
  if (auto synced = stream->synchronize(); !synced.ok()) return "synchronize: " + error_text(synced.error());
  return compare_checked(case_dir, spec, arrays);
}

// A ufunc, gufunc or reduction case.
std::string run_generated_case(const fs::path& case_dir, const nlohmann::json& spec) {
  auto module = Module::load_file((case_dir / "kernel.py").string(), options());
  if (!module.ok()) return "load: " + error_text(module.error());
  auto args = test::case_arguments(case_dir, spec).args;
  Array result;
  if (spec["kind"] == "reduce") {
    const Array& values = std::get<Array>(args[0]);
    auto reduction = module->reduction(spec["function"]);
    if (!reduction.ok()) return "reduction: " + error_text(reduction.error());
    auto value = reduction->reduce(values, std::nullopt, std::nullopt, Backend::cuda);
    if (!value.ok()) return "reduce: " + error_text(value.error());
    result = Array::zeros(values.dtype(), {});
    value->store(values.dtype(), result.data());
  } else {
    auto ufunc = module->ufunc(spec["function"]);
    if (!ufunc.ok()) return "ufunc: " + error_text(ufunc.error());
    auto called = ufunc->call(args, std::nullopt, Backend::cuda);
    if (!called.ok()) return "call: " + error_text(called.error());
    result = *called;
  }
  auto want = load_npy((case_dir / "expected/result.npy").string());
  if (!want.ok()) return "no expected result: " + error_text(want.error());
  return test::compare_arrays(result, *want, spec["check"]["result"], test::first_input_abs_sum(case_dir, spec));
}

// A corpus case's name, unique across the corpus groups: "seeds/s001_add_1_debug_oob". It is
// the case's SUBCASE name, so `-sc=NAME` runs that case alone (.ci/device-run does, to keep a
// fault in one case from hiding the others).
std::string case_name(const fs::path& case_dir) {
  return case_dir.parent_path().filename().string() + "/" + case_dir.filename().string();
}

// The passed and failed cases of one check, printed as one line when the process ends (a
// SUBCASE re-runs its test case once per case, so no place in the test sees them all).
struct CaseTally {
  std::string check;
  std::vector<std::string> passed, failed;
  ~CaseTally() {
    if (passed.empty() && failed.empty()) return;
    std::string line = "GPU corpus, " + check + ": " + std::to_string(passed.size()) + " passed, " +
                       std::to_string(failed.size()) + " failed";
    for (size_t i = 0; i < failed.size(); ++i) line += (i == 0 ? ": " : ", ") + failed[i];
    std::fprintf(stderr, "%s\n", line.c_str());
  }
};

// The corpus, read once: a SUBCASE per case re-runs its test case once per case.
const std::vector<std::pair<fs::path, nlohmann::json>>& corpus() {
  static const std::vector<std::pair<fs::path, nlohmann::json>> cases = [] {
    std::vector<std::pair<fs::path, nlohmann::json>> read;
    for (const fs::path& case_dir : test::corpus_case_dirs())
      read.emplace_back(case_dir, nlohmann::json::parse(test::read(case_dir / "case.json"), nullptr, false));
    return read;
  }();
  return cases;
}

// Each selected corpus case as a SUBCASE of the calling test: it fails alone, with its reason.
void run_corpus(CaseTally& tally, bool (*selected)(const nlohmann::json& spec), CaseCheck check) {
  for (const auto& [case_dir, spec] : corpus()) {
    if (spec.is_discarded()) {
      FAIL_CHECK(case_name(case_dir) << ": case.json is not JSON");
      continue;
    }
    if (!selected(spec)) continue;
    const std::string name = case_name(case_dir);
    SUBCASE(name.c_str()) {
      std::string why;
      try {
        why = check(case_dir, spec);
      } catch (const std::exception& e) {
        why = std::string("exception: ") + e.what();
      }
      (why.empty() ? tally.passed : tally.failed).push_back(name);
      CHECK_MESSAGE(why.empty(), name << ": " << why);
    }
  }
}

bool is_kernel_case(const nlohmann::json& spec) { return spec.value("kind", "") == "kernel"; }
bool is_kernel_case_without_error(const nlohmann::json& spec) {
  return is_kernel_case(spec) && !spec.contains("expect_error");
}
// kind "function" (an @jit function called from the host) runs on the CPU only: not here.
bool is_generated_case(const nlohmann::json& spec) {
  std::string kind = spec.value("kind", "");
  return kind == "ufunc" || kind == "gufunc" || kind == "reduce";
}

CaseTally kernel_tally{"kernels with host arrays"};
CaseTally device_array_tally{"kernels with device arrays"};
CaseTally generated_tally{"ufuncs, gufuncs and reductions"};

}  // namespace

TEST_CASE("every corpus kernel case runs on the GPU and matches Numba") {
  if (!have_gpu()) return;
  run_corpus(kernel_tally, is_kernel_case, run_kernel_case);
}

TEST_CASE("every corpus ufunc, gufunc and reduction runs on the GPU and matches Numba") {
  if (!have_gpu()) return;
  run_corpus(generated_tally, is_generated_case, run_generated_case);
}

TEST_CASE("every corpus kernel case runs on device arrays and matches Numba") {
  if (!have_gpu()) return;
  run_corpus(device_array_tally, is_kernel_case_without_error, run_device_array_case);
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

TEST_CASE("device arrays: copies both ways, Fortran order, strided views, pinned memory") {
  if (!have_gpu()) return;
  Array host = Array::from<double>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto device = to_device(host.transpose(), {}, Backend::cuda);  // Fortran-contiguous (3, 2)
  REQUIRE(device.ok());
  CHECK(device->location() == Location::device);
  CHECK(device->is_f_contiguous());
  auto back = copy_to_host(*device);
  REQUIRE(back.ok());
  CHECK(back->at<double>(2, 1) == 6);
  auto column = device->index(1, 0);  // a strided device view: 1, 2, 3
  REQUIRE(column.ok());
  REQUIRE(copy_to_device(Array::from<double>({7, 8, 9}), *column).ok());
  back = copy_to_host(*device);
  REQUIRE(back.ok());
  CHECK(back->at<double>(0, 0) == 7);
  CHECK(back->at<double>(2, 0) == 9);
  CHECK(back->at<double>(0, 1) == 4);  // the other column untouched
  auto pinned = pinned_array(DType::float_(64), {3, 2}, Order::F, Backend::cuda);
  REQUIRE(pinned.ok());
  REQUIRE(copy_to_host(*device, *pinned).ok());
  CHECK(pinned->at<double>(1, 0) == 8);
}

TEST_CASE("a device array lent through DLPack and taken back is launched on, on its GPU") {
  if (!have_gpu()) return;
  auto module = Module::load_source(
      "from numba import cuda\n@cuda.jit\ndef twice(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] *= 2\n",
      "twice.py", options());
  REQUIRE(module.ok());
  auto device = to_device(Array::from<float>({1, 2, 3}), {}, Backend::cuda);
  REQUIRE(device.ok());
  auto lent = device->to_dlpack_versioned();
  REQUIRE(lent.ok());
  CHECK((*lent)->dl_tensor.device.device_type == kDLCUDA);
  CHECK((*lent)->dl_tensor.device.device_id == device->device_id());
  *device = Array();  // the tensor alone keeps the device memory now
  auto taken = Array::from_dlpack(*lent);
  REQUIRE(taken.ok());
  CHECK(taken->location() == Location::device);
  auto status = module->kernel("twice")->launch(Launch(1, 32).backend(Backend::cuda), *taken);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
  auto back = copy_to_host(*taken);
  REQUIRE(back.ok());
  CHECK(back->at<float>(2) == 6);
}

TEST_CASE("streams and events: asynchronous launches, timed") {
  if (!have_gpu()) return;
  auto module = Module::load_source(
      "from numba import cuda\n@cuda.jit\ndef twice(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] *= 2\n",
      "twice.py", options());
  REQUIRE(module.ok());
  auto stream = Stream::create(Backend::cuda);
  auto start = Event::create(Backend::cuda), end = Event::create(Backend::cuda);
  REQUIRE((stream.ok() && start.ok() && end.ok()));
  const int64_t n = 1 << 24;
  auto device = device_array(DType::float_(32), {n}, Order::C, Backend::cuda);
  REQUIRE(device.ok());
  Array ones = Array::zeros(DType::float_(32), {n});
  for (int64_t i = 0; i < n; ++i) ones.at<float>(i) = 1;
  REQUIRE(copy_to_device(ones, *device, *stream).ok());
  REQUIRE(start->record(*stream).ok());
  for (int k = 0; k < 10; ++k)
    REQUIRE(module->kernel("twice")->launch(Launch::forall(n).backend(Backend::cuda).stream(*stream), *device).ok());
  REQUIRE(end->record(*stream).ok());
  REQUIRE(end->synchronize().ok());
  auto ms = start->elapsed_ms(*end);
  REQUIRE(ms.ok());
  CHECK(*ms > 0);
  MESSAGE("10 launches over 2^24 floats took " << *ms << " ms");
  auto back = copy_to_host(*device, *stream);
  REQUIRE(back.ok());
  REQUIRE(stream->synchronize().ok());
  CHECK(back->at<float>(n - 1) == 1024);
}

TEST_CASE("a captured graph replays many small launches, is updated in place, and matches plain launches") {
  if (!have_gpu()) return;
  auto module = Module::load_source(
      "from numba import cuda\n@cuda.jit\ndef axpy(y, x, a):\n    i = cuda.grid(1)\n    if i < y.size:\n"
      "        y[i] += a * x[i]\n",
      "axpy.py", options());
  REQUIRE(module.ok());
  auto stream = Stream::create(Backend::cuda);
  REQUIRE(stream.ok());
  const int64_t n = 4096;
  Array x = Array::zeros(DType::float_(32), {n});
  for (int64_t i = 0; i < n; ++i) x.at<float>(i) = float(i % 7);
  auto dx = to_device(x, *stream, Backend::cuda), dy = device_array(DType::float_(32), {n}, Order::C, Backend::cuda),
       dz = device_array(DType::float_(32), {n}, Order::C, Backend::cuda);
  REQUIRE((dx.ok() && dy.ok() && dz.ok()));
  REQUIRE(copy_to_device(Array::zeros(DType::float_(32), {n}), *dy, *stream).ok());
  REQUIRE(copy_to_device(Array::zeros(DType::float_(32), {n}), *dz, *stream).ok());
  Launch launch = Launch::forall(n).backend(Backend::cuda).stream(*stream);
  REQUIRE(stream->begin_capture().ok());
  for (int k = 0; k < 20; ++k) REQUIRE(module->kernel("axpy")->launch(launch, *dy, *dx, 0.5f).ok());
  auto graph = stream->end_capture();
  REQUIRE_MESSAGE(graph.ok(), (graph.ok() ? std::string() : graph.error().message));
  CHECK(graph->size() == 20);
  auto start = Event::create(Backend::cuda), end = Event::create(Backend::cuda);
  REQUIRE((start.ok() && end.ok()));
  REQUIRE(start->record(*stream).ok());
  for (int r = 0; r < 50; ++r) REQUIRE(graph->launch(*stream).ok());
  REQUIRE(end->record(*stream).ok());
  REQUIRE(end->synchronize().ok());
  MESSAGE("50 replays of 20 launches: " << *start->elapsed_ms(*end) << " ms");
  auto y = copy_to_host(*dy, *stream);
  REQUIRE(y.ok());
  REQUIRE(stream->synchronize().ok());
  CHECK(y->at<float>(6) == doctest::Approx(1000 * 0.5f * 6));
  // The same launches on another array: updated in place.
  REQUIRE(stream->begin_capture().ok());
  for (int k = 0; k < 20; ++k) REQUIRE(module->kernel("axpy")->launch(launch, *dz, *dx, 2.0f).ok());
  auto newer = stream->end_capture();
  REQUIRE(newer.ok());
  auto updated = graph->update(*newer);
  REQUIRE(updated.ok());
  CHECK(*updated);
  REQUIRE(graph->launch(*stream).ok());
  auto z = copy_to_host(*dz, *stream);
  REQUIRE(z.ok());
  REQUIRE(stream->synchronize().ok());
  CHECK(z->at<float>(5) == doctest::Approx(20 * 2.0f * 5));
  // A launch with a host array cannot be captured: refused, the capture still usable.
  REQUIRE(stream->begin_capture().ok());
  CHECK_FALSE(module->kernel("axpy")->launch(launch, x, *dx, 1.0f).ok());
  REQUIRE(module->kernel("axpy")->launch(launch, *dz, *dx, 1.0f).ok());
  auto one = stream->end_capture();
  REQUIRE_MESSAGE(one.ok(), (one.ok() ? std::string() : one.error().message));
  CHECK(one->size() == 1);
}

TEST_CASE("peer access where the machine has two GPUs; a reset of an idle GPU") {
  if (!have_gpu()) return;
  auto gpus = list_gpus();
  REQUIRE(gpus.ok());
  if (gpus->size() > 1) {
    auto can = can_access_peer(0, 1);
    REQUIRE(can.ok());
    MESSAGE("GPU 0 can reach GPU 1: " << *can);
    if (*can) CHECK(enable_peer_access(1).ok());
  } else {
    CHECK_FALSE(*can_access_peer(0, 0));
  }
  REQUIRE(synchronize(Backend::cuda).ok());
  auto held = device_array(DType::float_(32), {4}, Order::C, Backend::cuda);
  REQUIRE(held.ok());
  CHECK_FALSE(reset_gpu().ok());  // the array uses it
  held = Error::make(ErrorKind::invalid_argument, "dropped");
  auto reset = reset_gpu();
  // Other tests' modules may still hold kernels loaded on the GPU: then the refusal says so.
  if (!reset.ok()) CHECK(reset.error().message.find("still use") != std::string::npos);
  auto after = device_array(DType::float_(32), {4}, Order::C, Backend::cuda);
  CHECK(after.ok());
}

TEST_CASE("managed, mapped and registered host memory are launched on in place; memory info is the driver's") {
  if (!have_gpu()) return;
  auto module = Module::load_source(
      "from numba import cuda\n@cuda.jit\ndef twice(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] *= 2\n",
      "twice.py", options());
  REQUIRE(module.ok());
  auto managed = managed_array(DType::float_(32), {1000}, Order::C, Backend::cuda);
  auto mapped = mapped_array(DType::float_(32), {1000}, Order::C, Backend::cuda);
  REQUIRE_MESSAGE(managed.ok(), (managed.ok() ? std::string() : managed.error().message));
  REQUIRE_MESSAGE(mapped.ok(), (mapped.ok() ? std::string() : mapped.error().message));
  Array plain = Array::zeros(DType::float_(32), {1000});
  auto registered = register_host(plain, true, Backend::cuda);
  REQUIRE_MESSAGE(registered.ok(), (registered.ok() ? std::string() : registered.error().message));
  for (const Array& a : {*managed, *mapped, *registered}) {
    CHECK(a.location() == Location::unified);
    for (int i = 0; i < 1000; ++i) a.at<float>(i) = float(i);
    auto status = module->kernel("twice")->launch(Launch::forall(1000).backend(Backend::cuda), a);
    REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
    REQUIRE(synchronize().ok());
    CHECK(a.at<float>(999) == 1998);
  }
  CHECK(plain.at<float>(10) == 20);  // registered in place: the host array itself changed
  auto info = memory_info(Backend::cuda);
  REQUIRE(info.ok());
  CHECK(info->free > 0);
  CHECK(info->free <= info->total);
}

TEST_CASE("streams: priorities, a stream waiting for another's event, callbacks and done(), an external stream") {
  if (!have_gpu()) return;
  auto module = Module::load_source(
      "from numba import cuda\n@cuda.jit\ndef twice(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] *= 2\n",
      "twice.py", options());
  REQUIRE(module.ok());
  auto range = Stream::priority_range(Backend::cuda);
  REQUIRE(range.ok());
  auto producer = Stream::create(StreamOptions{true, range->second}, Backend::cuda);
  auto consumer = Stream::create(StreamOptions{true, range->first}, Backend::cuda);
  auto ready = Event::create(Backend::cuda);
  REQUIRE((producer.ok() && consumer.ok() && ready.ok()));
  const int64_t n = 1 << 22;
  Array ones = Array::zeros(DType::float_(32), {n});
  for (int64_t i = 0; i < n; ++i) ones.at<float>(i) = 1;
  auto device = to_device(ones, {}, Backend::cuda);
  REQUIRE(device.ok());
  for (int k = 0; k < 4; ++k)
    REQUIRE(module->kernel("twice")->launch(Launch::forall(n).backend(Backend::cuda).stream(*producer), *device).ok());
  REQUIRE(ready->record(*producer).ok());
  REQUIRE(consumer->wait(*ready).ok());  // the consumer's launch runs after the producer's four
  REQUIRE(module->kernel("twice")->launch(Launch::forall(n).backend(Backend::cuda).stream(*consumer), *device).ok());
  std::atomic<int> called{0};
  REQUIRE(consumer->add_callback([&](const Status& s) { called = s.ok() ? 1 : 2; }).ok());
  auto done = consumer->done();
  REQUIRE(done.ok());
  CHECK(done->get().ok());
  CHECK(*consumer->query());
  CHECK(*ready->query());
  auto back = copy_to_host(*device);
  REQUIRE(back.ok());
  CHECK(back->at<float>(n - 1) == 32);
  // A stream the host program made, wrapped and queued on; pykern leaves it to its owner.
  CUstream theirs = nullptr;
  auto driver = cuda::Driver::get();
  REQUIRE(driver.ok());
  auto gpu = cuda::Gpu::current();
  REQUIRE(gpu.ok());
  REQUIRE((*gpu)->bind().ok());
  REQUIRE((*driver)->stream_create(&theirs, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
  {
    auto wrapped = Stream::wrap(theirs);
    REQUIRE(wrapped.ok());
    REQUIRE(module->kernel("twice")->launch(Launch::forall(n).backend(Backend::cuda).stream(*wrapped), *device).ok());
    REQUIRE(wrapped->synchronize().ok());
  }
  CHECK((*driver)->stream_query(theirs) == CUDA_SUCCESS);  // still alive after the wrapper went
  (*driver)->stream_destroy(theirs);
  back = copy_to_host(*device);
  REQUIRE(back.ok());
  CHECK(back->at<float>(0) == 64);
  CHECK(called == 1);
  REQUIRE(profile_start(Backend::cuda).ok());
  REQUIRE(profile_stop(Backend::cuda).ok());
}

TEST_CASE("launches that do not fit the device are refused with the device's limit") {
  if (!have_gpu()) return;
  auto module = Module::load_source(
      "from numba import cuda\n@cuda.jit\ndef twice(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] *= 2\n",
      "twice.py", options());
  REQUIRE(module.ok());
  auto device = device_array(DType::float_(32), {16}, Order::C, Backend::cuda);
  REQUIRE(device.ok());
  // Beyond any GPU's 227 KiB, Kernel::launch refuses before the launcher asks the device.
  auto status = module->kernel("twice")->launch(Launch(1, 32).backend(Backend::cuda).shared_bytes(size_t(1) << 30), *device);
  REQUIRE_FALSE(status.ok());
  CHECK_MESSAGE(status.error().message.find("a block has at most 227 KiB") != std::string::npos, status.error().message);
  // Beyond 48 KiB of dynamic shared memory the kernel opts in, and the launch runs.
  status = module->kernel("twice")->launch(Launch(1, 32).backend(Backend::cuda).shared_bytes(100 * 1024), *device);
  CHECK_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
}

TEST_CASE("static and dynamic shared memory together past the device's limit are refused by the launcher") {
  if (!have_gpu()) return;
  // 8 KiB static (cuda.shared.array) and 227 KiB dynamic: each alone passes Kernel::launch's
  // check, together they pass every GPU's opt-in limit (227 KiB at most), so the launcher
  // refuses with the device's own number.
  auto module = Module::load_source(R"py(from numba import cuda, float32

@cuda.jit
def staged(a):
    tile = cuda.shared.array(2048, float32)
    i = cuda.grid(1)
    tile[cuda.threadIdx.x] = 1.0
    cuda.syncthreads()
    if i < a.size:
        a[i] = tile[cuda.threadIdx.x]
)py", "staged.py", options());
  REQUIRE(module.ok());
  auto device = device_array(DType::float_(32), {16}, Order::C, Backend::cuda);
  REQUIRE(device.ok());
  auto status = module->kernel("staged")->launch(Launch(1, 32).backend(Backend::cuda).shared_bytes(227 * 1024), *device);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().kind == ErrorKind::launch);
  CHECK_MESSAGE(status.error().message.find(" static, 232448 dynamic) and the device allows ") !=
                    std::string::npos,
                status.error().message);
}

TEST_CASE("grid.sync() orders every block of a cooperative launch, twice in a row") {
  if (!have_gpu()) return;
  auto module = Module::load_source(R"py(from numba import cuda

@cuda.jit
def sequential_rows(M):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, M.shape[0]):
        M[row, col] = M[row - 1, M.shape[1] - col - 1] + 1
        g.sync()
)py", "grid_sync.py", options());
  REQUIRE(module.ok());
  // 32 blocks of 32 threads: each row reads what other blocks wrote in the row before. The
  // second launch reuses the module's barrier word as the first left it.
  for (int launch = 0; launch < 2; ++launch) {
    Array m = Array::zeros(DType::int_(32), {256, 1024});
    auto status = module->kernel("sequential_rows")->launch(Launch(32, 32).backend(Backend::cuda), m);
    REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
    int wrong = 0;
    for (int row = 0; row < 256; ++row)
      for (int col = 0; col < 1024; ++col) wrong += m.at<int32_t>(row, col) != row;
    CHECK(wrong == 0);
  }
}

TEST_CASE("a debug kernel's out-of-bounds access on the GPU reads as the simulator's report") {
  if (!have_gpu()) return;
  fs::path case_dir = test::source_dir() / "tests/corpus/seeds/s001_add_1_debug_oob";
  auto module = Module::load_file((case_dir / "kernel.py").string(), options());
  REQUIRE(module.ok());
  Array x = Array::zeros(DType::float_(64), {10});
  auto simulated = module->kernel("add_1")->launch(Launch(1, 32).backend(Backend::cpu), x);
  auto on_gpu = module->kernel("add_1")->launch(Launch(1, 32).backend(Backend::cuda), x);
  REQUIRE_FALSE(simulated.ok());
  REQUIRE_FALSE(on_gpu.ok());
  CHECK(on_gpu.error().kind == ErrorKind::launch);
  CHECK(on_gpu.error().message == simulated.error().message);
  // The context survives: the next launch works.
  Array y = Array::zeros(DType::float_(64), {40});
  auto fine = module->kernel("add_1")->launch(Launch(1, 32).backend(Backend::cuda), y);
  CHECK_MESSAGE(fine.ok(), (fine.ok() ? std::string() : fine.error().describe()));
}

TEST_CASE("a kernel fault is an error naming the kernel, and the process exits cleanly") {
  if (!have_gpu()) return;
  // In a child process: a fault leaves the context unusable for the rest of the process.
  fs::path dir = fs::temp_directory_path() / ("pykern-gpu-fault-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "fault.py") << "from numba import cuda\n\n@cuda.jit\ndef wild(a, far):\n    a[far] = 1.0\n";
  REQUIRE(save_npy((dir / "a.npy").string(), Array::zeros(DType::float_(32), {4})).ok());
  const char* moved = std::getenv("PYKERN_BINARY");  // a build carried to the GPU machine
  std::string command = std::string(moved ? moved : PYKERN_BINARY) + " run " + (dir / "fault.py").string() +
                        " wild --grid 1 --block 1 --backend cuda --out " + dir.string() + " " + (dir / "a.npy").string() +
                        " 1099511627776 > " + (dir / "log.txt").string() + " 2>&1";
  int status = std::system(command.c_str());
  std::string log = test::read(dir / "log.txt");
  CAPTURE(log);
  REQUIRE(WIFEXITED(status));  // an exit, not a signal
  CHECK(WEXITSTATUS(status) != 0);
  CHECK(log.find("kernel 'wild'") != std::string::npos);
  CHECK(log.find("CUDA_ERROR_ILLEGAL_ADDRESS") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a bundle runs on the GPU from its cubin, and from its PTX alone") {
  if (!have_gpu()) return;
  fs::path dir = fs::temp_directory_path() / ("pykern-gpu-bundle-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "k.py") << "from numba import cuda\n\n@cuda.jit\ndef saxpy(a, x, y):\n"
                                 "    i = cuda.grid(1)\n    if i < x.size:\n        y[i] = a * x[i] + y[i]\n";
  bundle::Request request;
  request.file = (dir / "k.py").string();
  request.signatures = {{"saxpy", "void(float32, float32[::1], float32[::1])"}};
  request.archs = {current_gpu_arch()};
  request.simulator = false;
  request.cache_dir = options().cache_dir;
  auto contents = bundle::make_bundle(request);
  REQUIRE_MESSAGE(contents.ok(), (contents.ok() ? "" : contents.error().describe()));
  REQUIRE(contents->images.size() == 2);  // the cubin and the PTX
  for (bool ptx_only : {false, true}) {
    CAPTURE(ptx_only);
    bundle::Contents held = *contents;
    if (ptx_only) held.images.erase(held.images.begin());
    test::HeaderData header(held);
    auto module = Module::load_bundle(header.data);
    REQUIRE(module.ok());
    Array x = Array::from<float>(std::vector<float>(1000, 2.0f)), y = Array::from<float>(std::vector<float>(1000, 1.0f));
    auto ran = module->kernel("saxpy")->launch(Launch::forall(1000).backend(Backend::cuda), Scalar(3.0f), x, y);
    REQUIRE_MESSAGE(ran.ok(), (ran.ok() ? "" : ran.error().describe()));
    CHECK(y.at<float>(999) == 7.0f);
  }
  fs::remove_all(dir);
}

// What kernel_resources reads from a cubin and the occupancy pykern computes from it, against
// what the driver says of the loaded kernel: registers, and blocks per multiprocessor
// (cuOccupancyMaxActiveBlocksPerMultiprocessor) for several block sizes, for every corpus kernel.
TEST_CASE("the registers and occupancy pykern reads from a cubin are the driver's") {
  if (!have_gpu()) return;
  auto gpu = cuda::Gpu::current();
  REQUIRE(gpu.ok());
  REQUIRE((*gpu)->bind().ok());
  const cuda::Driver& d = (*gpu)->driver();
  std::string mismatches;
  int kernels = 0;
  for (const fs::path& case_dir : test::selected_corpus_cases()) {
    nlohmann::json spec = nlohmann::json::parse(test::read(case_dir / "case.json"));
    if (spec["kind"] != "kernel") continue;
    auto signature = test::corpus_kernel_signature(case_dir);
    if (!signature) continue;
    CompileOptions o;
    o.kernels = {spec["function"].get<std::string>()};
    o.signatures = {{spec["function"].get<std::string>(), *signature}};
    o.arch = (*gpu)->info().arch();
    o.cache_dir = options().cache_dir;
    auto compiled = compile_file((case_dir / "kernel.py").string(), o);
    if (!compiled.ok() || compiled->kernels.empty()) continue;
    auto functions = kernel_resources(compiled->binary);
    REQUIRE_MESSAGE(functions.ok(), functions.error().describe());
    CUmodule module = nullptr;
    REQUIRE(d.module_load_data_ex(&module, compiled->binary.data(), 0, nullptr, nullptr) == CUDA_SUCCESS);
    for (const KernelResources& k : *functions) {
      if (!k.is_kernel) continue;
      CUfunction function = nullptr;
      REQUIRE(d.module_get_function(&function, module, k.symbol.c_str()) == CUDA_SUCCESS);
      int registers = 0, shared = 0, max_threads = 0;
      d.func_get_attribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function);
      d.func_get_attribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function);
      d.func_get_attribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function);
      std::string id = test::case_id(case_dir);
      if (kernels++ == 0 || (k.shared_bytes > 0 && mismatches.empty()))
        MESSAGE(id << ": driver's static shared " << shared << " B, the cubin's section " << k.shared_bytes << " B");
      if (registers != k.registers)
        mismatches += fmt::format("{}: {} registers, the driver says {}\n", id, k.registers, registers);
      for (int block : {32, 96, 128, 256, 512, 1024}) {
        if (block > max_threads) continue;
        int driver_blocks = -1;
        d.occupancy_max_blocks(&driver_blocks, function, block, 0);
        auto ours = occupancy(k, block);
        if (!ours.ok()) {
          mismatches += fmt::format("{}: {}\n", id, ours.error().message);
          break;
        }
        if (ours->blocks_per_sm != driver_blocks)
          mismatches += fmt::format("{}: block {}: {} blocks/SM ({}), the driver says {}\n", id, block,
                                    ours->blocks_per_sm, ours->limited_by, driver_blocks);
      }
    }
    d.module_unload(module);
  }
  MESSAGE(kernels << " kernels compared");
  CHECK_MESSAGE(mismatches.empty(), mismatches);
}
