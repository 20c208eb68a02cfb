// Kernel bundles: what `pykern bundle` compiles and prints, and what Module::load_bundle accepts,
// refuses and runs (the simulator's build here, the GPU images through the fake driver). The
// consumer test (tests/consumer) compiles a real header into a program and runs it.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "api/module_state.h"
#include "bundle/bundle.h"
#include "bundle_data.h"
#include "fake_driver.h"
#include "pykern/bundle.h"

using namespace pykern;

namespace {

const char* bundle_source = R"py(from numba import cuda

@cuda.jit
def scale(a, factor):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= factor

@cuda.jit("void(int64[::1])")
def count_up(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i
)py";

struct TempDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("pykern-bundle-test-" + std::to_string(::getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

bundle::Contents simulator_bundle(const TempDir& dir, bundle::Request request = {}) {
  request.file = dir.file("kernels.py", bundle_source);
  request.signatures.push_back({"scale", "void(float32[::1], float32)"});
  request.cache_dir = (dir.path / "cache").string();
  auto contents = bundle::make_bundle(request);
  REQUIRE_MESSAGE(contents.ok(), (contents.ok() ? "" : contents.error().describe()));
  return *contents;
}

// A bundle of one kernel, twice(float32[::1]), holding no code yet.
bundle::Contents twice_contents() {
  bundle::Contents contents;
  contents.source_name = "k.py";
  CompiledKernel k;
  k.function = "twice";
  k.symbol = "pk_kernel_py_twice_0";
  k.signature = "(array(float32, 1d, C))";
  k.parameters.push_back({"a", true, DType::float_(32), 1, 'C'});
  contents.kernels.push_back(k);
  return contents;
}

std::string message_of(const Status& s) { return s.ok() ? std::string("(ok)") : s.error().message; }

// Reads back the C++ string literal lines render_bundle wrote for a byte array.
std::string unescape(const std::string& text) {
  std::string bytes;
  bool inside = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!inside) {
      if (c == '"') inside = true;
      if (c == ';') break;
      continue;
    }
    if (c == '"') {
      inside = false;
    } else if (c == '\\' && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
      bytes += static_cast<char>(std::stoi(text.substr(i + 1, 3), nullptr, 8));
      i += 3;
    } else if (c == '\\') {
      bytes += text[++i];
    } else {
      bytes += c;
    }
  }
  return bytes;
}

}  // namespace

TEST_CASE("a bundle without GPU code holds the decorator's and --sig's kernels and the simulator's build") {
  TempDir dir;
  bundle::Request request;
  bundle::Contents contents = simulator_bundle(dir, request);
  CHECK(contents.source_name == "kernels.py");
  CHECK(contents.name_space == "kernels");
  REQUIRE(contents.kernels.size() == 2);
  CHECK(contents.images.empty());
  CHECK(contents.host_library.rfind("\x7f" "ELF", 0) == 0);

  test::HeaderData header(contents);
  auto module = Module::load_bundle(header.data);
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? "" : module.error().describe()));
  CHECK(module->kernel_names().size() == 2);
  auto scale = module->kernel("scale");
  REQUIRE(scale.ok());
  CHECK(scale->parameter_names() == std::vector<std::string>{"a", "factor"});
  Array a = Array::from<float>({1, 2, 3});
  REQUIRE_MESSAGE(scale->launch(Launch(1, 32), a, Scalar(2.5f)).ok(), "");
  CHECK(a.at<float>(2) == 7.5f);
  auto count_up = module->kernel("count_up");
  REQUIRE(count_up.ok());
  Array b = Array::zeros(DType::int_(64), {5});
  REQUIRE(count_up->launch(Launch::forall(5), b).ok());
  CHECK(b.at<int64_t>(4) == 4);

  SUBCASE("arguments the bundle has no signature for are refused, naming what it holds") {
    Array wrong = Array::from<double>({1, 2});
    auto refused = scale->launch(Launch(1, 32), wrong, Scalar(2.0));
    CHECK(message_of(refused).find("compiled for:\n  (array(float32, 1d, C), float32)") != std::string::npos);
  }
  SUBCASE("nothing is compiled at run time") {
    auto specialized = scale->specialize("void(float64[::1], float64)");
    REQUIRE_FALSE(specialized.ok());
    CHECK(specialized.error().message.find("comes from a bundle compiled ahead of time from kernels.py") !=
          std::string::npos);
    CHECK(specialized.error().message.find("--sig 'scale=...'") != std::string::npos);
  }
  SUBCASE("a GPU launch of a bundle without GPU code names what it holds") {
    test::FakeDriver fake;
    REQUIRE(fake.select_gpu());
    auto refused = scale->launch(Launch(1, 32).backend(Backend::cuda), a, Scalar(1.0f));
    CHECK(message_of(refused).find("has no code this GPU (sm_90) can run; it holds: none") != std::string::npos);
  }
}

