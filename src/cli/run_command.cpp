// pykern run FILE FUNCTION [--grid X[,Y[,Z]] --block X[,Y[,Z]] | --forall N]
//            [--backend cpu|cuda|auto] [--debug] [--out DIR] ARG...
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/suggest.h"
#include "cli/value_json.h"
#include "pykern/device.h"
#include "pykern/function.h"
#include "pykern/module.h"
#include "pykern/npy.h"
#include "pykern/ufunc.h"

namespace pykern::cli {

namespace {

struct RunArgs {
  std::string file, function, grid, block, backend = "auto", out = "pykern_out";
  // Read as text and parsed by cli/arguments, so a negative or oversized value is refused as
  // written instead of being wrapped or clamped by the option parser.
  std::optional<std::string> forall;
  std::string timeout = "0";
  std::string shared_bytes = "0";
  bool debug = false;
  bool json = false;     // the result as one JSON object on stdout
  bool timings = false;  // each phase's time on stderr
  bool no_cache = false;
  std::string cache_dir;
  std::vector<std::string> args;
};

// What a run did, for --json and --timings: the files it wrote, the value a @jit function
// returned, and how long each phase took (in the order they ran).
struct RunReport {
  std::string kind;
  std::string backend;
  std::vector<std::string> outputs;
  std::optional<std::string> value;
  std::vector<std::pair<std::string, double>> timings_ms;
  std::chrono::steady_clock::time_point phase_start = std::chrono::steady_clock::now();

