// A suite's @njit functions called through Function::call, on the inputs its case file
// describes: --suite njit (default) is bench/njit_functions.py with bench/njit_cases.json,
// --suite numpy is bench/numpy_functions.py with bench/numpy_cases.json (NumPy inside @njit,
// issue 33). bench/njit_bench.py runs this and Numba in the same run, compares the results and
// prints each ratio (BENCHMARKS.md). For each case, one JSON line:
//   first_ms   load the file and make the first call (a build, unless the cache holds it)
//   call_us    the median of --calls warm calls, each timed alone; every array argument is
//              reset to its inputs before each call, outside the timing. --clock cpu times the
//              process's CPU time instead of the wall clock: on a loaded machine it leaves out
//              the time other processes take the cores (single-threaded cases only)
//   returned   what the first call returned, item by item: a number, or for a returned array
//              {"array": K, "shape": [...], "dtype": ...}, saved as --out/<case>.r<K>.npy; its
//              array arguments afterwards go to --out/<case>.<argument>.npy
// --size N is the size a case file's "n" stands for (shapes and scalars; "n/K" is n // K).
// --check runs each case once at the suite's check_size (or --size) and compares what it
// returned with bench/<suite>_check.json (Numba's results, written by njit_bench.py
// --write-check): the ctest that keeps the suite building and right.
// Usage: pykern_bench_njit [--suite njit|numpy] [--size N] [--check] [--calls N] [--clock wall|cpu]
//                          [--out DIR] [--cache-dir DIR | --no-cache] [CASE ...]
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <variant>

#include <sys/mman.h>

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

// A shape's extent or a scalar as the case file writes it: a number, "n" (the run's size) or
// "n/K" (n // K).
nlohmann::json sized(const nlohmann::json& v, int64_t n) {
  if (!v.is_string()) return v;
  std::string text = v;
  if (text == "n") return n;
  if (text.rfind("n/", 0) == 0) return n / std::stoll(text.substr(2));
  throw std::invalid_argument("a size is a number, \"n\" or \"n/K\", not \"" + text + "\"");
}

// A zeroed array in memory like NumPy's for the same size: NumPy advises the kernel to back an
// allocation of 4 MiB or more with huge pages (madvise MADV_HUGEPAGE; an 80 MB array of Numba's
// inputs shows 74 MB of AnonHugePages here), and a loop over 1e7 int32 reads them 1.4x as fast
// as over 4 KiB pages. Both sides' inputs get the same advice.
pykern::Array numpy_like_zeros(const pykern::DType& dtype, const std::vector<int64_t>& shape) {
  constexpr size_t huge_page = size_t{2} << 20, numpy_threshold = size_t{4} << 20;
  size_t bytes = static_cast<size_t>(dtype.itemsize);
  for (int64_t extent : shape) bytes *= static_cast<size_t>(extent);
  if (bytes < numpy_threshold) return pykern::Array::zeros(dtype, shape);
  size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
  void* memory = std::aligned_alloc(huge_page, rounded);
  if (memory == nullptr) throw std::bad_alloc();
  (void)madvise(memory, rounded, MADV_HUGEPAGE);
  std::memset(memory, 0, bytes);
  return pykern::Array::adopt(std::shared_ptr<void>(memory, std::free), memory, dtype, shape, {},
                              pykern::Location::host);
}

