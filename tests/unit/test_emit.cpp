#include <doctest/doctest.h>

#include "emit/emit_cuda.h"
#include "sema/ir.h"

using pykern::emit::mangle_local;

TEST_CASE("Python names are mangled so that none can collide with C++ or pykern names") {
  CHECK(mangle_local("x") == "py_x");
  CHECK(mangle_local("int") == "py_int");
  CHECK(mangle_local("__global__") == "py___global__");
  CHECK(mangle_local("pk_tmp0") == "py_pk_tmp0");  // pykern's own temporaries are pk_tmpN
  CHECK(mangle_local("é") == "pyx_c3a9");
  CHECK(mangle_local("a_b") != mangle_local("a__b"));
}

#include "jit/nvrtc.h"
#include "pykern/compiler.h"

TEST_CASE("decorator options reach NVRTC; kernels needing different options are refused together") {
  if (!pykern::jit::nvrtc_version().ok()) return;
  const char* text =
      "from numba import cuda\n"
      "@cuda.jit('void(f4[:])', opt=0, lineinfo=True, fastmath=True, max_registers=32)\ndef k(a):\n    a[0] = 1\n"
      "@cuda.jit('void(f4[:])', debug=True)\ndef d(a):\n    assert a[0] > 0, 'positive'\n    a[0] = 1\n";
  pykern::CompileOptions options;
  options.use_cache = false;
  options.arch = "sm_90";
  for (const char* kernel : {"k", "d"}) {
    options.kernels = {kernel};
    auto result = pykern::compile_source(text, "o.py", options);
    CAPTURE(kernel);
    CHECK(result.ok());
  }
  options.kernels.clear();
  auto both = pykern::compile_source(text, "o.py", options);
  REQUIRE_FALSE(both.ok());
  CHECK(both.error().message.find("different compiler options") != std::string::npos);
}

TEST_CASE("kernel and device symbols are distinct for names that differ only in spelling") {
  pykern::ir::Function a, b;
  a.python_name = "_c3a9";
  b.python_name = "\xc3\xa9";  // é
  CHECK(pykern::emit::device_symbol(a) != pykern::emit::device_symbol(b));
  CHECK(pykern::emit::kernel_symbol(a) != pykern::emit::kernel_symbol(b));
  CHECK(pykern::emit::kernel_symbol(a).rfind("pk_kernel_", 0) == 0);
}

#include "frontend/escapes.h"
#include "pykern/module.h"

TEST_CASE("user text reaches emitted code only as an escaped C string literal") {
  using pykern::emit::c_string_literal;
  CHECK(c_string_literal("a.py") == "\"a.py\"");
  CHECK(c_string_literal("x\n#define y") == "\"x\\n#define y\"");
  CHECK(c_string_literal("\"q\" \\") == "\"\\\"q\\\" \\\\\"");
  CHECK(c_string_literal("?\?/") == "\"\\?\\?/\"");  // no trigraph survives ("?\?/" is ??/ without one)
  CHECK(c_string_literal("*/ /*") == "\"*/ /*\"");   // harmless inside a literal
  CHECK(c_string_literal("\r\t\x01") == "\"\\015\\011\\001\"");
  CHECK(c_string_literal("\xff\xc3") == "\"\\377\\303\"");  // not UTF-8: still one escape a byte
  CHECK(c_string_literal(std::string("a\0b", 3)) == "\"a\\000b\"");
}

TEST_CASE("a hostile file name cannot inject code into the simulator build") {
  // Each line of the name would be a directive or code if it reached the source raw.
  std::string name = "evil\n#error injected\nint pk_injected = 1; /* */ ?\?/\n\"\\\xff.py";
  const char* text =
      "from numba import cuda\n"
      "@cuda.jit\n"
      "def k(a):\n"
      "    a[0] = 7\n";
  pykern::ModuleOptions options;
  options.use_cache = false;
  auto module = pykern::Module::load_source(text, name, options);
  REQUIRE(module.ok());
  auto kernel = module->kernel("k");
  REQUIRE(kernel.ok());
  auto a = pykern::Array::zeros(pykern::DType::int_(64), {1});
  auto status = kernel->launch(pykern::Launch(1, 1).backend(pykern::Backend::cpu), a);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
  CHECK(*static_cast<int64_t*>(a.data()) == 7);
}

