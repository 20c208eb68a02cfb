// Inference by Numba's rules, read off the typed IR.
#include <doctest/doctest.h>

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "frontend/module.h"
#include "inferred_locals.h"
#include "pykern/compiler.h"
#include "sema/calls.h"
#include "sema/infer.h"
#include "syntax/syntax_tree.h"

using namespace pykern;

namespace {
// Infers `name` with `signature` and returns the locals as "name: type" lines.
std::string locals_of(const std::string& text, const std::string& name, const std::string& signature) {
  return test::inferred_locals(text, name, signature);
}
const char* header = "import math\nimport numpy as np\nfrom numba import cuda, float32\n";
}  // namespace

TEST_CASE("literals, thread indices and grid positions have Numba's types") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(a):\n    i = cuda.grid(1)\n    t = cuda.threadIdx.x\n    f = 1.5\n"
                     "    b = True\n    c = 1j\n    x, y = cuda.grid(2)\n    w = cuda.blockDim.x * cuda.blockIdx.x\n";
  CHECK(locals_of(text, "k", "void(float32[:])") ==
        "a: array(float32, 1d, A)\ni: int64\nt: int32\nf: float64\nb: bool\nc: complex128\nx: int64\n"
        "y: int64\nw: int64\n-> none");
}

TEST_CASE("unary - and ~ widen an integer to 64 bits keeping its sign; ~ on a bool is a bool") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(u8, i8, b):\n    n = -u8[0]\n    v = ~u8[0]\n    p = +u8[0]\n"
                     "    m = -i8[0]\n    nb = -b[0]\n    ib = ~b[0]\n    lit = ~True\n";
  CHECK(locals_of(text, "k", "void(uint8[:], int8[:], boolean[:])") ==
        "u8: array(uint8, 1d, A)\ni8: array(int8, 1d, A)\nb: array(bool, 1d, A)\nn: uint64\nv: uint64\n"
        "p: uint64\nm: int64\nnb: int64\nib: bool\nlit: int64\n-> none");
}

TEST_CASE("a shift takes its left operand's signedness: uint64 >> int64 and uint64 >> 3 stay uint64") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(u, s, n, w):\n    a = u[0] >> n\n    b = u[0] << 3\n    c = w >> n\n"
                     "    d = s[0] << u[0]\n    e = True << n\n    code = u[0]\n    for i in range(4):\n"
                     "        code = (code << 2) | u[i]\n";
  CHECK(locals_of(text, "k", "void(uint64[:], int32[:], int64, uint32)") ==
        "u: array(uint64, 1d, A)\ns: array(int32, 1d, A)\nn: int64\nw: uint32\na: uint64\nb: uint64\n"
        "c: uint64\nd: int64\ne: int64\ncode: uint64\ni: int64\n-> none");
}

TEST_CASE("int() keeps an integer's type, float() a float32's, complex() of float32s is complex64") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(u, h, f, d):\n    a = int(u)\n    b = int(h)\n    c = int(f)\n"
                     "    e = float(f)\n    g = float(h)\n    z = complex(f, f)\n    y = complex(f)\n"
                     "    x = complex(f, d)\n    w = complex(h, f)\n";
  CHECK(locals_of(text, "k", "void(uint64, int16, float32, float64)") ==
        "u: uint64\nh: int16\nf: float32\nd: float64\na: uint64\nb: int16\nc: int64\ne: float32\n"
        "g: float64\nz: complex64\ny: complex64\nx: complex128\nw: complex128\n-> none");
}

TEST_CASE("range's index: range(0, uint64) and range(int64, uint64) count in int64, as Numba's") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(n, out):\n    for j in range(0, np.uint64(n)):\n        out[j] = -j\n"
                     "    for i in range(np.int64(0), np.uint64(n)):\n        out[i] = -i\n"
                     "    for q in range(np.uint64(n)):\n        out[q] = 0\n";
  CHECK(locals_of(text, "k", "void(int64, float64[:])") ==
        "n: int64\nout: array(float64, 1d, A)\nj: int64\ni: int64\nq: uint64\n-> none");
}

TEST_CASE("a variable assigned on several paths unifies where they meet: acc = 0 then acc += float32") {
  // Numba's acc = 0 is an int64 version, but only the loop's float64 phi reads it: one variable.
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(a):\n    acc = 0\n    for v in a:\n        acc += v\n    a[0] = acc\n";
  CHECK(locals_of(text, "k", "void(float32[::1])") ==
        "a: array(float32, 1d, C)\nacc: float64\nv: float32\n-> none");
}

