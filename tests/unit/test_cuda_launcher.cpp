// The GPU launcher against a fake driver (fake_driver.h): what pykern asks of the driver when
// it launches, copies, allocates and fails, checked on machines without a GPU. The GPU suite
// (tests/gpu) runs the same paths on a real device.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include <doctest/doctest.h>

#include "cuda/launcher.h"
#include "cuda/memory.h"
#include "cuda/pool.h"
#include "fake_driver.h"
#include "helpers.h"
#include "jit/nvrtc.h"
#include "pykern/device.h"
#include "pykern/module.h"

using namespace pykern;

namespace {

ModuleOptions fake_options() {
  ModuleOptions options;
  options.cache_dir = (std::filesystem::temp_directory_path() / ("pykern-fake-gpu-" + std::to_string(::getpid()))).string();
  return options;
}

const char* twice_source = R"py(from numba import cuda

@cuda.jit
def twice(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 2
)py";

// What the kernel does, in C++: doubles every element of its first (1-d float32) argument.
void run_twice(const test::FakeLaunch& launch) {
  const unsigned char* param = static_cast<const unsigned char*>(launch.params[0]);
  std::byte* data = nullptr;
  int64_t size = 0, stride = 0;
  std::memcpy(&data, param, 8);
  std::memcpy(&size, param + 8, 8);
  std::memcpy(&stride, param + 16, 8);
  for (int64_t i = 0; i < size; ++i) *reinterpret_cast<float*>(data + i * stride) *= 2;
}

Kernel load_twice(const std::string& source = twice_source) {
  auto module = Module::load_source(source, "twice.py", fake_options());
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  auto kernel = module->kernel("twice");
  REQUIRE(kernel.ok());
  return *kernel;
}

std::string message_of(const Status& s) { return s.ok() ? std::string("(ok)") : s.error().message; }

bool has_nvrtc() { return jit::nvrtc_version().ok(); }

}  // namespace

TEST_CASE("the target for a GPU: a cubin when NVRTC knows it, else PTX of the newest older architecture") {
  std::vector<int> supported = {75, 80, 86, 89, 90, 100, 120};
  auto exact = jit::choose_gpu_target(90, supported);
  REQUIRE(exact.ok());
  CHECK(exact->arch == "sm_90");
  CHECK(exact->output == jit::Output::cubin);
  auto newer = jit::choose_gpu_target(121, supported);  // a GPU newer than this NVRTC
  REQUIRE(newer.ok());
  CHECK(newer->arch == "sm_120");
  CHECK(newer->output == jit::Output::ptx);
  auto older = jit::choose_gpu_target(60, supported);
  REQUIRE_FALSE(older.ok());
  CHECK(older.error().message.find("oldest it supports is sm_75") != std::string::npos);
}

TEST_CASE("an --arch value: its form is checked without NVRTC, its support before compiling") {
  for (const char* good : {"sm_90", "sm_90a", "compute_100f", "sm_120"}) CHECK(jit::check_arch_form(good).ok());
  for (const char* bad : {"sm90", "sm_9", "gfx90a", "sm_9000", "", "sm_90 ", "sm_90af", "sm_90b", "compute_", "SM_90",
                          "sm_+90", "sm_-9", " sm_90", "compute_90\n", "sm_\xd9\xa9\xd9\xa0"}) {
    Status form = jit::check_arch_form(bad);
    REQUIRE_FALSE(form.ok());
    CHECK(form.error().message.find("is not a GPU architecture") != std::string::npos);
    CHECK_FALSE(jit::check_arch_supported(bad).ok());
  }
  auto specific = jit::parse_arch("compute_100f");
  REQUIRE(specific);
  CHECK_FALSE(specific->cubin);
  CHECK(specific->number == 100);
  CHECK(specific->specific);
  auto plain = jit::parse_arch("sm_075");
  REQUIRE(plain);
  CHECK(plain->cubin);
  CHECK(plain->number == 75);
  CHECK_FALSE(plain->specific);
  if (!has_nvrtc()) return;
  CHECK(jit::check_arch_supported("sm_90").ok());
  CHECK(jit::check_arch_supported("compute_90a").ok());
  Status ancient = jit::check_arch_supported("sm_10");
  REQUIRE_FALSE(ancient.ok());
  CHECK(ancient.error().message.find("this NVRTC cannot compile for sm_10; it knows sm_") != std::string::npos);
}

TEST_CASE("the device's limits come from the driver and refuse launches that do not fit") {
  test::FakeDriver fake;
  auto gpu = fake.select_gpu();
  REQUIRE(gpu);
  const cuda::DeviceInfo& info = gpu->info();
  CHECK(info.name == "Fake H200");
  CHECK(info.arch() == "sm_90");
  CHECK(info.limits.shared_per_block_optin == 227 * 1024);
  CHECK(fake.contexts_retained == 1);
  auto fits = [&](Launch l, int kernel_threads = 1024, int static_shared = 0) {
    return message_of(cuda::check_launch_limits(info, kernel_threads, static_shared, l, "k"));
  };
  CHECK(fits(Launch(65536, 1024)) == "(ok)");
  CHECK(fits(Launch({1, 65536}, 1)).find("a grid is at most (2147483647, 65535, 65535)") != std::string::npos);
  CHECK(fits(Launch(1, {1, 1, 65})).find("a block is at most (1024, 1024, 64)") != std::string::npos);
  CHECK(fits(Launch(1, {64, 32})) == "cannot launch kernel 'k' on device 0 (Fake H200) with grid (1, 1, 1) and block (64, "
                                     "32, 1): a block has at most 1024 threads");
  CHECK(fits(Launch(1, 1024), 768).find("this kernel runs at most 768 threads per block") != std::string::npos);
  CHECK(fits(Launch(1, 32).shared_bytes(200 * 1024), 1024, 30 * 1024).find("235520 bytes of shared memory per block (30720 static, 204800 dynamic) and the device allows 232448") !=
        std::string::npos);
  gpu.reset();
}

