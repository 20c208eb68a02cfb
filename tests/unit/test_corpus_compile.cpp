// Every corpus kernel compiles, with the signature Numba would specialise it with, to an
// sm_90 cubin whose parameter table is the launcher's layout (parameter_bank.h); ufuncs,
// gufuncs and reductions type their scalar functions. The emitted CUDA
// also compiles under the host C++ compiler, as the CPU simulator will build it. ctest runs
// each corpus case alone (`--case=GROUP/NAME`, see case_selection.h).
#include <unistd.h>

#include <cstdlib>

#include <doctest/doctest.h>

#include "case_selection.h"
#include "corpus_json.h"
#include "helpers.h"
#include "parameter_bank.h"
#include "compiler/translate.h"
#include "jit/nvrtc.h"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> corpus_cases() { return test::selected_corpus_cases(); }

// The translation Numba would make of the case's function for its inputs.
pykern::compiler::Request request_for(const fs::path& case_dir, pykern::EmitKind emit) {
  nlohmann::json spec = nlohmann::json::parse(test::read(case_dir / "case.json"));
  fs::path file = case_dir / "kernel.py";
  pykern::compiler::Request request{test::read(file), file.string(), {}};
  pykern::CompileOptions& options = request.options;
  options.emit = emit;
  options.arch = "sm_90";
  options.use_cache = false;
  std::string function = spec["function"];
  std::string kind = spec["kind"];
  if (kind == "ufunc") function = function.substr(0, function.find('.'));  // "f.accumulate": the ufunc f
  if (kind != "function") options.kernels = {function};
  if (kind == "kernel") {
    auto signature = test::corpus_kernel_signature(case_dir);
    REQUIRE(signature);
    options.signatures.push_back({function, *signature});
  } else if (kind == "function") {
    // A @jit function typed for the case's arguments: "(float64, int64,)" (json ones: lists, dicts).
    auto types = test::corpus_function_types(case_dir);
    REQUIRE(types);
    request.host_functions.push_back({function, *types});
  } else if (kind == "reduce") {
    auto type = test::npy_signature_type(case_dir / "inputs/A.npy");
    REQUIRE(type);
    std::string dtype = type->substr(0, type->find('['));
    options.signatures.push_back({function, dtype + "(" + dtype + ", " + dtype + ")"});
  }
  return request;
}

// "(int64, float64)": the element types of the case's arguments (an array's dtype).
std::string element_signature(const fs::path& case_dir) {
  std::string types = test::corpus_kernel_signature(case_dir).value_or("void()");
  types = types.substr(4);  // "(int64[:, :], float64)"
  std::string out;
  bool in_axes = false;
  for (char c : types) {
    if (c == '[') in_axes = true;
    if (!in_axes) out += c;
    if (c == ']') in_axes = false;
  }
  return out;
}

}  // namespace

TEST_SUITE_BEGIN("corpus");

TEST_CASE("every corpus case translates and its kernels compile to sm_90 cubins") {
  bool have_nvrtc = pykern::jit::nvrtc_version().ok();
  if (!have_nvrtc) MESSAGE("NVRTC not found: checking translation only");
  for (const fs::path& case_dir : corpus_cases()) {
    CAPTURE(test::case_id(case_dir));
    nlohmann::json spec = nlohmann::json::parse(test::read(case_dir / "case.json"));
    // @jit functions run on the host (lists live there): their CUDA goes to the host compiler only.
    bool host_only = spec["kind"] == "function";
    auto request = request_for(case_dir, have_nvrtc && !host_only ? pykern::EmitKind::cubin : pykern::EmitKind::cuda);
    auto translated = pykern::compiler::translate(request);
    if (translated.ok() && spec["kind"] == "ufunc" && translated->output.cuda_source.empty()) {
      // A @vectorize without signatures (Numba's DUFunc): typed for the case's element types,
      // the loop its first call compiles.
      request.options.signatures.push_back({spec["function"].get<std::string>(), element_signature(case_dir)});
      translated = pykern::compiler::translate(request);
    }
    if (spec.value("refused_at_typing", false)) {  // a case that shows a located refusal
      CHECK_FALSE(translated.ok());
      continue;
    }
    if (!translated.ok()) FAIL(translated.error().describe());
    const pykern::CompileOutput* result = &translated->output;
    if (spec["kind"] != "function") CHECK(!result->cuda_source.empty());
    if (spec["kind"] == "function") CHECK(translated->functions.size() == 1);
    if (spec["kind"] == "kernel") {
      REQUIRE(result->kernels.size() == 1);
      if (have_nvrtc) CHECK(result->binary.size() > 100);
      if (have_nvrtc) CHECK(result->binary.compare(0, 4, "\x7f" "ELF") == 0);
    }
    // What the launcher packs is what the cubin's kernels read (ufunc and reduction kernels too).
    if (have_nvrtc && !host_only) test::check_parameter_banks(*result);
  }
}

TEST_CASE("the emitted CUDA of every corpus case compiles under the host C++ compiler") {
  fs::path scratch = fs::temp_directory_path() / ("pykern-host-" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  for (const fs::path& case_dir : corpus_cases()) {
    CAPTURE(test::case_id(case_dir));
    if (nlohmann::json::parse(test::read(case_dir / "case.json")).value("refused_at_typing", false)) continue;
    auto translated = pykern::compiler::translate(request_for(case_dir, pykern::EmitKind::cuda));
    REQUIRE(translated.ok());
    fs::path source = scratch / (case_dir.filename().string() + ".cpp");
    std::ofstream(source) << translated->output.cuda_source;
    std::string command = "c++ -std=c++17 -fsyntax-only -Wall -Werror -Wno-unused-label -Wno-unused-variable -Wno-unused-but-set-variable -I " +
                          (test::source_dir() / "runtime").string() + " " + source.string() + " 2>&1";
    for (bool debug : {false, true}) {
      std::string full = command;
      if (debug) full.insert(full.find(" -I "), " -DPK_DEBUG=1");
      CAPTURE(full);
      CHECK(std::system(full.c_str()) == 0);
    }
  }
  fs::remove_all(scratch);
}

TEST_SUITE_END();

// The CLI's --sig and --emit cubin, on one case: the corpus cases compile to cubins through the
// API above, and `pykern run` takes each of them through the CLI (test_corpus_run.cpp).
TEST_CASE("the pykern command compiles a corpus kernel with --sig to an sm_90 cubin") {
  if (!pykern::jit::nvrtc_version().ok()) return test::skip("NVRTC not found: no cubin to make");
  fs::path case_dir = test::source_dir() / "tests/corpus/seeds/s003_matmul_shared";
  fs::path out = fs::temp_directory_path() / ("pykern-cli-" + std::to_string(::getpid()) + ".cubin");
  fs::path log = fs::temp_directory_path() / ("pykern-cli-" + std::to_string(::getpid()) + ".log");
  nlohmann::json spec = nlohmann::json::parse(test::read(case_dir / "case.json"));
  auto signature = test::corpus_kernel_signature(case_dir);
  REQUIRE(signature);
  std::string command = std::string(PYKERN_BINARY) + " compile " + (case_dir / "kernel.py").string() + " --sig \"" +
                        spec["function"].get<std::string>() + "=" + *signature +
                        "\" --emit cubin --arch sm_90 --no-cache -o " + out.string() + " 2>" + log.string();
  CAPTURE(command);
  int status = test::run_shell(command, log);
  REQUIRE_MESSAGE(status == 0, test::read(log));
  CHECK(test::read(out).compare(0, 4, "\x7f" "ELF") == 0);
  fs::remove(out);
  fs::remove(log);
}
