// Every corpus case of kind `kernel` runs on the CPU simulator and matches the outputs Numba's
// simulator produced, through the C++ API and through `pykern run`; the two debug cases fail
// with Numba's IndexError. What kernels print is compared with what Numba's printed, and stays
// out of the test log. ctest runs each corpus case alone (`--case=GROUP/NAME`, see
// case_selection.h), with one kernel cache ($PYKERN_CACHE_DIR) for all of them.
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>

#include <set>

#include <doctest/doctest.h>

#include "case_selection.h"
#include "cli/value_json.h"
#include "compare.h"
#include "corpus_case.h"
#include "corpus_json.h"
#include "helpers.h"
#include "pykern/function.h"
#include "pykern/module.h"
#include "pykern/npy.h"
#include "pykern/ufunc.h"

namespace fs = std::filesystem;

namespace {

// This process's outputs, logs and (without $PYKERN_CACHE_DIR) kernel cache.
fs::path scratch() {
  static const fs::path dir = fs::temp_directory_path() / ("pykern-run-" + std::to_string(::getpid()));
  return dir;
}

// $PYKERN_CACHE_DIR where ctest gives one, shared by the processes that run one case each: each
// would otherwise build the simulator's precompiled runtime again.
fs::path test_cache() {
  static const fs::path dir = [] {
    const char* shared = std::getenv("PYKERN_CACHE_DIR");
    return shared && *shared ? fs::path(shared) : scratch() / "cache";
  }();
  return dir;
}

std::vector<fs::path> cases_of_kind(const std::set<std::string>& kinds) {
  std::vector<fs::path> cases;
  for (const fs::path& dir : test::selected_corpus_cases()) {
    auto spec = nlohmann::json::parse(test::read(dir / "case.json"));
    if (kinds.count(spec["kind"].get<std::string>())) cases.push_back(dir);
  }
  return cases;
}
std::vector<fs::path> kernel_cases() { return cases_of_kind({"kernel"}); }
std::vector<fs::path> generator_cases() { return cases_of_kind({"ufunc", "gufunc", "reduce"}); }
std::vector<fs::path> function_cases() { return cases_of_kind({"function"}); }

// Compares the named outputs with expected/; returns the first mismatch, or "".
std::string check_outputs(const fs::path& case_dir, const nlohmann::json& spec,
                          const std::function<std::optional<pykern::Array>(const std::string&)>& output,
                          const std::function<std::optional<nlohmann::json>(const std::string&)>& json_output = {}) {
  double input_abs_sum = test::first_input_abs_sum(case_dir, spec);
  for (auto& [name, tol] : spec["check"].items()) {
    if (fs::exists(case_dir / "expected" / (name + ".json"))) {  // a list or dict argument as the function left it
      auto want = nlohmann::json::parse(test::read(case_dir / "expected" / (name + ".json")));
      if (!json_output) return name + ": no json output to compare";
      auto got = json_output(name);
      if (!got) return name + ": missing";
      std::string why = test::compare_json(*got, want, tol.value("rtol", 0.0), tol.value("atol", 0.0));
      if (!why.empty()) return name + ": " + why;
      continue;
    }
    auto want = pykern::load_npy((case_dir / "expected" / (name + ".npy")).string());
    if (!want.ok()) return want.error().message;
    auto got = output(name);
    if (!got) return name + ": missing";
    std::string why = test::compare_arrays(*got, *want, tol, input_abs_sum);
    if (!why.empty()) return name + ": " + why;
  }
  return "";
}

// What kernels print, in no fixed order across threads: compared as sorted lines.
std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

// Runs `body` with the process's standard output (what kernels print through printf, on the
// simulator) going to `file` instead of the test log; returns what `body` returns.
// Nothing in between reports to doctest, which writes to standard output too.
template <class Body>
auto with_stdout_to(const fs::path& file, Body body) {
  int redirected = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(redirected >= 0);
  std::fflush(stdout);
  int saved = ::dup(STDOUT_FILENO);
  ::dup2(redirected, STDOUT_FILENO);
  ::close(redirected);
  auto result = body();
  std::fflush(stdout);
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  return result;
}

// What the case's kernels printed under Numba (expected/stdout.txt), or nothing.
std::vector<std::string> expected_printed(const fs::path& case_dir) {
  fs::path printed = case_dir / "expected" / "stdout.txt";
  return fs::exists(printed) ? sorted_lines(test::read(printed)) : std::vector<std::string>();
}

// The case's kernel.py, loaded with the tests' kernel cache. A load that fails stops the case.
pykern::Result<pykern::Module> load_case_module(const fs::path& case_dir) {
  pykern::ModuleOptions options;
  options.cache_dir = test_cache().string();
  return pykern::Module::load_file((case_dir / "kernel.py").string(), options);
}

// The first line of expected/error.txt: Numba's exception, as the oracle wrote it.
std::string expected_error(const fs::path& case_dir) {
  std::string text = test::read(case_dir / "expected" / "error.txt");
  return text.substr(0, text.find('\n'));
}

}  // namespace

