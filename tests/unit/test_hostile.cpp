// Hostile input through the CLI and the API: each case is a regression test for a way pykern
// once crashed, hung, lost a result or wrote where it should not (issue 11). Source-level
// cases are in tests/bad/, cache cases in test_cache.cpp.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "cli/progress.h"
#include "cli_run.h"
#include "helpers.h"
#include "pykern/module.h"
#include "pykern/npy.h"
#include "pykern/ufunc.h"

namespace fs = std::filesystem;

namespace {

using test::run_cli;
using test::Scratch;
using Run = test::CliRun;

std::string cache_env(const Scratch& scratch) { return scratch.cache_env(); }

void save(const fs::path& path, const pykern::Array& array) { REQUIRE(pykern::save_npy(path.string(), array).ok()); }

pykern::Array zeros(int64_t n) { return pykern::Array::zeros(pykern::DType::float_(64), {n}); }

const char* kernels = R"py(from numba import cuda

@cuda.jit
def copy(a, b):
    i = cuda.grid(1)
    if i < a.size:
        b[i] = a[i] + 1

@cuda.jit
def first(a):
    a[0] = 1

@cuda.jit
def store(a, v):
    a[0] = v

@cuda.jit
def forever(a):
    i = 0
    while True:
        i += 1
    a[0] = i
)py";

}  // namespace

TEST_CASE("run --out: an input file named like another parameter does not overwrite its result") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  pykern::Array a = zeros(4), b = zeros(4);
  static_cast<double*>(a.data())[0] = 10;
  // copy(a, b) reads b.npy into `a` and a.npy into `b`: each alias is another parameter's name.
  save(s.path / "b.npy", a);
  save(s.path / "a.npy", b);
  Run run = run_cli("run " + file.string() + " copy --forall 4 " + (s.path / "b.npy").string() + " " +
                   (s.path / "a.npy").string() + " --out " + (s.path / "out").string(), cache_env(s));
  REQUIRE_MESSAGE(run.status == 0, run.output);
  auto out_a = pykern::load_npy((s.path / "out" / "a.npy").string());
  auto out_b = pykern::load_npy((s.path / "out" / "b.npy").string());
  REQUIRE(out_a.ok());
  REQUIRE(out_b.ok());
  CHECK(static_cast<double*>(out_a->data())[0] == 10);  // parameter a, unchanged
  CHECK(static_cast<double*>(out_b->data())[0] == 11);  // parameter b = a + 1
  CHECK(run.output.find("note:") != std::string::npos);
}

TEST_CASE("run: --forall, --out and typed scalars are checked, never wrapped") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  save(s.path / "a.npy", zeros(1));
  std::string a = (s.path / "a.npy").string(), out = " --out " + (s.path / "out").string();
  std::string run = "run " + file.string() + " ";
  for (const char* tasks : {"-1", "274877906944000", "99999999999999999999"}) {
    CAPTURE(tasks);
    Run r = run_cli(run + "first --forall " + tasks + " " + a + out, cache_env(s));
    CHECK(r.status != 0);
    CHECK(r.output.find("error") != std::string::npos);
  }
  // forall(0) runs nothing, as Numba's does.
  REQUIRE(run_cli(run + "first --forall 0 " + a + out, cache_env(s)).status == 0);
  CHECK(static_cast<double*>(pykern::load_npy((s.path / "out" / "a.npy").string())->data())[0] == 0);
  for (const char* scalar : {"int8:300", "u1:-1", "int32:2.5", "float32:1e39", "uint64:-5", "b1:2", "int64:1j",
                             "99999999999999999999999", "f2:70000"}) {
    CAPTURE(scalar);
    Run r = run_cli(run + "store --forall 1 " + a + " " + scalar + out, cache_env(s));
    CHECK(r.status == 2);
    CHECK(r.output.find("error") != std::string::npos);
  }
  for (const char* scalar : {"int8:127", "u1:255", "int8:-128", "float32:3e38", "18446744073709551615", "f8:inf"}) {
    CAPTURE(scalar);
    Run r = run_cli(run + "store --forall 1 " + a + " " + scalar + out, cache_env(s));
    CHECK_MESSAGE(r.status == 0, r.output);
  }
  Run empty_out = run_cli(run + "first --forall 1 " + a + " --out ''", cache_env(s));
  CHECK(empty_out.status == 2);
  s.write("file", "x");
  // A path on the command line that cannot be used is a usage error, found before the run (issue 31)
  CHECK(run_cli(run + "first --forall 1 " + a + " --out " + (s.path / "file").string(), cache_env(s)).status == 2);
}