TEST_CASE("a host array goes to the device for the launch and comes back, and nothing leaks") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = run_twice;
  REQUIRE(fake.select_gpu());
  {
    Kernel twice = load_twice();
    Array a = Array::from<float>({1, 2, 3, 4, 5, 6});
    auto status = twice.launch(Launch(1, 32).backend(Backend::cuda), a);
    REQUIRE_MESSAGE(status.ok(), message_of(status));
    CHECK(a.at<float>(0) == 2);
    CHECK(a.at<float>(5) == 12);
    REQUIRE(fake.launches.size() == 1);
    CHECK(fake.launches[0].grid[0] == 1);
    CHECK(fake.launches[0].block[0] == 32);
    CHECK(fake.loaded_images == std::vector<std::string>{"cubin"});
    // In, launch, wait, out; the staging buffer kept in the GPU's pool for the next launch.
    auto position = [&](const std::string& call) {
      return std::find(fake.calls.begin(), fake.calls.end(), call) - fake.calls.begin();
    };
    CHECK(position("cuMemcpyHtoDAsync") < position("cuLaunchKernel"));
    CHECK(position("cuLaunchKernel") < position("cuStreamSynchronize"));
    CHECK(position("cuStreamSynchronize") < position("cuMemcpyDtoHAsync"));
    CHECK(fake.device_memory.size() == 1);

    // A strided view: the device copy keeps its strides; the elements between stay as they were.
    Array b = Array::from<float>({0, 1, 2, 3, 4, 5, 6, 7});
    auto odd = b.slice(0, {1, std::nullopt, 2});
    REQUIRE(odd.ok());
    status = twice.launch(Launch(1, 32).backend(Backend::cuda), *odd);
    REQUIRE_MESSAGE(status.ok(), message_of(status));
    CHECK(b.at<float>(0) == 0);
    CHECK(b.at<float>(1) == 2);
    CHECK(b.at<float>(2) == 2);
    CHECK(b.at<float>(7) == 14);
    // One module for both: the strided view's specialisation (layout A) is a second kernel.
    CHECK(fake.loaded_images.size() == 2);
    CHECK(fake.count("cuMemAlloc") == 1);  // the second launch reused the first one's block
    CHECK(fake.count("cuMemFree") == 0);
  }
  pykern::cuda::Gpu::select(nullptr);  // the GPU goes, and its pool with it
  CHECK(fake.live_allocations() == 0);
  CHECK(fake.modules_loaded == 0);
  CHECK_FALSE(fake.freed_unknown_pointer);
  std::filesystem::remove_all(fake_options().cache_dir);
}

TEST_CASE("device arrays stay on the device: the launch does not wait, copies bring results back") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = run_twice;
  REQUIRE(fake.select_gpu());
  {
    Kernel twice = load_twice();
    Array host = Array::from<float>({1, 2, 3, 4});
    auto stream = Stream::create(Backend::cuda);
    REQUIRE(stream.ok());
    CHECK(stream->backend() == Backend::cuda);
    auto device = to_device(host, *stream, Backend::cuda);
    REQUIRE_MESSAGE(device.ok(), message_of(device.ok() ? ok_status() : Status(device.error())));
    CHECK(device->location() == Location::device);
    CHECK(fake.device_memory.size() == 1);
    int waits_before = fake.count("cuStreamSynchronize");
    auto status = twice.launch(Launch(1, 32).backend(Backend::cuda).stream(*stream), *device);
    REQUIRE_MESSAGE(status.ok(), message_of(status));
    CHECK(fake.count("cuStreamSynchronize") == waits_before);  // asynchronous
    CHECK(fake.launches.back().stream == stream->handle());
    CHECK(host.at<float>(0) == 1);  // the host copy is untouched
    auto back = copy_to_host(*device, *stream);
    REQUIRE(back.ok());
    REQUIRE(stream->synchronize().ok());
    CHECK(back->at<float>(3) == 8);

    // Events time what the stream did.
    auto start = Event::create(Backend::cuda), end = Event::create(Backend::cuda);
    REQUIRE((start.ok() && end.ok()));
    REQUIRE(start->record(*stream).ok());
    REQUIRE(end->record(*stream).ok());
    REQUIRE(end->synchronize().ok());
    auto ms = start->elapsed_ms(*end);
    REQUIRE(ms.ok());
    CHECK(*ms == doctest::Approx(1.5));

    // A device array handed to the simulator is refused, with the reason.
    auto sim = twice.launch(Launch(1, 32).backend(Backend::cpu), *device);
    REQUIRE_FALSE(sim.ok());
    CHECK(sim.error().message.find("it lives on the device") != std::string::npos);
  }
  CHECK(fake.live_allocations() == 0);
  CHECK(fake.streams_live == 0);
  CHECK(fake.events_live == 0);
}

TEST_CASE("copies into a strided device view leave the elements between untouched") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    auto device = device_array(DType::int_(32), {6}, Order::C, Backend::cuda);
    REQUIRE(device.ok());
    REQUIRE(copy_to_device(Array::from<int32_t>({9, 9, 9, 9, 9, 9}), *device).ok());
    auto even = device->slice(0, {0, std::nullopt, 2});
    REQUIRE(even.ok());
    REQUIRE(copy_to_device(Array::from<int32_t>({1, 2, 3}), *even).ok());
    auto back = copy_to_host(*device);
    REQUIRE(back.ok());
    std::vector<int32_t> values;
    for (int i = 0; i < 6; ++i) values.push_back(back->at<int32_t>(i));
    CHECK(values == std::vector<int32_t>{1, 9, 2, 9, 3, 9});
    // And out of it into a host array of another layout.
    Array column = Array::zeros(DType::int_(32), {3});
    REQUIRE(copy_to_host(*even, column).ok());
    CHECK(column.at<int32_t>(2) == 3);
    // Mismatched shapes are refused before any copy.
    auto wrong = copy_to_host(*device, column);
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().message.find("shape (6,)") != std::string::npos);
    auto pinned = pinned_array(DType::float_(64), {4}, Order::C, Backend::cuda);
    REQUIRE(pinned.ok());
    CHECK(pinned->location() == Location::host);
    CHECK(fake.pinned_memory.size() == 1);
  }
  CHECK(fake.live_allocations() == 0);
}

