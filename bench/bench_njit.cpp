// bench/njit_functions.py's @njit functions called through Function::call, on the inputs
// bench/njit_cases.json describes; bench/njit_bench.py runs this and Numba in the same run,
// compares the results and prints each ratio (BENCHMARKS.md). For each case, one JSON line:
//   first_ms   load the file and make the first call (a build, unless the cache holds it)
//   call_us    the median of --calls warm calls, each timed alone; every array argument is
//              reset to its inputs before each call, outside the timing. --clock cpu times the
//              process's CPU time instead of the wall clock: on a loaded machine it leaves out
//              the time other processes take the cores (single-threaded cases only)
//   returned   what the first call returned; its array arguments afterwards go to
//              --out/<case>.<argument>.npy
// Usage: pykern_bench_njit [--calls N] [--clock wall|cpu] [--out DIR] [--cache-dir DIR | --no-cache]
//                          [CASE ...]
#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "pykern/function.h"
#include "pykern/npy.h"
#include "read_file.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

pykern::DType dtype_named(const std::string& name) {
  if (name == "float32") return pykern::DType::float_(32);
  if (name == "float64") return pykern::DType::float_(64);
  if (name == "int32") return pykern::DType::int_(32);
  return pykern::DType::int_(64);
}

// One array argument made by its formula (njit_cases.json's note), element by element.
pykern::Array filled(const nlohmann::json& arg) {
  pykern::DType dtype = dtype_named(arg["dtype"]);
  std::string fill = arg["fill"];
  std::vector<int64_t> shape = fill == "values" ? std::vector<int64_t>{static_cast<int64_t>(arg["values"].size())}
                                                : arg["shape"].get<std::vector<int64_t>>();
  pykern::Array a = pykern::Array::zeros(dtype, shape);
  int64_t start = arg.value("start", 0);
  for (int64_t i = 0; i < a.size(); ++i) {
    double value = 0;
    if (fill == "ramp")
      value = static_cast<double>((i + start) * 7919 % 10007) / 10007.0 * arg.value("scale", 1.0) + arg.value("offset", 0.0);
    else if (fill == "int")
      value = static_cast<double>((i + start) * 7919 % 10007 % arg["mod"].get<int64_t>());
    else if (fill == "values")
      value = arg["values"][i].get<double>();
    char* at = static_cast<char*>(a.data()) + i * dtype.itemsize;
    if (dtype == pykern::DType::float_(32)) *reinterpret_cast<float*>(at) = static_cast<float>(value);
    else if (dtype == pykern::DType::float_(64)) *reinterpret_cast<double*>(at) = value;
    else if (dtype == pykern::DType::int_(32)) *reinterpret_cast<int32_t*>(at) = static_cast<int32_t>(value);
    else *reinterpret_cast<int64_t*>(at) = static_cast<int64_t>(value);
  }
  return a;
}

struct Inputs {
  std::vector<pykern::Argument> args;     // what the calls get
  std::vector<pykern::Array> pristine;    // each array argument's inputs, by argument
};

Inputs inputs_of(const nlohmann::json& c) {
  Inputs in;
  for (const auto& arg : c["args"]) {
    if (arg.contains("fill")) {
      pykern::Array a = filled(arg);
      in.pristine.push_back(a.copy());
      in.args.push_back(a);
    } else {
      const auto& v = arg["scalar"];
      in.args.push_back(v.is_number_integer() ? pykern::Scalar(static_cast<long long>(v.get<int64_t>()))
                                              : pykern::Scalar(v.get<double>()));
      in.pristine.emplace_back();
    }
  }
  return in;
}

void reset(Inputs& in) {
  for (size_t i = 0; i < in.args.size(); ++i)
    if (const auto* a = std::get_if<pykern::Array>(&in.args[i]))
      std::memcpy(a->data(), in.pristine[i].data(), static_cast<size_t>(a->nbytes()));
}

nlohmann::json returned_json(const pykern::Returned& r) {
  nlohmann::json values = nlohmann::json::array();
  for (const pykern::Scalar& s : r.values) {
    if (s.type.kind == pykern::ScalarKind::int_ || s.type.kind == pykern::ScalarKind::uint) values.push_back(s.integer);
    else values.push_back(s.value.real());
  }
  return values;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

bool cpu_clock = false;  // --clock cpu

// Microseconds on the chosen clock: the wall clock, or the process's CPU time.
double now_us() {
  if (!cpu_clock) return std::chrono::duration<double, std::micro>(Clock::now().time_since_epoch()).count();
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) * 1e-3;
}

nlohmann::json run_case(const nlohmann::json& c, const pykern::ModuleOptions& options, int calls, const fs::path& out) {
  Inputs in = inputs_of(c);
  nlohmann::json line = {{"case", c["name"]}};
  auto started = Clock::now();
  auto module = pykern::Module::load_file((fs::path(PYKERN_SOURCE_DIR) / "bench/njit_functions.py").string(), options);
  if (!module.ok()) return {{"case", c["name"]}, {"error", module.error().message}};
  auto function = module->function(c["function"]);
  if (!function.ok()) return {{"case", c["name"]}, {"error", function.error().message}};
  auto first = function->call(in.args);
  line["first_ms"] = ms_since(started);
  if (!first.ok()) return {{"case", c["name"]}, {"error", first.error().message}};
  line["returned"] = returned_json(*first);
  if (!out.empty())
    for (size_t i = 0; i < in.args.size(); ++i)
      if (const auto* a = std::get_if<pykern::Array>(&in.args[i]))
        (void)pykern::save_npy((out / (c["name"].get<std::string>() + "." + std::to_string(i) + ".npy")).string(), *a);
  std::vector<double> times;
  for (int k = 0; k < calls; ++k) {
    reset(in);
    double start = now_us();
    auto result = function->call(in.args);
    times.push_back(now_us() - start);
    if (!result.ok()) return {{"case", c["name"]}, {"error", result.error().message}};
  }
  std::sort(times.begin(), times.end());
  line["call_us"] = times.empty() ? 0.0 : times[times.size() / 2];
  line["calls_us"] = times;
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  int calls = 20;
  fs::path out;
  pykern::ModuleOptions options;
  options.cache_dir = (fs::temp_directory_path() / "pykern-bench-njit-cache").string();
  std::vector<std::string> wanted;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--calls" && i + 1 < argc) calls = std::stoi(argv[++i]);
    else if (arg == "--out" && i + 1 < argc) out = argv[++i];
    else if (arg == "--clock" && i + 1 < argc) cpu_clock = std::string(argv[++i]) == "cpu";
    else if (arg == "--cache-dir" && i + 1 < argc) options.cache_dir = argv[++i];
    else if (arg == "--no-cache") options.use_cache = false;
    else wanted.push_back(arg);
  }
  if (!out.empty()) fs::create_directories(out);
  auto spec = nlohmann::json::parse(read_file(fs::path(PYKERN_SOURCE_DIR) / "bench/njit_cases.json"));
  int failed = 0;
  for (const auto& c : spec["cases"]) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), c["name"].get<std::string>()) == wanted.end()) continue;
    nlohmann::json line = run_case(c, options, calls, out);
    failed += line.contains("error");
    std::cout << line.dump() << std::endl;
  }
  return failed ? 1 : 0;
}