TEST_SUITE_BEGIN("corpus");

TEST_CASE("corpus kernels on the CPU simulator through the C++ API match Numba's simulator") {
  for (const fs::path& case_dir : kernel_cases()) {
    CAPTURE(test::case_id(case_dir));
    auto spec = nlohmann::json::parse(test::read(case_dir / "case.json"));
    auto module = load_case_module(case_dir);
    REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
    auto kernel = module->kernel(spec["function"]);
    REQUIRE(kernel.ok());
    auto [args, arrays] = test::case_arguments(case_dir, spec);
    fs::create_directories(scratch());
    fs::path printed = scratch() / "printed.txt";
    auto status = with_stdout_to(printed, [&, &args = args] {
      return kernel->launch(test::case_launch(spec["launch"], pykern::Backend::cpu), args);
    });
    CHECK(sorted_lines(test::read(printed)) == expected_printed(case_dir));
    if (spec.contains("expect_error")) {
      REQUIRE_FALSE(status.ok());
      bool named = false;
      for (const auto& text : spec["expect_error"]["contains_any"])
        named = named || status.error().message.find(text.get<std::string>()) != std::string::npos;
      CHECK_MESSAGE(named, status.error().message);
      // Numba's words, and the kernel's line (case.json's error_line) where pykern adds it.
      std::string line = "kernel.py:" + std::to_string(spec.value("error_line", 11)) + ": ";
      CHECK_MESSAGE(status.error().message.find(line + expected_error(case_dir)) != std::string::npos,
                    status.error().message);
      continue;
    }
    REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
    std::string mismatch = check_outputs(case_dir, spec, [&arrays = arrays](const std::string& name) -> std::optional<pykern::Array> {
      if (arrays.count(name)) return arrays.at(name);
      return std::nullopt;
    });
    CHECK_MESSAGE(mismatch.empty(), mismatch);
  }
}

TEST_CASE("corpus ufuncs, gufuncs and reductions through the C++ API match Numba") {
  for (const fs::path& case_dir : generator_cases()) {
    CAPTURE(test::case_id(case_dir));
    auto spec = nlohmann::json::parse(test::read(case_dir / "case.json"));
    auto module = load_case_module(case_dir);
    REQUIRE(module.ok());
    auto args = test::case_arguments(case_dir, spec).args;
    std::optional<pykern::Array> result;
    std::vector<pykern::Array> outputs;
    if (spec["kind"] == "reduce") {
      const pykern::Array& values = std::get<pykern::Array>(args[0]);
      auto value = module->reduction(spec["function"])->reduce(values);
      REQUIRE_MESSAGE(value.ok(), (value.ok() ? std::string() : value.error().describe()));
      result = pykern::Array::zeros(values.dtype(), {});
      value->store(values.dtype(), result->data());
    } else {
      // "name.accumulate" / "name.reduce": NumPy's method of the ufunc, on its one array argument
      std::string function = spec["function"];
      std::string method = function.find('.') == std::string::npos ? "" : function.substr(function.find('.') + 1);
      auto ufunc = module->ufunc(function.substr(0, function.find('.')));
      REQUIRE(ufunc.ok());
      auto called = [&]() -> pykern::Result<std::vector<pykern::Array>> {
        if (method.empty()) return ufunc->call_all(args);
        const pykern::Array& values = std::get<pykern::Array>(args.at(0));
        auto one = method == "accumulate" ? ufunc->accumulate(values) : ufunc->reduce(values);
        if (!one.ok()) return one.error();
        return std::vector<pykern::Array>{*one};
      }();
      if (spec.contains("expect_error")) {  // Numba's (NumPy's) exception, as expected/error.txt words it
        REQUIRE_FALSE(called.ok());
        CHECK_MESSAGE(called.error().message.find(expected_error(case_dir)) != std::string::npos, called.error().message);
        continue;
      }
      REQUIRE_MESSAGE(called.ok(), (called.ok() ? std::string() : called.error().describe()));
      outputs = *called;
      result = outputs.front();
    }
    // A gufunc's further outputs are result1, result2, ...
    std::string mismatch = check_outputs(case_dir, spec, [&](const std::string& name) -> std::optional<pykern::Array> {
      size_t k = name == "result" ? 0 : std::stoul(name.substr(6));
      if (k == 0) return result;
      if (k < outputs.size()) return outputs[k];
      return std::nullopt;
    });
    CHECK_MESSAGE(mismatch.empty(), mismatch);
  }
}

