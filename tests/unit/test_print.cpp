// print() on a GPU (issue 28, item 16): what numba-cuda prints past printf's 32 values, in the
// simulator and in the emitted CUDA alike; the printf buffer a printing kernel's context gets;
// and `pykern run` waiting for the GPU, so that an asynchronous launch's output is not lost.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>
#include <doctest/doctest.h>

#include "cli/commands.h"
#include "cli_run.h"
#include "fake_driver.h"
#include "helpers.h"
#include "jit/nvrtc.h"
#include "pykern/compiler.h"
#include "pykern/device.h"
#include "pykern/module.h"
#include "pykern/npy.h"

namespace fs = std::filesystem;
using namespace pykern;

namespace {

// r = arange(10) for each: `items` prints 33 items, `values` 32 items of 44 values, `exactly`
// 32 items of 32 values. Arguments beyond what prints are evaluated all the same (the adds).
// The kernels, shared with the GPU suite (tests/gpu/test_gpu_print.cpp).
const std::string printing = test::read(test::source_dir() / "tests/print/printing.py");

std::string repeated(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

struct Printed {
  int status = -1;
  std::string stdout_text, stderr_text;
  Array r;
};

// `pykern run` of one kernel of `printing` on r = arange(10), in the simulator.
Printed run_printing(const test::Scratch& s, const std::string& kernel) {
  fs::path file = s.write("printing.py", printing);
  fs::path r = s.path / "r.npy";
  REQUIRE(save_npy(r.string(), Array::from<int64_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9})).ok());
  fs::path out = s.path / ("out-" + kernel), printed = s.path / ("stdout-" + kernel);
  test::CliRun run = test::run_cli("run " + file.string() + " " + kernel + " " + r.string() +
                                       " --grid 1 --block 1 --backend cpu --out " + out.string(),
                                   s.cache_env(), "> " + printed.string());
  Printed result{run.status, test::read(printed), run.output, {}};
  auto written = load_npy((out / "r.npy").string());
  if (written.ok()) result.r = *written;
  return result;
}

}  // namespace

TEST_CASE("print() of more than 32 items prints numba-cuda's raw format, with a located warning") {
  CompileOptions options;
  options.emit = EmitKind::cuda;
  options.use_cache = false;
  options.signatures = {{"items", "void(int64[::1])"}};
  auto compiled = compile_source(printing, "printing.py", options);
  REQUIRE_MESSAGE(compiled.ok(), (compiled.ok() ? "" : compiled.error().describe()));
  // Located at the 33rd item.
  CHECK(compiled->warnings.find("printing.py:7:11: warning: print() of 33 items prints its raw format, not the "
                                "values") != std::string::npos);
  CHECK(compiled->warnings.find("[print-limit]") != std::string::npos);

  test::Scratch s;
  Printed run = run_printing(s, "items");
  REQUIRE_MESSAGE(run.status == 0, run.stderr_text);
  // numba-cuda's format: a string literal and a boolean are %s, a float %f, an integer %lld.
  CHECK(run.stdout_text == "%s %lld %s %f (%lld,)" + repeated(" %lld", 28) + "\n");
  CHECK(run.r.at<int64_t>(0) == 1);  // the last item, not printed, was evaluated
}

TEST_CASE("print() past 32 values formats the first 32 and prints the others' conversions, as CUDA's printf does") {
  test::Scratch s;
  Printed run = run_printing(s, "values");
  REQUIRE_MESSAGE(run.status == 0, run.stderr_text);
  std::string t = "(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)";
  // "a" and "b%" are values to numba-cuda: the 32nd value is "b%", and what follows is cut.
  CHECK(run.stdout_text == "a " + t + " " + t + " " + t + " b% (%lld" + repeated(", %lld", 9) + ") %s %f %lld\n");
  CHECK(run.r.at<int64_t>(1) == 2);  // evaluated, not printed

  Printed all = run_printing(s, "exactly");
  REQUIRE_MESSAGE(all.status == 0, all.stderr_text);
  CHECK(all.stdout_text == "0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1\n");

  // The emitted CUDA passes printf 32 values at most, and no warning comes for 32 items.
  CompileOptions options;
  options.emit = EmitKind::cuda;
  options.use_cache = false;
  options.signatures = {{"values", "void(int64[::1])"}, {"exactly", "void(int64[::1])"}};
  auto compiled = compile_source(printing, "printing.py", options);
  REQUIRE(compiled.ok());
  CHECK(compiled->warnings.find("printing.py:12:31: warning: print() prints '%lld' here and after, not the values") !=
        std::string::npos);
  CHECK(compiled->warnings.find("printing.py:16:") == std::string::npos);
  CHECK(compiled->cuda_source.find("b%% (%%lld, %%lld") != std::string::npos);
}

