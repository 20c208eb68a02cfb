// The pykern command as a new user meets it (issue 31, items 9, 10, 14 and 19): usage errors,
// "did you mean", paths checked before the work, what compile and run say about their results,
// --json on compile, run and cache, and `pykern devices` naming the CPU simulator.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "cache/cache.h"
#include "cli/commands.h"
#include "case_selection.h"
#include "cli_run.h"
#include "jit/nvrtc.h"
#include "pykern/compiler.h"
#include "pykern/npy.h"

namespace fs = std::filesystem;
using test::CliRun;
using test::run_cli;
using test::Scratch;

namespace {

const char* kernels = R"py(from numba import cuda

@cuda.jit(device=True)
def twice(x):
    return x * 2

@cuda.jit
def scale(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = twice(a[i])
)py";

// Whether cubins and PTX can be made here; tests that make them skip themselves without NVRTC.
bool without_nvrtc() {
  if (pykern::jit::nvrtc_version().ok()) return false;
  test::skip("NVRTC not found: no cubin or PTX to make");
  return true;
}

bool has(const CliRun& run, const std::string& text) { return run.output.find(text) != std::string::npos; }

// No line says "error:" twice ("pykern: error: k.py:1:2: error: ..." would).
bool one_error_per_line(const std::string& output) {
  std::stringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    size_t first = line.find("error:");
    if (first != std::string::npos && line.find("error:", first + 1) != std::string::npos) return false;
  }
  return true;
}

// A run's stdout alone (its stderr in `stderr_text` when given): what --json prints.
std::string stdout_of(const Scratch& s, const std::string& arguments, int* status = nullptr,
                      std::string* stderr_text = nullptr) {
  fs::path out = s.path / "stdout.txt";
  CliRun run = run_cli(arguments, s.cache_env(), "> " + out.string());
  if (status) *status = run.status;
  if (stderr_text) *stderr_text = run.output;
  return test::read(out);
}

void save_ones(const fs::path& path, int64_t n) {
  pykern::Array a = pykern::Array::zeros(pykern::DType::float_(64), {n});
  for (int64_t i = 0; i < n; ++i) *reinterpret_cast<double*>(a.element({i})) = 1.0;
  REQUIRE(pykern::save_npy(path.string(), a).ok());
}

std::string run_scale(const Scratch& s, const std::string& extra = "") {
  return "run " + (s.path / "k.py").string() + " scale --grid 1 --block 4 " + (s.path / "a.npy").string() +
         " --out " + (s.path / "out").string() + " " + extra;
}

}  // namespace

TEST_CASE("cli: every usage error exits 2 with one 'pykern: error:' line, never CLI11's 105 to 109") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  for (const std::string& command :
       {std::string(""), std::string("run"), "run " + file.string(), "compile " + file.string() + " --bogus",
        "compile " + file.string() + " --emit dog", "run " + file.string() + " scale --backend gpu",
        std::string("cache"), std::string("cache show"), std::string("frobnicate")}) {
    CAPTURE(command);
    CliRun run = run_cli(command, s.cache_env());
    CHECK(run.status == 2);
    CHECK_MESSAGE(run.output.rfind("pykern: error: ", 0) == 0, run.output);
    CHECK_FALSE(has(run, "Run with --help"));
    CHECK(has(run, "--help"));  // the hint names the command's help
    CHECK(one_error_per_line(run.output));
  }
  CHECK(run_cli("--help").status == 0);
  CHECK(run_cli("run --help").status == 0);
  CHECK(run_cli("--version").status == 0);
}

TEST_CASE("cli: a misspelt kernel name gets 'did you mean', in run and in compile --kernel") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  save_ones(s.path / "a.npy", 4);
  CliRun typo = run_cli("run " + file.string() + " scael --grid 1 --block 4 " + (s.path / "a.npy").string(),
                        s.cache_env());
  CHECK(typo.status == 2);
  CHECK_MESSAGE(has(typo, "named 'scael'; did you mean 'scale'?"), typo.output);
  CliRun far = run_cli("run " + file.string() + " histogram --grid 1 --block 4 " + (s.path / "a.npy").string(),
                       s.cache_env());
  CHECK(far.status == 2);
  CHECK_FALSE(has(far, "did you mean"));
  CliRun kernel = run_cli("compile " + file.string() + " --kernel scael", s.cache_env());
  CHECK(kernel.status == 2);
  CHECK_MESSAGE(has(kernel, "no kernel named 'scael'; did you mean 'scale'?"), kernel.output);
  CliRun sig = run_cli("compile " + file.string() + " --sig 'scael=void(float64[:])'", s.cache_env());
  CHECK(sig.status == 2);
  CHECK_MESSAGE(has(sig, "pykern: error: --sig scael: " + file.string() + " has no kernel named 'scael'; did you mean "
                         "'scale'?"),
                sig.output);
  // A kernel made by an assignment is one, though no `def` line names it
  if (without_nvrtc()) return;
  s.write("made.py", std::string(kernels) + "\n\ndef plain(a):\n    a[0] = 1\n\nmade = cuda.jit(plain)\n");
  CliRun made = run_cli("compile " + (s.path / "made.py").string() + " --kernel made --sig 'made=void(float64[:])'",
                        s.cache_env());
  CHECK_MESSAGE(made.status == 0, made.output);
}