TEST_CASE("a bundle without the simulator's build says so on a CPU launch") {
  bundle::Contents contents = twice_contents();
  contents.images.push_back({"sm_90", "\x7f" "ELF fake cubin"});
  test::HeaderData header(contents);
  auto module = Module::load_bundle(header.data);
  REQUIRE(module.ok());
  Array a = Array::from<float>({1});
  auto refused = module->kernel("twice")->launch(Launch(1, 1).backend(Backend::cpu), a);
  CHECK(message_of(refused) == "the kernel bundle made from k.py cannot run on the CPU simulator: it has no simulator "
                               "build (it was made with --no-simulator); launch on the GPU, or make it again without "
                               "that option");

  // Another machine's simulator build (a program cross-compiled) leaves the GPU code usable.
  std::string foreign_library = "\x7f" "ELF for another machine";
  header.data.host_library = foreign_library.data();
  header.data.host_library_size = foreign_library.size();
  header.data.host_target = "riscv64-linux";
  auto cross = Module::load_bundle(header.data);
  REQUIRE(cross.ok());
  refused = cross->kernel("twice")->launch(Launch(1, 1).backend(Backend::cpu), a);
  CHECK(message_of(refused).find("cannot run on the CPU simulator: its simulator build is for riscv64-linux, and this "
                                 "machine is") != std::string::npos);
}

TEST_CASE("a GPU launch of a bundle loads the image the device runs, through the driver alone") {
  bundle::Contents contents = twice_contents();
  contents.images.push_back({"sm_80", "ptx-free image for sm_80"});
  contents.images.push_back({"compute_90", "ptx for compute_90"});
  contents.images.push_back({"sm_100", "image for sm_100"});
  test::HeaderData header(contents);
  test::FakeDriver fake;  // outlives the module, which unloads its GPU code through it
  auto module = Module::load_bundle(header.data);
  REQUIRE(module.ok());
  fake.kernel = [](const test::FakeLaunch& launch) {
    std::byte* data = nullptr;
    std::memcpy(&data, launch.params[0], 8);
    *reinterpret_cast<float*>(data) *= 2;
  };
  REQUIRE(fake.select_gpu());  // compute capability 9.0: no sm_9x cubin, so the PTX
  Array a = Array::from<float>({21});
  auto ran = module->kernel("twice")->launch(Launch(1, 1).backend(Backend::cuda), a);
  REQUIRE_MESSAGE(ran.ok(), message_of(ran));
  CHECK(a.at<float>(0) == 42);
  CHECK(fake.loaded_images == std::vector<std::string>{"ptx for compute_90"});
}