// One array argument made by its formula (the case file's note), element by element.
pykern::Array filled(const nlohmann::json& arg, int64_t n) {
  pykern::DType dtype = dtype_named(arg["dtype"]);
  std::string fill = arg["fill"];
  std::vector<int64_t> shape;
  if (fill == "values") shape = {static_cast<int64_t>(arg["values"].size())};
  else
    for (const auto& extent : arg["shape"]) shape.push_back(sized(extent, n).get<int64_t>());
  pykern::Array a = numpy_like_zeros(dtype, shape);
  // Read once: the loop runs over up to 1e7 elements.
  const int64_t start = arg.value("start", 0), nan_every = arg.value("nan_every", 0);
  const int64_t mod = fill == "int" ? arg["mod"].get<int64_t>() : 1;
  const double scale = arg.value("scale", 1.0), offset = arg.value("offset", 0.0);
  for (int64_t i = 0; i < a.size(); ++i) {
    double value = 0;
    if (fill == "ramp")
      value = static_cast<double>((i + start) * 7919 % 10007) / 10007.0 * scale + offset;
    else if (fill == "int")
      value = static_cast<double>((i + start) * 7919 % 10007 % mod) + offset;
    else if (fill == "values")
      value = arg["values"][i].get<double>();
    if (nan_every > 0 && i % nan_every == 0) value = std::nan("");
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

Inputs inputs_of(const nlohmann::json& c, int64_t n) {
  Inputs in;
  for (const auto& arg : c["args"]) {
    if (arg.contains("fill")) {
      pykern::Array a = filled(arg, n);
      in.pristine.push_back(a.copy());
      in.args.push_back(a);
    } else {
      const nlohmann::json v = sized(arg["scalar"], n);
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

nlohmann::json scalar_json(const pykern::Scalar& s) {
  if (s.type.kind == pykern::ScalarKind::int_ || s.type.kind == pykern::ScalarKind::uint) return s.integer;
  return s.value.real();
}

// The items returned, in order: numbers, and for each array its place among the arrays, shape
// and dtype (the array itself goes to an .npy file).
nlohmann::json returned_json(const pykern::Returned& r) {
  nlohmann::json items = nlohmann::json::array();
  for (size_t k = 0, arrays = 0; k < r.size(); ++k) {
    auto item = r.item(k);
    if (const auto* s = std::get_if<pykern::Scalar>(&item)) items.push_back(scalar_json(*s));
    else {
      const auto& a = std::get<pykern::Array>(item);
      items.push_back({{"array", arrays++}, {"shape", a.shape()}, {"dtype", a.dtype().name()}});
    }
  }
  return items;
}

// What --check compares of a returned array: its shape and the float64 sum of its elements in
// C order (NaN and infinities as they are).
nlohmann::json array_digest(const pykern::Array& a) {
  pykern::Array c = a.copy();
  double total = 0;
  const char* at = static_cast<const char*>(c.data());
  for (int64_t i = 0; i < c.size(); ++i, at += c.dtype().itemsize)
    total += pykern::Scalar::load(c.dtype(), at).as(pykern::DType::float_(64)).value.real();
  return {{"shape", a.shape()}, {"sum", total}};
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

struct Run {
  std::string suite = "njit";
  int64_t n = 0;      // what "n" stands for
  int calls = 20;
  fs::path out;       // where the first call's arrays go, if anywhere
  bool check = false;
  pykern::ModuleOptions options;
};

fs::path bench_file(const Run& run, const std::string& ending) {
  return fs::path(PYKERN_SOURCE_DIR) / "bench" / (run.suite + ending);
}

void save_arrays(const nlohmann::json& c, const Inputs& in, const pykern::Returned& r, const fs::path& out) {
  std::string name = c["name"];
  for (size_t i = 0; i < in.args.size(); ++i)
    if (const auto* a = std::get_if<pykern::Array>(&in.args[i]))
      (void)pykern::save_npy((out / (name + "." + std::to_string(i) + ".npy")).string(), *a);
  for (size_t k = 0; k < r.arrays.size(); ++k)
    (void)pykern::save_npy((out / (name + ".r" + std::to_string(k) + ".npy")).string(), r.arrays[k]);
}

// Whether `got` (a returned item: a number or an array's digest) is `expected`, to rtol 1e-9.
bool same_item(const nlohmann::json& expected, const nlohmann::json& got) {
  if (expected.is_object() != got.is_object()) return false;
  auto close = [](double e, double g) {
    return (std::isnan(e) && std::isnan(g)) || e == g || std::fabs(e - g) <= 1e-9 * std::fabs(e) + 1e-12;
  };
  if (expected.is_object())
    return expected["shape"] == got["shape"] && close(expected["sum"].get<double>(), got["sum"].get<double>());
  return close(expected.get<double>(), got.get<double>());
}

// --check: the items returned against Numba's, as bench/<suite>_check.json holds them.
std::string check_returned(const nlohmann::json& c, const pykern::Returned& r, const nlohmann::json& expected) {
  std::string name = c["name"];
  if (!expected.contains(name)) return "no expected result: run njit_bench.py --suite <suite> --write-check";
  nlohmann::json got = nlohmann::json::array();
  for (size_t k = 0; k < r.size(); ++k) {
    auto item = r.item(k);
    if (const auto* s = std::get_if<pykern::Scalar>(&item)) got.push_back(scalar_json(*s));
    else got.push_back(array_digest(std::get<pykern::Array>(item)));
  }
  const auto& want = expected[name];
  bool same = want.size() == got.size();
  for (size_t k = 0; same && k < got.size(); ++k) same = same_item(want[k], got[k]);
  return same ? "" : "returned " + got.dump() + ", Numba " + want.dump();
}

nlohmann::json run_case(const nlohmann::json& c, const Run& run, const nlohmann::json& expected) {
  Inputs in = inputs_of(c, run.n);
  nlohmann::json line = {{"case", c["name"]}};
  auto started = Clock::now();
  auto module = pykern::Module::load_file(bench_file(run, "_functions.py").string(), run.options);
  if (!module.ok()) return {{"case", c["name"]}, {"error", module.error().message}};
  auto function = module->function(c["function"]);
  if (!function.ok()) return {{"case", c["name"]}, {"error", function.error().message}};
  auto first = function->call(in.args);
  line["first_ms"] = ms_since(started);
  if (!first.ok()) return {{"case", c["name"]}, {"error", first.error().message}};
  line["returned"] = returned_json(*first);
  if (!run.out.empty()) save_arrays(c, in, *first, run.out);
  if (run.check) {
    std::string wrong = check_returned(c, *first, expected);
    if (!wrong.empty()) return {{"case", c["name"]}, {"error", wrong}};
  }
  std::vector<double> times;
  for (int k = 0; k < run.calls; ++k) {
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
  Run run;
  run.options.cache_dir = (fs::temp_directory_path() / "pykern-bench-njit-cache").string();
  std::vector<std::string> wanted;
  bool sized_here = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--calls" && i + 1 < argc) run.calls = std::stoi(argv[++i]);
    else if (arg == "--out" && i + 1 < argc) run.out = argv[++i];
    else if (arg == "--clock" && i + 1 < argc) cpu_clock = std::string(argv[++i]) == "cpu";
    else if (arg == "--cache-dir" && i + 1 < argc) run.options.cache_dir = argv[++i];
    else if (arg == "--no-cache") run.options.use_cache = false;
    else if (arg == "--suite" && i + 1 < argc) run.suite = argv[++i];
    else if (arg == "--size" && i + 1 < argc) run.n = std::stoll(argv[++i]), sized_here = true;
    else if (arg == "--check") run.check = true;
    else wanted.push_back(arg);
  }
  if (run.suite != "njit" && run.suite != "numpy") {
    std::cerr << "pykern_bench_njit: no suite '" << run.suite << "': the suites are njit and numpy\n";
    return 2;
  }
  if (!run.out.empty()) fs::create_directories(run.out);
  auto spec = nlohmann::json::parse(read_file(bench_file(run, "_cases.json")));
  nlohmann::json expected;
  if (run.check) {
    run.calls = 0;
    if (!sized_here) run.n = spec.value("check_size", int64_t{0});
    expected = nlohmann::json::parse(read_file(bench_file(run, "_check.json")));
  } else if (!sized_here && spec.contains("sizes")) {
    run.n = spec["sizes"][0].get<int64_t>();
  }
  int ran = 0, failed = 0;
  for (const auto& c : spec["cases"]) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), c["name"].get<std::string>()) == wanted.end()) continue;
    nlohmann::json line = run_case(c, run, expected);
    ++ran;
    failed += line.contains("error");
    std::cout << line.dump() << std::endl;
  }
  if (run.check) std::cout << ran - failed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}