TEST_CASE("cli: compile checks the names kernels without a signature read, and fails on a misspelt one") {
  // Before the name pass, these kernels were "checked" (exit 0): nothing types a kernel
  // without a signature, and only typing looked names up.
  Scratch s;
  fs::path file = s.write("names.py", R"py(from numba import cuda

@cuda.jit(device=True)
def helper(x):
    return x * scael

@cuda.jit
def k(a):
    i = cuda.gird(1)
    a[i] = helper(a[i])
)py");
  CliRun run = run_cli("compile " + file.string(), s.cache_env());
  CHECK(run.status == 1);
  CHECK_MESSAGE(has(run, "names.py:5:16: error: name 'scael' is not defined [unknown-name]"), run.output);
  CHECK_MESSAGE(has(run, "names.py:9:9: error: unknown attribute 'gird' of module 'numba.cuda' [unknown-attribute]"),
                run.output);
  CHECK_MESSAGE(has(run, "hint: did you mean 'grid'?"), run.output);
  CHECK_FALSE(has(run, "checked k"));
  CHECK(one_error_per_line(run.output));
}

TEST_CASE("cli: a bad --sig says what is wrong in it, at a caret into it, named by the option") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  save_ones(s.path / "a.npy", 4);
  CliRun typo = run_cli("compile " + file.string() + " --emit cuda --sig 'scale=void(flaot64[:])'", s.cache_env());
  CHECK(typo.status == 1);
  CHECK_MESSAGE(has(typo, "--sig scale:1:6: error: unknown type 'flaot64'; did you mean 'float64'? [bad-signature]\n"
                          "    1 | void(flaot64[:])\n"
                          "      |      ^~~~~~~\n"),
                typo.output);
  CHECK(one_error_per_line(typo.output));
  CliRun returns = run_cli("compile " + file.string() + " --emit cuda --sig 'scale=float64(float64[:])'", s.cache_env());
  CHECK_MESSAGE(has(returns, "--sig scale:1:1: error: a kernel returns nothing, so its signature's return type is void, "
                             "not float64"),
                returns.output);
  CHECK_MESSAGE(has(returns, file.string() + ":8:5: note: 'scale' is defined here"), returns.output);
  CliRun arity = run_cli("compile " + file.string() + " --emit cuda --sig 'scale=void(float64[:], int64)'", s.cache_env());
  CHECK_MESSAGE(has(arity, "--sig scale:1:18: error: 'scale' takes 1 argument (a), but the signature gives 2 types"),
                arity.output);
  // --like makes the signature from example arguments: its errors name that option.
  CliRun like = run_cli("compile " + file.string() + " --emit cuda --like scale=" + (s.path / "a.npy").string() + ",3",
                        s.cache_env());
  CHECK_MESSAGE(has(like, "--like scale:1:"), like.output);
  CHECK_MESSAGE(has(like, "error: 'scale' takes 1 argument (a), but the signature gives 2 types"), like.output);
}

TEST_CASE("cli: compile --like on a kernel with a decorator signature compiles that one, as a call in Numba would") {
  Scratch s;
  fs::path file = s.write("cbrt.py", "from numba import cuda\n\n@cuda.jit('void(float32[:], float32)')\n"
                                     "def simple_cbrt(ary, a):\n    ary[0] = cuda.cbrt(a)\n");
  pykern::Array f32 = pykern::Array::zeros(pykern::DType::float_(32), {1});
  REQUIRE(pykern::save_npy((s.path / "f32.npy").string(), f32).ok());
  save_ones(s.path / "f64.npy", 1);
  // The scalar 2.0 alone would be float64; the decorator's float32 wins, the argument converts.
  int status = -1;
  std::string text = stdout_of(
      s, "compile " + file.string() + " --emit cuda --json --like simple_cbrt=" + (s.path / "f32.npy").string() + ",2.0",
      &status);
  REQUIRE_MESSAGE(status == 0, text);
  auto out = nlohmann::json::parse(text, nullptr, false);
  REQUIRE_MESSAGE(out.is_object(), text);
  REQUIRE(out["kernels"].size() == 1);
  CHECK(out["kernels"][0]["signature"] == "(array(float32, 1d, A), float32)");
  // A float64 array converts to no declared signature: refused as Numba refuses the call.
  CliRun refused = run_cli("compile " + file.string() + " --emit cuda --like simple_cbrt=" +
                               (s.path / "f64.npy").string() + ",2.0",
                           s.cache_env());
  CHECK(refused.status == 2);
  CHECK_MESSAGE(has(refused, "error: --like simple_cbrt: no signature in the decorator of kernel 'simple_cbrt' accepts "
                             "these arguments (float64[::1], float64)"),
                refused.output);
  CHECK_MESSAGE(has(refused, "it is compiled for:\n  (array(float32, 1d, A), float32)"), refused.output);
}

