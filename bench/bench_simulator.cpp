// The CPU simulator's speed on corpus kernels (Google Benchmark):
//   simulate/<case>      one launch, the simulator library already built (the first launch, which
//                        builds it, is excluded)
//   host_compile/<case>  building the simulator library from scratch (no cache), reported apart
//   host_build/<case>    building it with a kernel cache that holds the precompiled runtime
//                        core but not this library (a new kernel file), as a user's build runs
// Run: ./build/bench/pykern_bench_sim   (numbers and the Numba comparison in BENCHMARKS.md)
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <benchmark/benchmark.h>

#include "read_file.h"
#include <nlohmann/json.hpp>

#include "pykern/module.h"
#include "pykern/npy.h"

namespace fs = std::filesystem;

namespace {

struct Case {
  std::string name;
  fs::path dir;
  nlohmann::json spec;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* name : {"s003_matmul_shared", "s003_matmul_naive", "s001_compute_pi_xoroshiro",
                           "s001_vector_add_gridstride", "s004_bubblesort", "s002_check_prime_kernel_12"}) {
    fs::path dir = fs::path(PYKERN_SOURCE_DIR) / "tests/corpus/seeds" / name;
    out.push_back({name, dir, nlohmann::json::parse(read_file(dir / "case.json"))});
  }
  return out;
}

struct Prepared {
  pykern::Module module;
  pykern::Kernel kernel;
  std::vector<pykern::Argument> args;
  pykern::Launch launch;
};

// `file_name`, when given, names the source instead of its path (a new name is a new library).
Prepared prepare(const Case& c, const std::string& cache_dir, const std::string& file_name = "") {
  pykern::ModuleOptions options;
  options.cache_dir = cache_dir;
  options.use_cache = !cache_dir.empty();
  auto module = file_name.empty()
                    ? pykern::Module::load_file((c.dir / "kernel.py").string(), options).value()
                    : pykern::Module::load_source(read_file(c.dir / "kernel.py"), file_name, options).value();
  auto kernel = module.kernel(c.spec["function"]).value();
  std::vector<pykern::Argument> args;
  for (const auto& arg : c.spec["args"]) {
    if (arg.contains("scalar")) {
      const auto& v = arg["scalar"];
      args.push_back(v.is_number_integer() ? pykern::Scalar(static_cast<long long>(v.get<int64_t>()))
                                           : pykern::Scalar(v.get<double>()));
    } else {
      args.push_back(pykern::load_npy((c.dir / "inputs" / (arg["name"].get<std::string>() + ".npy")).string()).value());
    }
  }
  const auto& l = c.spec["launch"];
  auto dim = [](const nlohmann::json& d) {
    return pykern::Dim3(d[0].get<uint32_t>(), d.size() > 1 ? d[1].get<uint32_t>() : 1, 1);
  };
  pykern::Launch launch = l.contains("forall") ? pykern::Launch::forall(l["forall"].get<int64_t>())
                                               : pykern::Launch(dim(l["grid"]), dim(l["block"]));
  return {module, kernel, args, launch.backend(pykern::Backend::cpu)};
}

void simulate(benchmark::State& state, Case c) {
  std::string cache = (fs::temp_directory_path() / "pykern-bench-sim-cache").string();
  Prepared p = prepare(c, cache);
  if (!p.kernel.launch(p.launch, p.args).ok()) state.SkipWithError("launch failed");  // builds the library
  for (auto _ : state) {
    // Inputs are updated in place; timing repeats on the same buffers, as a loop of launches would.
    if (!p.kernel.launch(p.launch, p.args).ok()) state.SkipWithError("launch failed");
  }
}

void host_compile(benchmark::State& state, Case c) {
  for (auto _ : state) {
    Prepared p = prepare(c, "");  // no cache: every launch builds the library again
    if (!p.kernel.launch(p.launch, p.args).ok()) state.SkipWithError("launch failed");
  }
}

void host_build(benchmark::State& state, Case c) {
  std::string cache = (fs::temp_directory_path() / ("pykern-bench-build-" + std::to_string(::getpid()))).string();
  Prepared warm = prepare(c, cache, "warm-up.py");  // makes the precompiled core
  if (!warm.kernel.launch(warm.launch, warm.args).ok()) state.SkipWithError("launch failed");
  int n = 0;
  for (auto _ : state) {
    Prepared p = prepare(c, cache, c.name + "_" + std::to_string(n++) + ".py");
    if (!p.kernel.launch(p.launch, p.args).ok()) state.SkipWithError("launch failed");
  }
  std::error_code error;
  fs::remove_all(cache, error);
}

}  // namespace

int main(int argc, char** argv) {
  for (const Case& c : cases()) {
    benchmark::RegisterBenchmark(("simulate/" + c.name).c_str(), simulate, c)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("host_compile/" + c.name).c_str(), host_compile, c)
        ->Unit(benchmark::kMillisecond)->Iterations(2);
    benchmark::RegisterBenchmark(("host_build/" + c.name).c_str(), host_build, c)
        ->Unit(benchmark::kMillisecond)->Iterations(5);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