TEST_CASE("print() in a @jit function called on the host has no 32-value limit, as in Numba's CPU target") {
  test::Scratch s;
  std::string many;
  for (int i = 0; i < 40; ++i) many += i ? ", x" : "x";
  fs::path file = s.write("host.py", "from numba import njit\n\n@njit\ndef f(x):\n    print(" + many + ")\n    return x\n");
  fs::path printed = s.path / "stdout";
  test::CliRun run = test::run_cli("run " + file.string() + " f 3 --out " + (s.path / "out").string(), s.cache_env(),
                                   "> " + printed.string());
  REQUIRE_MESSAGE(run.status == 0, run.output);
  CHECK(test::read(printed) == "3" + repeated(" 3", 39) + "\n3\n");
  CHECK(run.output.find("print-limit") == std::string::npos);
}

namespace {

ModuleOptions fake_options() {
  ModuleOptions options;
  options.cache_dir = (fs::temp_directory_path() / ("pykern-fake-print-" + std::to_string(::getpid()))).string();
  return options;
}

const char* kernels_that_print = R"py(from numba import cuda

@cuda.jit(device=True)
def show(x):
    print("x is", x)
    return x

@cuda.jit
def quiet(a):
    a[0] = 1

@cuda.jit
def loud(a):
    print(a[0])

@cuda.jit
def through_a_callee(a):
    a[0] = show(a[0])
)py";

Status launch_on_fake_gpu(const std::string& kernel) {
  auto module = Module::load_source(kernels_that_print, "printing.py", fake_options());
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  auto k = module->kernel(kernel);
  REQUIRE(k.ok());
  auto device = device_array(DType::float_(64), {4}, Order::C, Backend::cuda);
  REQUIRE(device.ok());
  return k->launch(Launch(1, 1).backend(Backend::cuda), *device);
}

bool has_nvrtc() { return jit::nvrtc_version().ok(); }

// An environment variable set (or unset: null) for a test's scope, as it was again after.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> saved;
  ScopedEnv(const char* variable, const char* value) : name(variable) {
    if (const char* now = std::getenv(variable)) saved = now;
    set(value);
  }
  ~ScopedEnv() { set(saved ? saved->c_str() : nullptr); }
  void set(const char* value) const {
    if (value) ::setenv(name.c_str(), value, 1);
    else ::unsetenv(name.c_str());
  }
};

}  // namespace

TEST_CASE("whether a kernel prints is in its compile output, and comes back from the kernel cache") {
  if (!has_nvrtc()) return;
  test::Scratch s;
  CompileOptions options;
  options.emit = EmitKind::cubin;
  options.arch = "sm_90";
  options.cache_dir = (s.path / "cache").string();
  options.signatures = {{"quiet", "void(float64[::1])"}, {"loud", "void(float64[::1])"},
                        {"through_a_callee", "void(float64[::1])"}};
  for (bool cached : {false, true}) {
    CAPTURE(cached);
    auto compiled = compile_source(kernels_that_print, "printing.py", options);
    REQUIRE(compiled.ok());
    CHECK(compiled->cache_hit == cached);
    std::map<std::string, bool> prints;
    for (const CompiledKernel& k : compiled->kernels) prints[k.function] = k.prints;
    CHECK(prints == std::map<std::string, bool>{{"quiet", false}, {"loud", true}, {"through_a_callee", true}});
  }
}

