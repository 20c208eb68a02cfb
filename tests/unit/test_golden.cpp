// Golden tests. tests/golden/NAME.py must translate to tests/golden/NAME.cu, with exactly the
// warnings of tests/golden/NAME.warn if it has any; tests/bad/NAME.py must fail with exactly
// tests/bad/NAME.err. Lines "# pykern: --sig NAME=SIG" in a program
// give signatures. Run with PYKERN_UPDATE_GOLDEN=1 to rewrite the expectations; approving a
// change is committing it. ctest runs each program alone (`--case=golden/NAME`, `--case=bad/NAME`,
// see case_selection.h).
#include <cstdlib>
#include <regex>
#include <unistd.h>
#include <set>

#include <doctest/doctest.h>

#include "base/diagnostics.h"
#include "case_selection.h"
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

// Every program in `dir`.
std::vector<fs::path> programs(const char* dir) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(test::source_dir() / dir))
    if (entry.path().extension() == ".py") found.push_back(entry.path());
  std::sort(found.begin(), found.end());
  return found;
}

// Those --case leaves in.
std::vector<fs::path> selected_programs(const char* dir) { return test::selected(programs(dir)); }

// The message compiling a bad program fails with, or "" if it compiles.
std::string bad_program_error(const fs::path& program) {
  std::string text = test::read(program);
  auto result = pykern::compile_source(text, program.filename().string(), options_from_comments(text));
  return result.ok() ? "" : result.error().describe();
}

// The diagnostic kinds named ("[kind]") in `text`.
void add_kinds_named(const std::string& text, std::set<std::string>& kinds) {
  for (pykern::DiagKind kind : pykern::all_diag_kinds()) {
    std::string tag = std::string("[") + pykern::diag_kind_name(kind) + "]";
    if (text.find(tag) != std::string::npos) kinds.insert(pykern::diag_kind_name(kind));
  }
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

TEST_SUITE_BEGIN("golden");

TEST_CASE("golden: kernels translate to the expected CUDA C++") {
  for (const fs::path& program : selected_programs("tests/golden")) {
    CAPTURE(test::case_id(program));
    std::string text = test::read(program);
    auto result = pykern::compile_source(text, program.filename().string(), options_from_comments(text));
    if (!result.ok()) FAIL(result.error().describe());
    compare(fs::path(program).replace_extension(".cu"), result->cuda_source);
    fs::path warnings = fs::path(program).replace_extension(".warn");
    if (!result->warnings.empty() || fs::exists(warnings)) compare(warnings, result->warnings);
  }
}

TEST_SUITE_END();

TEST_SUITE_BEGIN("bad");

TEST_CASE("bad inputs: each fails with its expected, located message and none crashes") {
  for (const fs::path& program : selected_programs("tests/bad")) {
    CAPTURE(test::case_id(program));
    std::string message = bad_program_error(program);
    REQUIRE_FALSE(message.empty());
    // Located: "file:line:col: error:" (the file, or the signature at fault: "signature for k:1:6").
    CHECK(std::regex_search(message, std::regex(R"(^\S[^:]*:\d+:\d+: error: )")));
    compare(fs::path(program).replace_extension(".err"), message);
  }
}

TEST_SUITE_END();

TEST_CASE("every diagnostic kind has a bad program or golden warning that produces it") {
  auto bad = programs("tests/bad");
  CHECK(bad.size() >= 40);
  std::set<std::string> kinds_seen;
  for (const fs::path& program : bad) add_kinds_named(bad_program_error(program), kinds_seen);
  for (const fs::path& program : programs("tests/golden")) {
    fs::path warnings = fs::path(program).replace_extension(".warn");
    if (fs::exists(warnings)) add_kinds_named(test::read(warnings), kinds_seen);
  }
  for (pykern::DiagKind kind : pykern::all_diag_kinds()) {
    if (kind == pykern::DiagKind::internal_error) continue;  // no program should produce it
    CAPTURE(pykern::diag_kind_name(kind));
    CHECK(kinds_seen.count(pykern::diag_kind_name(kind)) == 1);
  }
}

TEST_SUITE_BEGIN("golden");

TEST_CASE("golden programs compile under NVRTC and the host compiler (no name can inject)") {
  for (const fs::path& program : selected_programs("tests/golden")) {
    CAPTURE(test::case_id(program));
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

TEST_SUITE_END();
