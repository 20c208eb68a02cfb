// Golden tests. tests/golden/NAME.py must translate to tests/golden/NAME.cu, with exactly the
// warnings of tests/golden/NAME.warn if it has any; tests/bad/NAME.py must fail with exactly
// tests/bad/NAME.err. Lines "# pykern: --sig NAME=SIG" in a program
// give signatures. Run with PYKERN_UPDATE_GOLDEN=1 to rewrite the expectations; approving a
// change is committing it.
#include <cstdlib>
#include <regex>
#include <unistd.h>
#include <set>

#include <doctest/doctest.h>

#include "base/diagnostics.h"
#include "helpers.h"
#include "pykern/compiler.h"

namespace fs = std::filesystem;

namespace {

bool updating() {
  const char* flag = std::getenv("PYKERN_UPDATE_GOLDEN");
  return flag && *flag && std::string(flag) != "0";
}

pykern::CompileOptions options_from_comments(const std::string& text) {
  pykern::CompileOptions options;
  options.emit = pykern::EmitKind::cuda;
  options.use_cache = false;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const std::string marker = "# pykern: --sig ";
    if (line.rfind(marker, 0) != 0) continue;
    std::string sig = line.substr(marker.size());
    options.signatures.push_back({sig.substr(0, sig.find('=')), sig.substr(sig.find('=') + 1)});
  }
  return options;
}

std::vector<fs::path> programs(const char* dir) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(test::source_dir() / dir))
    if (entry.path().extension() == ".py") found.push_back(entry.path());
  std::sort(found.begin(), found.end());
  return found;
}

void compare(const fs::path& expected_path, const std::string& actual) {
  if (updating()) {
    std::ofstream(expected_path, std::ios::binary) << actual;
    return;
  }
  REQUIRE_MESSAGE(fs::exists(expected_path), "no expectation: run with PYKERN_UPDATE_GOLDEN=1 and review");
  CHECK(test::read(expected_path) == actual);
}

}  // namespace

TEST_CASE("golden: kernels translate to the expected CUDA C++") {
  for (const fs::path& program : programs("tests/golden")) {
    CAPTURE(program.filename().string());
    std::string text = test::read(program);
    auto result = pykern::compile_source(text, program.filename().string(), options_from_comments(text));
    if (!result.ok()) FAIL(result.error().describe());
    compare(fs::path(program).replace_extension(".cu"), result->cuda_source);
    fs::path warnings = fs::path(program).replace_extension(".warn");
    if (!result->warnings.empty() || fs::exists(warnings)) compare(warnings, result->warnings);
  }
}

TEST_CASE("bad inputs: each fails with its expected, located message and none crashes") {
  auto bad = programs("tests/bad");
  CHECK(bad.size() >= 40);
  std::set<std::string> kinds_seen;
  for (const fs::path& program : bad) {
    CAPTURE(program.filename().string());
    std::string text = test::read(program);
    auto result = pykern::compile_source(text, program.filename().string(), options_from_comments(text));
    REQUIRE_FALSE(result.ok());
    std::string message = result.error().describe();
    // Located: "file:line:col: error:" (the file, or the --sig argument at fault).
    CHECK(std::regex_search(message, std::regex(R"(^\S[^:]*:\d+:\d+: error: )")));
    for (pykern::DiagKind kind : pykern::all_diag_kinds()) {
      std::string tag = std::string("[") + pykern::diag_kind_name(kind) + "]";
      if (message.find(tag) != std::string::npos) kinds_seen.insert(pykern::diag_kind_name(kind));
    }
    compare(fs::path(program).replace_extension(".err"), message);
  }
  // Warnings are produced by golden programs.
  for (const fs::path& program : programs("tests/golden")) {
    fs::path warnings = fs::path(program).replace_extension(".warn");
    if (!fs::exists(warnings)) continue;
    std::string text = test::read(warnings);
    for (pykern::DiagKind kind : pykern::all_diag_kinds())
      if (text.find(std::string("[") + pykern::diag_kind_name(kind) + "]") != std::string::npos)
        kinds_seen.insert(pykern::diag_kind_name(kind));
  }
  // Every diagnostic kind (but the internal one) has a program that produces it.
  for (pykern::DiagKind kind : pykern::all_diag_kinds()) {
    if (kind == pykern::DiagKind::internal_error) continue;
    CAPTURE(pykern::diag_kind_name(kind));
    CHECK(kinds_seen.count(pykern::diag_kind_name(kind)) == 1);
  }
}

TEST_CASE("golden programs compile under NVRTC and the host compiler (no name can inject)") {
  for (const fs::path& program : programs("tests/golden")) {
    CAPTURE(program.filename().string());
    std::string text = test::read(program);
    auto options = options_from_comments(text);
    options.emit = pykern::EmitKind::cubin;
    options.arch = "sm_90";
    auto result = pykern::compile_source(text, program.filename().string(), options);
    if (!result.ok() && result.error().kind == pykern::ErrorKind::nvrtc &&
        result.error().message.find("cannot load NVRTC") != std::string::npos) {
      MESSAGE("NVRTC not found: host compiler only");
    } else if (!result.ok()) {
      FAIL(result.error().describe());
    }
    fs::path source = fs::temp_directory_path() / (program.stem().string() + "-" + std::to_string(::getpid()) + ".cpp");
    std::ofstream(source) << test::read(fs::path(program).replace_extension(".cu"));
    std::string command = "c++ -std=c++17 -fsyntax-only -Wall -Werror -Wno-unused-label -Wno-unused-variable "
                          "-Wno-unused-but-set-variable -I " + (test::source_dir() / "runtime").string() + " " +
                          source.string();
    CHECK(std::system(command.c_str()) == 0);
    fs::remove(source);
  }
}
