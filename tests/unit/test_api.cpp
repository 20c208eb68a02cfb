// The embedded API on the CPU simulator: views and strides, argument validation, barriers,
// declared signatures, DLPack.
#include <cstring>
#include <filesystem>

#include <doctest/doctest.h>

#include "abi/arguments.h"
#include "module_fixture.h"
#include "pykern/module.h"

using namespace pykern;

namespace {
ModuleOptions test_options() { return test::process_cache_options("api-cache"); }

Module load(const std::string& text) { return test::load_module(text, "api_test.py", "api-cache"); }

const char* kernels = R"py(
from numba import cuda, float32, int32

@cuda.jit
def copy2d(src, dst):
    i, j = cuda.grid(2)
    if i < dst.shape[0] and j < dst.shape[1]:
        dst[i, j] = src[i, j]

@cuda.jit
def scale(a, factor):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= factor

@cuda.jit
def reverse(a):
    # Each thread writes one element to shared memory; after the barrier it reads its mirror.
    tile = cuda.shared.array(64, dtype=float32)
    t = cuda.threadIdx.x
    tile[t] = a[t]
    cuda.syncthreads()
    a[t] = tile[cuda.blockDim.x - 1 - t]

@cuda.jit
def stuck(a):
    if cuda.threadIdx.x == 0:
        cuda.syncthreads()
    else:
        cuda.syncwarp()
    a[0] = 1

@cuda.jit
def warp_sum(a, out):
    t = cuda.threadIdx.x
    v = a[t]
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xffffffff, v, offset)
        offset //= 2
    if t == 0:
        out[0] = v
    count = cuda.syncthreads_count(a[t] > 10)
    if t == 0:
        out[1] = count

@cuda.jit
def histogram(values, bins):
    i = cuda.grid(1)
    if i < values.size:
        cuda.atomic.add(bins, values[i] % bins.size, 1)

@cuda.jit("void(int32[::1], int32)")
def fixed(a, v):
    a[0] = v
)py";
}  // namespace

TEST_CASE("a transposed (Fortran-ordered) input is read through its strides") {
  Module module = load(kernels);
  Array src = Array::from<double>({0, 1, 2, 3, 4, 5}, {2, 3}).transpose();  // 3x2 view, F-contiguous
  Array dst = Array::zeros(DType::float_(64), {3, 2});
  auto kernel = module.kernel("copy2d");
  REQUIRE(kernel.ok());
  auto status = kernel->launch({1, 1}, {4, 4}, src, dst);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) CHECK(dst.at<double>(i, j) == src.at<double>(i, j));
  // A strided (every other column) view works too.
  Array wide = Array::from<float>({0, 1, 2, 3, 4, 5, 6, 7}, {8});
  auto odd = wide.slice(0, {1, std::nullopt, 2});
  REQUIRE(odd.ok());
  REQUIRE(module.kernel("scale")->launch({1}, {8}, *odd, f32(10)).ok());
  CHECK(wide.at<float>(3) == 30);
  CHECK(wide.at<float>(2) == 2);
}

TEST_CASE("barriers: shared memory is exchanged only after syncthreads; a divergent barrier is a deadlock") {
  Module module = load(kernels);
  std::vector<float> values(64);
  for (int i = 0; i < 64; ++i) values[i] = static_cast<float>(i);
  Array a = Array::from(values);
  REQUIRE(module.kernel("reverse")->launch({1}, {64}, a).ok());
  for (int i = 0; i < 64; ++i) CHECK(a.at<float>(i) == 63 - i);
  auto stuck = module.kernel("stuck")->launch({1}, {64}, Array::zeros(DType::int_(32), {1}));
  REQUIRE_FALSE(stuck.ok());
  CHECK(stuck.error().message.find("deadlock") != std::string::npos);
}

