// Compile-time benchmarks over the seed kernels of the corpus (Google Benchmark):
//   translate/<case>   parse + lower + infer + emit (no NVRTC, no cache)
//   nvrtc/<case>       a compile to an sm_90 cubin (no cache) in a warm process
//   nvrtc_bare/<case>  the same kernel written by hand (bench/bare), same NVRTC call
//   cache_hit/<case>   a compile answered by the front-end cache (skips parse and NVRTC)
//   cli_cache_hit      a whole `pykern compile` process answered by the cache
// Run: ./build/bench/pykern_bench   (see BENCHMARKS.md for the numbers)
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <benchmark/benchmark.h>

#include "read_file.h"
#include <nlohmann/json.hpp>

#include "jit/nvrtc.h"
#include "pykern/compiler.h"

namespace fs = std::filesystem;

namespace {

// Kernel cases whose signature is simple to derive: the decorator's, or float arrays.
struct Case {
  std::string name, text, function, signature;
};

std::vector<Case> seed_cases() {
  // The seed kernels with the signatures Numba specialises them with in the corpus.
  const std::pair<const char*, const char*> chosen[] = {
      {"s003_matmul_shared", "void(float32[:, ::1], float32[:, ::1], float32[:, ::1])"},
      {"s003_matmul_naive", "void(float64[:, ::1], float64[:, ::1], float64[:, ::1])"},
      {"s001_vector_add_gridstride", "void(float32[::1], float32[::1], float32[::1])"},
      {"s000_hidden_layer_activate", "void(float32[::1], float32[::1])"},
      {"s004_bubblesort", "void(float32[::1])"},
      {"s004_device_function", "void(float64[::1], float64[::1], float64[::1])"},
      {"s001_compute_pi_xoroshiro", "void(xoroshiro128p_type[::1], int64, float32[::1])"},
  };
  std::vector<Case> cases;
  for (auto [name, signature] : chosen) {
    fs::path dir = fs::path(PYKERN_SOURCE_DIR) / "tests/corpus/seeds" / name;
    auto spec = nlohmann::json::parse(read_file(dir / "case.json"));
    cases.push_back({name, read_file(dir / "kernel.py"), spec["function"], signature});
  }
  return cases;
}

pykern::CompileOptions options_for(const Case& c, pykern::EmitKind emit, bool cache) {
  pykern::CompileOptions options;
  options.emit = emit;
  options.arch = "sm_90";
  options.kernels = {c.function};
  options.signatures = {{c.function, c.signature}};
  options.use_cache = cache;
  options.cache_dir = (fs::temp_directory_path() / "pykern-bench-cache").string();
  return options;
}

void translate(benchmark::State& state, Case c) {
  auto options = options_for(c, pykern::EmitKind::cuda, false);
  for (auto _ : state) {
    auto result = pykern::compile_source(c.text, c.name + ".py", options);
    if (!result.ok()) state.SkipWithError(result.error().message.c_str());
    benchmark::DoNotOptimize(result);
  }
}

void nvrtc(benchmark::State& state, Case c) {
  auto options = options_for(c, pykern::EmitKind::cubin, false);
  double total_ms = 0;
  for (auto _ : state) {
    auto result = pykern::compile_source(c.text, c.name + ".py", options);
    if (!result.ok()) state.SkipWithError(result.error().message.c_str());
    total_ms += result.ok() ? result->timings.nvrtc_ms : 0;
  }
  state.counters["nvrtc_ms"] = total_ms / static_cast<double>(state.iterations());
}

// The same kernel written by hand in plain CUDA (bench/bare), through the same NVRTC call: what
// the kernel itself costs NVRTC, without pykern's runtime headers and generated code.
void nvrtc_bare(benchmark::State& state, Case c) {
  pykern::jit::NvrtcRequest request;
  request.source = read_file(fs::path(PYKERN_SOURCE_DIR) / "bench/bare" / (c.name + ".cu"));
  request.name = c.name + ".cu";
  request.arch = "sm_90";
  double total_ms = 0;
  for (auto _ : state) {
    auto started = std::chrono::steady_clock::now();
    auto result = pykern::jit::nvrtc_compile(request);
    total_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    if (!result.ok()) state.SkipWithError(result.error().describe().c_str());
  }
  state.counters["nvrtc_ms"] = total_ms / static_cast<double>(state.iterations());
}

void cache_hit(benchmark::State& state, Case c) {
  auto options = options_for(c, pykern::EmitKind::cubin, true);
  if (!pykern::compile_source(c.text, c.name + ".py", options).ok()) state.SkipWithError("warm-up failed");
  for (auto _ : state) {
    auto result = pykern::compile_source(c.text, c.name + ".py", options);
    if (!result.ok() || !result->frontend_cache_hit) state.SkipWithError("not a cache hit");
  }
}

void cli_cache_hit(benchmark::State& state) {
  fs::path kernel = fs::path(PYKERN_SOURCE_DIR) / "samples/kernels.py";
  std::string cache = (fs::temp_directory_path() / "pykern-bench-cache").string();
  auto run = [&] {
    pid_t pid = ::fork();
    if (pid == 0) {
      ::setenv("PYKERN_CACHE_DIR", cache.c_str(), 1);
      ::freopen("/dev/null", "w", stderr);
      ::execl(PYKERN_BINARY, PYKERN_BINARY, "compile", kernel.c_str(), "--arch", "sm_90", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
  };
  if (!run()) state.SkipWithError("pykern compile failed");
  for (auto _ : state) run();
}

}  // namespace

int main(int argc, char** argv) {
  for (const Case& c : seed_cases()) {
    benchmark::RegisterBenchmark(("translate/" + c.name).c_str(), translate, c)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("nvrtc/" + c.name).c_str(), nvrtc, c)->Unit(benchmark::kMillisecond)->Iterations(10);
    benchmark::RegisterBenchmark(("nvrtc_bare/" + c.name).c_str(), nvrtc_bare, c)
        ->Unit(benchmark::kMillisecond)->Iterations(10);
    benchmark::RegisterBenchmark(("cache_hit/" + c.name).c_str(), cache_hit, c)->Unit(benchmark::kMicrosecond);
  }
  benchmark::RegisterBenchmark("cli_cache_hit", cli_cache_hit)->Unit(benchmark::kMillisecond)->Iterations(50);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
