// pykern on a GPU, measured the way bench/numba_gpu_bench.py measures numba-cuda, on the cases
// of bench/gpu_cases.json (seed kernels at sizes that fill the GPU). Prints one JSON object;
// bench/gpu_report.py puts both sides in one table. Run by .ci/device-run on a GPU machine.
//
//   bench_gpu all            everything below but warm start, as JSON on stdout
//   bench_gpu warm CASE DIR  one warm start (cache in DIR): load to first launch done, in ms
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>

#include <nlohmann/json.hpp>

#include "cuda/gpu.h"
#include "cuda/memory.h"
#include "pykern/compiler.h"
#include "pykern/device.h"
#include "pykern/module.h"
#include "pykern/npy.h"
#include "read_file.h"

namespace fs = std::filesystem;
using namespace pykern;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

fs::path source_dir() {
  const char* moved = std::getenv("PYKERN_SOURCE_DIR");  // a build carried to the GPU machine
  return moved ? moved : PYKERN_SOURCE_DIR;
}
double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}
template <class T>
T check(Result<T> r, const std::string& what) {
  if (!r.ok()) {
    std::cerr << what << ": " << r.error().describe() << "\n";
    std::exit(1);
  }
  return std::move(r.value());
}
void check(const Status& s, const std::string& what) { (void)check<Unit>(s, what); }

fs::path kernel_file(const std::string& name) { return source_dir() / "tests/corpus/seeds" / name / "kernel.py"; }
std::string function_of(const std::string& name) {
  return json::parse(read_file(source_dir() / "tests/corpus/seeds" / name / "case.json"))["function"];
}
Dim3 dim(const json& d) { return Dim3(d[0], d.size() > 1 ? uint32_t(d[1]) : 1u, d.size() > 2 ? uint32_t(d[2]) : 1u); }

// Host data as numba_gpu_bench.py makes it: floats in [0, 1), integers 0..99.
Array random_array(const json& spec, std::mt19937_64& rng) {
  DType dtype = check(DType::from_name(spec["dtype"].get<std::string>()), "dtype");
  Array a = Array::zeros(dtype, spec["shape"].get<std::vector<int64_t>>());
  std::uniform_real_distribution<double> real(0, 1);
  for (int64_t i = 0; i < a.size(); ++i) {
    std::byte* p = static_cast<std::byte*>(a.data()) + i * dtype.itemsize;
    if (dtype == DType::float_(32)) *reinterpret_cast<float*>(p) = float(real(rng));
    else if (dtype == DType::float_(64)) *reinterpret_cast<double*>(p) = real(rng);
    else if (dtype == DType::int_(64)) *reinterpret_cast<int64_t*>(p) = int64_t(rng() % 100);
    else if (dtype == DType::int_(32)) *reinterpret_cast<int32_t*>(p) = int32_t(rng() % 100);
  }
  return a;
}

std::vector<Argument> device_arguments(const json& specs, std::mt19937_64& rng) {
  std::vector<Argument> args;
  for (const json& spec : specs) {
    if (spec.contains("scalar")) args.push_back(Scalar(static_cast<long long>(spec["scalar"].get<int64_t>())));
    else args.push_back(check(to_device(random_array(spec, rng), {}, Backend::cuda), "to_device"));
  }
  return args;
}

// Device-to-device copy of 1 GiB: what the memory system gives a simple kernel at best.
double copy_bandwidth_gbs() {
  auto gpu = check(cuda::Gpu::current(), "gpu");
  const size_t bytes = size_t(1) << 30;
  Array from = check(device_array(DType::uint(8), {int64_t(bytes)}, Order::C, Backend::cuda), "alloc");
  Array to = check(device_array(DType::uint(8), {int64_t(bytes)}, Order::C, Backend::cuda), "alloc");
  auto start = check(Event::create(Backend::cuda), "event"), end = check(Event::create(Backend::cuda), "event");
  std::vector<double> times;
  for (int i = 0; i < 20; ++i) {
    check(start.record(), "record");
    check(copy_to_device(from, to), "copy");
    check(end.record(), "record");
    check(end.synchronize(), "sync");
    times.push_back(check(start.elapsed_ms(end), "elapsed"));
  }
  return 2.0 * bytes / (median(times) * 1e-3) / 1e9;  // read + write
}