TEST_CASE("a read before a name is rebound keeps the earlier version's type, as Numba's SSA does") {
  // x is an int64 where x // 2 reads it; only the merge after the if is a float64.
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(a, c, n):\n    x = n * 7\n    y = x // 2\n    if c:\n        x = 0.5\n"
                     "    a[0] = x\n    a[1] = y\n";
  CHECK(locals_of(text, "k", "void(float64[::1], boolean, int64)") ==
        "a: array(float64, 1d, C)\nc: bool\nn: int64\nx: int64\ny: int64\nx: float64\n-> none");
}

TEST_CASE("a parameter given a value of another type widens where the values meet, not at entry") {
  // n // 2 divides the int64 argument; the merge after the if holds 0.5 or the converted n.
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(a, n):\n    m = n // 2\n    if n < 0:\n        n = 0.5\n"
                     "    a[0] = n\n    a[1] = m\n";
  CHECK(locals_of(text, "k", "void(float64[::1], int64)") ==
        "a: array(float64, 1d, C)\nn: int64\nm: int64\nn: float64\n-> none");
  // An update is a new version too: n += 0.5 on an int64 parameter is a float64.
  std::string update = std::string(header) + "@cuda.jit\ndef k(a, n):\n    n += 0.5\n    a[0] = n\n";
  CHECK(locals_of(update, "k", "void(float64[::1], int64)") == "a: array(float64, 1d, C)\nn: int64\nn: float64\n-> none");
}

TEST_CASE("math keeps float32; integer true division is float64; floor gives a float on CUDA") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(a, n):\n    s = math.sin(a[0])\n    d = n / 2\n    q = n // 2\n"
                     "    fl = math.floor(a[0])\n    e = math.exp(n)\n    r = round(a[0])\n    p = a[0] ** 2\n"
                     "    m = max(a[0], 0.5)\n    z = abs(n)\n    k2 = np.float32(n)\n";
  CHECK(locals_of(text, "k", "void(float32[:], int32)") ==
        "a: array(float32, 1d, A)\nn: int32\ns: float32\nd: float64\nq: int64\nfl: float32\ne: float64\n"
        "r: int64\np: float32\nm: float64\nz: int32\nk2: float32\n-> none");
}

TEST_CASE("math.pow takes numba-cuda's cases in kernels (float32 ** int32 stays float32), Numba's on the host") {
  std::string body = "    a = math.pow(x, n)\n    b = math.pow(x, 2)\n    c = math.pow(d, n)\n    e = math.pow(n, n)\n"
                     "    f = math.pow(x, x)\n    g = math.pow(d, 2)\n";
  std::string kernel = std::string(header) + "@cuda.jit\ndef k(x, n, d):\n" + body;
  // (f32, i32) and (f64, i32) are cases of their own; an int64 exponent converts best to (f64, f64).
  CHECK(locals_of(kernel, "k", "void(float32, int32, float64)") ==
        "x: float32\nn: int32\nd: float64\na: float32\nb: float64\nc: float64\ne: float64\nf: float32\n"
        "g: float64\n-> none");
  std::string host = std::string(header) + "from numba import njit\n@njit\ndef h(x, n, d):\n" + body;
  CHECK(locals_of(host, "h", "(float32, int32, float64)") ==
        "x: float32\nn: int32\nd: float64\na: float64\nb: float64\nc: float64\ne: float64\nf: float32\n"
        "g: float64\n-> none");
}

TEST_CASE("device functions are specialised per call-site types and return tuples") {
  std::string text = std::string(header) +
                     "@cuda.jit(device=True)\ndef pair(x, y):\n    return x * 2, y\n"
                     "@cuda.jit\ndef k(a):\n    u, v = pair(a[0], 1)\n    s, t = pair(1, 2.5)\n";
  CHECK(locals_of(text, "k", "void(float32[:])") ==
        "a: array(float32, 1d, A)\nu: float64\nv: int64\ns: int64\nt: float64\n-> none");
  std::string device = std::string(header) + "@cuda.jit(device=True)\ndef f(a, b):\n    return a + b\n";
  CHECK(locals_of(device, "f", "f8(i4, i4)").find("-> float64") != std::string::npos);
}

TEST_CASE("module constants fold: TPB = 16 as a shape, SQRT_2PI as float32") {
  std::string text = std::string(header) +
                     "TPB = 16\nSQRT_2PI = np.float32((2*math.pi)**0.5)\nHALF = TPB // 2\n"
                     "@cuda.jit\ndef k(a):\n    s = cuda.shared.array(shape=(TPB, HALF), dtype=float32)\n"
                     "    c = SQRT_2PI\n    h = HALF\n";
  CHECK(locals_of(text, "k", "void(float32[:])") ==
        "a: array(float32, 1d, A)\ns: array(float32, 2d, C)\nc: float32\nh: int64\n-> none");
}