TEST_CASE("every failing driver call is an error naming the call and the kernel; nothing leaks") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = run_twice;
  REQUIRE(fake.select_gpu());
  {
    Kernel twice = load_twice();
    Array a = Array::from<float>({1, 2, 3});
    fake.failures["cuMemAlloc"] = CUDA_ERROR_OUT_OF_MEMORY;
    auto status = twice.launch(Launch(1, 32).backend(Backend::cuda), a);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().kind == ErrorKind::driver);
    CHECK(status.error().message ==
          "cuMemAlloc (kernel 'twice' on device 0 (Fake H200)) failed: CUDA_ERROR_OUT_OF_MEMORY: out of memory");
    fake.failures.clear();

    // A fault while running shows when the launch waits, as a launch error with advice.
    fake.failures["cuStreamSynchronize"] = CUDA_ERROR_ILLEGAL_ADDRESS;
    status = twice.launch(Launch(1, 32).backend(Backend::cuda), a);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().kind == ErrorKind::launch);
    CHECK(status.error().message.find("kernel 'twice' failed: cuStreamSynchronize (kernel 'twice' on device 0 (Fake "
                                      "H200) while running) failed: CUDA_ERROR_ILLEGAL_ADDRESS") != std::string::npos);
    CHECK(status.error().message.find("restart the process") != std::string::npos);
    fake.failures.clear();

    // The launch itself refused.
    fake.failures["cuLaunchKernel"] = CUDA_ERROR_UNKNOWN;
    status = twice.launch(Launch(1, 32).backend(Backend::cuda), a);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.find("cuLaunchKernel (kernel 'twice'") != std::string::npos);
    fake.failures.clear();

    // A launch the kernel's registers cannot take is refused before the driver sees it.
    fake.function_max_threads = 256;
    Kernel other = load_twice(std::string(twice_source) + "\n");  // a new module, loaded with the new limit
    int launches = int(fake.launches.size());
    status = other.launch(Launch(1, 512).backend(Backend::cuda), a);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.find("runs at most 256 threads per block") != std::string::npos);
    CHECK(int(fake.launches.size()) == launches);
  }
  CHECK(fake.live_allocations() == 0);
  CHECK_FALSE(fake.freed_unknown_pointer);
}

TEST_CASE("shared memory past the limits: Kernel::launch refuses past 227 KiB, the launcher past the device's") {
  if (!has_nvrtc()) return;
  // What the GPU suite's two shared-memory tests expect, through the same Kernel::launch.
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    Kernel twice = load_twice();
    auto device = device_array(DType::float_(32), {4}, Order::C, Backend::cuda);
    REQUIRE(device.ok());
    std::string refused = message_of(twice.launch(Launch(1, 32).backend(Backend::cuda).shared_bytes(size_t(1) << 30), *device));
    CHECK_MESSAGE(refused.find("a block has at most 227 KiB") != std::string::npos, refused);
    CHECK(fake.count("cuLaunchKernel") == 0);
    fake.function_static_shared = 8192;  // as a kernel with cuda.shared.array(2048, float32) has
    Kernel staged = load_twice();
    refused = message_of(staged.launch(Launch(1, 32).backend(Backend::cuda).shared_bytes(227 * 1024), *device));
    CHECK_MESSAGE(refused.find(" static, 232448 dynamic) and the device allows ") != std::string::npos, refused);
    CHECK(fake.count("cuLaunchKernel") == 0);
  }
}

TEST_CASE("dynamic shared memory beyond 48 KiB is opted in to once") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    Kernel twice = load_twice();
    auto device = device_array(DType::float_(32), {4}, Order::C, Backend::cuda);
    REQUIRE(device.ok());
    REQUIRE(twice.launch(Launch(1, 32).backend(Backend::cuda).shared_bytes(1024), *device).ok());
    CHECK(fake.dynamic_shared_set == -1);
    REQUIRE(twice.launch(Launch(1, 32).backend(Backend::cuda).shared_bytes(100 * 1024), *device).ok());
    CHECK(fake.dynamic_shared_set == 100 * 1024);
    REQUIRE(twice.launch(Launch(1, 32).backend(Backend::cuda).shared_bytes(90 * 1024), *device).ok());
    CHECK(fake.count("cuFuncSetAttribute") == 1);
    CHECK(fake.launches.back().shared_bytes == 90 * 1024);
  }
}

namespace {
// The seed's off-by-one kernel at `kernel_file`: its failure on the (fake) device, reported as
// errors.cuh fills the record, reads as the simulator's report of it, file name and all.
void check_device_report_matches_simulator(const std::filesystem::path& kernel_file) {
  auto module = Module::load_file(kernel_file.string(), fake_options());
  REQUIRE(module.ok());
  Array x = Array::zeros(DType::float_(64), {10});
  auto simulated = module->kernel("add_1")->launch(Launch(1, 32).backend(Backend::cpu), x);
  REQUIRE_FALSE(simulated.ok());

  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  // The device's part, as errors.cuh does it: thread 10 of block 0 claims the record, and
  // copy_text keeps what fits the file field (its size less the NUL).
  fake.kernel = [&](const test::FakeLaunch&) {
    pk::ErrorRecord r{};
    CHECK(std::all_of(fake.error_record.begin(), fake.error_record.end(), [](unsigned char b) { return b == 0; }));
    r.claimed = 1;
    r.line = 11;
    r.tid[0] = 10;
    r.is_index_error = 1;
    r.index = 10;
    r.axis = 0;
    r.size = 10;
    std::string file = kernel_file.string();
    std::strncpy(r.file, file.c_str(), sizeof r.file - 1);
    std::memcpy(fake.error_record.data(), &r, sizeof r);
  };
  {
    auto kernel = Module::load_file(kernel_file.string(), fake_options())->kernel("add_1");
    auto device = to_device(x, {}, Backend::cuda);
    REQUIRE(device.ok());
    auto on_gpu = kernel->launch(Launch(1, 32).backend(Backend::cuda), *device);
    REQUIRE_FALSE(on_gpu.ok());
    CHECK(on_gpu.error().kind == ErrorKind::launch);
    CHECK(on_gpu.error().message == simulated.error().message);
    CHECK(fake.count("cuMemsetD8Async") == 1);  // the record cleared before the launch
  }
  CHECK(fake.live_allocations() == 0);
}
}  // namespace

TEST_CASE("a debug kernel's failure on the device reads as the simulator's report of it") {
  if (!has_nvrtc()) return;
  check_device_report_matches_simulator(test::source_dir() / "tests/corpus/seeds/s001_add_1_debug_oob/kernel.py");
}

TEST_CASE("a debug kernel's report on the device names a long absolute path whole, as the simulator does") {
  if (!has_nvrtc()) return;
  // #line carries the absolute path; one of 300 bytes was cut at 95 when the record held 96.
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("pykern-long-path-" + std::to_string(::getpid()));
  for (int level = 0; level < 5; ++level) dir /= std::string(50, char('a' + level));
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(test::source_dir() / "tests/corpus/seeds/s001_add_1_debug_oob/kernel.py", dir / "kernel.py",
                             std::filesystem::copy_options::overwrite_existing);
  REQUIRE((dir / "kernel.py").string().size() > 256);
  check_device_report_matches_simulator(dir / "kernel.py");
  CHECK(sizeof(pk::ErrorRecord::file) >= 4096);  // any Linux path (PATH_MAX) fits whole
  std::filesystem::remove_all(std::filesystem::temp_directory_path() / ("pykern-long-path-" + std::to_string(::getpid())));
}