TEST_CASE("grid.sync() is a barrier of every block; a block that returns first is a deadlock; the grid is bounded") {
  Module module = load(R"py(from numba import cuda

@cuda.jit
def sequential_rows(M):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, M.shape[0]):
        M[row, col] = M[row - 1, M.shape[1] - col - 1] + 1
        g.sync()

@cuda.jit
def early(M):
    g = cuda.cg.this_grid()
    if cuda.blockIdx.x == 2:
        return
    g.sync()
)py");
  // Each row reads the previous one, written by threads of other blocks: without a grid
  // barrier the blocks (run one after another) would read zeros.
  Array m = Array::zeros(DType::int_(32), {40, 256});
  auto status = module.kernel("sequential_rows")->launch({8}, {32}, m);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
  for (int row = 0; row < 40; ++row)
    for (int col = 0; col < 256; col += 37) CHECK(m.at<int32_t>(row, col) == row);
  auto stuck = module.kernel("early")->launch({4}, {32}, m);
  REQUIRE_FALSE(stuck.ok());
  CHECK(stuck.error().message.find("deadlock: 96 live threads wait at grid.sync(), but block ctaid=[2, 0, 0] has "
                                   "returned") != std::string::npos);
  auto huge = module.kernel("sequential_rows")->launch({2049}, {32}, m);
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().message.find("all its 65568 threads must run at once; the simulator runs at most 65536") !=
        std::string::npos);
}

TEST_CASE("warp shuffles and syncthreads_count see the warp and the block in lock-step") {
  Module module = load(kernels);
  std::vector<int32_t> values(32);
  for (int i = 0; i < 32; ++i) values[i] = i;
  Array a = Array::from(values);
  Array out = Array::zeros(DType::int_(32), {2});
  auto status = module.kernel("warp_sum")->launch({1}, {32}, a, out);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
  CHECK(out.at<int32_t>(0) == 31 * 32 / 2);
  CHECK(out.at<int32_t>(1) == 21);  // 11..31
}

TEST_CASE("atomics from parallel blocks add up") {
  Module module = load(kernels);
  std::vector<int64_t> values(100000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i);
  Array bins = Array::zeros(DType::int_(64), {10});
  REQUIRE(module.kernel("histogram")->launch(Launch::forall(100000), Array::from(values), bins).ok());
  for (int b = 0; b < 10; ++b) CHECK(bins.at<int64_t>(b) == 10000);
}

TEST_CASE("argument errors name the kernel and the parameter") {
  Module module = load(kernels);
  auto scale = module.kernel("scale");
  REQUIRE(scale.ok());
  Array a = Array::zeros(DType::float_(32), {8});
  auto missing = scale->launch({1}, {8}, a);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message.find("takes 2 arguments (a, factor), 1 given") != std::string::npos);
  auto fixed = module.kernel("fixed");
  auto wrong_dtype = fixed->launch({1}, {1}, Array::zeros(DType::float_(32), {4}), 3);
  REQUIRE_FALSE(wrong_dtype.ok());
  CHECK(wrong_dtype.error().message.find("no signature of kernel 'fixed'") != std::string::npos);
  Array ints = Array::zeros(DType::int_(32), {4});
  REQUIRE(fixed->launch({1}, {1}, ints, 7).ok());  // a Python int converts to the declared int32
  CHECK(ints.at<int32_t>(0) == 7);
  auto bad_block = scale->launch({1}, {2048}, a, 2.0);
  REQUIRE_FALSE(bad_block.ok());
  CHECK(bad_block.error().message.find("at most 1024 threads") != std::string::npos);
  auto zero_grid = scale->launch({0}, {8}, a, 2.0);
  REQUIRE_FALSE(zero_grid.ok());
  auto no_kernel = module.kernel("nope");
  REQUIRE_FALSE(no_kernel.ok());
  CHECK(no_kernel.error().message.find("no kernel named 'nope'") != std::string::npos);
  auto zero_d = scale->launch({1}, {1}, Array::zeros(DType::float_(32), {}), 2.0);
  REQUIRE_FALSE(zero_d.ok());
  void* device_pointer = reinterpret_cast<void*>(uintptr_t(0x10000));  // never read: the launch refuses it first
  auto device = scale->launch({1}, {1}, Array::wrap(device_pointer, DType::float_(32), {4}, {}, Location::device), 2.0);
  REQUIRE_FALSE(device.ok());
  CHECK(device.error().message.find("lives on the device") != std::string::npos);
}

