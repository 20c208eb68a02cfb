// Every corpus case of kind `kernel` runs on the CPU simulator and matches the outputs Numba's
// simulator produced, through the C++ API and through `pykern run`; the two debug cases fail
// with Numba's IndexError.
#include <unistd.h>

#include <cstdlib>

#include <doctest/doctest.h>

#include "compare.h"
#include "helpers.h"
#include "pykern/module.h"
#include "pykern/npy.h"

namespace fs = std::filesystem;

namespace {

fs::path test_cache() {
  static const fs::path dir = fs::temp_directory_path() / ("pykern-run-cache-" + std::to_string(::getpid()));
  return dir;
}

std::vector<fs::path> kernel_cases() {
  std::vector<fs::path> cases;
  for (const fs::path& dir : test::corpus_case_dirs()) {
    auto spec = nlohmann::json::parse(test::read(dir / "case.json"));
    if (spec["kind"] == "kernel") cases.push_back(dir);
  }
  return cases;
}

pykern::Launch launch_of(const nlohmann::json& launch) {
  if (launch.contains("forall")) return pykern::Launch::forall(launch["forall"].get<int64_t>());
  auto dim = [](const nlohmann::json& d) {
    return pykern::Dim3(d[0].get<uint32_t>(), d.size() > 1 ? d[1].get<uint32_t>() : 1, d.size() > 2 ? d[2].get<uint32_t>() : 1);
  };
  return pykern::Launch(dim(launch["grid"]), dim(launch["block"])).backend(pykern::Backend::cpu);
}

pykern::Scalar scalar_of(const nlohmann::json& arg) {
  const nlohmann::json& v = arg["scalar"];
  pykern::Scalar s = v.is_boolean() ? pykern::Scalar(v.get<bool>())
                     : v.is_number_integer() ? pykern::Scalar(static_cast<long long>(v.get<int64_t>()))
                                             : pykern::Scalar(v.get<double>());
  if (arg.contains("dtype")) s = s.as(pykern::DType::from_name(arg["dtype"].get<std::string>()).value());
  return s;
}

// Compares the named outputs with expected/; returns the first mismatch, or "".
std::string check_outputs(const fs::path& case_dir, const nlohmann::json& spec,
                          const std::function<std::optional<pykern::Array>(const std::string&)>& output) {
  double input_abs_sum = 0;
  for (auto& [name, tol] : spec["check"].items()) {
    auto want = pykern::load_npy((case_dir / "expected" / (name + ".npy")).string());
    if (!want.ok()) return want.error().message;
    auto got = output(name);
    if (!got) return name + ": missing";
    std::string why = test::compare_arrays(*got, *want, tol, input_abs_sum);
    if (!why.empty()) return name + ": " + why;
  }
  return "";
}

}  // namespace

TEST_CASE("corpus kernels on the CPU simulator through the C++ API match Numba's simulator") {
  for (const fs::path& case_dir : kernel_cases()) {
    CAPTURE(case_dir.filename().string());
    auto spec = nlohmann::json::parse(test::read(case_dir / "case.json"));
    pykern::ModuleOptions options;
    options.cache_dir = test_cache().string();
    auto module = pykern::Module::load_file((case_dir / "kernel.py").string(), options);
    REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
    auto kernel = module->kernel(spec["function"]);
    REQUIRE(kernel.ok());
    std::vector<pykern::Argument> args;
    std::map<std::string, pykern::Array> arrays;
    for (const auto& arg : spec["args"]) {
      if (arg.contains("scalar")) {
        args.push_back(scalar_of(arg));
        continue;
      }
      auto array = pykern::load_npy((case_dir / "inputs" / (arg["name"].get<std::string>() + ".npy")).string());
      REQUIRE(array.ok());
      arrays[arg["name"]] = *array;
      args.push_back(*array);
    }
    auto status = kernel->launch(launch_of(spec["launch"]), args);
    if (spec.contains("expect_error")) {
      REQUIRE_FALSE(status.ok());
      bool named = false;
      for (const auto& text : spec["expect_error"]["contains_any"])
        named = named || status.error().message.find(text.get<std::string>()) != std::string::npos;
      CHECK_MESSAGE(named, status.error().message);
      CHECK(status.error().message.find("kernel.py:11") != std::string::npos);
      continue;
    }
    REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
    std::string mismatch = check_outputs(case_dir, spec, [&](const std::string& name) -> std::optional<pykern::Array> {
      if (arrays.count(name)) return arrays[name];
      return std::nullopt;
    });
    CHECK_MESSAGE(mismatch.empty(), mismatch);
  }
}

TEST_CASE("corpus kernels through `pykern run --backend cpu` match Numba's simulator") {
  ::setenv("PYKERN_CACHE_DIR", test_cache().c_str(), 1);
  for (const fs::path& case_dir : kernel_cases()) {
    CAPTURE(case_dir.filename().string());
    auto spec = nlohmann::json::parse(test::read(case_dir / "case.json"));
    std::string command = std::string(PYKERN_BINARY) + " run " + (case_dir / "kernel.py").string() + " " +
                          spec["function"].get<std::string>();
    const auto& launch = spec["launch"];
    auto joined = [](const nlohmann::json& d) {
      std::string text;
      for (const auto& v : d) text += (text.empty() ? "" : ",") + std::to_string(v.get<int64_t>());
      return text;
    };
    command += launch.contains("forall") ? " --forall " + std::to_string(launch["forall"].get<int64_t>())
                                         : " --grid " + joined(launch["grid"]) + " --block " + joined(launch["block"]);
    fs::path out = test_cache() / "out" / case_dir.filename();
    command += " --backend cpu --out " + out.string();
    for (const auto& arg : spec["args"]) {
      if (!arg.contains("scalar")) {
        command += " " + (case_dir / "inputs" / (arg["name"].get<std::string>() + ".npy")).string();
      } else {
        std::string value = arg["scalar"].dump();
        if (arg["scalar"].is_boolean()) value = arg["scalar"].get<bool>() ? "True" : "False";
        command += " " + (arg.contains("dtype") ? arg["dtype"].get<std::string>() + ":" : "") + value;
      }
    }
    fs::path log = test_cache() / "log.txt";
    int status = std::system((command + " 2> " + log.string()).c_str());
    if (spec.contains("expect_error")) {
      CHECK(status != 0);
      CHECK(test::read(log).find("IndexError") != std::string::npos);
      continue;
    }
    REQUIRE_MESSAGE(status == 0, test::read(log));
    std::string mismatch = check_outputs(case_dir, spec, [&](const std::string& name) -> std::optional<pykern::Array> {
      auto array = pykern::load_npy((out / (name + ".npy")).string());
      if (!array.ok()) return std::nullopt;
      return *array;
    });
    CHECK_MESSAGE(mismatch.empty(), mismatch);
  }
  fs::remove_all(test_cache());
}