TEST_CASE("compile -o: the kernel file itself or an empty name is refused, and the .py survives") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  for (const std::string& output : {file.string(), (s.path / "." / "k.py").string(), std::string("''")}) {
    CAPTURE(output);
    Run r = run_cli("compile " + file.string() + " --emit cuda --sig 'first=void(float64[::1])' -o " + output);
    CHECK(r.status == 2);
    CHECK(test::read(file) == kernels);
  }
}

TEST_CASE("cache prune --max-size: inf, 1e30, nan and negatives are refused, not read as zero") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  REQUIRE(run_cli("compile " + file.string() + " --emit ptx --sig 'first=void(float64[::1])' -o " +
                     (s.path / "k.ptx").string(), cache_env(s)).status == 0);
  for (const char* size : {"inf", "1e30", "nan", "-1", "10X", "''"}) {
    CAPTURE(size);
    Run r = run_cli("cache prune --max-size " + std::string(size), cache_env(s));
    CHECK(r.status == 2);
  }
  Run list = run_cli("cache list --json", cache_env(s));
  CHECK(nlohmann::json::parse(list.output)["entries"].size() == 1);
}

TEST_CASE("--arch values NVRTC cannot take are errors with the choices, not internal errors") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  for (const char* arch : {"sm_1", "sm_52", "garbage", "sm_9999", "sm_90;rm"}) {
    CAPTURE(arch);
    Run r = run_cli("compile " + file.string() + " --sig 'first=void(float64[::1])' --arch '" + arch + "'", cache_env(s));
    CHECK(r.status == 2);  // a usage error (issue 31)
    CHECK(r.output.find("pykern: error:") != std::string::npos);
    CHECK(r.output.find("internal error") == std::string::npos);
  }
}

TEST_CASE(".npy inputs that are huge, endless or not files fail clearly before anything is allocated") {
  Scratch s;
  // A header that claims 2^40 float64 elements over a few bytes of data.
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776,), }";
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(header.size() & 0xff) + char(header.size() >> 8) + header + "12345678";
  s.write("huge.npy", bytes);
  auto huge = pykern::load_npy((s.path / "huge.npy").string());
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().message.find("truncated") != std::string::npos);
  // The same header over a sparse file of that size: the size matches, the memory is not there.
  s.write("sparse.npy", bytes.substr(0, bytes.size() - 8));
  if (::truncate((s.path / "sparse.npy").c_str(), static_cast<off_t>(bytes.size() - 8 + (uint64_t(1) << 43))) == 0) {
    auto sparse = pykern::load_npy((s.path / "sparse.npy").string());
    REQUIRE_FALSE(sparse.ok());
    CHECK(sparse.error().message.find("not enough memory") != std::string::npos);
  }
  // A header length of 4 GiB (version 2).
  s.write("long_header.npy", std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12));
  CHECK_FALSE(pykern::load_npy((s.path / "long_header.npy").string()).ok());
  fs::create_symlink("/dev/zero", s.path / "zero.npy");
  auto zero = pykern::load_npy((s.path / "zero.npy").string());
  REQUIRE_FALSE(zero.ok());
  CHECK(zero.error().message.find("not a regular file") != std::string::npos);
  REQUIRE(::mkfifo((s.path / "fifo.npy").c_str(), 0600) == 0);
  CHECK_FALSE(pykern::load_npy((s.path / "fifo.npy").string()).ok());  // would block forever if read
  CHECK_FALSE(pykern::load_npy(s.path.string()).ok());
  fs::path file = s.write("k.py", kernels);
  Run r = run_cli("run " + file.string() + " first --forall 1 " + (s.path / "zero.npy").string(), cache_env(s));
  CHECK(r.status == 2);
}

