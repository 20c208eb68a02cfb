// The seeds' CPU examples called from C++ (Module::function / Module::ufunc), against Numba's
// CPU target (bench/numba_cpu_bench.py, the same cases and inputs from bench/cpu_cases.json):
//   call/<case>        one call, compiled and cached (the first call is excluded)
//   first_call/<case>  load the file and make the first call, with no cache: typing, the
//                      host compiler's build and the call, as a fresh process would
// prange scaling: run twice, with NUMBA_NUM_THREADS=1 and with the default (every core).
// Run: ./build/bench/pykern_bench_cpu   (numbers in BENCHMARKS.md)
#include <filesystem>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "pykern/function.h"
#include "pykern/ufunc.h"
#include "read_file.h"

namespace fs = std::filesystem;

namespace {

struct Case {
  std::string name;
  fs::path kernel;
  std::string function;
  bool ufunc = false;
  std::vector<pykern::Argument> args;
};

// a[i] = (i * 7919 % 20000) / 100 - 100, as numba_cpu_bench.py fills it.
pykern::Array ramp(int64_t n, const std::string& dtype) {
  bool single = dtype == "float32";
  pykern::Array a = pykern::Array::zeros(pykern::DType::float_(single ? 32 : 64), {n});
  for (int64_t i = 0; i < n; ++i) {
    double v = static_cast<double>(i * 7919 % 20000) / 100.0 - 100.0;
    if (single) a.at<float>(i) = static_cast<float>(v);
    else a.at<double>(i) = v;
  }
  return a;
}

std::vector<Case> cases() {
  fs::path root = fs::path(PYKERN_SOURCE_DIR);
  auto spec = nlohmann::json::parse(read_file(root / "bench/cpu_cases.json"));
  std::vector<Case> out;
  for (const auto& c : spec["cases"]) {
    Case one{c["name"], root / "tests/corpus/features" / c["case"].get<std::string>() / "kernel.py", c["function"],
             c.value("kind", "") == "ufunc", {}};
    for (const auto& arg : c["args"]) {
      if (arg.contains("ramp")) {
        one.args.push_back(ramp(arg["ramp"].get<int64_t>(), arg["dtype"]));
      } else {
        const auto& v = arg["scalar"];
        one.args.push_back(v.is_number_integer() ? pykern::Scalar(static_cast<long long>(v.get<int64_t>()))
                                                 : pykern::Scalar(v.get<double>()));
      }
    }
    out.push_back(std::move(one));
  }
  return out;
}

// One call of the case on `module`: the function, or the ufunc on the CPU.
bool call_once(const pykern::Module& module, const Case& c) {
  if (c.ufunc) {
    auto ufunc = module.ufunc(c.function);
    return ufunc.ok() && ufunc->call(c.args, std::nullopt, pykern::Backend::cpu).ok();
  }
  auto function = module.function(c.function);
  return function.ok() && function->call(c.args).ok();
}

void call(benchmark::State& state, const Case& c) {
  pykern::ModuleOptions options;
  options.cache_dir = (fs::temp_directory_path() / "pykern-bench-cpu-cache").string();
  auto module = pykern::Module::load_file(c.kernel.string(), options);
  if (!module.ok() || !call_once(*module, c)) {
    state.SkipWithError("the first call failed");
    return;
  }
  // The function and ufunc objects are looked up once, as a program would keep them.
  auto function = c.ufunc ? std::nullopt : std::optional<pykern::Function>(module->function(c.function).value());
  auto ufunc = c.ufunc ? std::optional<pykern::Ufunc>(module->ufunc(c.function).value()) : std::nullopt;
  for (auto _ : state) {
    bool ok = c.ufunc ? ufunc->call(c.args, std::nullopt, pykern::Backend::cpu).ok() : function->call(c.args).ok();
    if (!ok) state.SkipWithError("a call failed");
  }
}

void first_call(benchmark::State& state, const Case& c) {
  pykern::ModuleOptions options;
  options.use_cache = false;
  for (auto _ : state) {
    auto module = pykern::Module::load_file(c.kernel.string(), options);
    if (!module.ok() || !call_once(*module, c)) state.SkipWithError("the first call failed");
  }
}

}  // namespace

int main(int argc, char** argv) {
  static const std::vector<Case> all = cases();
  for (const Case& c : all) {
    benchmark::RegisterBenchmark(("call/" + c.name).c_str(), call, c)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("first_call/" + c.name).c_str(), first_call, c)
        ->Unit(benchmark::kMillisecond)->Iterations(3);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