TEST_CASE("compile errors come back as results with the translator's diagnostics") {
  // A kernel with a signature in its decorator is compiled at load, as Numba compiles it at import.
  auto module = Module::load_source("from numba import cuda\n@cuda.jit('void(f8[:])')\ndef k(a):\n    with a:\n        pass\n",
                                    "broken.py", test_options());
  REQUIRE_FALSE(module.ok());
  CHECK(module.error().kind == ErrorKind::compile);
  CHECK(module.error().message.find("broken.py:4:5: error: 'with' statement") != std::string::npos);
  Module typed = load("from numba import cuda\n@cuda.jit\ndef k(a):\n    a[0] = a\n");
  auto status = typed.kernel("k")->launch({1}, {1}, Array::zeros(DType::float_(32), {2}));
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().message.find("cannot store") != std::string::npos);
  // The argument types the kernel was specialised for, as Numba's "During:" lines name them.
  CHECK(status.error().message.find("note: while specialising kernel 'k' for (a: array(float32, 1d, C))") !=
        std::string::npos);
  // An array that says where it came from (load_npy labels with the path) is named so, and its views keep it.
  Array column = Array::zeros(DType::float_(32), {4}).with_label("column 'price'");
  CHECK(column.transpose().label() == "column 'price'");
  CHECK(Array::zeros(DType::float_(32), {4}).label().empty());
  auto labelled = typed.kernel("k")->launch({1}, {1}, column);
  REQUIRE_FALSE(labelled.ok());
  CHECK_MESSAGE(labelled.error().message.find("(a: array(float32, 1d, C) from column 'price')") != std::string::npos,
                labelled.error().message);
}

TEST_CASE("a kernel without a signature is checked when first launched: what is wrong with it does not stop the others") {
  const char* source = R"py(from numba import cuda

@cuda.jit
def scale(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 2.0

@cuda.jit
def guarded(a):
    try:
        a[0] = 1.0
    except Exception:
        pass
)py";
  auto module = Module::load_source(source, "two.py", test_options());
  REQUIRE_MESSAGE(module.ok(), module.error().describe());
  CHECK(module->warnings().find("two.py:11:5: warning: kernel 'guarded' cannot be compiled: 'try' statement") !=
        std::string::npos);
  Array a = Array::from<double>({1, 2, 3});
  REQUIRE(module->kernel("scale")->launch({1}, {4}, a).ok());
  CHECK(a.at<double>(2) == 6.0);
  auto refused = module->kernel("guarded")->launch({1}, {1}, a);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().kind == ErrorKind::compile);
  CHECK(refused.error().message.find("two.py:11:5: error: 'try' statement is not supported") != std::string::npos);
}

TEST_CASE("a misspelt name in a kernel without a signature is a located warning at load, an error at launch") {
  const char* source = R"py(from numba import cuda

@cuda.jit
def scale(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 2.0

@cuda.jit
def typo(a):
    i = cuda.gird(1)
    a[i] = totl
)py";
  auto module = Module::load_source(source, "names.py", test_options());
  REQUIRE_MESSAGE(module.ok(), module.error().describe());
  const std::string& warnings = module->warnings();
  CHECK_MESSAGE(warnings.find("names.py:11:9: warning: kernel 'typo' cannot be compiled: unknown attribute 'gird' of "
                              "module 'numba.cuda' [unknown-attribute]") != std::string::npos,
                warnings);
  CHECK_MESSAGE(warnings.find("names.py:12:12: warning: kernel 'typo' cannot be compiled: name 'totl' is not defined") !=
                    std::string::npos,
                warnings);
  Array a = Array::from<double>({1, 2, 3});
  REQUIRE(module->kernel("scale")->launch({1}, {4}, a).ok());
  auto refused = module->kernel("typo")->launch({1}, {4}, a);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().kind == ErrorKind::compile);
  CHECK_MESSAGE(refused.error().message.find("names.py:11:9: error: unknown attribute 'gird' of module 'numba.cuda'") !=
                    std::string::npos,
                refused.error().message);
  CHECK(refused.error().message.find("names.py:12:12: error: name 'totl' is not defined") != std::string::npos);
}

TEST_CASE("eager specialisation and DLPack views") {
  Module module = load(kernels);
  auto scale = module.kernel("scale");
  auto signature = scale->specialize("void(float64[::1], float64)");
  REQUIRE(signature.ok());
  CHECK(*signature == "(array(float64, 1d, C), float64)");
  Array a = Array::from<double>({1, 2, 3});
  DLTensor tensor = a.to_dlpack();
  auto view = Array::from_dlpack(tensor);
  REQUIRE(view.ok());
  CHECK(view->data() == a.data());
  CHECK(view->strides() == a.strides());
  REQUIRE(scale->launch({1}, {4}, *view, 2.0).ok());
  CHECK(a.at<double>(2) == 6);
  std::filesystem::remove_all(test_options().cache_dir);
}