TEST_CASE("a kernel that never ends stops at its timeout, through the CLI and the API") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  save(s.path / "a.npy", zeros(1));
  auto started = std::chrono::steady_clock::now();
  Run r = run_cli("run " + file.string() + " forever --grid 2 --block 32 --timeout 0.2 " + (s.path / "a.npy").string() +
                 " --out " + (s.path / "out").string(), cache_env(s));
  CHECK(r.status == 1);
  CHECK(r.output.find("TimeoutError") != std::string::npos);
  CHECK(r.output.find("k.py:20") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(60));
  CHECK(run_cli("run " + file.string() + " forever --forall 1 --timeout -1 " + (s.path / "a.npy").string(), cache_env(s)).status != 0);

  pykern::ModuleOptions options;
  options.cache_dir = (s.path / "cache").string();
  auto module = pykern::Module::load_file(file.string(), options);
  REQUIRE(module.ok());
  pykern::Array a = zeros(1);
  auto status = module->kernel("forever")->launch(pykern::Launch(1, 1).backend(pykern::Backend::cpu).timeout(0.1), a);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().message.find("TimeoutError") != std::string::npos);
}

TEST_CASE("large local arrays: within CUDA's 512 KiB they run on the simulator's fibers; past it, an error") {
  std::string text = R"py(from numba import cuda, float64

@cuda.jit
def k(a):
    b = cuda.local.array(60000, dtype=float64)
    for j in range(60000):
        b[j] = j
    cuda.syncthreads()
    a[cuda.threadIdx.x] = b[59999]

@cuda.jit
def too_large(a):
    b = cuda.local.array(70000, dtype=float64)
    b[0] = 1
    a[0] = b[0]
)py";
  pykern::ModuleOptions options;
  options.use_cache = false;
  auto module = pykern::Module::load_source(text, "local.py", options);
  REQUIRE(module.ok());
  pykern::Array a = zeros(64);
  auto status = module->kernel("k")->launch(pykern::Launch(2, 64).backend(pykern::Backend::cpu), a);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
  CHECK(static_cast<double*>(a.data())[63] == 59999);
  auto refused = module->kernel("too_large")->launch(pykern::Launch(1, 1).backend(pykern::Backend::cpu), a);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("512 KiB") != std::string::npos);
}

TEST_CASE("an uncached simulator run writes only into a private scratch folder, and leaves nothing behind") {
  Scratch s;
  fs::path tmp = s.path / "tmp";
  fs::create_directories(tmp);
  fs::path file = s.write("k.py", kernels);
  save(s.path / "a.npy", zeros(1));
  // Links planted at names a predictable scheme might use must not be followed.
  s.write("victim", "keep");
  for (const char* name : {"pykern-sim", "pykern-sim-1", "pykern-sim-kernels.so"})
    fs::create_symlink(s.path / "victim", tmp / name);
  Run r = run_cli("run " + file.string() + " first --forall 1 " + (s.path / "a.npy").string() + " --out " +
                 (s.path / "out").string(), "TMPDIR=" + tmp.string() + " PYKERN_CACHE_DIR=/proc/no-cache");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK(test::read(s.path / "victim") == "keep");
  size_t left = 0;
  for (const auto& entry : fs::directory_iterator(tmp)) left += entry.is_symlink() ? 0 : 1;
  CHECK(left == 0);
}