TEST_CASE("the error record has one layout on both sides") {
  if (!has_nvrtc()) return;
  // The PTX of a debug kernel declares the record; its size is the host struct's.
  CompileOptions options;
  options.emit = EmitKind::ptx;
  options.use_cache = false;
  options.signatures.push_back({"add_1", "void(float64[::1])"});
  auto output = compile_file((test::source_dir() / "tests/corpus/seeds/s001_add_1_debug_oob/kernel.py").string(), options);
  REQUIRE(output.ok());
  std::string declared = "pk_error_record[" + std::to_string(sizeof(pk::ErrorRecord)) + "]";
  CHECK(output->binary.find(declared) != std::string::npos);
}

TEST_CASE("PTX is handed to the driver's JIT with a log for its errors") {
  test::FakeDriver fake;
  auto gpu = fake.select_gpu();
  REQUIRE(gpu);
  CompiledKernel kernel;
  kernel.function = "k";
  kernel.symbol = "pk_kernel_py_k_0";
  auto loaded = cuda::GpuKernel::load(gpu, ".version 8.0\n.target sm_90\n", kernel, false);
  REQUIRE(loaded.ok());
  CHECK(fake.jit_option_counts == std::vector<unsigned>{2});
  fake.failures["cuModuleLoadDataEx"] = CUDA_ERROR_INVALID_PTX;
  auto refused = cuda::GpuKernel::load(gpu, ".version 99.0\n", kernel, false);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("cuModuleLoadDataEx (kernel 'k' on device 0 (Fake H200)) failed: "
                                     "CUDA_ERROR_INVALID_PTX") != std::string::npos);
}

TEST_CASE("device arrays, streams and events work on the simulator as in Numba's simulator") {
  Backend cpu = Backend::cpu;
  Array host = Array::from<float>({1, 2, 3});
  auto device = to_device(host, {}, cpu);
  REQUIRE(device.ok());
  CHECK(device->location() == Location::host);
  CHECK(device->data() != host.data());  // a copy, as on a GPU
  auto stream = Stream::create(cpu);
  REQUIRE(stream.ok());
  CHECK(stream->handle() == nullptr);
  auto start = Event::create(cpu), end = Event::create(cpu);
  REQUIRE((start.ok() && end.ok()));
  REQUIRE(start->record(*stream).ok());
  auto module = Module::load_source(twice_source, "twice.py", fake_options());
  REQUIRE(module.ok());
  REQUIRE(module->kernel("twice")->launch(Launch(1, 32).backend(cpu).stream(*stream), *device).ok());
  REQUIRE(end->record(*stream).ok());
  REQUIRE(stream->synchronize().ok());
  auto ms = start->elapsed_ms(*end);
  REQUIRE(ms.ok());
  CHECK(*ms >= 0);
  auto back = copy_to_host(*device, *stream);
  REQUIRE(back.ok());
  CHECK(back->at<float>(2) == 6);
  CHECK(host.at<float>(2) == 3);
  auto like = device_array_like(Array::zeros(DType::int_(16), {3, 4}, Order::F), cpu);
  REQUIRE(like.ok());
  CHECK(like->is_f_contiguous());
  CHECK_FALSE(Event().record().ok());  // not made with create
  REQUIRE(synchronize(cpu).ok());
}

TEST_CASE("a kernel that syncs the grid is launched cooperatively, and a grid too large to be resident is refused") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = run_twice;
  fake.blocks_per_multiprocessor = 2;  // 132 multiprocessors: 264 blocks at most
  REQUIRE(fake.select_gpu());
  {
    const char* source = R"py(from numba import cuda

@cuda.jit
def twice(a):
    i = cuda.grid(1)
    g = cuda.cg.this_grid()
    if i < a.size:
        a[i] *= 2
    g.sync()
)py";
    Kernel twice = load_twice(source);
    Array a = Array::from<float>({1, 2, 3});
    auto status = twice.launch(Launch(264, 32).backend(Backend::cuda), a);
    REQUIRE_MESSAGE(status.ok(), message_of(status));
    REQUIRE(fake.launches.size() == 1);
    CHECK(fake.launches[0].cooperative);
    CHECK(fake.count("cuLaunchKernel") == 0);
    CHECK(a.at<float>(2) == 6);
    auto too_large = twice.launch(Launch(265, 32).backend(Backend::cuda), a);
    CHECK(message_of(too_large).find("kernel 'twice' syncs the grid (cuda.cg), so all its blocks must be resident at "
                                     "once: this GPU holds at most 264 blocks of 32 threads (2 per multiprocessor), "
                                     "and the launch asks for 265") != std::string::npos);
    CHECK(fake.launches.size() == 1);
    // A kernel that does not sync the grid is launched as usual.
    Kernel plain = load_twice();
    REQUIRE(plain.launch(Launch(1000, 32).backend(Backend::cuda), a).ok());
    CHECK_FALSE(fake.launches.back().cooperative);
  }
}

namespace {

// A 1-d array parameter as the kernel gets it: {data, size, stride in bytes}.
struct ArrayParam {
  std::byte* data = nullptr;
  int64_t size = 0, stride = 0;
};
ArrayParam array_param(const test::FakeLaunch& launch, int i) {
  const unsigned char* param = static_cast<const unsigned char*>(launch.params[i]);
  ArrayParam a;
  std::memcpy(&a.data, param, 8);
  std::memcpy(&a.size, param + 8, 8);
  std::memcpy(&a.stride, param + 16, 8);
  return a;
}

const char* pair_source = R"py(from numba import cuda

@cuda.jit
def pair(a, b):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = 1
    if i < b.size:
        b[i] = 2
)py";

// A float64 kernel whose stand-in faults as a GPU does on an element it cannot load.
const char* add_one_source = R"py(from numba import cuda

@cuda.jit
def add_one(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += 1
)py";

std::vector<float> values_of(const Array& a) {
  std::vector<float> values;
  for (int64_t i = 0; i < a.size(); ++i) values.push_back(a.at<float>(i));
  return values;
}

}  // namespace