TEST_CASE("Python string escapes decode as CPython decodes them") {
  using pykern::frontend::decode_python_escape;
  CHECK(decode_python_escape("\\n") == "\n");
  CHECK(decode_python_escape("\\t") == "\t");
  CHECK(decode_python_escape("\\\"") == "\"");
  CHECK(decode_python_escape("\\'") == "'");
  CHECK(decode_python_escape("\\\\") == "\\");
  CHECK(decode_python_escape("\\a") == "\a");
  CHECK(decode_python_escape("\\x00") == std::string(1, '\0'));
  CHECK(decode_python_escape("\\x41") == "A");
  CHECK(decode_python_escape("\\xe9") == "\xc3\xa9");  // a code point, written as UTF-8
  CHECK(decode_python_escape("\\101") == "A");
  CHECK(decode_python_escape("\\0") == std::string(1, '\0'));
  CHECK(decode_python_escape("\\u00e9") == "\xc3\xa9");
  CHECK(decode_python_escape("\\U0001F600") == "\xf0\x9f\x98\x80");
  CHECK(decode_python_escape("\\\n") == "");
  CHECK(decode_python_escape("\\q") == "\\q");  // unknown escapes keep the backslash
  CHECK_FALSE(decode_python_escape("\\N{BULLET}").has_value());
  CHECK_FALSE(decode_python_escape("\\U00110000").has_value());
}

namespace {
// The emitted accesses of kernel `k(a, b)` (both float64[::1]) whose body is `body`.
std::string accesses_of(const std::string& body) {
  pykern::CompileOptions options;
  options.emit = pykern::EmitKind::cuda;
  options.use_cache = false;
  options.signatures = {{"k", "void(float64[::1], float64[::1])"}};
  auto result = pykern::compile_source("from numba import cuda\n@cuda.jit\ndef k(a, b):\n" + body, "f.py", options);
  REQUIRE_MESSAGE(result.ok(), result.error().describe());
  std::string out;
  std::istringstream lines(result->cuda_source);
  for (std::string line; std::getline(lines, line);)
    for (size_t at = line.find("PK_AT"); at != std::string::npos; at = line.find("PK_AT", at + 1))
      out += line.substr(at, line.find(')', at) - at + 1) + "\n";
  return out;
}
}  // namespace

TEST_CASE("index facts: a range loop's index skips the wrap-around, and the bounds check within shape") {
  // i in range(a.shape[0]): never negative and within a's axis 0; i + 1 only never negative;
  // b is another array, so only the wrap-around goes.
  CHECK(accesses_of("    for i in range(a.shape[0]):\n        a[i] = a[i + 1] + b[i]\n") ==
        "PK_AT_KNOWN(py_a, 1u, 1u, py_i)\nPK_AT_KNOWN(py_a, 1u, 0u, (py_i + 1LL)\nPK_AT_KNOWN(py_b, 1u, 0u, py_i)\n");
  // for x, y in zip(a, b) and len(): the stop is the smaller extent.
  CHECK(accesses_of("    for x, y in zip(a, b):\n        b[0] = x + y\n    for j in range(len(b)):\n        b[j] = 0.0\n") ==
        "PK_AT_KNOWN(py_a, 1u, 1u, pk_tmp0)\nPK_AT_KNOWN(py_b, 1u, 1u, pk_tmp0)\nPK_AT(py_b, 0LL)\n"
        "PK_AT_KNOWN(py_b, 1u, 1u, py_j)\n");
}

TEST_CASE("index facts: i - c skips the wrap-around where the loop starts at c or later") {
  CHECK(accesses_of("    for i in range(1, a.shape[0]):\n        a[i - 1] = b[i - 2]\n") ==
        "PK_AT_KNOWN(py_a, 1u, 0u, (py_i - 1LL)\nPK_AT(py_b, (py_i - 2LL)\n");
  CHECK(accesses_of("    for i in range(3, 9, 2):\n        a[i - 3] = 0.0\n") == "PK_AT_KNOWN(py_a, 1u, 0u, (py_i - 3LL)\n");
  // A start only known to be at least 1 (an extent plus one) allows i - 1, not i - 2.
  CHECK(accesses_of("    for i in range(len(b) + 1, 99):\n        a[i - 1] = a[i - 2]\n") ==
        "PK_AT_KNOWN(py_a, 1u, 0u, (py_i - 1LL)\nPK_AT(py_a, (py_i - 2LL)\n");
  // Not where the body may change i, the loop counts down, or the start may be below c.
  CHECK(accesses_of("    for i in range(1, a.shape[0]):\n        i = i - 1\n        a[i - 1] = 0.0\n") ==
        "PK_AT(py_a, (py_i - 1LL)\n");
  CHECK(accesses_of("    for i in range(9, 1, -1):\n        a[i - 1] = 0.0\n") == "PK_AT(py_a, (py_i - 1LL)\n");
  CHECK(accesses_of("    for i in range(len(b), 9):\n        a[i - 1] = 0.0\n") == "PK_AT(py_a, (py_i - 1LL)\n");
}