TEST_CASE("cli: bundle refuses a virtual --arch and an empty bundle in its options' words, before any work") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  std::string bundle = "bundle " + file.string() + " --sig 'scale=void(float64[::1])' -o " + (s.path / "k.h").string();
  CliRun virtual_arch = run_cli(bundle + " --arch compute_90", s.cache_env());
  CHECK(virtual_arch.status == 2);
  CHECK_MESSAGE(has(virtual_arch, "pykern: error: --arch compute_90: a bundle lists real architectures (sm_80, sm_90a); "
                                  "PTX for GPUs newer than the newest is added unless --no-ptx"),
                virtual_arch.output);
  CliRun empty = run_cli(bundle + " --arch none --no-simulator", s.cache_env());
  CHECK(empty.status == 2);
  CHECK_MESSAGE(has(empty, "pykern: error: --arch none with --no-simulator: the bundle would hold nothing"), empty.output);
  CHECK_FALSE(fs::exists(s.path / "k.h"));
}

TEST_CASE("cli: the library's words for what the command line has options for become the options") {
  using pykern::cli::in_cli_words;
  CHECK(in_cli_words("no CUDA driver (libcuda.so.1) on this machine; use the CPU simulator (Backend::cpu)") ==
        "no CUDA driver (libcuda.so.1) on this machine; use the CPU simulator (--backend cpu)");
  CHECK(in_cli_words("Backend::cuda or Backend::automatic, then Backend::cuda") ==
        "--backend cuda or --backend auto, then --backend cuda");
  CHECK(in_cli_words("nothing to change") == "nothing to change");
}

// The library speaks of its API (Kernel::specialize, Backend::cpu, a signature for a kernel); only
// src/cli speaks of the command's options. A string literal below src/cli that names one is a
// message the C++ API would show to a program that has no command line.
TEST_CASE("no string literal in the library names a command-line option") {
  static const std::vector<std::string> options = {"--sig",  "--backend",   "--arch",       "--kernel", "--emit",
                                                   "--like", "--namespace", "--no-simulator", "--no-ptx", "--out",
                                                   "--cache-dir", "--no-cache", "--timings", "--types", "--json"};
  fs::path src = fs::path(PYKERN_SOURCE_DIR) / "src";
  std::vector<std::string> found;
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(src)) {
    fs::path path = entry.path();
    std::string ext = path.extension().string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h" && ext != ".def" && ext != ".inc")) continue;
    if (fs::relative(path, src).begin()->string() == "cli") continue;
    ++files;
    std::ifstream in(path);
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      // The string literals of the line: from a '"' to the next unescaped '"'.
      for (size_t open = line.find('"'); open != std::string::npos;) {
        size_t close = open + 1;
        while (close < line.size() && line[close] != '"') close += line[close] == '\\' ? 2 : 1;
        std::string literal = line.substr(open + 1, std::min(close, line.size()) - open - 1);
        for (const std::string& option : options) {
          size_t at = literal.find(option);
          bool whole = at != std::string::npos && (at + option.size() == literal.size() ||
                                                   !(std::isalnum(static_cast<unsigned char>(literal[at + option.size()])) ||
                                                     literal[at + option.size()] == '-' || literal[at + option.size()] == '_'));
          if (whole) found.push_back(fs::relative(path, src).string() + ":" + std::to_string(number) + ": " + literal);
        }
        open = close < line.size() ? line.find('"', close + 1) : std::string::npos;
      }
    }
  }
  CHECK(files > 50);
  std::string listed;
  for (const std::string& f : found) listed += f + "\n";
  CHECK_MESSAGE(found.empty(), listed);
}

TEST_CASE("cli: a missing kernel file names a similar file of its folder") {
  Scratch s;
  s.write("kernels.py", kernels);
  for (const char* command : {"run", "compile", "bundle"}) {
    CAPTURE(command);
    std::string extra = std::string(command) == "run" ? " scale" : std::string(command) == "bundle" ? " -o x.h" : "";
    CliRun run = run_cli(std::string(command) + " " + (s.path / "kernel.py").string() + extra, s.cache_env());
    CHECK(run.status == 2);
    CHECK_MESSAGE(has(run, "no file '" + (s.path / "kernel.py").string() + "'; did you mean '" +
                               (s.path / "kernels.py").string() + "'?"),
                  run.output);
  }
  CliRun no_folder = run_cli("run " + (s.path / "nowhere" / "k.py").string() + " scale", s.cache_env());
  CHECK(no_folder.status == 2);
  CHECK(has(no_folder, "there is no folder"));
  CliRun folder = run_cli("run " + s.path.string() + " scale", s.cache_env());
  CHECK(folder.status == 2);
  CHECK(has(folder, "is a directory, not a kernel file"));
}