TEST_CASE("with no ~/.cache yet, the cache is made and used, not silently turned off") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  std::string env = "env -u PYKERN_CACHE_DIR -u XDG_CACHE_HOME HOME=" + (s.path / "home").string();
  fs::create_directories(s.path / "home");
  Run r = run_cli("compile " + file.string() + " --emit ptx --sig 'first=void(float64[::1])' -o " + (s.path / "k.ptx").string(), env);
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK(r.output.find("disabled") == std::string::npos);
  CHECK(fs::is_directory(s.path / "home" / ".cache" / "pykern" / "v1" / "entries"));
}

TEST_CASE("module globals fold by the runtime's rules: no trap, no hang, the kernel's own value") {
  // Each global is folded by pykern at compile time; `runtime` computes the same at run time.
  std::string text = R"py(import math
from numba import cuda

G = ((-9223372036854775807 - 1) // (-1), (-9223372036854775807 - 1) % (-1), 1 << 70, -1 >> 70, 2 ** 9223372036854775807, 7 // 0)
H = (math.hypot(3.0, 4.0), 1.5 ** 3, math.atan2(1.0, -0.0), min(0.0, -0.0), (3.0 if 2 > 1 else 4.0), abs(-2.5))

@cuda.jit
def folded(i, f):
    for k in range(6):
        i[k] = G[k]
        f[k] = H[k]

@cuda.jit
def runtime(x, y, i, f):
    i[0] = x[0] // x[1]
    i[1] = x[0] % x[1]
    i[2] = x[2] << x[3]
    i[3] = x[1] >> x[3]
    i[4] = x[4] ** x[5]
    i[5] = x[6] // x[7]
    f[0] = math.hypot(y[0], y[1])
    f[1] = y[2] ** x[8]
    f[2] = math.atan2(y[3], y[4])
    f[3] = min(y[5], y[4])
    f[4] = y[6] if x[4] > x[2] else y[1]
    f[5] = abs(y[7])
)py";
  pykern::ModuleOptions options;
  options.use_cache = false;
  auto module = pykern::Module::load_source(text, "fold.py", options);
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  pykern::Array x = pykern::Array::zeros(pykern::DType::int_(64), {9});
  pykern::Array y = pykern::Array::zeros(pykern::DType::float_(64), {8});
  int64_t xs[9] = {INT64_MIN, -1, 1, 70, 2, INT64_MAX, 7, 0, 3};
  double ys[8] = {3.0, 4.0, 1.5, 1.0, -0.0, 0.0, 3.0, -2.5};
  std::memcpy(x.data(), xs, sizeof xs);
  std::memcpy(y.data(), ys, sizeof ys);
  pykern::Array i[2] = {pykern::Array::zeros(pykern::DType::int_(64), {6}), pykern::Array::zeros(pykern::DType::int_(64), {6})};
  pykern::Array f[2] = {zeros(6), zeros(6)};
  auto cpu = pykern::Launch(1, 1).backend(pykern::Backend::cpu);
  REQUIRE(module->kernel("folded")->launch(cpu, i[0], f[0]).ok());
  REQUIRE(module->kernel("runtime")->launch(cpu, x, y, i[1], f[1]).ok());
  for (int k = 0; k < 6; ++k) {
    CAPTURE(k);
    CHECK(static_cast<int64_t*>(i[0].data())[k] == static_cast<int64_t*>(i[1].data())[k]);
    double a = static_cast<double*>(f[0].data())[k], b = static_cast<double*>(f[1].data())[k];
    CHECK(std::memcmp(&a, &b, sizeof a) == 0);
  }
  CHECK(static_cast<int64_t*>(i[0].data())[0] == 0);  // MIN // -1: Numba's compiled code gives 0
}

TEST_CASE("a kernel file that is a FIFO, /dev/zero or a directory fails at once, never blocks") {
  Scratch s;
  fs::create_symlink("/dev/zero", s.path / "zero.py");
  REQUIRE(::mkfifo((s.path / "fifo.py").c_str(), 0600) == 0);
  for (const char* name : {"zero.py", "fifo.py"}) {
    CAPTURE(name);
    Run compile = run_cli("compile " + (s.path / name).string());
    CHECK(compile.status == 2);  // refused as a usage error, before anything is read (issue 31)
    CHECK(compile.output.find("not a regular file") != std::string::npos);
    CHECK(run_cli("run " + (s.path / name).string() + " k --forall 1").status == 2);
    CHECK_FALSE(pykern::Module::load_file((s.path / name).string()).ok());
  }
}