// `message` holds `expected`, and no word of the command line (the API has none).
static void says(const std::string& message, const std::string& expected) {
  CHECK_MESSAGE(message.find(expected) != std::string::npos, message);
  CHECK_MESSAGE(message.find("--sig") == std::string::npos, message);
  CHECK_MESSAGE(message.find("--backend") == std::string::npos, message);
}

// What specialize() says of a bad signature: the rule broken, with a caret into the string,
// named as the API's call (never as a command-line option).
TEST_CASE("Kernel::specialize: a bad signature string says what is wrong in it, with a caret into it") {
  Module module = load(kernels);
  auto scale = module.kernel("scale");
  REQUIRE(scale.ok());
  auto refusal = [&](const std::string& signature) {
    auto made = scale->specialize(signature);
    if (made.ok()) return std::string("(specialised)");
    CHECK(made.error().kind == ErrorKind::compile);
    return made.error().message;
  };
  std::string typo = refusal("void(flaot64[::1], float64)");
  says(typo, "Kernel::specialize for scale:1:6: error: unknown type 'flaot64'; did you mean 'float64'? [bad-signature]\n"
             "    1 | void(flaot64[::1], float64)\n"
             "      |      ^~~~~~~\n");
  says(refusal("void(float64[::1], float64"), "Kernel::specialize for scale:1:5: error: '(' was never closed");
  says(refusal("void(float64[::1)], float64)"),
       "Kernel::specialize for scale:1:17: error: closing parenthesis ')' does not match opening parenthesis '['");
  says(refusal("void(float64[::1]], float64)"),
       "Kernel::specialize for scale:1:18: error: closing parenthesis ']' does not match opening parenthesis '('");
  says(refusal("void(float64[::1], float64))"), "Kernel::specialize for scale:1:28: error: unmatched ')'");
  says(refusal("void(float64[::2], float64)"),
       "Kernel::specialize for scale:1:14: error: each array dimension is written ':' or '::1' [bad-signature]\n"
       "    1 | void(float64[::2], float64)\n"
       "      |              ^~~\n");
  says(refusal("void(float64[:, ::1, :], float64)"),
       "Kernel::specialize for scale:1:17: error: '::1' marks the contiguous dimension: the last (C order) or the first "
       "(F order), once [bad-signature]\n"
       "    1 | void(float64[:, ::1, :], float64)\n"
       "      |                 ^~~\n");
  says(refusal("void(float64[::1])"),
       "Kernel::specialize for scale:1:5: error: 'scale' takes 2 arguments (a, factor), but the signature gives 1 type "
       "[signature-mismatch]\n"
       "    1 | void(float64[::1])\n"
       "      |     ^~~~~~~~~~~~~~\n");
  std::string extra = refusal("void(float64[::1], float64, int32, int8)");
  says(extra, "'scale' takes 2 arguments (a, factor), but the signature gives 4 types");
  says(extra, "    1 | void(float64[::1], float64, int32, int8)\n"
              "      |                             ^~~~~~~~~~~\n");
  says(extra, "api_test.py:11:5: note: 'scale' is defined here");
  says(refusal("float64(float64[::1], float64)"),
       "Kernel::specialize for scale:1:1: error: a kernel returns nothing, so its signature's return type is void, not "
       "float64 [bad-signature]\n"
       "    1 | float64(float64[::1], float64)\n"
       "      | ^~~~~~~\n");
  says(refusal(""), "Kernel::specialize for scale:1:1: error: the signature is empty");
  says(refusal("  "), "Kernel::specialize for scale:1:1: error: the signature is empty");
  says(refusal("void"), "error: 'void' alone is a return type without an argument list");
  says(refusal("float64[::1]"), "error: a signature looks like 'void(float32[:], int64)'");
  // A good signature after all these: the refusals left nothing behind.
  REQUIRE(scale->specialize("(float64[::1], float64)").ok());
}