TEST_CASE("the image for a GPU: the newest cubin of its major version, else the newest older PTX") {
  detail::BundledCode code;
  for (const char* arch : {"sm_80", "sm_86", "sm_90a", "compute_90", "sm_120", "sm_x", "compute_"})
    code.images.push_back({arch, arch});
  auto pick = [&](int major, int minor) {
    auto image = detail::choose_bundle_image(code, major, minor, "k.py");
    return image.ok() ? (*image)->arch : "error: " + image.error().message;
  };
  CHECK(pick(8, 0) == "sm_80");
  CHECK(pick(8, 6) == "sm_86");
  CHECK(pick(8, 9) == "sm_86");
  CHECK(pick(9, 0) == "sm_90a");
  CHECK(pick(10, 0) == "compute_90");
  CHECK(pick(12, 0) == "sm_120");
  CHECK(pick(12, 1) == "sm_120");
  CHECK(pick(7, 5) == "error: the kernel bundle made from k.py has no code this GPU (sm_75) can run; it holds: "
                      "sm_80, sm_86, sm_90a, compute_90, sm_120, sm_x, compute_. Make it again with --arch sm_75");
}

TEST_CASE("a bundle is refused, with the reason, when this pykern cannot use it") {
  TempDir dir;
  bundle::Contents contents = simulator_bundle(dir);
  auto refusal = [&](auto&& spoil) {
    test::HeaderData header(contents);
    spoil(header);
    auto module = Module::load_bundle(header.data);
    return module.ok() ? std::string("(loaded)") : module.error().message;
  };
  auto says = [](const std::string& message, const std::string& part) {
    INFO(message);
    CHECK(message.find("the kernel bundle made from kernels.py cannot be used: " + part) == 0);
  };
  says(refusal([](test::HeaderData& h) { h.data.format = 99; }), "it has format 99, and this pykern reads format 1");
  says(refusal([](test::HeaderData& h) { h.data.pykern_version = "0.1.0"; }),
       "pykern 0.1.0 made it, and this program links pykern");
  says(refusal([](test::HeaderData& h) { h.data.pykern_version = nullptr; }), "pykern ? made it");
  says(refusal([](test::HeaderData& h) { h.data.host_target = "sparc-solaris"; }),
       "its simulator build is for sparc-solaris, and this machine is");  // and it has no GPU code
  says(refusal([](test::HeaderData& h) { h.data.host_library = nullptr; }), "it holds neither GPU images nor a simulator build");
  says(refusal([](test::HeaderData& h) { h.data.kernel_count = -1; }), "its kernel list is missing");
  says(refusal([](test::HeaderData& h) { h.data.image_count = 2; }), "its GPU images are missing");
  says(refusal([](test::HeaderData& h) { h.parameters[0][0].dtype = "<x9"; }), "kernel 'scale': unsupported dtype '<x9'");
  says(refusal([](test::HeaderData& h) { h.parameters[0][0].ndim = 0; }), "kernel 'scale': parameter 'a' has ndim 0");
  says(refusal([](test::HeaderData& h) { h.kernels[1].symbol = nullptr; }), "a kernel lacks its name, symbol or signature");
  says(refusal([](test::HeaderData& h) { h.kernels[1].parameters = nullptr; }), "kernel 'count_up' lacks its parameters");
}

TEST_CASE("make_bundle refuses what it cannot bundle") {
  TempDir dir;
  bundle::Request request;
  request.use_cache = false;
  auto refusal = [&](const std::string& source) {
    request.file = dir.file("k.py", source);
    auto contents = bundle::make_bundle(request);
    return contents.ok() ? std::string("(made)") : contents.error().message;
  };
  constexpr const char* plain = "from numba import cuda\n\n@cuda.jit\ndef {}({}):\n    a[0] = 1\n";
  CHECK(refusal(fmt::format(plain, "k", "a")).find("has no kernel with a signature to bundle: give one with --sig") !=
        std::string::npos);
  request.signatures = {{"k", "void(int32[:])"}};
  request.simulator = false;
  CHECK(refusal(fmt::format(plain, "k", "a")) ==
        "the bundle would hold nothing: list GPU architectures with --arch, or leave out --no-simulator");
  request.signatures = {{"λ", "void(int32[:])"}};
  CHECK(refusal(fmt::format(plain, "λ", "a")).find("'λ' cannot be a C++ name in a bundle header") == 0);
  request.signatures = {{"k", "void(int32[:], int32, int32)"}};
  CHECK(refusal(fmt::format(plain, "k", "a, new, new_")) ==
        "kernel 'k': two parameters would both be 'new_' in C++; rename one");
  request.archs = {"compute_90"};
  CHECK(refusal(fmt::format(plain, "k", "a, b, c")).find("--arch compute_90: a bundle lists real architectures") == 0);
  request.archs = {"sm_9"};
  CHECK(refusal(fmt::format(plain, "k", "a, b, c")).find("'sm_9' is not a GPU architecture") != std::string::npos);
}