TEST_CASE("a ufunc whose broadcast result cannot fit in memory fails with an error, not an exception") {
  std::string text = R"py(from numba import vectorize

@vectorize(['float64(float64, float64)'], target='cuda')
def add(x, y):
    return x + y
)py";
  pykern::ModuleOptions options;
  options.use_cache = false;
  auto module = pykern::Module::load_source(text, "ufunc.py", options);
  REQUIRE(module.ok());
  auto ufunc = module->ufunc("add");
  REQUIRE(ufunc.ok());
  // (2^20, 1) + (1, 2^20): 2^40 float64 results, 8 TiB.
  pykern::Array column = pykern::Array::zeros(pykern::DType::float_(64), {int64_t(1) << 20, 1});
  pykern::Array row = pykern::Array::zeros(pykern::DType::float_(64), {1, int64_t(1) << 20});
  auto result = ufunc->call({column, row});
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().message.find("not enough memory") != std::string::npos);
}

TEST_CASE("run --out never writes through a link planted in the output folder") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  save(s.path / "a.npy", zeros(1));
  fs::create_directories(s.path / "out");
  s.write("victim", "keep");
  fs::create_symlink(s.path / "victim", s.path / "out" / "a.npy");
  Run r = run_cli("run " + file.string() + " first --forall 1 " + (s.path / "a.npy").string() + " --out " +
                  (s.path / "out").string(), cache_env(s));
  CHECK(r.status == 1);
  CHECK(r.output.find("symbolic link") != std::string::npos);
  CHECK(test::read(s.path / "victim") == "keep");
}

TEST_CASE("API values: Array::from with a shape that does not fit, views that lie, hostile DLPack tensors") {
  CHECK_THROWS_AS(pykern::Array::from<float>({1, 2, 3, 4}, {2}), std::invalid_argument);  // was a heap overflow
  CHECK_THROWS_AS(pykern::Array::zeros(pykern::DType::float_(64), {-1}), std::invalid_argument);
  CHECK_THROWS_AS(pykern::Array::zeros(pykern::DType::float_(64), {int64_t(1) << 40, int64_t(1) << 40}), std::bad_alloc);
  CHECK_THROWS_AS(pykern::Array::zeros(pykern::DType::float_(64), {0, int64_t(1) << 62}), std::bad_alloc);
  double data[4] = {};
  // Views of someone else's memory: what a launch reads of them must be there.
  auto f8 = pykern::DType::float_(64);
  CHECK_THROWS_AS(pykern::Array::wrap(data, f8, {2, 2}, {8}), std::invalid_argument);  // was a heap over-read
  CHECK_THROWS_AS(pykern::Array::wrap(data, f8, {2, -2}), std::invalid_argument);
  CHECK_THROWS_AS(pykern::Array::wrap(data, f8, {int64_t(1) << 32, int64_t(1) << 32}), std::invalid_argument);
  CHECK_THROWS_AS(pykern::Array::wrap(data, f8, {0, int64_t(1) << 62}), std::invalid_argument);  // its strides overflow
  CHECK(pykern::Array::wrap(data, f8, {0, int64_t(1) << 59}).size() == 0);
  auto module = pykern::Module::load_source(kernels, "k.py");
  REQUIRE(module.ok());
  auto refused = module->kernel("first")->launch(pykern::Launch(1, 1), pykern::Array::wrap(nullptr, f8, {4}));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message == "kernel 'first': parameter 'a' (argument 1) is an array of 4 elements whose data "
                                   "pointer is null");
  int64_t shape[2] = {2, 2};
  DLTensor t{};
  t.data = data;
  t.device = {kDLCPU, 0};
  t.dtype = {kDLFloat, 64, 1};
  t.ndim = 2;
  t.shape = shape;
  CHECK(pykern::Array::from_dlpack(t).ok());
  for (int ndim : {-1, 33}) {
    t.ndim = ndim;
    CHECK_FALSE(pykern::Array::from_dlpack(t).ok());
  }
  t.ndim = 2;
  t.shape = nullptr;
  CHECK_FALSE(pykern::Array::from_dlpack(t).ok());
  int64_t negative[2] = {2, -5};
  t.shape = negative;
  CHECK_FALSE(pykern::Array::from_dlpack(t).ok());
  t.shape = shape;
  t.dtype = {kDLInt, 7, 1};
  CHECK_FALSE(pykern::Array::from_dlpack(t).ok());
  t.dtype = {kDLFloat, 0, 1};
  CHECK_FALSE(pykern::Array::from_dlpack(t).ok());
}