TEST_CASE("corpus @jit functions called through the C++ API match Numba's CPU target") {
  for (const fs::path& case_dir : function_cases()) {
    CAPTURE(test::case_id(case_dir));
    auto spec = nlohmann::json::parse(test::read(case_dir / "case.json"));
    auto module = load_case_module(case_dir);
    REQUIRE(module.ok());
    auto [args, arrays] = test::case_arguments(case_dir, spec);
    std::map<size_t, nlohmann::json> json = test::case_json_arguments(spec);
    auto function = module->function(spec["function"]);
    REQUIRE(function.ok());
    // With json arguments, Values: their lists and dicts shared, to be checked as the call leaves them.
    std::vector<pykern::Value> values;
    std::map<std::string, size_t> value_of;  // a json argument's name: its position
    for (size_t i = 0; !json.empty() && i < args.size(); ++i) {
      if (!json.count(i)) {
        values.push_back(std::holds_alternative<pykern::Array>(args[i]) ? pykern::Value(std::get<pykern::Array>(args[i]))
                                                                        : pykern::Value(std::get<pykern::Scalar>(args[i])));
        continue;
      }
      auto value = pykern::cli::parse_host_argument("json:" + json.at(i).dump());
      REQUIRE(value.ok());
      values.push_back(*value);
      value_of[spec["args"][i]["name"].get<std::string>()] = i;
    }
    fs::create_directories(scratch());
    fs::path printed = scratch() / "printed.txt";
    auto returned = with_stdout_to(printed, [&, &args = args] {
      return json.empty() ? function->call(args) : function->call(values);
    });
    CHECK(sorted_lines(test::read(printed)) == expected_printed(case_dir));  // what its print() calls wrote
    if (spec.contains("expect_error")) {  // Numba's exception, as expected/error.txt words it
      REQUIRE_FALSE(returned.ok());
      std::string expected = expected_error(case_dir);
      if (spec.contains("error_line"))  // the line of the raise, assert or failing operation
        expected = "kernel.py:" + std::to_string(spec["error_line"].get<int>()) + ": " + expected;
      CHECK_MESSAGE(returned.error().message.find(expected) != std::string::npos, returned.error().message);
      continue;
    }
    REQUIRE_MESSAGE(returned.ok(), (returned.ok() ? std::string() : returned.error().describe()));
    // The value is result.npy, a tuple's further elements result1.npy, result2.npy, ...
    std::string mismatch = check_outputs(case_dir, spec, [&](const std::string& name) -> std::optional<pykern::Array> {
      if (arrays.count(name)) return arrays.at(name);
      if (name == "result" && returned->list) return *returned->list;
      size_t k = name == "result" ? 0 : name.rfind("result", 0) == 0 ? std::stoul(name.substr(6)) : SIZE_MAX;
      if (k >= returned->size()) return std::nullopt;
      std::variant<pykern::Scalar, pykern::Array> item = returned->item(k);  // a returned array as it is
      if (const pykern::Array* array = std::get_if<pykern::Array>(&item)) return *array;
      const pykern::Scalar& value = std::get<pykern::Scalar>(item);
      pykern::Array result = pykern::Array::zeros(value.type, {});
      value.store(value.type, result.data());
      return result;
    }, [&](const std::string& name) -> std::optional<nlohmann::json> {
      if (!value_of.count(name)) return std::nullopt;
      return pykern::cli::value_json(values[value_of.at(name)]);
    });
    CHECK_MESSAGE(mismatch.empty(), mismatch);
  }
}