TEST_CASE("CompileOptions::signatures: an error in one names it as the signature for its kernel, or by its origin") {
  CompileOptions options;
  options.emit = EmitKind::cuda;
  options.signatures.push_back({"scale", "void(float64[::1], flaot64)"});
  auto compiled = compile_source(kernels, "api_test.py", options);
  REQUIRE_FALSE(compiled.ok());
  CHECK(compiled.error().message.find("signature for scale:1:20: error: unknown type 'flaot64'; did you mean "
                                      "'float64'?") == 0);
  options.signatures = {{"scael", "void(float64[::1], float64)"}};
  compiled = compile_source(kernels, "api_test.py", options);
  REQUIRE_FALSE(compiled.ok());
  CHECK(compiled.error().message == "signature for scael: api_test.py has no kernel named 'scael'");
  options.signatures = {{"scale", "void(float64[::1])", "the table's row 3"}};
  compiled = compile_source(kernels, "api_test.py", options);
  REQUIRE_FALSE(compiled.ok());
  CHECK(compiled.error().message.find("the table's row 3:1:5: error: 'scale' takes 2 arguments (a, factor)") == 0);
}

TEST_CASE("CompileOptions::signatures for a @jit function is refused, not dropped: kernels take signatures") {
  const char* source =
      "from numba import njit\n"
      "@njit\n"
      "def twice(x):\n"
      "    return 2 * x\n";
  CompileOptions options;
  options.emit = EmitKind::cuda;
  options.signatures = {{"twice", "float64(float64)"}};
  auto compiled = compile_source(source, "host.py", options);
  REQUIRE_FALSE(compiled.ok());
  CHECK(compiled.error().message.find("signature for twice: 'twice' in host.py is a device or @jit function, not a "
                                      "kernel") == 0);
}

#include "cuda/driver.h"

TEST_CASE("asking for the GPU without one is a clear driver error, not a crash") {
  if (cuda::list_devices().ok()) return;  // a machine with a GPU: the GPU suite covers it
  Module module = load(kernels);
  auto status = module.kernel("scale")->launch(Launch(1, 8).backend(Backend::cuda), Array::zeros(DType::float_(32), {8}), 2.0);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().kind == ErrorKind::driver);
  CHECK(status.error().message.find("CPU simulator") != std::string::npos);
  CHECK(Kernel::resolve(Backend::automatic) == Backend::cpu);
}

TEST_CASE("debug kernels stop at a division by zero with ZeroDivisionError, file and line") {
  Module module = load(R"py(
from numba import cuda

@cuda.jit(debug=True)
def divide(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] // b[i]

@cuda.jit
def divide_quietly(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] // b[i]
)py");
  Array a = Array::from<int64_t>({10, 20, 30, 40});
  Array b = Array::from<int64_t>({1, 2, 0, 4});
  Array out = Array::zeros(DType::int_(64), {4});
  auto status = module.kernel("divide")->launch({1}, {4}, a, b, out);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().message.find("api_test.py:8: ZeroDivisionError: tid=[2, 0, 0] ctaid=[0, 0, 0]: integer division by zero") !=
        std::string::npos);
  // Without debug=True, Numba's default gives 0 and carries on.
  REQUIRE(module.kernel("divide_quietly")->launch({1}, {4}, a, b, out).ok());
  CHECK(out.at<int64_t>(2) == 0);
  CHECK(out.at<int64_t>(3) == 10);
}