TEST_CASE("compile --like types a kernel from example arguments, as a call with them would") {
  Scratch s;
  fs::path file = s.write("k.py", "from numba import cuda\n\n@cuda.jit\ndef k(a, b, n):\n    a[0, 0] = b[0, 0] + n\n");
  save(s.path / "a.npy", pykern::Array::zeros(pykern::DType::float_(32), {3, 4}));
  save(s.path / "b.npy", pykern::Array::zeros(pykern::DType::float_(64), {3, 4}, pykern::Order::F));
  std::string like = "k=" + (s.path / "a.npy").string() + "," + (s.path / "b.npy").string();
  Run r = run_cli("compile " + file.string() + " --emit ptx -o " + (s.path / "k.ptx").string() + " --like " + like + ",3",
                  cache_env(s));
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK(r.output.find("k(array(float32, 2d, C), array(float64, 2d, F), int64)") != std::string::npos);
  r = run_cli("compile " + file.string() + " --emit cuda --like " + like + ",u1:7", cache_env(s));
  CHECK(r.output.find("pk::u8 py_n") != std::string::npos);
  CHECK(run_cli("compile " + file.string() + " --like " + like + ",int8:300", cache_env(s)).status == 2);
  CHECK(run_cli("compile " + file.string() + " --like k", cache_env(s)).status == 2);
}

TEST_CASE("NUMBA_NUM_THREADS that is not a number of threads stops a parallel loop with the reason") {
  Scratch s;
  fs::path file = s.write("p.py", "from numba import njit, prange\n\n@njit(parallel=True)\ndef total(n):\n"
                                  "    s = 0\n    for i in prange(n):\n        s += i\n    return s\n");
  std::string run = "run " + file.string() + " total 1000 --out " + (s.path / "out").string();
  for (const char* threads : {"abc", "0", "-3", "5000", "99999999999999999999"}) {
    CAPTURE(threads);
    Run r = run_cli(run, cache_env(s) + " NUMBA_NUM_THREADS=" + threads);
    CHECK(r.status != 0);
    CHECK(r.output.find(std::string("NUMBA_NUM_THREADS='") + threads + "' is not a number of threads (1 .. 1024)") !=
          std::string::npos);
  }
  Run one = run_cli(run, cache_env(s) + " NUMBA_NUM_THREADS=1");
  REQUIRE(one.status == 0);
  CHECK(one.output.find("499500") != std::string::npos);
}