// Translate + NVRTC + module load + first launch, with an empty cache.
double cold_compile_ms(const json& c, std::mt19937_64& rng) {
  std::string name = c["case"];
  std::vector<Argument> args = device_arguments(c["args"], rng);
  fs::path cache = fs::temp_directory_path() / ("pykern-bench-cold-" + name);
  fs::remove_all(cache);
  ModuleOptions options;
  options.cache_dir = cache.string();
  auto start = Clock::now();
  Module module = check(Module::load_file(kernel_file(name).string(), options), name);
  Kernel kernel = check(module.kernel(function_of(name)), name);
  check(kernel.launch(Launch(dim(c["grid"]), dim(c["block"])).backend(Backend::cuda), args), name);
  check(synchronize(Backend::cuda), name);
  double ms = ms_since(start);
  fs::remove_all(cache);
  return ms;
}

// Median kernel time over 50 launches, by CUDA events around each.
double kernel_ms(const json& c, std::mt19937_64& rng) {
  std::string name = c["case"];
  std::vector<Argument> args = device_arguments(c["args"], rng);
  Module module = check(Module::load_file(kernel_file(name).string()), name);
  Kernel kernel = check(module.kernel(function_of(name)), name);
  Launch launch = Launch(dim(c["grid"]), dim(c["block"])).backend(Backend::cuda);
  auto start = check(Event::create(Backend::cuda), "event"), end = check(Event::create(Backend::cuda), "event");
  for (int i = 0; i < 3; ++i) check(kernel.launch(launch, args), name);
  std::vector<double> times;
  for (int i = 0; i < 50; ++i) {
    check(start.record(), "record");
    check(kernel.launch(launch, args), name);
    check(end.record(), "record");
    check(end.synchronize(), "sync");
    times.push_back(check(start.elapsed_ms(end), "elapsed"));
  }
  return median(times);
}

// Host time per launch of a kernel with three device arrays: through pykern (arguments given
// one by one, and as a vector built once) and as a bare cuLaunchKernel loop on the same cubin.
json launch_overhead(const json& spec) {
  std::string name = spec["case"];
  int launches = spec["launches"];
  DType dtype = check(DType::from_name(spec["dtype"].get<std::string>()), "dtype");
  int64_t n = spec["n"];
  Array a = check(device_array(dtype, {n}, Order::C, Backend::cuda), "alloc");
  Array b = check(device_array(dtype, {n}, Order::C, Backend::cuda), "alloc");
  Array out = check(device_array(dtype, {n}, Order::C, Backend::cuda), "alloc");
  Module module = check(Module::load_file(kernel_file(name).string()), name);
  Kernel kernel = check(module.kernel(function_of(name)), name);
  Launch launch = Launch(dim(spec["grid"]), dim(spec["block"])).backend(Backend::cuda);
  auto per_launch_us = [&](auto&& one) {
    for (int i = 0; i < 1000; ++i) one();
    check(synchronize(Backend::cuda), "sync");
    auto start = Clock::now();
    for (int i = 0; i < launches; ++i) one();
    check(synchronize(Backend::cuda), "sync");
    return ms_since(start) * 1000.0 / launches;
  };
  json result;
  result["pykern_us"] = per_launch_us([&] { check(kernel.launch(launch, a, b, out), "launch"); });
  std::vector<Argument> args = {a, b, out};
  result["pykern_vector_us"] = per_launch_us([&] { check(kernel.launch(launch, args), "launch"); });

  // The same kernel's cubin, loaded and launched directly.
  CompileOptions options;
  options.emit = EmitKind::cubin;
  options.use_cache = false;
  options.signatures.push_back({function_of(name), "void(" + dtype.name() + "[::1], " + dtype.name() + "[::1], " +
                                                       dtype.name() + "[::1])"});
  CompileOutput compiled = check(compile_file(kernel_file(name).string(), options), "compile");
  auto gpu = check(cuda::Gpu::current(), "gpu");
  const cuda::Driver& d = gpu->driver();
  check(gpu->bind(), "bind");
  CUmodule cu_module = nullptr;
  CUfunction function = nullptr;
  check(d.check(d.module_load_data_ex(&cu_module, compiled.binary.data(), 0, nullptr, nullptr), "cuModuleLoadDataEx", name),
        "load");
  check(d.check(d.module_get_function(&function, cu_module, compiled.kernels[0].symbol.c_str()), "cuModuleGetFunction", name),
        "function");
  struct ArrayParam { void* data; int64_t shape, stride; };
  ArrayParam params[3] = {{a.data(), n, dtype.itemsize}, {b.data(), n, dtype.itemsize}, {out.data(), n, dtype.itemsize}};
  void* pointers[3] = {&params[0], &params[1], &params[2]};
  result["bare_us"] = per_launch_us([&] {
    if (d.launch_kernel(function, 1, 1, 1, 32, 1, 1, 0, nullptr, pointers, nullptr) != CUDA_SUCCESS) std::exit(1);
  });
  d.module_unload(cu_module);
  result["launches"] = launches;
  return result;
}