TEST_CASE("host views that share a buffer in one launch are staged once: the writes through each come back") {
  if (!has_nvrtc()) return;
  // The GPU's kernels live in the module: it goes before the fake driver does.
  auto launch_on = [&](Backend backend) {
    auto module = Module::load_source(pair_source, "pair.py", fake_options());
    REQUIRE(module.ok());
    Array a = Array::zeros(DType::float_(32), {8});
    auto even = a.slice(0, {0, std::nullopt, 2}), odd = a.slice(0, {1, std::nullopt, 2});
    REQUIRE((even.ok() && odd.ok()));
    auto status = module->kernel("pair")->launch(Launch(1, 32).backend(backend), *even, *odd);
    REQUIRE_MESSAGE(status.ok(), message_of(status));
    return values_of(a);
  };
  std::vector<float> simulated = launch_on(Backend::cpu);
  CHECK(simulated == std::vector<float>{1, 2, 1, 2, 1, 2, 1, 2});

  test::FakeDriver fake;
  fake.parameter_count = 2;
  fake.kernel = [](const test::FakeLaunch& launch) {
    for (int p = 0; p < 2; ++p) {
      ArrayParam a = array_param(launch, p);
      for (int64_t i = 0; i < a.size; ++i) *reinterpret_cast<float*>(a.data + i * a.stride) = float(p + 1);
    }
  };
  REQUIRE(fake.select_gpu());
  {
    CHECK(launch_on(Backend::cuda) == simulated);
    CHECK(fake.count("cuMemAlloc") == 1);  // one copy of the buffer for both views
    CHECK(fake.count("cuMemcpyDtoHAsync") == 1);
  }
  pykern::cuda::Gpu::select(nullptr);
  CHECK(fake.live_allocations() == 0);
  CHECK_FALSE(fake.freed_unknown_pointer);
  std::filesystem::remove_all(fake_options().cache_dir);
}

TEST_CASE("a host array whose strides a GPU cannot load from is refused before the launch, not a lost context") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = [&](const test::FakeLaunch& launch) {
    ArrayParam x = array_param(launch, 0);
    bool aligned = reinterpret_cast<uintptr_t>(x.data) % 8 == 0 && x.stride % 8 == 0;
    if (!aligned) fake.fault = CUDA_ERROR_MISALIGNED_ADDRESS;  // and the kernel stops there
    if (!aligned) return;
    for (int64_t i = 0; i < x.size; ++i) *reinterpret_cast<double*>(x.data + i * x.stride) += 1;
  };
  REQUIRE(fake.select_gpu());
  {
    auto module = Module::load_source(add_one_source, "add_one.py", fake_options());
    REQUIRE(module.ok());
    alignas(8) unsigned char bytes[64] = {};
    Array strided = Array::wrap(bytes, DType::float_(64), {4}, {12});  // np.ndarray(..., strides=(12,))
    auto status = module->kernel("add_one")->launch(Launch(1, 32).backend(Backend::cuda), strided);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message ==
          "kernel 'add_one': parameter 'x' (argument 1) is a float64 array and its strides (12,) are not multiples "
          "of the element's alignment, 8 bytes: a GPU cannot load such elements (CUDA_ERROR_MISALIGNED_ADDRESS); "
          "pass an aligned copy (np.ascontiguousarray) or launch on the simulator");
    CHECK(fake.launches.empty());
    CHECK(fake.fault == CUDA_SUCCESS);
    CHECK(fake.count("cuMemAlloc") == 0);  // refused before anything was allocated or copied
    CHECK(fake.count("cuMemcpyHtoDAsync") == 0);
    // A view at an odd offset of a byte buffer alone: its device copy starts aligned.
    alignas(8) unsigned char shifted_bytes[40] = {};
    Array shifted = Array::wrap(shifted_bytes + 4, DType::float_(64), {4}, {8});
    status = module->kernel("add_one")->launch(Launch(1, 32).backend(Backend::cuda), shifted);
    REQUIRE_MESSAGE(status.ok(), message_of(status));
    double last = 0;  // read with memcpy: the host may not load a double at this address either
    std::memcpy(&last, shifted_bytes + 4 + 3 * 8, sizeof last);
    CHECK(last == 1);
    // But beside a view of the same bytes at an aligned address, it shares their copy: its
    // data address there is the problem.
    Array floats = Array::wrap(shifted_bytes, DType::float_(32), {8}, {4});
    auto pair = Module::load_source(pair_source, "pair.py", fake_options());
    REQUIRE(pair.ok());
    int launches = int(fake.launches.size());
    status = pair->kernel("pair")->launch(Launch(1, 32).backend(Backend::cuda), floats, shifted);
    CHECK(message_of(status) ==
          "kernel 'pair': parameter 'b' (argument 2) is a float64 array and its data address is not a multiple of "
          "the element's alignment, 8 bytes: a GPU cannot load such elements (CUDA_ERROR_MISALIGNED_ADDRESS); pass "
          "an aligned copy (np.ascontiguousarray) or launch on the simulator");
    CHECK(int(fake.launches.size()) == launches);
    // Aligned strides that skip elements are fine.
    Array every_other = Array::wrap(bytes, DType::float_(64), {4}, {16});
    status = module->kernel("add_one")->launch(Launch(1, 32).backend(Backend::cuda), every_other);
    REQUIRE_MESSAGE(status.ok(), message_of(status));
    CHECK(every_other.at<double>(3) == 1);
  }
  pykern::cuda::Gpu::select(nullptr);
  CHECK(fake.live_allocations() == 0);
  CHECK(fake.fault == CUDA_SUCCESS);
  std::filesystem::remove_all(fake_options().cache_dir);
}

TEST_CASE("synchronize() and the default stream wait for the GPU that Backend::cuda launches used") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = run_twice;
  REQUIRE(fake.select_gpu());
  {
    Kernel twice = load_twice();
    auto device = device_array(DType::float_(32), {4}, Order::C, Backend::cuda);
    REQUIRE(device.ok());
    REQUIRE(twice.launch(Launch(1, 32).backend(Backend::cuda), *device).ok());  // asynchronous
    REQUIRE(pykern::synchronize().ok());
    CHECK(fake.count("cuCtxSynchronize") == 1);
    int waits = fake.count("cuStreamSynchronize");
    REQUIRE(Stream{}.synchronize().ok());
    CHECK(fake.count("cuStreamSynchronize") == waits + 1);
    // What the wait is for: a fault in the kernel shows there.
    fake.fault = CUDA_ERROR_ILLEGAL_ADDRESS;
    CHECK(message_of(pykern::synchronize()).find("cuCtxSynchronize (synchronize) failed: CUDA_ERROR_ILLEGAL_ADDRESS") !=
          std::string::npos);
    CHECK_FALSE(Stream{}.synchronize().ok());
    fake.fault = CUDA_SUCCESS;
    // The simulator's backend, named, has nothing to wait for.
    REQUIRE(pykern::synchronize(Backend::cpu).ok());
    CHECK(fake.count("cuCtxSynchronize") == 2);
  }
}

