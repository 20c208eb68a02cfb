// A kernel specialised for its launch arguments is noted in the kernel cache, so that a later
// module (a later `pykern run`) with the same text launches it without translating it again
// (api/specialization_note.h); a note whose library is gone, or that cannot be read, costs a
// translation and never a wrong result.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "abi/arguments.h"
#include "api/specialization_note.h"
#include "pykern/function.h"
#include "pykern/module.h"
#include "pykern/ufunc.h"

using namespace pykern;
namespace fs = std::filesystem;

namespace {

const char* source = R"py(from numba import cuda, float32

@cuda.jit
def scaled_sum(a, out):
    s = cuda.shared.array(64, float32)
    t = cuda.threadIdx.x
    s[t] = a[t] * 2
    cuda.syncthreads()
    out[t] = s[t] + s[63 - t]
)py";

struct Scratch {
  fs::path path = fs::temp_directory_path() / ("pykern-note-test-" + std::to_string(::getpid()));
  Scratch() { fs::remove_all(path); }
  ~Scratch() { fs::remove_all(path); }
};

// Launches scaled_sum through a fresh module on the cache in `dir`, and checks its result.
void launch_and_check(const fs::path& dir) {
  ModuleOptions options;
  options.cache_dir = dir.string();
  auto module = Module::load_source(source, "note_test.py", options);
  REQUIRE(module.ok());
  std::vector<float> values(64);
  for (int i = 0; i < 64; ++i) values[i] = static_cast<float>(i);
  Array a = Array::from(values);
  Array out = Array::zeros(DType::float_(32), {64});
  auto launched = module->kernel("scaled_sum")->launch({1}, {64}, a, out);
  REQUIRE_MESSAGE(launched.ok(), (launched.ok() ? std::string() : launched.error().describe()));
  for (int i = 0; i < 64; ++i) CHECK(out.at<float>(i) == 2.0f * i + 2.0f * (63 - i));
}

fs::path note_path(const fs::path& dir) {
  std::vector<Argument> args = {Array::zeros(DType::float_(32), {64}), Array::zeros(DType::float_(32), {64})};
  auto signature = detail::signature_for(args);
  REQUIRE(signature.ok());
  std::string key = detail::specialization_note_key("note_test.py", source, "scaled_sum", *signature, false);
  return dir / "v1" / "notes" / key;  // KernelCache::notes_dir
}

}  // namespace

TEST_CASE("a kernel specialised for its arguments is noted; later modules launch it from the note") {
  Scratch scratch;
  launch_and_check(scratch.path);
  fs::path note = note_path(scratch.path);
  REQUIRE(fs::exists(note));
  std::ifstream in(note);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto parsed = detail::parse_note(text);
  REQUIRE(parsed.has_value());
  REQUIRE(parsed->kernels.size() == 1);
  CHECK(parsed->kernels[0].function == "scaled_sum");
  CHECK(parsed->kernels[0].parameters.size() == 2);
  launch_and_check(scratch.path);  // from the note and the cached library

  SUBCASE("the library is gone: translated again and built") {
    fs::remove_all(scratch.path / "v1" / "entries");  // the libraries; the notes stay
    launch_and_check(scratch.path);
  }
  SUBCASE("a note that is not one is ignored") {
    std::ofstream(note, std::ios::trunc) << "{\"kernels\": [{\"function\": 7}]}";
    launch_and_check(scratch.path);
  }
}

TEST_CASE("specialisation notes round-trip, and texts that are not whole notes are refused") {
  CompiledKernel k{"f", "pk_kernel_py_f_1", "(float64[::1], int32)", {}, true, false, true};
  ParameterInfo array;
  array.name = "a";
  array.is_array = true;
  array.dtype = DType::float_(64);
  array.ndim = 1;
  array.layout = 'C';
  ParameterInfo scalar;
  scalar.name = "n";
  scalar.dtype = DType::int_(32);
  k.parameters = {array, scalar};
  detail::SpecializationNote note{{k}, "0123456789abcdef0123456789abcdef", true};
  auto back = detail::parse_note(detail::note_text(note));
  REQUIRE(back.has_value());
  CHECK(back->source_digest == note.source_digest);
  CHECK(back->uses_cxx_runtime);
  REQUIRE(back->kernels.size() == 1);
  const CompiledKernel& b = back->kernels[0];
  CHECK(b.function == "f");
  CHECK(b.symbol == k.symbol);
  CHECK(b.signature == k.signature);
  CHECK(b.debug);
  CHECK(b.prints);
  REQUIRE(b.parameters.size() == 2);
  CHECK(b.parameters[0].dtype == DType::float_(64));
  CHECK(b.parameters[0].layout == 'C');
  CHECK(b.parameters[0].ndim == 1);
  CHECK(b.parameters[1].dtype == DType::int_(32));
  CHECK_FALSE(b.parameters[1].is_array);
  // A signature JSON cannot hold: a record's field name that is a lone surrogate (NumPy writes
  // \ud800), which Numba-style type names carry as its bytes, not UTF-8. No note, no throw.
  detail::SpecializationNote unwritable = note;
  unwritable.kernels[0].signature = "(Record([('\xed\xa0\x80', float64)]),)";
  CHECK(detail::note_text(unwritable).empty());
  for (const char* bad : {"", "not json", "[]", "{}", "{\"kernels\": [], \"source_digest\": \"x\", \"uses_cxx_runtime\": false}",
                          "{\"kernels\": [{}], \"source_digest\": \"x\", \"uses_cxx_runtime\": false}"})
    CHECK_FALSE(detail::parse_note(bad).has_value());
}

TEST_CASE("a loaded file is noted: a later load of the same text has its functions, warnings and declared kernels") {
  Scratch scratch;
  // A declared signature (compiled at load), an unsigned kernel, a @jit function, a device
  // function and a @vectorize generator: every list the note carries.
  const char* text = R"py(from numba import cuda, njit, vectorize, float64

@cuda.jit("void(float64[::1])")
def declared(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = helper(a[i])

@cuda.jit(device=True)
def helper(x):
    return x + 1.0

@cuda.jit
def unsigned(a, n):
    i = cuda.grid(1)
    if i < n:
        a[i] = 2.0

@njit
def host(x, y):
    return x * y

@vectorize(["float64(float64)"])
def twice(x):
    return 2.0 * x
)py";
  ModuleOptions options;
  options.cache_dir = scratch.path.string();
  auto first = Module::load_source(text, "module_note_test.py", options);
  REQUIRE(first.ok());
  fs::path note = scratch.path / "v1" / "notes" / detail::module_note_key("module_note_test.py", text, false);
  REQUIRE(fs::exists(note));
  for (int load = 0; load < 2; ++load) {
    CAPTURE(load);
    if (load == 1) std::ofstream(note, std::ios::trunc) << "{\"kernels\": 3}";  // not a note: translated again
    auto module = Module::load_source(text, "module_note_test.py", options);
    REQUIRE(module.ok());
    CHECK(module->kernel_names() == first->kernel_names());
    CHECK(module->warnings() == first->warnings());
    auto function = module->function("host");
    REQUIRE(function.ok());
    CHECK(function->parameter_names() == std::vector<std::string>{"x", "y"});
    CHECK_FALSE(module->function("helper").ok());  // a device function, not callable from the host
    Array a = Array::from<double>({1, 2, 3, 4});
    REQUIRE(module->kernel("declared")->launch({1}, {4}, a).ok());
    CHECK(a.at<double>(3) == 5.0);
    auto twice = module->ufunc("twice");
    REQUIRE(twice.ok());
  }
}