TEST_CASE("match_any_sync and match_all_sync see the whole warp (CUDA's semantics; Numba's simulator lacks them)") {
  Module m = load(R"py(
from numba import cuda

@cuda.jit
def match(out):
    t = cuda.threadIdx.x
    out[t, 0] = cuda.match_any_sync(0xffffffff, t // 4)
    mask, same = cuda.match_all_sync(0xffffffff, t // 32)
    out[t, 1] = mask
    out[t, 2] = same
    mask, same = cuda.match_all_sync(0xffffffff, t)
    out[t, 3] = mask
    out[t, 4] = same
    cuda.nanosleep(1)
)py");
  Array out = Array::zeros(DType::int_(64), {32, 5});
  REQUIRE(m.kernel("match")->launch(Launch(1, 32).backend(Backend::cpu), out).ok());
  for (int t = 0; t < 32; ++t) {
    CAPTURE(t);
    CHECK(out.at<int64_t>(t, 0) == int64_t(0xFu << (4 * (t / 4))));
    CHECK(out.at<int64_t>(t, 1) == int64_t(0xffffffffu));
    CHECK(out.at<int64_t>(t, 2) == 1);
    CHECK(out.at<int64_t>(t, 3) == 0);
    CHECK(out.at<int64_t>(t, 4) == 0);
  }
}

TEST_CASE("a record passed by value (a[0] of a structured array) reaches the kernel whole, as in Numba") {
  Module module = load(R"py(import numpy as np
from numba import cuda

params_t = np.dtype([('gain', np.float64), ('offset', np.float32), ('n', np.int32)], align=True)

@cuda.jit
def scale(out, p):
    i = cuda.grid(1)
    if i < out.size and i < p.n:
        out[i] = out[i] * p.gain + p.offset
)py");
  auto params_t = DType::from_descr("{'names': ['gain', 'offset', 'n'], 'formats': ['<f8', '<f4', '<i4'], "
                                    "'offsets': [0, 8, 12], 'itemsize': 16, 'aligned': True}");
  if (!params_t.ok()) params_t = DType::from_descr("[('gain', '<f8'), ('offset', '<f4'), ('n', '<i4')]");
  REQUIRE(params_t.ok());
  Array params = Array::zeros(*params_t, {1});
  double gain = 2.5;
  float offset = 0.25f;
  int32_t n = 3;
  std::memcpy(params.element({0}), &gain, 8);
  std::memcpy(params.element({0}) + 8, &offset, 4);
  std::memcpy(params.element({0}) + 12, &n, 4);
  Scalar p = Scalar::load(*params_t, params.element({0}));
  CHECK(p.record_bytes.size() == 16);
  Array out = Array::from<double>({0, 1, 2, 3, 4});
  auto status = module.kernel("scale")->launch({1}, {8}, out, p);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
  // Numba's simulator: [0.25 2.75 5.25 3. 4.]
  CHECK(out.at<double>(0) == 0.25);
  CHECK(out.at<double>(1) == 2.75);
  CHECK(out.at<double>(2) == 5.25);
  CHECK(out.at<double>(3) == 3);
  // Another record type, or a number, is refused for the record parameter by name.
  auto other = DType::from_descr("[('gain', '<f8'), ('offset', '<f8')]");
  REQUIRE(other.ok());
  std::vector<unsigned char> zeros(16, 0);
  auto refused = module.kernel("scale")->specialize("void(float64[::1], " +
                                                    std::string("Record(16, ('gain', float64, 0), ('offset', float32, 8), ('n', int32, 12)))"));
  REQUIRE_MESSAGE(refused.ok(), (refused.ok() ? std::string() : refused.error().describe()));
  auto wrong = module.kernel("scale")->launch({1}, {8}, out, Scalar::record(*other, zeros.data()));
  // A kernel is specialised for it, as Numba would, and its typing fails where Numba's does.
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().describe().find("'n'") != std::string::npos);
  Scalar broken = p;
  broken.record_bytes.resize(3);
  auto short_bytes = module.kernel("scale")->launch({1}, {8}, out, broken);
  REQUIRE_FALSE(short_bytes.ok());
  CHECK(short_bytes.error().message.find("parameter 'p' (argument 2)") != std::string::npos);
}

TEST_CASE("record arrays: fields by name through the API; a packed record is refused with the reason") {
  Module module = load(R"py(from numba import cuda

@cuda.jit
def fill(ary):
    i = cuda.grid(1)
    if i < ary.size:
        r = ary[i]
        r.b = i * 2
        r['a'] = r.b + 0.5
)py");
  auto aligned = DType::from_descr("[('a', '<f8'), ('b', '<i4'), ('', '|V4')]");
  REQUIRE(aligned.ok());
  Array records = Array::zeros(*aligned, {5});
  auto status = module.kernel("fill")->launch({1}, {8}, records);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().describe()));
  int32_t b = 0;
  double a = 0;
  std::memcpy(&b, records.element({3}) + 8, 4);
  std::memcpy(&a, records.element({3}), 8);
  CHECK(b == 6);
  CHECK(a == 6.5);
  auto packed = DType::from_descr("[('a', '<f8'), ('b', '<i4')]");
  REQUIRE(packed.ok());
  auto refused = module.kernel("fill")->launch({1}, {8}, Array::zeros(*packed, {5}));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("is packed") != std::string::npos);
}