TEST_CASE("a launch makes the GPU's context current before any call that needs it, and the caller's current after") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  auto gpu = fake.select_gpu();
  REQUIRE(gpu);
  CUcontext callers = reinterpret_cast<CUcontext>(0x9000);  // the host program's own context
  test::FakeDriver::make_current(callers);
  {
    Kernel twice = load_twice();
    CHECK(test::FakeDriver::current_context() == callers);
    auto device = device_array(DType::float_(32), {4}, Order::C, Backend::cuda);
    REQUIRE(device.ok());
    CHECK(test::FakeDriver::current_context() == callers);
    // Beyond 48 KiB of dynamic shared memory: cuFuncSetAttribute, in the GPU's context.
    REQUIRE(twice.launch(Launch(1, 32).backend(Backend::cuda).shared_bytes(100 * 1024), *device).ok());
    CHECK(fake.dynamic_shared_set == 100 * 1024);
    CHECK(fake.dynamic_shared_context == test::FakeDriver::gpu_context());
    REQUIRE(fake.launches.size() == 1);
    CHECK(fake.launches[0].context == test::FakeDriver::gpu_context());
    CHECK(test::FakeDriver::current_context() == callers);
    // On a thread where no context is current yet, the opt-in too runs in the GPU's context.
    std::thread([&] {
      REQUIRE(twice.launch(Launch(1, 32).backend(Backend::cuda).shared_bytes(150 * 1024), *device).ok());
    }).join();
    CHECK(fake.dynamic_shared_set == 150 * 1024);
    CHECK(fake.dynamic_shared_context == test::FakeDriver::gpu_context());
    REQUIRE(pykern::synchronize(Backend::cuda).ok());
    CHECK(test::FakeDriver::current_context() == callers);
  }
  CHECK(test::FakeDriver::current_context() == callers);  // after the frees too
  CHECK(fake.live_allocations() == 0);
  test::FakeDriver::make_current(nullptr);
}

TEST_CASE("after another GPU is selected, a kernel loaded before is loaded again in that GPU's context") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.devices = 2;
  REQUIRE(fake.select_gpu());
  {
    Kernel twice = load_twice();
    auto on_first = device_array(DType::float_(32), {4}, Order::C, Backend::cuda);
    REQUIRE(on_first.ok());
    REQUIRE(twice.launch(Launch(1, 32).backend(Backend::cuda), *on_first).ok());
    REQUIRE(fake.launches.size() == 1);
    CHECK(fake.launches[0].context == test::FakeDriver::gpu_context(0));
    // select_gpu(1), on the fake driver.
    auto second = cuda::Gpu::open(fake.table, 1);
    REQUIRE(second.ok());
    cuda::Gpu::select(*second);
    auto on_second = device_array(DType::float_(32), {4}, Order::C, Backend::cuda);
    REQUIRE(on_second.ok());
    REQUIRE(twice.launch(Launch(1, 32).backend(Backend::cuda), *on_second).ok());
    REQUIRE(fake.launches.size() == 2);
    CHECK(fake.launches[1].context == test::FakeDriver::gpu_context(1));
    CHECK(fake.module_contexts ==
          std::vector<CUcontext>{test::FakeDriver::gpu_context(0), test::FakeDriver::gpu_context(1)});
    CHECK(fake.modules_loaded == 1);  // the first GPU's module unloaded with its kernel
  }
  CHECK(fake.modules_loaded == 0);
  CHECK(fake.live_allocations() == 0);
}

TEST_CASE("a GPU kernel past its launch's timeout is a TimeoutError, and the GPU then refuses work instead of hanging") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    // A block returns before the grid.sync() the others wait in: on a GPU this spins for ever.
    const char* source = R"py(from numba import cuda

@cuda.jit
def twice(a):
    i = cuda.grid(1)
    if cuda.blockIdx.x == 0:
        return
    g = cuda.cg.this_grid()
    g.sync()
    if i < a.size:
        a[i] *= 2
)py";
    Kernel stuck = load_twice(source);
    Array host = Array::from<float>({1, 2, 3});
    auto device = to_device(host, Stream(), Backend::cuda);
    REQUIRE(device.ok());
    fake.kernel_never_ends = true;
    // Device arrays only: without a timeout the launch returns at once, as in Numba; with one it
    // waits for the kernel, polling, and gives up when the time is past.
    auto started = std::chrono::steady_clock::now();
    auto status = stuck.launch(Launch(2, 32).backend(Backend::cuda).timeout(0.2), *device);
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().kind == ErrorKind::launch);
    CHECK(message_of(status).find("TimeoutError: kernel 'twice' on device 0 (Fake H200) did not finish within its "
                                  "timeout of 0.2 s") != std::string::npos);
    CHECK(waited >= 0.2);
    CHECK(waited < 5);
    CHECK(fake.count("cuStreamQuery") >= 2);
    // Everything after is refused with the reason, and nothing waits on the kernel: not the next
    // launch, a copy, a synchronisation, nor freeing the device array, the module or the context.
    auto again = stuck.launch(Launch(2, 32).backend(Backend::cuda), host);
    CHECK(message_of(again).find("device 0 (Fake H200) is still running kernel 'twice', which did not finish within "
                                 "its launch's timeout of 0.2 s") != std::string::npos);
    CHECK_FALSE(copy_to_host(*device, host, Stream()).ok());
    CHECK_FALSE(synchronize(Backend::cuda).ok());
    CHECK_FALSE(Stream().synchronize().ok());
  }
  pykern::cuda::Gpu::select(nullptr);
  CHECK(fake.waited_for_ever.empty());
  CHECK(fake.device_memory.size() == 1);  // the device array, left to the process's end
  CHECK(fake.count("cuStreamSynchronize") == 1);  // to_device's copy, before the kernel ran
  std::filesystem::remove_all(fake_options().cache_dir);
}

TEST_CASE("a GPU launch with a timeout that the kernel meets returns its results as any launch does") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = run_twice;
  REQUIRE(fake.select_gpu());
  {
    Kernel twice = load_twice();
    Array a = Array::from<float>({1, 2, 3});
    auto status = twice.launch(Launch(1, 32).backend(Backend::cuda).timeout(5), a);
    REQUIRE_MESSAGE(status.ok(), message_of(status));
    CHECK(a.at<float>(2) == 6);
    CHECK(fake.count("cuStreamQuery") == 1);
    CHECK(twice.launch(Launch(1, 32).backend(Backend::cuda), a).ok());  // the GPU is not stuck
  }
  std::filesystem::remove_all(fake_options().cache_dir);
}

