// Hostile input, round three (issue 27), through the CLI: output that cannot be written, numbers
// too long for a regular expression, a timeout on a grid of many short blocks, option values
// that must not wrap, and environment settings that must not silently fall back.
#include <chrono>
#include <string>

#include <doctest/doctest.h>

#include "cli_run.h"
#include "pykern/module.h"
#include "pykern/npy.h"

namespace fs = std::filesystem;
using test::CliRun;
using test::run_cli;
using test::Scratch;

namespace {

const char* kernels = R"py(from numba import cuda

@cuda.jit
def first(a):
    a[0] = 1

@cuda.jit
def store(a, v):
    a[0] = v
)py";

void save_zeros(const fs::path& path, int64_t n) {
  REQUIRE(pykern::save_npy(path.string(), pykern::Array::zeros(pykern::DType::float_(64), {n})).ok());
}

bool has(const CliRun& run, const std::string& text) { return run.output.find(text) != std::string::npos; }

}  // namespace

TEST_CASE("output that cannot be written fails the command: a full disk for -o, a full or closed stdout") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  std::string compile = "compile " + file.string() + " --sig 'first=void(float64[:])' --emit cuda";
  CliRun full_file = run_cli(compile + " -o /dev/full", s.cache_env());
  CHECK(full_file.status == 1);
  CHECK_MESSAGE(has(full_file, "cannot write '/dev/full': No space left on device"), full_file.output);
  CHECK(fs::exists("/dev/full"));  // written in place, never replaced by a rename

  save_zeros(s.path / "a.npy", 1);  // a run puts the simulator's build in the cache: `cache list` has a line
  REQUIRE(run_cli("run " + file.string() + " first --grid 1 --block 1 " + (s.path / "a.npy").string() + " --out " +
                  (s.path / "out").string(), s.cache_env()).status == 0);
  for (std::string redirect : {"> /dev/full", ">&-"}) {
    CAPTURE(redirect);
    for (const std::string& command : {compile, compile + " --types", std::string("cache list"),
                                       std::string("cache stats")}) {
      CAPTURE(command);
      CliRun run = run_cli(command, s.cache_env(), redirect);
      CHECK(run.status == 1);
      CHECK_MESSAGE(has(run, "cannot write to standard output"), run.output);
    }
  }
  CHECK(run_cli(compile, s.cache_env(), "> /dev/null").status == 0);
}

TEST_CASE("numbers of 50,000 characters are refused with a short message, never a stack overflow") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  save_zeros(s.path / "a.npy", 1);
  const std::string digits(50000, '7');
  for (const std::string& value : {digits, "1." + digits, digits + "j", "f8:" + digits, "1e" + digits}) {
    CliRun run = run_cli("run " + file.string() + " store --grid 1 --block 1 " + (s.path / "a.npy").string() + " " +
                             value + " --out " + (s.path / "out").string(),
                         s.cache_env());
    CHECK(run.status == 2);
    CHECK_MESSAGE(has(run, "too long to be a scalar"), run.output.substr(0, 300));
    CHECK(run.output.size() < 1000);
    CliRun like = run_cli("compile " + file.string() + " --like store=" + (s.path / "a.npy").string() + "," + value,
                          s.cache_env());
    CHECK(like.status == 2);
    CHECK(has(like, "too long to be a scalar"));
  }
  // Numbers of every form Python reads still parse.
  for (std::string value : {"3", "-2.5", ".5", "5.", "1e-3", "inf", "nan", "1+2j", "1-j", "2.5e3j", "f4:2.5"}) {
    CAPTURE(value);
    CliRun parsed = run_cli("run " + file.string() + " store --grid 1 --block 1 " + (s.path / "a.npy").string() + " " +
                                value + " --out " + (s.path / "out").string(),
                            s.cache_env());
    CHECK_FALSE(has(parsed, "is neither a .npy file nor a scalar"));
    if (value.find('j') == std::string::npos) CHECK(parsed.status == 0);  // a complex v does not type
  }
  CHECK(run_cli("run " + file.string() + " store --grid 1 --block 1 " + (s.path / "a.npy").string() + " 1.5.5j",
                s.cache_env()).status == 2);
}

TEST_CASE("--timeout stops a loop-free kernel on a huge grid between its blocks") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  save_zeros(s.path / "a.npy", 1);
  auto started = std::chrono::steady_clock::now();
  CliRun run = run_cli("run " + file.string() + " first --grid 2147483647 --block 1 --timeout 0.5 " +
                           (s.path / "a.npy").string() + " --out " + (s.path / "out").string(),
                       s.cache_env());
  CHECK(run.status == 1);
  CHECK_MESSAGE(has(run, "TimeoutError: the kernel did not finish within its timeout of 0.5 s"), run.output);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(60));
}