TEST_CASE("views: fixing a leading axis keeps C order, slicing gives A") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(m):\n    r = m[1]\n    c = m[:, 0]\n    s = m[1:3]\n    t = m.T\n";
  CHECK(locals_of(text, "k", "void(float32[:, ::1])") ==
        "m: array(float32, 2d, C)\nr: array(float32, 1d, C)\nc: array(float32, 1d, A)\n"
        "s: array(float32, 2d, A)\nt: array(float32, 2d, F)\n-> none");
}

TEST_CASE("cuda.popc, clz, ffs and brev return numba-cuda's types") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(s, w, b):\n    c = cuda.clz(s[0])\n    p = cuda.popc(b[0])\n"
                     "    f = cuda.ffs(w[0])\n    r = cuda.brev(w[0])\n    r8 = cuda.brev(s[0])\n"
                     "    r64 = cuda.brev(np.uint64(1))\n";
  CHECK(locals_of(text, "k", "void(uint8[:], int64[:], boolean[:])") ==
        "s: array(uint8, 1d, A)\nw: array(int64, 1d, A)\nb: array(bool, 1d, A)\nc: uint8\np: int8\nf: uint32\n"
        "r: uint32\nr8: uint32\nr64: uint64\n-> none");
}

namespace {
// numba-cuda's rules, restated here so that the typing is checked against them, not against
// itself: cudadecl.py for the atomics, intrinsics.py for the shuffles, cudaimpl.py for ffs.
struct Intrinsic {
  const char* name;
  const char* statement;  // the kernel's body; `a` is an array of the dtype under test
  std::set<std::string> accepts;
};
const std::set<std::string> arithmetic = {"int32", "uint32", "int64", "uint64", "float32", "float64"};
const std::set<std::string> integers = {"int32", "uint32", "int64", "uint64"};
const std::set<std::string> all_integers = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                            "boolean"};
std::set<std::string> numbers = [] {
  std::set<std::string> all = all_integers;
  all.insert({"float16", "float32", "float64"});
  return all;
}();
const std::vector<Intrinsic> intrinsics = {
    {"add", "cuda.atomic.add(a, 0, a[1])", arithmetic},
    {"sub", "cuda.atomic.sub(a, 0, a[1])", arithmetic},
    {"max", "cuda.atomic.max(a, 0, a[1])", arithmetic},
    {"min", "cuda.atomic.min(a, 0, a[1])", arithmetic},
    {"nanmax", "cuda.atomic.nanmax(a, 0, a[1])", arithmetic},
    {"nanmin", "cuda.atomic.nanmin(a, 0, a[1])", arithmetic},
    {"exch", "cuda.atomic.exch(a, 0, a[1])", integers},
    {"and_", "cuda.atomic.and_(a, 0, a[1])", integers},
    {"or_", "cuda.atomic.or_(a, 0, a[1])", integers},
    {"xor", "cuda.atomic.xor(a, 0, a[1])", integers},
    {"inc", "cuda.atomic.inc(a, 0, a[1])", {"uint32", "uint64"}},
    {"dec", "cuda.atomic.dec(a, 0, a[1])", {"uint32", "uint64"}},
    {"cas", "cuda.atomic.cas(a, 0, a[1], a[2])", integers},
    {"compare_and_swap", "cuda.atomic.compare_and_swap(a, a[1], a[2])", integers},
    {"shfl_sync", "a[0] = cuda.shfl_sync(0xffffffff, a[1], 1)", {"int32", "int64", "float32", "float64"}},
    {"shfl_up_sync", "a[0] = cuda.shfl_up_sync(0xffffffff, a[1], 1)", {"int32", "int64", "float32", "float64"}},
    {"shfl_down_sync", "a[0] = cuda.shfl_down_sync(0xffffffff, a[1], 1)", {"int32", "int64", "float32", "float64"}},
    {"shfl_xor_sync", "a[0] = cuda.shfl_xor_sync(0xffffffff, a[1], 1)", {"int32", "int64", "float32", "float64"}},
    {"popc", "a[0] = cuda.popc(a[1])", all_integers},
    {"clz", "a[0] = cuda.clz(a[1])", all_integers},
    {"brev", "a[0] = cuda.brev(a[1])", all_integers},
    {"ffs", "a[0] = cuda.ffs(a[1])", integers},
    {"match_any_sync", "cuda.match_any_sync(0xffffffff, a[1])", numbers},
    {"match_all_sync", "cuda.match_all_sync(0xffffffff, a[1])", numbers},
};
const char* dtypes[] = {"int8",    "int16",   "int32",   "int64",     "uint8",      "uint16", "uint32",
                        "uint64",  "float16", "float32", "float64",   "complex64",  "complex128", "boolean"};