TEST_CASE("cli: run --out that cannot be a writable directory is refused before anything runs") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  save_ones(s.path / "a.npy", 4);
  for (const fs::path& out : {file, file / "sub", fs::path("")}) {
    CAPTURE(out);
    CliRun run = run_cli("run " + file.string() + " scale --grid 1 --block 4 " + (s.path / "a.npy").string() +
                             " --out '" + out.string() + "'",
                         s.cache_env());
    CHECK(run.status == 2);
    CHECK_MESSAGE(has(run, "pykern: error: --out"), run.output);
    CHECK_FALSE(has(run, "running scale"));  // refused before the translation and the launch
  }
  CliRun made = run_cli(run_scale(s), s.cache_env());  // a directory that does not exist yet is made
  CHECK_MESSAGE(made.status == 0, made.output);
  CHECK(fs::exists(s.path / "out" / "a.npy"));
}

TEST_CASE("cli: running a device function says what it is, not that it fails to type on the host") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  save_ones(s.path / "a.npy", 4);
  CliRun run = run_cli("run " + file.string() + " twice " + (s.path / "a.npy").string(), s.cache_env());
  CHECK(run.status == 2);
  CHECK_MESSAGE(has(run, "'twice' is a device function: kernels call it; run a kernel that does, or make it a @jit "
                         "function"),
                run.output);
  // made by calling the decorator
  fs::path made = s.write("made.py", std::string(kernels) + "\ndef thrice(x):\n    return x * 3\n\n"
                                                             "three = cuda.jit(device=True)(thrice)\n");
  CliRun called = run_cli("run " + made.string() + " three " + (s.path / "a.npy").string(), s.cache_env());
  CHECK(called.status == 2);
  CHECK_MESSAGE(has(called, "'three' is a device function"), called.output);
}

TEST_CASE("cli: a kernel that cannot be typed for the arguments names their types and the files they came from") {
  Scratch s;
  fs::path file = s.write("h.py", R"py(from numba import cuda

@cuda.jit
def histogram(data, bins, n):
    i = cuda.grid(1)
    if i < n:
        bins[data[i]] += 1
)py");
  save_ones(s.path / "x.npy", 4);  // float64: not an index
  save_ones(s.path / "bins.npy", 4);
  CliRun run = run_cli("run " + file.string() + " histogram --grid 1 --block 4 " + (s.path / "x.npy").string() + " " +
                           (s.path / "bins.npy").string() + " 4",
                       s.cache_env());
  CHECK(run.status == 1);
  CHECK_MESSAGE(has(run, "note: while specialising kernel 'histogram' for (data: array(float64, 1d, C) from " +
                             (s.path / "x.npy").string() + ", bins: array(float64, 1d, C) from " +
                             (s.path / "bins.npy").string() + ", n: int64)"),
                run.output);
}

TEST_CASE("cli: a missing .npy argument names a similar file of its folder") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  save_ones(s.path / "input.npy", 4);
  CliRun run = run_cli("run " + file.string() + " scale --grid 1 --block 4 " + (s.path / "inptu.npy").string() +
                           " --out " + (s.path / "out").string(),
                       s.cache_env());
  CHECK(run.status == 2);
  CHECK_MESSAGE(has(run, "no file '" + (s.path / "inptu.npy").string() + "'; did you mean '" +
                             (s.path / "input.npy").string() + "'?"),
                run.output);
}

TEST_CASE("cli: --arch compute_90 with --emit cubin is refused; it makes PTX with --emit ptx") {
  if (without_nvrtc()) return;
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  std::string compile = "compile " + file.string() + " --sig 'scale=void(float64[:])' --arch compute_90";
  for (const std::string& emit : {std::string(""), std::string(" --emit cubin")}) {
    CliRun run = run_cli(compile + emit + " -o " + (s.path / "k.cubin").string(), s.cache_env());
    CHECK(run.status == 2);
    CHECK_MESSAGE(has(run, "makes PTX, not a cubin: use --emit ptx for PTX, or --arch sm_90 for a cubin"), run.output);
    CHECK_FALSE(fs::exists(s.path / "k.cubin"));
  }
  CHECK(pykern::cache::KernelCache(s.path / "cache").list().empty());  // nothing mislabeled was cached
  CliRun ptx = run_cli(compile + " --emit ptx -o " + (s.path / "k.ptx").string(), s.cache_env());
  CHECK_MESSAGE(ptx.status == 0, ptx.output);
  CHECK(test::read(s.path / "k.ptx").find(".target sm_90") != std::string::npos);
}