  // Ends the phase that began at the last call (or at the start) as `phase`.
  void lap(const std::string& phase) {
    auto now = std::chrono::steady_clock::now();
    timings_ms.emplace_back(phase, std::chrono::duration<double, std::milli>(now - phase_start).count());
    phase_start = now;
  }
};

RunReport g_report;

// Writes `array` to DIR/NAME and notes the path for --json.
Status save_output(const std::string& dir, const std::string& name, const Array& array) {
  std::string path = (std::filesystem::path(dir) / name).string();
  auto saved = save_npy(path, array);
  if (saved.ok()) g_report.outputs.push_back(path);
  return saved;
}

Result<Dim3> parse_dim3(const std::string& text, const char* what) {
  std::vector<uint32_t> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) {
    try {
      size_t used = 0;
      long long value = std::stoll(part, &used);
      if (used != part.size() || value < 1 || value > 2147483647) throw std::invalid_argument(part);
      parts.push_back(static_cast<uint32_t>(value));
    } catch (...) {
      return Error::make(ErrorKind::invalid_argument, fmt::format("--{} takes X[,Y[,Z]] with positive integers, not '{}'", what, text));
    }
  }
  if (parts.empty() || parts.size() > 3)
    return Error::make(ErrorKind::invalid_argument, fmt::format("--{} takes one to three sizes, not '{}'", what, text));
  parts.resize(3, 1);
  return Dim3(parts[0], parts[1], parts[2]);
}

// Ctrl-C (SIGINT) or SIGTERM while a kernel runs cancels its launch through the launch's cancel
// token, as a program using the library would (Launch::cancel_with): the simulator's threads
// stop, nothing is written, and the command exits 128 + the signal. A signal the shell had
// ignored (a background job) stays ignored. The host compiler's build, before, has its own
// handling in the library (sim/simulator.h).
class CancelOnSignal {
 public:
  CancelOnSignal() {
    caught_ = 0;
    active_ = &source_;
    for (size_t i = 0; i < std::size(watched); ++i) {
      struct sigaction current {};
      ::sigaction(watched[i], nullptr, &current);
      installed_[i] = (current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_IGN;
      if (!installed_[i]) continue;
      struct sigaction ours {};
      ours.sa_handler = on_signal;
      sigemptyset(&ours.sa_mask);
      ::sigaction(watched[i], &ours, &previous_[i]);
    }
  }
  ~CancelOnSignal() {
    for (size_t i = 0; i < std::size(watched); ++i)
      if (installed_[i]) ::sigaction(watched[i], &previous_[i], nullptr);
    active_ = nullptr;
  }
  CancelOnSignal(const CancelOnSignal&) = delete;
  CancelOnSignal& operator=(const CancelOnSignal&) = delete;
  CancelToken token() const { return source_.token(); }
  int caught() const { return caught_; }

 private:
  static constexpr int watched[] = {SIGINT, SIGTERM};
  // Async-signal-safe: two lock-free atomic stores (CancelSource::request_cancel is one).
  static void on_signal(int signal) {
    caught_ = signal;
    if (CancelSource* source = active_.load()) source->request_cancel();
  }
  static inline std::atomic<int> caught_{0};
  static inline std::atomic<CancelSource*> active_{nullptr};
  CancelSource source_;
  bool installed_[2] = {};
  struct sigaction previous_[2] = {};
};

// "f.reduce" / "f.accumulate": NumPy's method of the ufunc f; its name and the method, else
// the name as given and "".
std::pair<std::string, std::string> ufunc_method(const Module& module, const std::string& function) {
  size_t dot = function.rfind('.');
  if (dot == std::string::npos) return {function, ""};
  std::string method = function.substr(dot + 1), ufunc = function.substr(0, dot);
  if ((method != "reduce" && method != "accumulate") || module.kind_of(ufunc) != "vectorize") return {function, ""};
  return {ufunc, method};
}

// A ufunc, gufunc or reduction: its result goes to DIR/result.npy (result1.npy, ... for more).
int run_generated(const Module& module, const std::string& kind, const RunArgs& a, const std::vector<Argument>& args,
                  Backend backend) {
  g_report.backend = Kernel::resolve(backend) == Backend::cuda ? "cuda" : "cpu";
  std::cerr << fmt::format("pykern: running {} on {}\n", a.function,
                           Kernel::resolve(backend) == Backend::cuda ? "the GPU" : "the CPU simulator");
  std::vector<Array> results;
  if (kind == "reduce") {
    const Array* values = args.empty() ? nullptr : std::get_if<Array>(&args[0]);
    if (!values || args.size() > 2 || (args.size() == 2 && !std::holds_alternative<Scalar>(args[1]))) {
      print_error("a reduction takes an array (.npy) and optionally an initial value");
      return 2;
    }
    std::optional<Scalar> init;
    if (args.size() == 2) init = std::get<Scalar>(args[1]);
    auto value = [&] {
      Progress progress("running " + a.function);
      return module.reduction(a.function)->reduce(*values, init, std::nullopt, backend);
    }();
    if (!value.ok()) {
      print_error(value.error());
      return 1;
    }
    Array result = Array::zeros(values->dtype(), {});
    value->store(values->dtype(), result.data());
    results.push_back(result);
  } else {
    auto [name, method] = ufunc_method(module, a.function);
    auto outputs = module.ufunc(name);
    if (!outputs.ok()) {
      print_error(outputs.error());
      return 2;
    }
    const Array* values = args.size() == 1 ? std::get_if<Array>(&args[0]) : nullptr;
    if (!method.empty() && !values) {  // f.reduce / f.accumulate along axis 0, as NumPy's default
      print_error(fmt::format("{}.{} takes one array (.npy)", name, method));
      return 2;
    }
    auto called = [&]() -> Result<std::vector<Array>> {
      Progress progress("running " + a.function);
      if (method.empty()) return outputs->call_all(args, backend);
      auto one = method == "reduce" ? outputs->reduce(*values, 0, std::nullopt, backend)
                                    : outputs->accumulate(*values, 0, backend);
      if (!one.ok()) return one.error();
      return std::vector<Array>{*one};
    }();
    if (!called.ok()) {
      print_error(called.error());
      return 1;
    }
    results = *called;
  }
  g_report.lap("call");
  std::error_code error;
  std::filesystem::create_directories(a.out, error);
  for (size_t i = 0; i < results.size(); ++i) {
    std::string name = i == 0 ? "result.npy" : fmt::format("result{}.npy", i);
    auto saved = save_output(a.out, name, results[i]);
    if (!saved.ok()) {
      print_error(saved.error());
      return 1;
    }
  }
  g_report.lap("write");
  return 0;
}

// A scalar as Python prints it: 5.0, 3, True, (1+2j).
std::string python_repr(const Scalar& v) {
  auto real = [](double x) {
    if (x != x) return std::string("nan");
    if (x == INFINITY || x == -INFINITY) return std::string(x > 0 ? "inf" : "-inf");
    std::string text = fmt::format("{}", x);
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    return text;
  };
  switch (v.type.kind) {
    case ScalarKind::boolean: return v.integer ? "True" : "False";
    case ScalarKind::int_: return std::to_string(v.integer);
    case ScalarKind::uint: return std::to_string(v.unsigned_integer);
    case ScalarKind::float_: return real(v.value.real());
    case ScalarKind::complex: {
      std::string im = real(v.value.imag());
      if (im.back() == '0' && im.size() > 2 && im[im.size() - 2] == '.') im.resize(im.size() - 2);
      std::string re = real(v.value.real());
      if (re.size() > 2 && re.substr(re.size() - 2) == ".0") re.resize(re.size() - 2);
      return fmt::format("({}{}{}j)", re, v.value.imag() < 0 ? "" : "+", im);
    }
    default: return "?";
  }
}

int write_outputs(const RunArgs& a, const std::vector<std::string>& names, const std::vector<Argument>& args);

// A returned str, dict, list of other than numbers, nested tuple or Optional: printed as Python's
// repr, written to DIR/result.json.
int write_value(const RunArgs& a, const Value& value) {
  g_report.value = value.to_string();
  if (!a.json) std::cout << *g_report.value << "\n";
  std::error_code error;
  std::filesystem::create_directories(a.out, error);
  std::string path = (std::filesystem::path(a.out) / "result.json").string();
  std::ofstream file(path, std::ios::binary);
  file << value_json(value).dump(1) << "\n";
  if (!file.flush()) {
    print_error(fmt::format("cannot write {}", path));
    return 1;
  }
  g_report.outputs.push_back(path);
  return 0;
}

// The list and dict arguments (json:VALUE) as the function left them, shared with it as Numba
// shares a Python list or typed Dict: written to DIR/<parameter>.json beside the arrays' .npy.
int write_shared_values(const RunArgs& a, const std::vector<std::string>& names, const std::vector<Value>& values) {
  for (size_t i = 0; i < values.size() && i < names.size(); ++i) {
    if (values[i].kind() != Value::Kind::list && values[i].kind() != Value::Kind::dict) continue;
    std::error_code error;
    std::filesystem::create_directories(a.out, error);
    std::string path = (std::filesystem::path(a.out) / (names[i] + ".json")).string();
    std::ofstream file(path, std::ios::binary);
    file << value_json(values[i]).dump(1) << "\n";
    if (!file.flush()) {
      print_error(fmt::format("cannot write {}", path));
      return 1;
    }
    g_report.outputs.push_back(path);
  }
  return 0;
}

// A @jit function: its value printed as Python prints it (an array by its dtype and shape) and
// written to DIR/result.npy (result1.npy, ... for a tuple's further elements), its array
// arguments as a kernel's are. `values` are the arguments as the call takes them (str:TEXT and
// json:VALUE among them); `args` holds the arrays among them in place, for writing them back.
int run_function(const Module& module, const RunArgs& a, const std::vector<Argument>& args,
                 std::vector<Value>& values) {
  auto function = module.function(a.function);
  if (!function.ok()) {
    print_error(function.error());
    return 2;
  }
  g_report.backend = "host";
  std::cerr << fmt::format("pykern: calling {} on the host CPU\n", a.function);
  auto returned = [&] {
    Progress progress("calling " + a.function);
    return function->call(values);  // shared: the lists and dicts come back changed
  }();
  if (!returned.ok()) {
    print_error(returned.error());
    return 1;
  }
  std::cerr << returned->warnings;
  if (returned->other) {
    g_report.lap("call");
    if (int written = write_outputs(a, function->parameter_names(), args); written != 0) return written;
    if (int written = write_shared_values(a, function->parameter_names(), values); written != 0) return written;
    if (int written = write_value(a, *returned->other); written != 0) return written;
    g_report.lap("write");
    return 0;
  }
  // Each item as Python prints it; an array by its dtype and shape (its elements go to the file).
  std::vector<Array> items;
  std::string shown;
  for (size_t i = 0; i < returned->size(); ++i) {
    std::variant<Scalar, Array> item = returned->item(i);
    if (const Array* array = std::get_if<Array>(&item)) {
      shown += fmt::format("{}array({}, shape={})", i ? ", " : "", array->dtype().name(), shape_text(array->shape()));
      items.push_back(*array);
      continue;
    }
    const Scalar& value = std::get<Scalar>(item);
    shown += (i ? ", " : "") + python_repr(value);
    Array result = Array::zeros(value.type, {});
    value.store(value.type, result.data());
    items.push_back(result);
  }
  if (returned->is_tuple) shown = "(" + shown + (returned->size() == 1 ? ",)" : ")");
  if (returned->list) {  // a list prints as Python prints it, and is written as a 1-d array
    const Array& list = *returned->list;
    for (int64_t i = 0; i < list.size(); ++i)
      shown += (i ? ", " : "") + python_repr(Scalar::load(list.dtype(), list.element({i})));
    shown = "[" + shown + "]";
  }
  g_report.lap("call");
  g_report.value = returned->size() == 0 && !returned->is_tuple && !returned->list ? "None" : shown;
  if (!a.json) std::cout << *g_report.value << "\n";
  if (int written = write_outputs(a, function->parameter_names(), args); written != 0) return written;
  if (int written = write_shared_values(a, function->parameter_names(), values); written != 0) return written;
  if (returned->list) {
    auto saved = save_output(a.out, "result.npy", *returned->list);
    if (!saved.ok()) {
      print_error(saved.error());
      return 1;
    }
  }
  for (size_t i = 0; i < items.size(); ++i) {
    std::string name = i == 0 ? "result.npy" : fmt::format("result{}.npy", i);
    auto saved = save_output(a.out, name, items[i]);
    if (!saved.ok()) {
      print_error(saved.error());
      return 1;
    }
  }
  g_report.lap("write");
  return 0;
}

// Each array goes to <parameter>.npy, and also to <input stem>.npy when it was read from a
// file of another name, so the outputs line up with the inputs they came from. Parameter names
// are unique and always win: a second name that is some parameter's, or another input's, is
// not written (and said so), so no result overwrites another.
int write_outputs(const RunArgs& a, const std::vector<std::string>& names, const std::vector<Argument>& args) {
  std::error_code error;
  std::filesystem::create_directories(a.out, error);
  if (!std::filesystem::is_directory(a.out, error)) {
    print_error(fmt::format("--out '{}' is not a directory that can be made", a.out));
    return 1;
  }
  std::set<std::string> taken(names.begin(), names.end());
  std::map<std::string, int> stem_uses;
  for (size_t i = 0; i < args.size() && i < names.size(); ++i)
    if (std::holds_alternative<Array>(args[i])) ++stem_uses[std::filesystem::path(a.args[i]).stem().string()];
  for (size_t i = 0; i < args.size() && i < names.size(); ++i) {
    const Array* array = std::get_if<Array>(&args[i]);
    if (!array) continue;
    std::vector<std::string> stems = {names[i]};
    std::string input_stem = std::filesystem::path(a.args[i]).stem().string();
    if (input_stem != names[i]) {
      if (taken.count(input_stem) || stem_uses[input_stem] > 1)
        std::cerr << fmt::format("pykern: note: {} is written only as {}.npy: {}.npy is another argument's\n",
                                 a.args[i], names[i], input_stem);
      else
        stems.push_back(input_stem);
    }
    for (const std::string& stem : stems) {
      auto saved = save_output(a.out, stem + ".npy", *array);
      if (!saved.ok()) {
        print_error(saved.error());
        return 1;
      }
    }
  }
  return 0;
}

// Why FUNCTION cannot be run from the command line, or "" when it can: it is not in the file
// (with the names it may have meant), or it is a device function, which only kernels call.
std::string why_not_runnable(const Module& module, const RunArgs& a) {
  std::string kind = module.kind_of(ufunc_method(module, a.function).first);
  if (kind == "device function")
    return fmt::format("'{}' is a device function: kernels call it; run a kernel that does, or make it a @jit "
                       "function", a.function);
  if (!kind.empty()) return "";
  std::string hint = did_you_mean(a.function, module.names());
  return fmt::format("{} has no kernel, ufunc, gufunc, reduction or @jit function named '{}'{}", a.file, a.function,
                     hint.empty() ? "" : "; " + hint);
}

int run(const RunArgs& a) {
  // What the command line names is checked before any work, so a long run does not fail at its end.
  if (auto file = check_input_file(a.file); !file.ok()) {
    print_error(file.error());
    return 2;
  }
  if (auto out = check_output_directory(a.out); !out.ok()) {
    print_error(out.error());
    return 2;
  }
  ModuleOptions options;
  options.debug = a.debug;
  options.use_cache = !a.no_cache;
  options.cache_dir = a.cache_dir;
  g_report.phase_start = std::chrono::steady_clock::now();
  auto module = [&] {
    Progress progress("translating " + a.file);
    return Module::load_file(a.file, options);
  }();
  if (!module.ok()) {
    print_error(module.error());
    return 1;
  }
  g_report.lap("translate");
  if (std::string why = why_not_runnable(*module, a); !why.empty()) {
    print_error(why);
    return 2;
  }
  std::string kind = module->kind_of(ufunc_method(*module, a.function).first);
  g_report.kind = kind;
  std::vector<Argument> args;
  std::vector<Value> values;  // a @jit function's arguments, which may be str:TEXT or json:VALUE
  for (const std::string& text : a.args) {
    if (kind == "function") {
      auto value = parse_host_argument(text);
      if (!value.ok()) {
        print_error(value.error());
        return 2;
      }
      bool array = value->kind() == Value::Kind::array;
      args.push_back(array ? Argument(value->array()) : Argument(Scalar(int64_t(0))));  // arrays for write_outputs
      values.push_back(std::move(*value));
      continue;
    }
    auto argument = parse_argument(text);
    if (!argument.ok()) {
      print_error(argument.error());
      return 2;
    }
    args.push_back(*argument);
  }
  g_report.lap("read");
  Backend backend = a.backend == "cpu" ? Backend::cpu : a.backend == "cuda" ? Backend::cuda : Backend::automatic;
  if (kind == "function") return run_function(*module, a, args, values);
  if (kind != "kernel") return run_generated(*module, kind, a, args, backend);
  auto kernel = module->kernel(a.function);
  if (!kernel.ok()) {
    print_error(kernel.error());
    return 2;
  }
  if (!a.forall && a.grid.empty()) {
    print_error("give --grid and --block, or --forall N");
    return 2;
  }
  auto timeout = parse_seconds(a.timeout, "--timeout");
  auto shared_bytes = parse_count(a.shared_bytes, "--shared-bytes", UINT32_MAX);
  auto forall = a.forall ? parse_count(*a.forall, "--forall", INT64_MAX) : Result<uint64_t>(uint64_t(0));
  for (const Error* error : {timeout.ok() ? nullptr : &timeout.error(), shared_bytes.ok() ? nullptr : &shared_bytes.error(),
                             forall.ok() ? nullptr : &forall.error()}) {
    if (error == nullptr) continue;
    print_error(*error);
    return 2;
  }
  std::optional<Launch> launch;
  if (a.forall) {
    launch = Launch::forall(static_cast<int64_t>(*forall));
  } else {
    auto grid = parse_dim3(a.grid, "grid");
    auto block = parse_dim3(a.block, "block");
    if (!grid.ok() || !block.ok()) {
      print_error(grid.ok() ? block.error() : grid.error());
      return 2;
    }
    launch.emplace(*grid, *block);
  }
  launch->backend(backend).timeout(*timeout).shared_bytes(*shared_bytes);
  g_report.backend = Kernel::resolve(backend) == Backend::cuda ? "cuda" : "cpu";
  std::cerr << fmt::format("pykern: running {} on {}\n", a.function,
                           Kernel::resolve(backend) == Backend::cuda ? "the GPU" : "the CPU simulator");
  // Compiled first, apart from the launch, so --timings can tell the two apart.
  auto prepared = [&] {
    Progress progress("compiling " + a.function);
    return kernel->prepare(args, backend);
  }();
  g_report.lap("compile");
  int signal = 0;
  auto status = [&] {
    Progress progress("running " + a.function);
    CancelOnSignal interrupts;
    // The simulator reports its blocks done to the status line (a GPU cannot say).
    if (Progress::wanted() && Kernel::resolve(backend) != Backend::cuda) launch->progress(progress.callback());
    launch->cancel_with(interrupts.token());
    Status launched = prepared.ok() ? kernel->launch(*launch, args) : Status(prepared.error());
    signal = interrupts.caught();
    return launched;
  }();
  if (!status.ok() && status.error().kind == ErrorKind::cancelled && signal != 0) {
    print_error(fmt::format("interrupted by {}: {}; no output was written", signal == SIGINT ? "SIGINT" : "SIGTERM",
                            status.error().message));
    return 128 + signal;
  }
  if (!status.ok()) {
    print_error(status.error());
    return 1;
  }
  g_report.lap("launch");
  int written = write_outputs(a, kernel->parameter_names(), args);
  g_report.lap("write");
  return written;
}

// --timings on stderr, --json on stdout, once the run has succeeded.
void report(const RunArgs& a) {
  if (a.timings) {
    std::string line = "timings (ms):";
    for (const auto& [phase, ms] : g_report.timings_ms) line += fmt::format("  {} {:.3f}", phase, ms);
    std::cerr << line << "\n";
  }
  if (!a.json) return;
  nlohmann::json timings = nlohmann::json::object();
  for (const auto& [phase, ms] : g_report.timings_ms) timings[phase] = ms;
  std::vector<std::string> outputs;
  for (const std::string& path : g_report.outputs)
    outputs.push_back(std::filesystem::absolute(path).lexically_normal().string());
  nlohmann::json out = {{"file", std::filesystem::absolute(a.file).lexically_normal().string()},
                        {"function", a.function},
                        {"kind", g_report.kind},
                        {"backend", g_report.backend},
                        {"outputs", outputs},
                        {"timings_ms", timings}};
  if (g_report.value) out["value"] = *g_report.value;
  std::cout << out.dump(2) << "\n";
}

// A launch with no host array returns before the kernel has run (as in Numba), and what a
// kernel prints on a GPU reaches stdout only when the GPU is waited for: so the command waits
// before it ends, and a fault found then fails it (a command that failed already has said why:
// a lost context answers every wait after with the same fault). Without a GPU opened this does
// nothing.
int wait_for_gpu(const RunArgs& a, int code) {
  Status waited = synchronize();
  if (waited.ok() || code != 0) return code;
  print_error(fmt::format("{} failed on the GPU after its launch returned: {}", a.function,
                           waited.error().describe()));
  return 1;
}
}  // namespace

void add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* run_app = app.add_subcommand("run", "Run a kernel on .npy arrays and scalars; write the arrays back to --out");
  run_app->add_option("file", args->file, "the kernel file (.py)")->required();
  run_app->add_option("function", args->function, "the kernel to run")->required();
  run_app->add_option("args", args->args,
                      "arguments: .npy files or scalars (11, 2.5, True, 1+2j, f4:2.5); for a @jit function also "
                      "str:TEXT and json:VALUE (json:[1, 2], json:{\"a\": 1.5})");
  auto grid = run_app->add_option("--grid", args->grid, "blocks per grid: X[,Y[,Z]]");
  auto block = run_app->add_option("--block", args->block, "threads per block: X[,Y[,Z]]");
  auto forall = run_app->add_option("--forall", args->forall, "run N tasks, as Numba's kernel.forall(N)");
  grid->needs(block);
  block->needs(grid);
  forall->excludes(grid)->excludes(block);
  run_app->add_option("--backend", args->backend, "cpu, cuda or auto (the GPU when present, else the simulator)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  run_app->add_flag("--debug", args->debug, "compile as with debug=True (asserts, raise)");
  run_app->add_flag("--json", args->json,
                    "print the result as JSON on stdout: the files written, the phases' times, a function's value");
  run_app->add_flag("--timings", args->timings, "print each phase's time: translate, read, compile, launch, write");
  run_app->add_option("--cache-dir", args->cache_dir,
                      "the kernel cache to use (default: $PYKERN_CACHE_DIR, else ~/.cache/pykern)");
  run_app->add_flag("--no-cache", args->no_cache, "neither read nor write the kernel cache");
  run_app->add_option("--shared-bytes", args->shared_bytes,
                      "dynamic shared memory per block, for cuda.shared.array(0, dtype) (Numba's kernel[grid, block, "
                      "stream, bytes])");
  run_app->add_option("--timeout", args->timeout,
                      "fail with a TimeoutError when the kernel runs longer than this many seconds (default: none)");
  run_app->add_option("--out", args->out, "where to write each array argument as <parameter>.npy (default pykern_out)");
  run_app->callback([args] {
    g_report = RunReport{};  // a process may run several commands (the tests do)
    int code = wait_for_gpu(*args, run(*args));
    if (code == 0) report(*args);
    set_exit_code(code);
  });
}

}  // namespace pykern::cli