std::string intrinsic_kernel(const Intrinsic& intrinsic) {
  return std::string("@cuda.jit\ndef k_") + intrinsic.name + "(a):\n    " + intrinsic.statement + "\n";
}

pykern::CompileOptions intrinsic_options(const std::vector<std::string>& kernels, const std::string& dtype) {
  pykern::CompileOptions options;
  options.emit = pykern::EmitKind::cuda;
  options.use_cache = false;
  for (const std::string& kernel : kernels) options.signatures.push_back({kernel, "void(" + dtype + "[:])"});
  return options;
}
}  // namespace

// What typing accepts must compile: NVRTC answering "internal error" for an atomic or a shuffle
// of a type numba-cuda does not take (float16, int8, bool, complex) fails here, not on a GPU.
TEST_CASE("every intrinsic and atomic takes numba-cuda's types, and each it takes compiles under NVRTC for sm_90") {
  const std::string module_header = "import numpy as np\nfrom numba import cuda\n";
  for (const char* dtype : dtypes) {
    std::string accepted_program = module_header;
    std::vector<std::string> accepted_kernels;
    for (const Intrinsic& intrinsic : intrinsics) {
      std::string kernel = std::string("k_") + intrinsic.name;
      CAPTURE(std::string(dtype));
      CAPTURE(kernel);
      auto typed = pykern::compile_source(module_header + intrinsic_kernel(intrinsic), "kernel.py",
                                          intrinsic_options({kernel}, dtype));
      bool expected = intrinsic.accepts.count(dtype) == 1;
      CHECK(typed.ok() == expected);
      if (!typed.ok()) {
        CHECK(typed.error().kind == pykern::ErrorKind::compile);
        CHECK(typed.error().describe().find("[type-mismatch]") != std::string::npos);
        continue;
      }
      accepted_program += intrinsic_kernel(intrinsic);
      accepted_kernels.push_back(kernel);
    }
    if (accepted_kernels.empty()) continue;
    CAPTURE(std::string(dtype));
    auto options = intrinsic_options(accepted_kernels, dtype);
    options.emit = pykern::EmitKind::cubin;
    options.arch = "sm_90";
    auto compiled = pykern::compile_source(accepted_program, "kernel.py", options);
    if (!compiled.ok() && compiled.error().kind == pykern::ErrorKind::nvrtc &&
        compiled.error().message.find("cannot load NVRTC") != std::string::npos) {
      MESSAGE("NVRTC not found: typing only");
      continue;
    }
    if (!compiled.ok()) FAIL(compiled.error().describe());
  }
}

TEST_CASE("dtypes are values where Python passes them: a name, np.dtype(...), an array's .dtype") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(a, b):\n    s = cuda.local.array(2, \"float64\")\n"
                     "    t = cuda.local.array(2, np.dtype(\"i4\"))\n    u = cuda.local.array(2, dtype=b.dtype)\n"
                     "    v = cuda.local.array(2, np.dtype(np.uint8))\n    w = a.view(np.dtype(\"<u4\"))\n"
                     "    x = a.view(b.dtype)\n    s[0] = t[0] + u[0] + v[0] + w[0] + x[0]\n";
  CHECK(locals_of(text, "k", "void(float32[::1], int16[:])") ==
        "a: array(float32, 1d, C)\nb: array(int16, 1d, A)\ns: array(float64, 1d, C)\nt: array(int32, 1d, C)\n"
        "u: array(int16, 1d, C)\nv: array(uint8, 1d, C)\nw: array(uint32, 1d, C)\nx: array(int16, 1d, C)\n-> none");
}