TEST_CASE("cli: compile_source refuses a cubin for compute_90 too, rather than label an sm_90 cubin so") {
  if (without_nvrtc()) return;
  pykern::CompileOptions options;
  options.signatures.push_back({"scale", "void(float64[:])"});
  options.arch = "compute_90";
  options.use_cache = false;
  auto cubin = pykern::compile_source(kernels, "k.py", options);
  REQUIRE_FALSE(cubin.ok());
  CHECK(cubin.error().message.find("'compute_90' is a virtual architecture, which makes PTX, not a cubin") !=
        std::string::npos);
  CHECK(cubin.error().message.find("--") == std::string::npos);  // no CLI words in the C++ API
  options.emit = pykern::EmitKind::ptx;
  auto ptx = pykern::compile_source(kernels, "k.py", options);
  REQUIRE_MESSAGE(ptx.ok(), ptx.error().describe());
  CHECK(ptx->binary.find(".target sm_90") != std::string::npos);
}

TEST_CASE("cli: --emit cuda says it translated to CUDA C++, never 'cubin'") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  std::string compile = "compile " + file.string() + " --sig 'scale=void(float64[:])' --emit cuda";
  CliRun written = run_cli(compile + " -o " + (s.path / "k.cu").string(), s.cache_env());
  CHECK(written.status == 0);
  CHECK_MESSAGE(has(written, "to CUDA C++"), written.output);
  CHECK_FALSE(has(written, "cubin"));
  std::string errors;
  std::string source = stdout_of(s, compile, nullptr, &errors);
  CHECK(source.find("pk_kernel_py_scale") != std::string::npos);
  CHECK(errors.find("cubin") == std::string::npos);
}

TEST_CASE("cli: compile without -o says where the cubin went; with -o, what it wrote") {
  if (without_nvrtc()) return;
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  std::string compile = "compile " + file.string() + " --sig 'scale=void(float64[:])'";
  CliRun cached = run_cli(compile, s.cache_env());
  CHECK(cached.status == 0);
  CHECK_MESSAGE(has(cached, "the cubin was not written (no -o); it is in the kernel cache at " +
                                (s.path / "cache").string() + "; give -o k.cubin to write it"),
                cached.output);
  CliRun uncached = run_cli(compile + " --no-cache", s.cache_env());
  CHECK(has(uncached, "the cubin was not written (no -o); give -o k.cubin"));
  CliRun written = run_cli(compile + " -o " + (s.path / "k.cubin").string(), s.cache_env());
  CHECK(has(written, "wrote " + (s.path / "k.cubin").string()));
}

TEST_CASE("cli: compile --json gives kernels, signatures, symbols, the output path, timings and warnings") {
  if (without_nvrtc()) return;
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  fs::path own_cache = s.path / "own-cache";
  int status = -1;
  std::string text = stdout_of(s,
                               "compile " + file.string() + " --sig 'scale=void(float64[:])' --emit ptx --json --debug "
                               "--cache-dir " + own_cache.string() + " -o " + (s.path / "k.ptx").string(),
                               &status);
  REQUIRE(status == 0);
  auto out = nlohmann::json::parse(text, nullptr, false);
  REQUIRE_MESSAGE(out.is_object(), text);
  CHECK(out["file"] == fs::absolute(file).string());
  CHECK(out["output"] == (s.path / "k.ptx").string());
  CHECK(out["emit"] == "ptx");
  CHECK(out["arch"] == "sm_90");
  REQUIRE(out["kernels"].size() == 1);
  CHECK(out["kernels"][0]["function"] == "scale");
  CHECK(out["kernels"][0]["signature"] == "(array(float64, 1d, A))");
  CHECK(out["kernels"][0]["symbol"].get<std::string>().rfind("pk_kernel_py_scale_", 0) == 0);
  CHECK(out["kernels"][0]["debug"] == true);  // --debug
  CHECK(out["kernels"][0]["parameters"][0]["name"] == "a");
  CHECK(out["timings_ms"].contains("nvrtc"));
  CHECK(out["warnings"].is_array());
  CHECK(out["checked_only"].is_array());
  // --cache-dir: the entry is in that cache, not in $PYKERN_CACHE_DIR's
  CHECK(pykern::cache::KernelCache(own_cache).list().size() == 1);
  CHECK(pykern::cache::KernelCache(s.path / "cache").list().empty());
}