TEST_CASE("index facts: none where the index or the array may change, or the range may go below 0") {
  CHECK(accesses_of("    for i in range(a.shape[0]):\n        i = i - 1\n        a[i] = 0.0\n") == "PK_AT(py_a, py_i)\n");
  CHECK(accesses_of("    for i in range(-1, a.shape[0]):\n        a[i] = 0.0\n") == "PK_AT(py_a, py_i)\n");
  CHECK(accesses_of("    for i in range(a.shape[0], 0, -1):\n        a[i] = 0.0\n") == "PK_AT(py_a, py_i)\n");
  CHECK(accesses_of("    for i in range(a.shape[0]):\n        a[i] = 0.0\n        a = b\n") ==
        "PK_AT_KNOWN(py_a, 1u, 0u, py_i)\n");
}

TEST_CASE("index facts: thread positions are never negative; a grid-stride loop's index neither") {
  CHECK(accesses_of("    i = cuda.grid(1)\n    if i < a.size:\n        a[i] = b[i]\n") ==
        "PK_AT_KNOWN(py_a, 1u, 0u, py_i)\nPK_AT_KNOWN(py_b, 1u, 0u, py_i)\n");
  CHECK(accesses_of("    x, y = cuda.grid(2)\n    a[x + y] = b[cuda.threadIdx.x * 2]\n") ==
        "PK_AT_KNOWN(py_a, 1u, 0u, (py_x + py_y)\nPK_AT_KNOWN(py_b, 1u, 0u, (static_cast<pk::i64>(pk::threadIdx_x()\n");  // cut at the first )
  // start = grid position, step = grid size: the index stays >= 0; n = len(a) bounds it.
  CHECK(accesses_of("    n = len(a)\n    for i in range(cuda.grid(1), n, cuda.gridsize(1)):\n        a[i] = b[i]\n") ==
        "PK_AT_KNOWN(py_a, 1u, 1u, py_i)\nPK_AT_KNOWN(py_b, 1u, 0u, py_i)\n");
}

TEST_CASE("index facts: none for values that may be negative, nor a step that may be unset") {
  CHECK(accesses_of("    i = cuda.grid(1) - 1\n    a[i] = 0.0\n") == "PK_AT(py_a, py_i)\n");
  CHECK(accesses_of("    i = cuda.grid(1)\n    if i > 4:\n        i = -1\n    a[i] = 0.0\n") == "PK_AT(py_a, py_i)\n");
  // A parameter may hold anything.
  pykern::CompileOptions options;
  options.emit = pykern::EmitKind::cuda;
  options.use_cache = false;
  options.signatures = {{"k", "void(float64[::1], int64, int64)"}};
  auto source = [&](const std::string& body) {
    auto result = pykern::compile_source("from numba import cuda\n@cuda.jit\ndef k(a, s, t):\n" + body, "f.py", options);
    REQUIRE_MESSAGE(result.ok(), result.error().describe());
    return result->cuda_source;
  };
  CHECK(source("    a[s] = 0.0\n").find("PK_AT(py_a, py_s)") != std::string::npos);
  // A step assigned before the loop at the top level tests i < stop; one that may be unset
  // (zero) when the loop starts keeps the run-time test, as does a parameter step.
  CHECK(source("    st = cuda.gridsize(1)\n    for i in range(0, 9, st):\n        a[i] = 0.0\n").find("pk_tmp0 < pk_stop_0") !=
        std::string::npos);
  CHECK(source("    if s > 0:\n        st = cuda.gridsize(1)\n    for i in range(0, 9, st):\n        a[i] = 0.0\n")
            .find("pk::range_continues(pk_tmp0, pk_stop_0, pk_step_0)") != std::string::npos);
  CHECK(source("    for i in range(0, 9, s):\n        a[i] = 0.0\n").find("pk::range_continues") != std::string::npos);
  CHECK(source("    for i in range(9, 0, -3):\n        a[i] = 0.0\n").find("pk_tmp0 > pk_stop_0") != std::string::npos);
}