TEST_CASE("the staging pool reuses a kept block that fits, up to twice the size, and keeps no more than its cap") {
  test::FakeDriver fake;
  pykern::cuda::StagingPool pool(fake.table, 1 << 20);
  CUdeviceptr a = 0, b = 0, c = 0;
  size_t got_a = 0, got_b = 0, got_c = 0;
  REQUIRE(pool.take(100, &a, &got_a) == CUDA_SUCCESS);
  CHECK(got_a == 64 * 1024);  // rounded up, so that nearby sizes share blocks
  pool.give_back(a, got_a);
  REQUIRE(pool.take(60000, &b, &got_b) == CUDA_SUCCESS);
  CHECK(b == a);  // reused
  CHECK(fake.count("cuMemAlloc") == 1);
  pool.give_back(b, got_b);
  REQUIRE(pool.take(200000, &c, &got_c) == CUDA_SUCCESS);
  CHECK(c != a);  // too small: a new block
  pool.give_back(c, got_c);
  // A small need does not take a block more than twice its size.
  CUdeviceptr d = 0;
  size_t got_d = 0;
  REQUIRE(pool.take(10, &d, &got_d) == CUDA_SUCCESS);
  CHECK(d == a);
  pool.give_back(d, got_d);
  CHECK(pool.kept_bytes() == got_a + got_c);
  // Past the cap a block given back is freed.
  CUdeviceptr big = 0;
  size_t got_big = 0;
  REQUIRE(pool.take(900 * 1024, &big, &got_big) == CUDA_SUCCESS);
  pool.give_back(big, got_big);
  CHECK(fake.count("cuMemFree") == 1);
  pool.release_all();
  CHECK(pool.kept_bytes() == 0);
  CHECK(fake.live_allocations() == 0);
}

TEST_CASE("a sparse or wide-rowed device view is copied as rows: only its elements cross, the gaps stay as they were") {
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  {
    // A column of a 64 x 64 matrix: 64 elements over a 16 KiB span.
    std::vector<int32_t> values(64 * 64);
    for (size_t i = 0; i < values.size(); ++i) values[i] = int32_t(i);
    auto matrix = to_device(Array::from<int32_t>(values, {64, 64}), Stream(), Backend::cuda);
    REQUIRE(matrix.ok());
    auto column = matrix->slice(1, {5, 6, 1});
    REQUIRE(column.ok());
    fake.calls.clear();
    auto host = copy_to_host(*column);
    REQUIRE(host.ok());
    CHECK(host->at<int32_t>(0, 0) == 5);
    CHECK(host->at<int32_t>(63, 0) == 63 * 64 + 5);
    REQUIRE(fake.copies_2d.size() == 1);
    CHECK(fake.copies_2d[0].WidthInBytes == 4);
    CHECK(fake.copies_2d[0].Height == 64);
    CHECK(fake.copies_2d[0].srcPitch == 256);
    CHECK(fake.count("cuMemcpyDtoHAsync") == 0);  // not the span
    // Into it: the elements only, no read of the span first.
    std::vector<int32_t> minus(64, -1);
    REQUIRE(copy_to_device(Array::from<int32_t>(minus, {64, 1}), *column).ok());
    CHECK(fake.count("cuMemcpyDtoHAsync") == 0);
    CHECK(fake.count("cuMemcpyHtoDAsync") == 0);
    auto whole = copy_to_host(*matrix);
    REQUIRE(whole.ok());
    CHECK(whole->at<int32_t>(10, 5) == -1);
    CHECK(whole->at<int32_t>(10, 4) == 10 * 64 + 4);
    CHECK(whole->at<int32_t>(10, 6) == 10 * 64 + 6);

    // A 3-d block: in each of 3 planes, 4 rows of 128 floats that follow each other: one run of
    // 2 KiB per plane, the planes 4 KiB apart.
    auto cube = device_array(DType::float_(32), {3, 8, 128}, Order::C, Backend::cuda);
    REQUIRE(cube.ok());
    REQUIRE(copy_to_device(Array::zeros(DType::float_(32), {3, 8, 128}), *cube).ok());
    auto block = cube->slice(1, {2, 6, 1});
    REQUIRE(block.ok());
    fake.copies_2d.clear();
    std::vector<float> ones(3 * 4 * 128, 1.0f);
    REQUIRE(copy_to_device(Array::from<float>(ones, {3, 4, 128}), *block).ok());
    REQUIRE(fake.copies_2d.size() == 1);
    CHECK(fake.copies_2d[0].WidthInBytes == 2048);
    CHECK(fake.copies_2d[0].Height == 3);
    CHECK(fake.copies_2d[0].dstPitch == 4096);
    // Every other row of it: 12 rows of 512 bytes, 1 KiB apart, in 3 copies (one per plane).
    auto rows = cube->slice(1, {0, std::nullopt, 2});
    REQUIRE(rows.ok());
    fake.copies_2d.clear();
    auto rows_back = copy_to_host(*rows);
    REQUIRE(rows_back.ok());
    REQUIRE(fake.copies_2d.size() == 3);
    CHECK(fake.copies_2d[0].WidthInBytes == 512);
    CHECK(fake.copies_2d[0].Height == 4);
    CHECK(fake.copies_2d[0].srcPitch == 1024);
    CHECK(rows_back->at<float>(1, 1, 3) == 1);  // row 2 of plane 1
    CHECK(rows_back->at<float>(1, 3, 3) == 0);  // row 6
    auto cube_back = copy_to_host(*cube);
    REQUIRE(cube_back.ok());
    CHECK(cube_back->at<float>(0, 1, 0) == 0);
    CHECK(cube_back->at<float>(0, 2, 0) == 1);
    CHECK(cube_back->at<float>(2, 5, 127) == 1);
    CHECK(cube_back->at<float>(2, 6, 0) == 0);

    // A dense view in another layout (a transpose) is one span, written without reading it first.
    fake.calls.clear();
    std::vector<int32_t> counting(64 * 64);
    for (size_t i = 0; i < counting.size(); ++i) counting[i] = int32_t(i);
    REQUIRE(copy_to_device(Array::from<int32_t>(counting, {64, 64}), matrix->transpose()).ok());
    CHECK(fake.count("cuMemcpyDtoHAsync") == 0);
    CHECK(fake.count("cuMemcpyHtoDAsync") == 1);
    auto transposed = copy_to_host(*matrix);
    REQUIRE(transposed.ok());
    CHECK(transposed->at<int32_t>(1, 0) == 1);  // element (0, 1) of the transposed view
  }
  pykern::cuda::Gpu::select(nullptr);
  CHECK(fake.live_allocations() == 0);
}