TEST_CASE("cli: run --json lists the files written and the phases' times; --timings prints them; --cache-dir") {
  Scratch s;
  s.write("k.py", kernels);
  save_ones(s.path / "a.npy", 4);
  fs::path own_cache = s.path / "own-cache";
  int status = -1;
  std::string errors;
  std::string text =
      stdout_of(s, run_scale(s, "--backend cpu --json --timings --cache-dir " + own_cache.string()), &status, &errors);
  REQUIRE_MESSAGE(status == 0, errors);
  auto out = nlohmann::json::parse(text, nullptr, false);
  REQUIRE_MESSAGE(out.is_object(), text);
  CHECK(out["function"] == "scale");
  CHECK(out["kind"] == "kernel");
  CHECK(out["backend"] == "cpu");
  CHECK(out["outputs"] == nlohmann::json::array({(s.path / "out" / "a.npy").string()}));
  for (const char* phase : {"translate", "read", "compile", "launch", "write"}) {
    CAPTURE(phase);
    CHECK(out["timings_ms"][phase].is_number());
    CHECK(errors.find(std::string(phase) + " ") != std::string::npos);
  }
  CHECK(errors.find("timings (ms):") != std::string::npos);
  CHECK_FALSE(pykern::cache::KernelCache(own_cache).list().empty());
  CHECK(pykern::cache::KernelCache(s.path / "cache").list().empty());
  auto result = pykern::load_npy((s.path / "out" / "a.npy").string());
  REQUIRE(result.ok());
  CHECK(*reinterpret_cast<const double*>(result->element({3})) == 2.0);
}

TEST_CASE("cli: cache list has a header and every entry's kernels and absolute source, simulator entries too") {
  if (without_nvrtc()) return;
  Scratch s;
  s.write("k.py", kernels);
  save_ones(s.path / "a.npy", 4);
  fs::path cwd = fs::current_path();
  fs::current_path(s.path);  // a relative path on the command line is recorded absolute
  CliRun compiled = run_cli("compile k.py --sig 'scale=void(float64[:])'", s.cache_env());
  CliRun ran = run_cli("run k.py scale --grid 1 --block 4 a.npy --backend cpu", s.cache_env());
  // A second simulator build, which makes the precompiled runtime (a cache's first does not).
  s.write("k2.py", std::string(kernels) + "# another library\n");
  CliRun again = run_cli("run k2.py scale --grid 1 --block 4 a.npy --backend cpu", s.cache_env());
  fs::current_path(cwd);
  REQUIRE(compiled.status == 0);
  REQUIRE_MESSAGE(ran.status == 0, ran.output);
  REQUIRE_MESSAGE(again.status == 0, again.output);
  CliRun list = run_cli("cache list", s.cache_env());
  REQUIRE(list.status == 0);
  std::stringstream lines(list.output);
  std::string header;
  std::getline(lines, header);
  CHECK_MESSAGE(header.rfind("KEY", 0) == 0, list.output);
  CHECK(header.find("KERNELS") != std::string::npos);
  CHECK(header.find("SOURCE") != std::string::npos);
  std::map<std::string, std::string> by_target;
  for (std::string line; std::getline(lines, line);) {
    std::stringstream fields(line);
    std::string key, bytes, day, time, target;
    fields >> key >> bytes >> day >> time >> target;
    by_target[target] = line;
  }
  CHECK_MESSAGE(by_target["sm_90"].find("scale  " + (s.path / "k.py").string()) != std::string::npos, list.output);
  std::string k_py = "scale  " + (s.path / "k.py").string() + "\n";
  size_t first = list.output.find(k_py);
  CHECK_MESSAGE(list.output.find(k_py, first + 1) != std::string::npos, list.output);  // sm_90 and cpu
  CHECK_MESSAGE(list.output.find("scale  " + (s.path / "k2.py").string()) != std::string::npos, list.output);
  CHECK(by_target["cpu-h"].find("(simulator runtime)") != std::string::npos);
}