// Load to first launch done, in this process; the cache in `dir` is already populated.
int warm_start(const std::string& name, const std::string& dir) {
  auto start = Clock::now();
  ModuleOptions options;
  options.cache_dir = dir;
  fs::path case_dir = source_dir() / "tests/corpus/seeds" / name;
  Module module = check(Module::load_file((case_dir / "kernel.py").string(), options), name);
  Kernel kernel = check(module.kernel(function_of(name)), name);
  json spec = json::parse(read_file(case_dir / "case.json"));
  std::vector<Argument> args;
  for (const json& arg : spec["args"])
    args.push_back(check(load_npy((case_dir / "inputs" / (arg["name"].get<std::string>() + ".npy")).string()), "input"));
  check(kernel.launch(Launch(dim(spec["launch"]["grid"]), dim(spec["launch"]["block"])).backend(Backend::cuda), args), name);
  std::printf("%.3f\n", ms_since(start));
  return 0;
}

// Warm starts of new processes: the process's own wall time and its load-to-launch time.
json warm_starts(const json& names, const char* self) {
  json out = json::object();
  for (const json& n : names) {
    std::string name = n;
    fs::path cache = fs::temp_directory_path() / ("pykern-bench-warm-" + name);
    fs::remove_all(cache);
    std::string command = std::string(self) + " warm " + name + " " + cache.string();
    std::vector<double> inside, process;
    for (int run = 0; run < 11; ++run) {  // the first run fills the cache
      auto start = Clock::now();
      FILE* child = popen(command.c_str(), "r");
      double ms = 0;
      if (!child || std::fscanf(child, "%lf", &ms) != 1) std::exit(1);
      pclose(child);
      if (run == 0) continue;
      process.push_back(ms_since(start));
      inside.push_back(ms);
    }
    out[name] = {{"load_to_launch_ms", median(inside)}, {"process_ms", median(process)}};
    fs::remove_all(cache);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "all";
  if (mode == "warm" && argc == 4) return warm_start(argv[2], argv[3]);
  if (mode != "all") {
    std::cerr << "usage: bench_gpu [all | warm CASE CACHE_DIR]\n";
    return 2;
  }
  auto gpus = list_gpus();
  if (!gpus.ok() || gpus->empty()) {
    std::cerr << "bench_gpu needs a GPU: " << (gpus.ok() ? "none found" : gpus.error().message) << "\n";
    return 1;
  }
  json config = json::parse(read_file(source_dir() / "bench/gpu_cases.json"));
  json report;
  report["device"] = gpus->front().name;
  report["copy_bandwidth_gbs"] = copy_bandwidth_gbs();
  std::mt19937_64 rng(12345);
  for (const json& c : config["cases"]) {
    std::string name = c["case"];
    std::cerr << "pykern: " << name << "\n";
    report["cold_ms"][name] = cold_compile_ms(c, rng);
    report["kernel_ms"][name] = kernel_ms(c, rng);
  }
  report["launch_overhead"] = launch_overhead(config["launch_overhead"]);
  report["warm_start"] = warm_starts(config["warm_start"], argv[0]);
  std::cout << report.dump(2) << "\n";
  return 0;
}