TEST_CASE("reshape and view check sizes at run time with Numba's ValueErrors, naming the kernel's line") {
  Module module = load(R"py(from numba import cuda
import numpy as np

@cuda.jit
def reshape(a, n):
    b = a.reshape(n, -1)
    a[0] = b.shape[1]

@cuda.jit
def view(a):
    b = a[1:4].view(np.int64)
    a[0] = b[0]
)py");
  Array a = Array::zeros(DType::float_(32), {12});
  REQUIRE(module.kernel("reshape")->launch({1}, {1}, a, int64_t(4)).ok());
  CHECK(a.at<float>(0) == 3);
  auto bad = module.kernel("reshape")->launch({1}, {1}, a, int64_t(5));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("api_test.py:6: ValueError: tid=[0, 0, 0] ctaid=[0, 0, 0]: total size of new array "
                                 "must be unchanged") != std::string::npos);
  auto odd = module.kernel("view")->launch({1}, {1}, a);
  REQUIRE_FALSE(odd.ok());
  CHECK(odd.error().message.find("api_test.py:11: ValueError") != std::string::npos);
  CHECK(odd.error().message.find("its size must be a divisor") != std::string::npos);
}

TEST_CASE("an empty array is C- and F-contiguous, as NumPy's flags say, so it is typed with layout C as Numba types it") {
  pykern::Array f = pykern::Array::zeros(pykern::DType::float_(64), {0, 3}, pykern::Order::F);
  CHECK(f.is_c_contiguous());
  CHECK(f.is_f_contiguous());
  auto type = pykern::detail::signature_type(pykern::Argument(f));
  REQUIRE(type.ok());
  CHECK(*type == "float64[:, ::1]");
}

TEST_CASE("bool arrays in the caller's memory holding bytes other than 0 and 1 read as True, as NumPy and Numba read them") {
  const char* source = R"py(from numba import cuda

@cuda.jit
def count(flags, out):
    i = cuda.grid(1)
    if i < flags.size:
        out[i] = int(flags[i]) + (10 if flags[i] else 0)
        flags[i] = not flags[i]
)py";
  pykern::ModuleOptions options;
  options.use_cache = false;
  auto module = pykern::Module::load_source(source, "bools.py", options);
  REQUIRE(module.ok());
  unsigned char bytes[4] = {0, 1, 2, 255};
  pykern::Array flags = pykern::Array::wrap(bytes, pykern::DType::boolean(), {4});
  pykern::Array out = pykern::Array::zeros(pykern::DType::int_(64), {4});
  REQUIRE(module->kernel("count")->launch(pykern::Launch(1, 4).backend(pykern::Backend::cpu), flags, out).ok());
  const int64_t* counted = static_cast<const int64_t*>(out.data());
  CHECK(std::vector<int64_t>(counted, counted + 4) == std::vector<int64_t>{0, 11, 11, 11});
  CHECK(std::vector<int>(bytes, bytes + 4) == std::vector<int>{1, 0, 0, 0});  // stores write 0 or 1
}

TEST_CASE("a slice assigned from an array of another shape is Numba's ValueError; a broadcastable one fills the view") {
  Module module = load(R"py(from numba import cuda

@cuda.jit
def put(a, b):
    if cuda.grid(1) == 0:
        a[0:3] = b
)py");
  Array a = Array::from<double>({0, 0, 0, 0, 0});
  auto refused = module.kernel("put")->launch({1}, {4}, a, Array::from<double>({1, 2, 3, 4}));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("api_test.py:6: ValueError") != std::string::npos);
  CHECK(refused.error().message.find("cannot assign slice from input of different size") != std::string::npos);
  CHECK(a.at<double>(0) == 0);
  // One element broadcasts to the three, converted from int64 as NumPy converts it.
  REQUIRE(module.kernel("put")->launch({1}, {4}, a, Array::from<int64_t>({9})).ok());
  CHECK(a.at<double>(0) == 9);
  CHECK(a.at<double>(2) == 9);
  CHECK(a.at<double>(3) == 0);
}

TEST_CASE("unpacking an array with fewer items than names is Numba's ValueError; more items leave the rest") {
  Module module = load(R"py(from numba import cuda

@cuda.jit
def first_two(a, out):
    if cuda.grid(1) == 0:
        x, y = a
        out[0] = x - y
)py");
  Array out = Array::from<double>({0});
  REQUIRE(module.kernel("first_two")->launch({1}, {1}, Array::from<double>({5, 2, 9}), out).ok());
  CHECK(out.at<double>(0) == 3);  // compiled Numba iterates two items and checks no more
  auto refused = module.kernel("first_two")->launch({1}, {1}, Array::from<double>({5}), out);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("api_test.py:6: ValueError") != std::string::npos);
}