TEST_CASE("progress: a long run shows a status line on a terminal, nothing when not on one") {
  Scratch s;
  // A few tenths of a second on the simulator.
  fs::path file = s.write("slow.py", R"py(from numba import cuda

@cuda.jit
def spin(out):
    i = cuda.grid(1)
    t = 0.0
    for k in range(1000000):
        t += (k % 7) * 0.5
    out[i] = t
)py");
  save(s.path / "out.npy", zeros(256));
  std::string run = "run " + file.string() + " spin --grid 8 --block 32 " + (s.path / "out.npy").string() + " --out " +
                    (s.path / "o").string();
  Run quiet = run_cli(run, cache_env(s));
  REQUIRE_MESSAGE(quiet.status == 0, quiet.output);
  CHECK(quiet.output.find('\r') == std::string::npos);
  CHECK(quiet.output.find("\033[") == std::string::npos);
  // script(1) gives the command a terminal.
  if (std::system("command -v script > /dev/null 2>&1") != 0) return;
  auto on_terminal = [&](const std::string& term) {
    fs::path log = s.path / ("tty-" + term + ".log");
    // The line shows from the start (no half-second wait), so the test does not depend on speed.
    std::string command = "script -qfec '" + cache_env(s) + " PYKERN_PROGRESS_DELAY=0 TERM=" + term + " " +
                          PYKERN_BINARY + " " + run +
                          "' /dev/null > " + log.string() + " 2>&1";
    Run result;
    int status = test::run_shell(command, log);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.output = test::read(log);
    return result;
  };
  Run shown = on_terminal("xterm");
  INFO(shown.output);
  CHECK(shown.status == 0);
  CHECK(shown.output.find("pykern: running spin ... ") != std::string::npos);
  CHECK(shown.output.find("\r\033[K") != std::string::npos);  // erased at the end
  Run dumb = on_terminal("dumb");  // TERM=dumb: no status line even on a terminal
  CHECK(dumb.status == 0);
  CHECK(dumb.output.find("\033[") == std::string::npos);
}

TEST_CASE("progress: the status line names the phase, its time, and the simulator's blocks") {
  using pykern::cli::Progress;
  CHECK(Progress::line("compiling k.py", 2.44, 0, 0) == "pykern: compiling k.py ... 2.4 s");
  CHECK(Progress::line("running spin", 0.5, 3, 64) == "pykern: running spin ... 0.5 s, 3/64 blocks");
}

TEST_CASE("bundle -o: the kernel file, an empty name or a missing folder is refused; a failed bundle leaves no file") {
  Scratch s;
  fs::path file = s.write("k.py", kernels);
  const std::string sig = " --arch none --sig 'first=void(float64[::1])' ";
  for (const std::string& output : {file.string(), std::string("''")}) {
    CAPTURE(output);
    CHECK(run_cli("bundle " + file.string() + sig + "-o " + output, cache_env(s)).status == 2);
    CHECK(test::read(file) == kernels);
  }
  Run missing = run_cli("bundle " + file.string() + sig + "-o " + (s.path / "no" / "k.h").string(), cache_env(s));
  CHECK(missing.status == 1);
  CHECK(missing.output.find("pykern: error: cannot write '" + (s.path / "no" / "k.h").string() + "'") == 0);
  // A bundle that fails (no signature) leaves an earlier header as it was, and no scratch file.
  fs::path header = s.write("k.h", "// an earlier header\n");
  Run unsigned_kernels = run_cli("bundle " + file.string() + " --arch none -o " + header.string(), cache_env(s));
  CHECK(unsigned_kernels.status == 1);
  CHECK(unsigned_kernels.output.find("has no kernel with a signature to bundle") != std::string::npos);
  CHECK(unsigned_kernels.output.find("on the command line: --sig NAME=SIGNATURE") != std::string::npos);
  CHECK(test::read(header) == "// an earlier header\n");
  Run made = run_cli("bundle " + file.string() + sig + "-o " + header.string(), cache_env(s));
  REQUIRE_MESSAGE(made.status == 0, made.output);
  CHECK(made.output == "bundled first(array(float64, 1d, C)) (simulator)\n");
  CHECK(test::read(header).find("inline pykern::Status first(const pykern::Launch& launch, pykern::View<double, 1> a)") !=
        std::string::npos);
  for (const auto& entry : fs::directory_iterator(s.path)) CHECK(entry.path().filename().string()[0] != '.');
  CHECK(run_cli("bundle " + file.string() + sig + "--namespace 'a b' -o " + header.string(), cache_env(s)).status == 1);
  CHECK(run_cli("bundle " + file.string() + " --sig first -o " + header.string(), cache_env(s)).status == 2);
}