TEST_CASE("C++ names in a bundle header") {
  CHECK(bundle::cxx_name("saxpy").value() == "saxpy");
  CHECK(bundle::cxx_name("new").value() == "new_");
  CHECK(bundle::cxx_name("module").value() == "module_");
  CHECK(bundle::cxx_name("launch").value() == "launch_");
  CHECK_FALSE(bundle::cxx_name("café").ok());
  CHECK(bundle::namespace_from("", "/x/my-kernels.py").value() == "my_kernels");
  CHECK(bundle::namespace_from("", "3d.py").value() == "kernels_3d");
  CHECK(bundle::namespace_from("", "class.py").value() == "class_");
  CHECK(bundle::namespace_from("app::kernels", "k.py").value() == "app::kernels");
  for (const char* bad : {"app::", "::k", "a b", "int", "a:::b"}) CHECK_FALSE(bundle::namespace_from(bad, "k.py").ok());
}

TEST_CASE("the header holds the bytes exactly, and typed launch functions") {
  bundle::Contents contents;
  contents.source_name = "k.py";
  contents.name_space = "app::kernels";
  std::string bytes;
  for (int c = 0; c < 256; ++c) bytes += static_cast<char>(c);
  bytes += "\"?\?=\\1x\n";  // a quote, a would-be trigraph, a backslash and a digit
  contents.images.push_back({"sm_90", bytes});
  CompiledKernel k;
  k.function = "new";
  k.symbol = "pk_kernel_py_new_0";
  k.signature = "(array(float32, 2d, C), float16, int8, array(float16, 1d, A), complex128)";
  k.parameters = {{"m", true, DType::float_(32), 2, 'C'},
                  {"h", false, DType::float_(16), 0, 'A'},
                  {"i", false, DType::int_(8), 0, 'A'},
                  {"v", true, DType::float_(16), 1, 'A'},
                  {"z", false, DType::complex(128), 0, 'A'}};
  contents.kernels = {k, k};  // two signatures, one C++ function: written once
  std::string header = bundle::render_bundle(contents);
  size_t image = header.find("inline constexpr char image_0[] =");
  REQUIRE(image != std::string::npos);
  CHECK(unescape(header.substr(image)) == bytes);
  CHECK(header.find("namespace app::kernels {") != std::string::npos);
  const char* launcher =
      "inline pykern::Status new_(const pykern::Launch& launch, pykern::View<float, 2> m, const pykern::Scalar& h, "
      "std::int8_t i, const pykern::Array& v, std::complex<double> z) {\n"
      "  return pykern::bundle::launch(module(), \"new\", launch, {m, h, pykern::Scalar(i), v, pykern::Scalar(z)});\n}";
  CHECK(header.find(launcher) != std::string::npos);
  CHECK(header.find(launcher) == header.rfind(launcher));
  CHECK(header.find("    {\"sm_90\", image_0, sizeof(image_0) - 1},") != std::string::npos);
}

TEST_CASE("--kernel bundles only the kernels named, though others have signatures") {
  TempDir dir;
  bundle::Request request;
  request.kernels = {"scale"};
  bundle::Contents contents = simulator_bundle(dir, request);
  REQUIRE(contents.kernels.size() == 1);
  CHECK(contents.kernels[0].function == "scale");
  test::HeaderData header(contents);
  auto module = Module::load_bundle(header.data);
  REQUIRE(module.ok());
  CHECK(module->kernel_names() == std::vector<std::string>{"scale"});
  CHECK_FALSE(module->kernel("count_up").ok());
}