TEST_CASE("every corpus case through `pykern run --backend cpu` matches Numba's simulator") {
  ::setenv("PYKERN_CACHE_DIR", test_cache().c_str(), 1);
  fs::create_directories(test_cache());
  fs::create_directories(scratch());
  for (const fs::path& case_dir : test::selected_corpus_cases()) {
    CAPTURE(test::case_id(case_dir));
    auto spec = nlohmann::json::parse(test::read(case_dir / "case.json"));
    std::string command = std::string(PYKERN_BINARY) + " run " + (case_dir / "kernel.py").string() + " " +
                          spec["function"].get<std::string>();
    const nlohmann::json launch = spec.value("launch", nlohmann::json::object());
    auto joined = [](const nlohmann::json& d) {
      std::string text;
      for (const auto& v : d) text += (text.empty() ? "" : ",") + std::to_string(v.get<int64_t>());
      return text;
    };
    if (launch.contains("forall")) command += " --forall " + std::to_string(launch["forall"].get<int64_t>());
    else if (launch.contains("grid")) command += " --grid " + joined(launch["grid"]) + " --block " + joined(launch["block"]);
    if (launch.contains("shared_bytes")) command += " --shared-bytes " + std::to_string(launch["shared_bytes"].get<uint64_t>());
    fs::path out = scratch() / "out" / case_dir.filename();
    command += " --backend cpu --out " + out.string();
    for (const auto& arg : spec["args"]) {
      if (arg.contains("json")) {  // a list or dict, quoted for the shell
        std::string text = arg["json"].dump();
        REQUIRE(text.find('\'') == std::string::npos);
        command += " 'json:" + text + "'";
      } else if (!arg.contains("scalar")) {
        command += " " + (case_dir / "inputs" / (arg["name"].get<std::string>() + ".npy")).string();
      } else {
        std::string value = arg["scalar"].dump();
        if (arg["scalar"].is_boolean()) value = arg["scalar"].get<bool>() ? "True" : "False";
        command += " " + (arg.contains("dtype") ? arg["dtype"].get<std::string>() + ":" : "") + value;
      }
    }
    fs::path log = scratch() / "log.txt";
    fs::path printed = scratch() / "stdout.txt";
    int status = test::run_shell(command + " > " + printed.string() + " 2> " + log.string(), log);
    if (spec.contains("expect_error")) {
      CHECK(status != 0);
      std::string expected = spec["kind"] != "kernel" ? expected_error(case_dir) : "IndexError";
      CHECK_MESSAGE(test::read(log).find(expected) != std::string::npos, test::read(log));
      continue;
    }
    REQUIRE_MESSAGE(status == 0, test::read(log));
    std::string mismatch = check_outputs(case_dir, spec, [&](const std::string& name) -> std::optional<pykern::Array> {
      auto array = pykern::load_npy((out / (name + ".npy")).string());
      if (!array.ok()) return std::nullopt;
      return *array;
    }, [&](const std::string& name) -> std::optional<nlohmann::json> {  // a list or dict argument written back
      if (!fs::exists(out / (name + ".json"))) return std::nullopt;
      return nlohmann::json::parse(test::read(out / (name + ".json")), nullptr, false);
    });
    CHECK_MESSAGE(mismatch.empty(), mismatch);
    // `pykern run` writes a @jit function's value to standard output too, as its last line.
    if (fs::exists(case_dir / "expected" / "stdout.txt")) {
      std::string text = test::read(printed);
      if (spec["kind"] == "function" && !text.empty()) text.erase(text.rfind('\n', text.size() - 2) + 1);
      CHECK(sorted_lines(text) == expected_printed(case_dir));
    }
  }
  fs::remove_all(scratch());  // and the cache in it, where there is no shared one
}

TEST_SUITE_END();
