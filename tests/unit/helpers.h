// Shared by the unit tests: paths, file reading, and the corpus signatures.
#pragma once
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <vector>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "abi/arguments.h"
#include "pykern/npy.h"

namespace test {

// The checkout; $PYKERN_SOURCE_DIR overrides the build's, for a build folder carried to
// another machine (the GPU machine) where the checkout lies elsewhere.
inline std::filesystem::path source_dir() {
  const char* moved = std::getenv("PYKERN_SOURCE_DIR");
  return moved ? moved : PYKERN_SOURCE_DIR;
}

// Every corpus case, of every group of tests/corpus (seeds, features, numba_suite, world, ...).
inline std::vector<std::filesystem::path> corpus_case_dirs() {
  std::vector<std::filesystem::path> cases;
  for (const auto& group : std::filesystem::directory_iterator(source_dir() / "tests/corpus")) {
    if (!group.is_directory()) continue;
    for (const auto& entry : std::filesystem::directory_iterator(group.path()))
      if (std::filesystem::exists(entry.path() / "case.json")) cases.push_back(entry.path());
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

inline std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs a shell command whose stderr goes to `log`, and returns std::system's status. Under
// LeakSanitizer the leak check at exit stops every thread with a tracer, which can itself crash
// ("LeakSanitizer has encountered a fatal error": no leak report, the sanitizer's own failure;
// seen in CI on one NVRTC compile, not reproducible alone). Such a run is repeated without the
// leak check, so the command's own result still counts; a leak that is reported still fails.
inline int run_shell(const std::string& command, const std::filesystem::path& log) {
  int status = std::system(command.c_str());
  if (status != 0 && read(log).find("LeakSanitizer has encountered a fatal error") != std::string::npos) {
    const char* options = std::getenv("ASAN_OPTIONS");
    std::string without = "ASAN_OPTIONS='" + std::string(options ? options : "") + ":detect_leaks=0' " + command;
    status = std::system(without.c_str());
  }
  return status;
}

// The Numba type of a .npy file's array as a signature argument, e.g. "float32[::1]"
// (as Numba specialises on a C-contiguous array), as the API writes it for a launch.
inline std::optional<std::string> npy_signature_type(const std::filesystem::path& path) {
  auto array = pykern::load_npy(path.string());
  if (!array.ok()) return std::nullopt;
  auto type = pykern::detail::signature_type(*array);
  if (!type.ok()) return std::nullopt;
  return *type;
}

// The signature Numba would specialise a corpus kernel with, from its case.json and inputs.
inline std::optional<std::string> corpus_kernel_signature(const std::filesystem::path& case_dir) {
  nlohmann::json spec = nlohmann::json::parse(read(case_dir / "case.json"));
  std::string args;
  for (const auto& arg : spec["args"]) {
    std::string type;
    if (!arg.contains("scalar")) {  // an array: generated, recorded or xoroshiro states
      auto t = npy_signature_type(case_dir / "inputs" / (arg["name"].get<std::string>() + ".npy"));
      if (!t) return std::nullopt;
      type = *t;
    } else if (arg.contains("dtype")) {
      type = arg["dtype"].get<std::string>();
    } else {
      type = arg["scalar"].is_number_integer() ? "int64" : arg["scalar"].is_boolean() ? "boolean" : "float64";
    }
    args += (args.empty() ? "" : ", ") + type;
  }
  return "void(" + args + ")";
}

}  // namespace test