TEST_CASE("option values are refused as written: --shared-bytes -1, --forall 2**63, --timeout nan") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  save_zeros(s.path / "a.npy", 1);
  std::string run = "run " + file.string() + " first " + (s.path / "a.npy").string() + " --out " + (s.path / "out").string();
  struct Refused {
    const char* options;
    const char* message;
  };
  for (Refused r : {Refused{"--grid 1 --block 1 --shared-bytes -1", "--shared-bytes takes a whole number from 0 to 4294967295, not '-1'"},
                    Refused{"--grid 1 --block 1 --shared-bytes 1e3", "not '1e3'"},
                    Refused{"--forall 9223372036854775808", "--forall takes a whole number from 0 to 9223372036854775807, not '9223372036854775808'"},
                    Refused{"--forall -1", "not '-1'"},
                    Refused{"--grid 1 --block 1 --timeout nan", "--timeout takes a number of seconds"},
                    Refused{"--grid 1 --block 1 --timeout -2", "not '-2'"},
                    Refused{"--grid 1 --block 1 --timeout 1e999", "--timeout '1e999' is too large"}}) {
    CAPTURE(r.options);
    CliRun refused = run_cli(run + " " + r.options, s.cache_env());
    CHECK(refused.status == 2);
    CHECK_MESSAGE(has(refused, r.message), refused.output);
  }
  CHECK(run_cli(run + " --forall 3 --timeout 30", s.cache_env()).status == 0);
}

TEST_CASE("PYKERN_NVRTC set to nothing or to a library that does not load is an error, not a fall back") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  std::string compile = "compile " + file.string() + " --sig 'first=void(float64[:])' --no-cache -o " +
                        (s.path / "k.cubin").string();
  CliRun empty = run_cli(compile, "PYKERN_NVRTC=");
  CHECK(empty.status == 1);
  CHECK_MESSAGE(has(empty, "PYKERN_NVRTC is set but empty"), empty.output);
  CliRun missing = run_cli(compile, "PYKERN_NVRTC=" + (s.path / "nowhere.so").string());
  CHECK(missing.status == 1);
  CHECK_MESSAGE(has(missing, "cannot load NVRTC from PYKERN_NVRTC='" + (s.path / "nowhere.so").string() + "'"),
                missing.output);
  CHECK_FALSE(fs::exists(s.path / "k.cubin"));
}

TEST_CASE("environment mistakes are named as the user's: a PYKERN_CXX that cannot build, a TMPDIR that is no folder") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  save_zeros(s.path / "a.npy", 1);
  std::string run = "run " + file.string() + " first --grid 1 --block 1 " + (s.path / "a.npy").string() + " --out " +
                    (s.path / "out").string();
  CliRun broken = run_cli(run, s.cache_env() + " PYKERN_CXX=/bin/false");
  CHECK(broken.status == 1);
  CHECK_MESSAGE(has(broken, "the host compiler '/bin/false' cannot build a C++17 shared library"), broken.output);
  CHECK_FALSE(has(broken, "pykern bug"));
  CliRun missing = run_cli(run, s.cache_env() + " PYKERN_CXX=" + (s.path / "no-such-c++").string());
  CHECK(missing.status == 1);
  CHECK_MESSAGE(has(missing, "cannot run the host compiler '" + (s.path / "no-such-c++").string() + "'"), missing.output);
  CHECK_MESSAGE(has(missing, "a bundle made by `pykern bundle` holds the simulator's build"), missing.output);
  for (std::string tmpdir : {(s.path / "nowhere").string(), (s.path / "a.npy").string()}) {
    CliRun bad = run_cli(run, s.cache_env() + " TMPDIR=" + tmpdir);
    CHECK(bad.status == 1);
    CHECK_MESSAGE(has(bad, "TMPDIR='" + tmpdir + "' is not a folder pykern can make scratch folders in"), bad.output);
    CHECK_FALSE(has(bad, "internal error"));
  }
  CHECK(run_cli(run, s.cache_env() + " TMPDIR=").status == 0);  // empty: unset, as POSIX reads it
}

TEST_CASE("cache prune --max-size takes every unit it offers, up to 4E") {
  Scratch s;
  for (const char* size : {"4E", "2P", "1.5T", "4EB"}) {
    CAPTURE(size);
    CHECK(run_cli(std::string("cache prune --max-size ") + size, s.cache_env()).status == 0);
  }
  CliRun too_large = run_cli("cache prune --max-size 5E", s.cache_env());
  CHECK(too_large.status == 2);
  CHECK(has(too_large, "at most 4E bytes"));
}

TEST_CASE("a recursion deeper than a simulated thread's stack stops with RecursionError, never a crash") {
  Scratch s;
  fs::path file = s.write("deep.py", R"py(from numba import cuda

@cuda.jit(device=True)
def walk(a, n):
    if n == 0:
        return
    a[n % a.shape[0]] += 1
    walk(a, n - 1)
    a[0] += 1

@cuda.jit
def plain(a, n):
    walk(a, n)

@cuda.jit
def with_barrier(a, n):
    cuda.syncthreads()
    walk(a, n)
)py");
  save_zeros(s.path / "a.npy", 8);
  // A worker's own stack, and a fiber's (a kernel that meets at barriers runs its threads as fibers).
  for (const char* kernel : {"plain", "with_barrier"}) {
    CAPTURE(kernel);
    std::string run = std::string("run ") + file.string() + " " + kernel + " --grid 1 --block 2 " +
                      (s.path / "a.npy").string() + " ";
    CliRun shallow = run_cli(run + "1000 --out " + (s.path / "out").string(), s.cache_env());
    CHECK_MESSAGE(shallow.status == 0, shallow.output);
    CliRun deep = run_cli(run + "100000000 --out " + (s.path / "out").string(), s.cache_env());
    CHECK(deep.status == 1);
    CHECK_MESSAGE(has(deep, "deep.py:4: RecursionError: tid=["), deep.output);
    CHECK_MESSAGE(has(deep, "]: maximum recursion depth exceeded"), deep.output);
  }
}