namespace {
// The emitted body of kernel `k(a, out)` (float64[::1] both), with device function
// `bump(a)` that writes a[0] and returns 1.0, one statement per line without #line.
std::string kernel_body(const std::string& body) {
  pykern::CompileOptions options;
  options.emit = pykern::EmitKind::cuda;
  options.use_cache = false;
  options.signatures = {{"k", "void(float64[::1], float64[::1])"}};
  std::string text = "from numba import cuda\n@cuda.jit(device=True)\ndef bump(a):\n    a[0] = 5.0\n    return 1.0\n"
                     "@cuda.jit\ndef k(a, out):\n" + body;
  auto result = pykern::compile_source(text, "o.py", options);
  REQUIRE_MESSAGE(result.ok(), result.error().describe());
  const std::string& cuda = result->cuda_source;
  std::string out;
  std::istringstream lines(cuda.substr(cuda.find("PK_KERNEL")));
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line) && line != "}")
    if (line.rfind("#line", 0) != 0) out += line.substr(line.find_first_not_of(' ')) + "\n";
  return out;
}
}  // namespace

TEST_CASE("evaluation order: effects and reads that C++ leaves unsequenced are evaluated in Python's order") {
  CHECK(kernel_body("    out[0] = a[0] + bump(a)\n") ==
        "pk::f64 pk_seq0{};\npk::f64 pk_seq1{};\npk_seq0 = PK_AT(py_a, 0LL);\npk_seq1 = pk_device_py_bump_0(py_a);\n"
        "PK_AT(py_out, 0LL) = (pk_seq0 + pk_seq1);\n");
  // A call's operands are evaluated before it, and a branch runs only if taken: nothing moves.
  CHECK(kernel_body("    out[0] = bump(a) * a[1] if a[0] > 0 else bump(a)\n    out[1] = bump(a)\n") ==
        "PK_AT(py_out, 0LL) = ((PK_AT(py_a, 0LL) > static_cast<pk::f64>(0LL)) ? (pk_device_py_bump_0(py_a) * "
        "PK_AT(py_a, 1LL)) : pk_device_py_bump_0(py_a));\nPK_AT(py_out, 1LL) = pk_device_py_bump_0(py_a);\n");
}

TEST_CASE("calls are spelled from the registry; a barrier that answers a value is sequenced like an effect") {
  CHECK(kernel_body("    x, y = cuda.grid(2)\n    v = cuda.float32x2(x, y)\n    out[0] = a[1] + cuda.syncthreads_count(1)\n"
                    "    out[1] = v.y\n") ==
        "pk::i64 py_x{};\npk::i64 py_y{};\npk::vec<pk::f32, 2> py_v{};\npk::tuple<pk::i64, pk::i64> pk_tmp0{};\n"
        "pk::f64 pk_seq0{};\npk::i32 pk_seq1{};\npk_tmp0 = pk::grid2();\npy_x = pk::get<0>(pk_tmp0);\n"
        "py_y = pk::get<1>(pk_tmp0);\n"
        "py_v = pk::make_vec<pk::f32, 2>(static_cast<pk::f32>(py_x), static_cast<pk::f32>(py_y));\n"
        "pk_seq0 = PK_AT(py_a, 1LL);\npk_seq1 = pk::syncthreads_count(static_cast<pk::i32>(1LL));\n"
        "PK_AT(py_out, 0LL) = (pk_seq0 + static_cast<pk::f64>(pk_seq1));\n"
        "PK_AT(py_out, 1LL) = static_cast<pk::f64>(py_v.y);\n");
}

TEST_CASE("a foldable registry row folds by its runtime function alone: np.fmax and np.fmin as module constants") {
  pykern::CompileOptions options;
  options.emit = pykern::EmitKind::cuda;
  options.use_cache = false;
  options.signatures = {{"k", "void(float64[:])"}};
  auto result = pykern::compile_source("import math\nimport numpy as np\nfrom numba import cuda\n"
                                       "X = np.fmax(math.nan, 2.5)\nN = np.fmin(3, 8)\n"
                                       "@cuda.jit\ndef k(a):\n    s = cuda.local.array(N, np.float64)\n"
                                       "    s[0] = X\n    a[0] = s[0]\n",
                                       "m.py", options);
  REQUIRE_MESSAGE(result.ok(), result.error().describe());
  CHECK(result->cuda_source.find("PK_LOCAL_STORAGE(pk::f64, pk_storage_0, 3);") != std::string::npos);
  CHECK(result->cuda_source.find("PK_AT(py_s, 0LL) = 2.5;") != std::string::npos);
}