TEST_CASE("cli: cache show with a prefix two keys share is 'ambiguous'; verify and clear say what they did") {
  Scratch s;
  std::vector<std::string> keys;
  {
    pykern::cache::KernelCache cache(s.path / "cache");
    // 17 keys: two of them start with the same hex digit.
    for (int i = 0; i < 17; ++i) {
      pykern::cache::CacheEntry e;
      e.key = pykern::cache::cache_key({"cli-test", std::to_string(i)});
      e.binary = "B";
      e.cuda_source = "// " + e.key;
      e.record = {{"kernels", nlohmann::json::array({{{"function", "k" + std::to_string(i)}}})},
                  {"arch", "sm_90"}, {"source_file", "/src/k.py"}};
      REQUIRE(cache.store(e).ok());
      keys.push_back(e.key);
    }
  }
  std::map<char, int> firsts;
  char shared = 0;
  for (const std::string& key : keys)
    if (++firsts[key[0]] == 2) shared = key[0];
  REQUIRE(shared != 0);
  CliRun ambiguous = run_cli("cache show " + std::string(1, shared), s.cache_env());
  CHECK(ambiguous.status == 1);
  CHECK_MESSAGE(has(ambiguous, "ambiguous: " + std::to_string(firsts[shared]) + " entries match '" +
                                   std::string(1, shared) + "'"),
                ambiguous.output);
  CHECK(run_cli("cache show " + keys[0], s.cache_env()).status == 0);

  // A damaged entry: verify counts what it checked and names what it removed.
  auto damaged = pykern::cache::KernelCache(s.path / "cache").find(keys[0]);
  REQUIRE(damaged);
  fs::path record = damaged->path / "record.json";
  fs::remove(record);
  std::ofstream(record) << "{}";
  CliRun verify = run_cli("cache verify", s.cache_env());
  CHECK(verify.status == 1);
  CHECK_MESSAGE(has(verify, "checked 17 entries; 1 bad, removed:"), verify.output);
  CHECK(has(verify, keys[0].substr(0, 16)));
  CliRun clean = run_cli("cache verify", s.cache_env());
  CHECK(clean.status == 0);
  CHECK(has(clean, "checked 16 entries; 0 bad, removed none"));
  CliRun clear = run_cli("cache clear", s.cache_env());
  CHECK(has(clear, "removed 16 entries"));
  std::string empty = "the cache at " + (s.path / "cache").string() + " is empty";
  for (const char* action : {"list", "verify", "stats", "clear", "prune --max-size 0"}) {
    CAPTURE(action);
    CliRun run = run_cli("cache " + std::string(action), s.cache_env());
    CHECK(run.status == 0);
    CHECK_MESSAGE(has(run, empty), run.output);
  }
}

TEST_CASE("cli: every cache subcommand's --json is one object with the root, and entries of one shape") {
  if (without_nvrtc()) return;
  Scratch s;
  s.write("k.py", kernels);
  REQUIRE(run_cli("compile " + (s.path / "k.py").string() + " --sig 'scale=void(float64[:])'", s.cache_env()).status ==
          0);
  std::string key = pykern::cache::KernelCache(s.path / "cache").list().at(0).key;
  std::map<std::string, nlohmann::json> outputs;
  for (const std::string& action : {std::string("list"), std::string("stats"), "show " + key, std::string("verify"),
                                    std::string("prune --max-size 1G"), std::string("clear")}) {
    CAPTURE(action);
    int status = -1;
    std::string text = stdout_of(s, "cache " + action + " --json", &status);
    CHECK(status == 0);
    auto out = nlohmann::json::parse(text, nullptr, false);
    REQUIRE_MESSAGE(out.is_object(), text);
    CHECK(out["root"] == (s.path / "cache").string());
    outputs[action.substr(0, action.find(' '))] = out;
  }
  const nlohmann::json& listed = outputs["list"]["entries"].at(0);
  for (const char* field : {"key", "path", "bytes", "last_used", "target", "kernels", "source_file", "stray", "record"})
    CHECK_MESSAGE(listed.contains(field), field);
  CHECK(listed["kernels"] == nlohmann::json::array({"scale"}));
  CHECK(listed["source_file"] == (s.path / "k.py").string());
  CHECK(outputs["show"]["entries"].at(0) == listed);
  CHECK(outputs["stats"]["count"] == 1);
  CHECK(outputs["verify"]["checked"] == 1);
  CHECK(outputs["verify"]["removed"].empty());
  CHECK(outputs["clear"]["removed"].at(0)["key"] == listed["key"]);
}

TEST_CASE("cli: a cache that cannot be used is one error line, not 'error: warning:'") {
  Scratch s;
  CliRun run = run_cli("cache --dir " + (s.path / "c").string() + " list", "PYKERN_CACHE_GROUP=no-such-group-pykern");
  CHECK(run.status == 1);
  CHECK_MESSAGE(run.output.rfind("pykern: error: kernel cache disabled: PYKERN_CACHE_GROUP names no group", 0) == 0,
                run.output);
  CHECK(run.output.find("warning") == std::string::npos);
}

TEST_CASE("cli: devices lists the CPU simulator, its threads and what --backend auto picks") {
  CliRun devices = run_cli("devices");
  CHECK(devices.status == 0);
  CHECK_MESSAGE(has(devices, "cpu: the CPU simulator ("), devices.output);
  CHECK(has(devices, "--backend auto picks"));
  Scratch s;
  std::string text = stdout_of(s, "devices --json");
  auto out = nlohmann::json::parse(text, nullptr, false);
  REQUIRE_MESSAGE(out.is_object(), text);
  CHECK(out["simulator"]["threads"].get<int>() >= 1);
  CHECK((out["simulator"]["auto"] == "cpu" || out["simulator"]["auto"] == "cuda"));
  CHECK(out["devices"].is_array());
}

namespace pykern::cli {
void print_error(const Error& error);  // src/cli/print_error.cpp, built into the tests
void print_error(std::string_view message);
}  // namespace pykern::cli