TEST_CASE("a kernel that prints gets a 64 MiB printf buffer in its context before it runs; others leave it") {
  if (!has_nvrtc()) return;
  ScopedEnv fifo_size("PYKERN_PRINTF_FIFO_SIZE", nullptr);
  SUBCASE("a kernel that does not print asks nothing") {
    test::FakeDriver fake;
    REQUIRE(fake.select_gpu());
    REQUIRE(launch_on_fake_gpu("quiet").ok());
    CHECK(fake.count("cuCtxGetLimit") == 0);
    CHECK(fake.count("cuCtxSetLimit") == 0);
    CHECK(fake.printf_fifo_bytes == size_t(1) << 20);
  }
  SUBCASE("one that prints, or calls a function that does, grows it once, in the GPU's context, before launching") {
    test::FakeDriver fake;
    REQUIRE(fake.select_gpu());
    REQUIRE(launch_on_fake_gpu("loud").ok());
    CHECK(fake.printf_fifo_bytes == size_t(64) << 20);
    CHECK(fake.printf_fifo_context == test::FakeDriver::gpu_context());
    auto set = std::find(fake.calls.begin(), fake.calls.end(), "cuCtxSetLimit");
    CHECK(std::find(set, fake.calls.end(), "cuLaunchKernel") != fake.calls.end());
    REQUIRE(launch_on_fake_gpu("through_a_callee").ok());
    REQUIRE(launch_on_fake_gpu("loud").ok());
    CHECK(fake.count("cuCtxSetLimit") == 1);
  }
  SUBCASE("through a callee too") {
    test::FakeDriver fake;
    REQUIRE(fake.select_gpu());
    REQUIRE(launch_on_fake_gpu("through_a_callee").ok());
    CHECK(fake.count("cuCtxSetLimit") == 1);
  }
  SUBCASE("a larger buffer the host program set is kept") {
    test::FakeDriver fake;
    fake.printf_fifo_bytes = size_t(256) << 20;
    REQUIRE(fake.select_gpu());
    REQUIRE(launch_on_fake_gpu("loud").ok());
    CHECK(fake.count("cuCtxSetLimit") == 0);
    CHECK(fake.printf_fifo_bytes == size_t(256) << 20);
  }
  SUBCASE("a buffer that can no longer change (a printing kernel ran) is no error; another failure is") {
    test::FakeDriver fake;
    fake.failures["cuCtxSetLimit"] = CUDA_ERROR_INVALID_VALUE;
    REQUIRE(fake.select_gpu());
    CHECK(launch_on_fake_gpu("loud").ok());
    test::FakeDriver other;
    other.failures["cuCtxSetLimit"] = CUDA_ERROR_OUT_OF_MEMORY;
    REQUIRE(other.select_gpu());
    Status refused = launch_on_fake_gpu("loud");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("cuCtxSetLimit (a printf buffer of 67108864 bytes (PYKERN_PRINTF_FIFO_SIZE) on "
                                       "device 0) failed: CUDA_ERROR_OUT_OF_MEMORY") != std::string::npos);
    CHECK(other.launches.empty());
  }
  SUBCASE("PYKERN_PRINTF_FIFO_SIZE sets the size, and is refused when it is not a number of bytes") {
    test::FakeDriver fake;
    REQUIRE(fake.select_gpu());
    fifo_size.set("12M");
    Status refused = launch_on_fake_gpu("loud");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("PYKERN_PRINTF_FIFO_SIZE is the bytes of the GPU's printf buffer") !=
          std::string::npos);
    fifo_size.set("8388608");
    REQUIRE(launch_on_fake_gpu("loud").ok());
    CHECK(fake.printf_fifo_bytes == size_t(8) << 20);
  }
  fs::remove_all(fake_options().cache_dir);
}

namespace {

// `pykern run ARGS...` in this process (on the fake driver's GPU), its exit code and stderr.
std::pair<int, std::string> run_command(std::vector<std::string> args) {
  CLI::App app;
  cli::add_run_command(app);
  args.insert(args.begin(), "pykern");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::ostringstream errors;
  std::streambuf* saved = std::cerr.rdbuf(errors.rdbuf());
  cli::set_exit_code(-1);
  app.parse(int(argv.size()), argv.data());
  std::cerr.rdbuf(saved);
  return {cli::exit_code(), errors.str()};
}

}  // namespace

TEST_CASE("pykern run waits for the GPU before it ends, and a fault found then fails it") {
  if (!has_nvrtc()) return;
  test::Scratch s;
  fs::path file = s.write("scalar.py", R"py(from numba import cuda

@cuda.jit
def hello(n):
    print("hello", n)
)py");
  ScopedEnv cache_dir("PYKERN_CACHE_DIR", (s.path / "cache").c_str());
  test::FakeDriver fake;
  REQUIRE(fake.select_gpu());
  std::vector<std::string> args = {"run", file.string(), "hello", "5", "--grid", "1", "--block", "1",
                                   "--backend", "cuda", "--out", (s.path / "out").string()};
  // No host array: the launch itself returns at once, and only the wait brings the output.
  auto [code, errors] = run_command(args);
  CHECK_MESSAGE(code == 0, errors);
  REQUIRE(fake.launches.size() == 1);
  CHECK(fake.count("cuCtxSynchronize") == 1);

  fake.fault = CUDA_ERROR_ILLEGAL_ADDRESS;
  auto [failed, message] = run_command(args);
  CHECK(failed == 1);
  CHECK(message.find("pykern: error: hello failed on the GPU after its launch returned: cuCtxSynchronize "
                     "(synchronize) failed: CUDA_ERROR_ILLEGAL_ADDRESS") != std::string::npos);
  // A command that failed already says so once: the wait after it answers the same fault.
  fake.failures["cuLaunchKernel"] = CUDA_ERROR_ILLEGAL_ADDRESS;
  auto [refused, once] = run_command(args);
  CHECK(refused == 1);
  CHECK(once.find("cuLaunchKernel") != std::string::npos);
  CHECK(once.find("pykern: error:") == once.rfind("pykern: error:"));
  fake.failures.clear();
  fake.fault = CUDA_SUCCESS;
}