TEST_CASE("the call registry: one row per operation, a distinct spelling each, flags that hold together") {
  std::set<std::string_view> ids, spellings;
  size_t rows = 0;
  for (uint16_t i = 1; i < static_cast<uint16_t>(ir::Op::end_); ++i) {
    const ir::CallInfo& info = ir::call_info(static_cast<ir::Op>(i));
    CAPTURE(info.id);
    CHECK(!info.spelling.empty());
    CHECK(ids.insert(info.id).second);
    if (!(info.flags & ir::call_flag::operator_)) CHECK(spellings.insert(info.spelling).second);
    // An operand updated in place is an effect; a reduction's combine folds like its operator.
    if (info.flags & ir::call_flag::by_reference) CHECK((info.flags & ir::call_flag::effects) != 0);
    if (info.flags & ir::call_flag::reduction) CHECK((info.flags & ir::call_flag::foldable) != 0);
    ++rows;
  }
  CHECK(rows > 200);
  // Every draw of the host's random modules is an effect (so draws run in Python's order)
  // and host only; every barrier that answers a value is an effect too.
  for (ir::Op op : {ir::Op::host_random, ir::Op::host_random_seed, ir::Op::host_uniform, ir::Op::host_gauss,
                    ir::Op::host_randint, ir::Op::host_randrange}) {
    CHECK(ir::call_has(op, ir::call_flag::effects));
    CHECK(ir::call_has(op, ir::call_flag::host_only));
  }
  for (ir::Op op : {ir::Op::syncthreads_count, ir::Op::syncthreads_and, ir::Op::syncthreads_or, ir::Op::grid_sync})
    CHECK(ir::call_has(op, ir::call_flag::effects | ir::call_flag::barrier));
  CHECK(ir::call_has(ir::Op::atomic_add, ir::call_flag::effects | ir::call_flag::by_reference));
  CHECK(ir::call_has(ir::Op::gridsize, ir::call_flag::positive));
  CHECK(ir::call_has(ir::Op::gridsize, ir::call_flag::non_negative));  // positive implies it
  CHECK(!ir::call_has(ir::Op::grid, ir::call_flag::positive));
}

TEST_CASE("a chain of 90 device functions infers in linear time (each callee's type is inferred once per signature)") {
  // Each round of each caller used to infer the whole chain below it again: 3**n work.
  std::string text = std::string(header) + "@cuda.jit(device=True)\ndef g0(x, t):\n    return x + t\n";
  for (int i = 1; i < 90; ++i)
    text += "@cuda.jit(device=True)\ndef g" + std::to_string(i) + "(x, t):\n    return g" + std::to_string(i - 1) +
            "(x, t) + 1\n";
  text += "@cuda.jit\ndef k(a, s):\n    t = s * 2\n    a[0] = g89(1.0, t)\n";
  auto started = std::chrono::steady_clock::now();
  CHECK(locals_of(text, "k", "void(float64[:], float64)") == "a: array(float64, 1d, A)\ns: float64\nt: float64\n-> none");
  // 3**90 rounds would never end; linear work takes milliseconds (a debug sanitizer build on a
  // busy two-core machine is far slower, hence the wide margin).
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(60));
}

TEST_CASE("a chain of calls deeper than inference follows is a located error, not a stack overflow") {
  std::string text = std::string(header) + "@cuda.jit(device=True)\ndef g0(x):\n    return x\n";
  for (int i = 1; i < 1000; ++i)
    text += "@cuda.jit(device=True)\ndef g" + std::to_string(i) + "(x):\n    return g" + std::to_string(i - 1) + "(x)\n";
  text += "@cuda.jit\ndef k(a):\n    a[0] = g999(1.0)\n";
  std::string reported = locals_of(text, "k", "void(float64[:])");
  CHECK(reported.find("error: calling 'g900' nests 101 function calls, each calling the next; pykern follows at most 100") !=
        std::string::npos);
}

TEST_CASE("a recursive function's type comes from its base case, through a recursion of two functions too") {
  std::string text = std::string(header) +
                     "@cuda.jit(device=True)\ndef fib(n):\n    if n < 2:\n        return n\n"
                     "    return fib(n - 1) + fib(n - 2)\n"
                     "@cuda.jit(device=True)\ndef even(n):\n    if n == 0:\n        return True\n    return odd(n - 1)\n"
                     "@cuda.jit(device=True)\ndef odd(n):\n    if n == 0:\n        return False\n    return even(n - 1)\n"
                     "@cuda.jit(device=True)\ndef half(x):\n    if x < 1.0:\n        return x\n    return half(x / 2)\n"
                     "@cuda.jit\ndef k(a, n):\n    f = fib(n)\n    e = even(n)\n    h = half(n)\n    a[0] = f + e + h\n";
  CHECK(locals_of(text, "k", "void(float64[:], int32)") ==
        "a: array(float64, 1d, A)\nn: int32\nf: int64\ne: bool\nh: float64\n-> none");
}