TEST_CASE("cli: print_error never says 'error:' twice on a line: internal errors and diagnostics keep their own") {
  auto printed = [](auto&& print) {
    std::ostringstream captured;
    std::streambuf* old = std::cerr.rdbuf(captured.rdbuf());
    print();
    std::cerr.rdbuf(old);
    return captured.str();
  };
  using pykern::Error;
  using pykern::ErrorKind;
  CHECK(printed([] { pykern::cli::print_error(Error::make(ErrorKind::internal, "internal error: the grid broke")); }) ==
        "pykern: internal error: the grid broke\n");
  CHECK(printed([] { pykern::cli::print_error(Error::make(ErrorKind::launch, "k.py:3:5: error: bad [kind]")); }) ==
        "k.py:3:5: error: bad [kind]\n");
  CHECK(printed([] { pykern::cli::print_error("--out 'x' is not a directory"); }) ==
        "pykern: error: --out 'x' is not a directory\n");
  CHECK(printed([] { pykern::cli::print_error(Error::make(ErrorKind::io, "cannot open 'a.npy'")); }) ==
        "pykern: error: cannot open 'a.npy'\n");
}

// The executable links the C++ runtime statically (CMakeLists.txt, issue 32), and a @jit function
// that uses a list or prange is built against libstdc++.so: the simulator's IndexError, thrown in
// the executable, crosses that library's frames. It must arrive as the error, not as an abort
// (two C++ runtimes in one process, each its own unwinder, aborted here).
TEST_CASE("cli: an error raised in a host function built with the C++ runtime reaches the command") {
  Scratch s;
  fs::path file = s.write("f.py", R"py(from numba import njit, prange

@njit(boundscheck=True)
def listed(a):
    xs = [1.0, 2.0]
    xs.append(a[0])
    return xs[1] + a[100]

@njit(parallel=True, boundscheck=True)
def summed(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i + 3]
    return s
)py");
  save_ones(s.path / "a.npy", 4);
  for (const char* function : {"listed", "summed"}) {
    CAPTURE(function);
    CliRun run = run_cli("run " + file.string() + " " + function + " " + (s.path / "a.npy").string() + " --out " +
                             (s.path / "out").string(),
                         s.cache_env());
    CHECK_MESSAGE(run.status == 1, run.output);
    CHECK_MESSAGE(has(run, "IndexError: index "), run.output);
  }
}

// np.dot finds BLAS at run time (sim/blas_library.h): where PYKERN_BLAS names no library that
// loads, or names one in a way it refuses, the call fails at its line saying what to install.
TEST_CASE("cli: np.dot without a BLAS library is a located RuntimeError naming what to install") {
  Scratch s;
  fs::path file = s.write("f.py", R"py(import numpy as np
from numba import njit

@njit
def norm2(a):
    return np.dot(a, a)
)py");
  save_ones(s.path / "a.npy", 4);
  for (const char* named : {"/nonexistent/libopenblas.so.0", "../libblas.so"}) {
    CAPTURE(named);
    CliRun run = run_cli("run " + file.string() + " norm2 " + (s.path / "a.npy").string() + " --out " +
                             (s.path / "out").string(),
                         s.cache_env() + " PYKERN_BLAS=" + named);
    CHECK_MESSAGE(run.status == 1, run.output);
    CHECK_MESSAGE(has(run, "f.py:6: RuntimeError: "), run.output);
    CHECK_MESSAGE((has(run, "install Debian's libopenblas0-pthread") || has(run, "PYKERN_BLAS must name")), run.output);
  }
}

// main builds only the command its first argument names (issue 32: building all five commands'
// options was a quarter of a cache-hit process); what the others see is unchanged.
TEST_CASE("cli: --help lists every command; a command named first parses as it did among all") {
  CliRun help = run_cli("--help");
  CHECK(help.status == 0);
  for (const char* command : {"compile", "bundle", "cache", "run", "devices"}) {
    CAPTURE(command);
    CHECK_MESSAGE(has(help, std::string("\n  ") + command + " "), help.output);
    CliRun own = run_cli(std::string(command) + " --help");
    CHECK(own.status == 0);
    CHECK_MESSAGE(has(own, std::string(" ") + command + " [OPTIONS]"), own.output);
  }
  CliRun unknown = run_cli("frobnicate");
  CHECK(unknown.status == 2);
  CHECK_MESSAGE(has(unknown, "a subcommand is required\nhint: see 'pykern --help'"), unknown.output);
  CliRun sibling = run_cli("devices compile");  // another command's name is an argument like any other
  CHECK(sibling.status == 2);
  CHECK_MESSAGE(has(sibling, "the following argument was not expected: compile\nhint: see 'pykern devices --help'"),
                sibling.output);
  CliRun nested = run_cli("cache run");
  CHECK(nested.status == 2);
  CHECK_MESSAGE(has(nested, "a subcommand is required\nhint: see 'pykern cache --help'"), nested.output);
  CHECK(run_cli("--version compile").status == 0);
}