TEST_CASE("a record passed by value is packed into the GPU launch's parameters whole") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.parameter_count = 2;
  std::vector<unsigned char> seen;
  fake.kernel = [&](const test::FakeLaunch& launch) {
    auto* bytes = static_cast<const unsigned char*>(launch.params[1]);
    seen.assign(bytes, bytes + 16);
  };
  REQUIRE(fake.select_gpu());
  {
    auto module = Module::load_source(R"py(from numba import cuda

@cuda.jit
def scale(out, p):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = out[i] * p.gain + p.offset
)py",
                                      "scale.py", fake_options());
    REQUIRE(module.ok());
    auto params_t = DType::from_descr("[('gain', '<f8'), ('offset', '<f4'), ('n', '<i4')]");
    REQUIRE(params_t.ok());
    unsigned char record[16];
    for (int i = 0; i < 16; ++i) record[i] = static_cast<unsigned char>(i * 7 + 1);
    auto out = to_device(Array::from<double>({1, 2}), Stream(), Backend::cuda);
    REQUIRE(out.ok());
    auto status = module->kernel("scale")->launch(Launch(1, 32).backend(Backend::cuda), *out,
                                                  Scalar::record(*params_t, record));
    REQUIRE_MESSAGE(status.ok(), message_of(status));
    CHECK(seen == std::vector<unsigned char>(record, record + 16));
  }
  pykern::cuda::Gpu::select(nullptr);
  std::filesystem::remove_all(fake_options().cache_dir);
}

// Issue 31, item 16: progress and cancellation on a GPU (Launch::progress, Launch::cancel_with).
TEST_CASE("a GPU launch cancelled before its kernel is queued runs nothing and leaves the GPU usable") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = run_twice;
  REQUIRE(fake.select_gpu());
  {
    Kernel twice = load_twice();
    REQUIRE(twice.prepare({Array::from<float>({1})}, Backend::cuda).ok());
    Array a = Array::from<float>({1, 2, 3});
    CancelSource cancel;
    cancel.request_cancel();
    auto status = twice.launch(Launch(1, 32).backend(Backend::cuda).cancel_with(cancel.token()), a);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().kind == ErrorKind::cancelled);
    CHECK(fake.count("cuLaunchKernel") == 0);
    CHECK(a.at<float>(2) == 3);
    CHECK(twice.launch(Launch(1, 32).backend(Backend::cuda), a).ok());  // the GPU is not stuck
    CHECK(a.at<float>(2) == 6);
  }
  std::filesystem::remove_all(fake_options().cache_dir);
}

TEST_CASE("a GPU launch reports the time while it polls, and a cancel once its kernel is queued waits for the kernel") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = run_twice;
  REQUIRE(fake.select_gpu());
  {
    Kernel twice = load_twice();
    Array host = Array::from<float>({1, 2, 3});
    auto device = to_device(host, Stream(), Backend::cuda);
    REQUIRE(device.ok());
    fake.queries_until_done = 40;  // about 40 ms of polling: the kernel takes a while
    CancelSource cancel;
    std::vector<LaunchProgress> seen;
    auto report = [&](const LaunchProgress& p) {
      seen.push_back(p);
      cancel.request_cancel();  // too late: the kernel runs, and cannot be stopped
    };
    // Device arrays only: a progress callback makes the launch wait for its kernel, as a timeout does.
    auto status = twice.launch(
        Launch(2, 32).backend(Backend::cuda).cancel_with(cancel.token()).progress(report, std::chrono::milliseconds(1)),
        *device);
    REQUIRE_MESSAGE(status.ok(), message_of(status));
    CHECK(fake.queries_until_done == 0);
    REQUIRE(seen.size() >= 2);
    for (size_t i = 0; i + 1 < seen.size(); ++i) {
      CHECK_FALSE(seen[i].finished);
      CHECK(seen[i].blocks_done == 0);  // the driver cannot say
      CHECK(seen[i].blocks_total == 2);
      CHECK(seen[i + 1].elapsed_seconds >= seen[i].elapsed_seconds);
    }
    CHECK(seen.back().finished);
    CHECK(seen.back().blocks_done == 2);
    REQUIRE(copy_to_host(*device, host, Stream()).ok());
    CHECK(host.at<float>(2) == 6);
    CHECK(synchronize(Backend::cuda).ok());  // not stuck
  }
  pykern::cuda::Gpu::select(nullptr);
  CHECK(fake.waited_for_ever.empty());
  std::filesystem::remove_all(fake_options().cache_dir);
}

TEST_CASE("a GPU launch whose progress callback throws waits for its kernel, then fails with the callback's message") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = run_twice;
  REQUIRE(fake.select_gpu());
  {
    Kernel twice = load_twice();
    Array a = Array::from<float>({1, 2, 3});
    fake.queries_until_done = 20;
    int calls = 0;
    auto status = twice.launch(Launch(1, 32).backend(Backend::cuda).progress(
                                   [&](const LaunchProgress&) {
                                     ++calls;
                                     throw std::runtime_error("no more");
                                   },
                                   std::chrono::milliseconds(1)),
                               a);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().kind == ErrorKind::launch);
    CHECK(message_of(status).find("the launch's progress callback threw an exception: no more") != std::string::npos);
    CHECK(calls == 1);  // not called again
    CHECK(fake.queries_until_done == 0);  // the kernel was waited for: its staged copy outlived it
    CHECK(twice.launch(Launch(1, 32).backend(Backend::cuda), a).ok());
  }
  std::filesystem::remove_all(fake_options().cache_dir);
}

TEST_CASE("managed and mapped arrays go to the kernel as they are: no staging copy, the host sees the writes") {
  if (!has_nvrtc()) return;
  test::FakeDriver fake;
  fake.kernel = run_twice;
  REQUIRE(fake.select_gpu());
  {
    Kernel twice = load_twice();
    auto managed = managed_array(DType::float_(32), {4}, Order::C, Backend::cuda);
    auto mapped = mapped_array(DType::float_(32), {4}, Order::C, Backend::cuda);
    REQUIRE((managed.ok() && mapped.ok()));
    for (const Array& a : {*managed, *mapped}) {
      for (int i = 0; i < 4; ++i) a.at<float>(i) = float(i + 1);
      int copies = fake.count("cuMemcpyHtoDAsync");
      REQUIRE_MESSAGE(twice.launch(Launch(1, 32).backend(Backend::cuda), a).ok(), "launch");
      CHECK(fake.count("cuMemcpyHtoDAsync") == copies);  // nothing staged
      CHECK(*static_cast<void* const*>(fake.launches.back().params[0]) == a.data());
      REQUIRE(pykern::synchronize().ok());
      CHECK(a.at<float>(3) == 8);  // the host reads the kernel's writes in place
    }
    // The simulator takes unified memory too: the host addresses it.
    REQUIRE(twice.launch(Launch(1, 32).backend(Backend::cpu), *managed).ok());
    CHECK(managed->at<float>(3) == 16);
  }
  CHECK(fake.live_allocations() == 0);
}
