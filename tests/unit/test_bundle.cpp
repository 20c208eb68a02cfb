// Kernel bundles: what `pykern bundle` compiles and prints, and what Module::load_bundle accepts,
// refuses and runs (the simulator's build here, the GPU images through the fake driver). The
// consumer test (tests/consumer) compiles a real header into a program and runs it.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "api/module_state.h"
#include "base/c_literal.h"
#include "bundle/bundle.h"
#include "bundle_data.h"
#include "fake_driver.h"
#include "helpers.h"
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
    } else if (c == '\\' && text[i + 1] == 'n') {
      bytes += '\n';
      ++i;
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

// Runs a shell command, its output into `log`; the exit status, or -1 when it did not exit.
int shell(const std::string& command, const std::filesystem::path& log) {
  int status = test::run_shell(command + " > '" + log.string() + "' 2>&1", log);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The C and POSIX headers whose macros a kernel's or parameter's name could spell, included
// before a bundle header as a program might.
const char* macro_headers =
    "#include <cmath>\n#include <cstdio>\n#include <climits>\n#include <cerrno>\n#include <sys/sysmacros.h>\n"
    "#include <cassert>\n#include <cfloat>\n#include <cstdint>\n#include <cstdlib>\n#include <csignal>\n"
    "#include <cstdarg>\n#include <csetjmp>\n#include <sys/stat.h>\n#include <sys/time.h>\n";

// Compiles a program that includes `header` after macro_headers and whose main() is `body`,
// with g++ -std=`standard` (-fsyntax-only unless `run`, which links and runs it): "" when it
// compiles (and runs), else what the compiler (or the program) said. The header needs only
// pykern's headers: a program that does not call module() does not link pykern.
std::string compile_header(const TempDir& dir, const std::string& header, const std::string& standard,
                           const std::string& body = "", std::string* printed = nullptr) {
  bool run = printed != nullptr;
  static int counter = 0;
  std::string stem = fmt::format("use{}", counter++);
  std::ofstream(dir.path / (stem + "_bundle.h"), std::ios::binary) << header;
  std::ofstream(dir.path / (stem + ".cpp"), std::ios::binary)
      << macro_headers << "#include \"" << stem << "_bundle.h\"\nint main() {\n" << body << "\n  return 0;\n}\n";
  std::filesystem::path log = dir.path / (stem + ".log"), program = dir.path / stem;
  std::string command = fmt::format("g++ -std={} -I'{}' '{}' {}", standard, (test::source_dir() / "include").string(),
                                    (dir.path / (stem + ".cpp")).string(),
                                    run ? "-o '" + program.string() + "' && '" + program.string() + "'" : "-fsyntax-only");
  int status = shell(command, log);
  if (run) *printed = test::read(log);
  return status == 0 ? "" : fmt::format("g++ -std={} failed ({}):\n{}", standard, status, test::read(log));
}

struct Run {
  int status = -1;
  std::string output;
};

// The pykern binary with `arguments` (quoted already), its stdout and stderr, with a kernel
// cache in `dir`.
Run run_cli(const TempDir& dir, const std::string& arguments) {
  Run run;
  std::filesystem::path log = dir.path / "cli.log";
  run.status = shell(fmt::format("PYKERN_CACHE_DIR='{}' {} {}", (dir.path / "cache").string(), PYKERN_BINARY, arguments), log);
  run.output = test::read(log);
  return run;
}

// Why load_bundle refuses `contents` after `spoil` edits its header data ("(loaded)": it does not).
template <class Spoil> std::string refusal_of(const bundle::Contents& contents, Spoil&& spoil) {
  test::HeaderData header(contents);
  spoil(header);
  auto module = Module::load_bundle(header.data);
  return module.ok() ? std::string("(loaded)") : module.error().message;
}

// A refusal names the bundle's file and then `part`.
void says(const std::string& message, const std::string& part) {
  INFO(message);
  CHECK(message.find("the kernel bundle made from kernels.py cannot be used: " + part) == 0);
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
    CHECK(specialized.error().message.find("make the bundle again with a signature for 'scale'") != std::string::npos);
    CHECK(specialized.error().message.find("--sig") == std::string::npos);
  }
  SUBCASE("a GPU launch of a bundle without GPU code names what it holds") {
    test::FakeDriver fake;
    REQUIRE(fake.select_gpu());
    auto refused = scale->launch(Launch(1, 32).backend(Backend::cuda), a, Scalar(1.0f));
    CHECK(message_of(refused).find("has no code this GPU (sm_90) can run; it holds: none") != std::string::npos);
  }
}

TEST_CASE("a bundle's simulator build runs on other machines: no -march=native, indices checked") {
  TempDir dir;
  bundle::Contents contents = simulator_bundle(dir);
  REQUIRE_FALSE(contents.host_library.empty());
  cache::KernelCache cache(dir.path / "cache");
  int libraries = 0;
  for (const cache::CacheEntryInfo& entry : cache.list()) {
    if (!entry.record.is_object() || entry.record.value("output", "") != "so") continue;
    ++libraries;
    std::string options = entry.record.value("options", "");
    CAPTURE(options);
    CHECK(options.find("-march") == std::string::npos);
    CHECK(options.find("-DPK_BOUNDSCHECK=1") != std::string::npos);
    CHECK_FALSE(entry.record.contains("host_cpu"));
  }
  CHECK(libraries == 1);
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
                               "build (it was made without one); launch on the GPU, or make it again with the "
                               "simulator's build");

  // Another machine's simulator build (a program cross-compiled) leaves the GPU code usable.
  std::string foreign_library = "\x7f" "ELF for another machine";
  header.data.host_library = foreign_library.data();
  header.data.host_library_size = foreign_library.size();
  header.data.host_library_checksum = bundle::checksum(foreign_library.data(), foreign_library.size());
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
                      "sm_80, sm_86, sm_90a, compute_90, sm_120, sm_x, compute_. Make it again with sm_75 among its "
                      "architectures");
}

TEST_CASE("a bundle is refused, with the reason, when this pykern cannot use it") {
  TempDir dir;
  bundle::Contents contents = simulator_bundle(dir);
  auto refusal = [&](auto&& spoil) { return refusal_of(contents, spoil); };
  says(refusal([](test::HeaderData& h) { h.data.format = 99; }), "it has format 99, and this pykern reads format 3");
  says(refusal([](test::HeaderData& h) { h.data.pykern_version = "0.1.0"; }),
       "pykern 0.1.0 made it, and this program links pykern");
  says(refusal([](test::HeaderData& h) { h.data.pykern_version = nullptr; }), "pykern ? made it");
  says(refusal([](test::HeaderData& h) { h.data.host_target = "sparc-solaris"; }),
       "its simulator build is for sparc-solaris, and this machine is");  // and it has no GPU code
  says(refusal([](test::HeaderData& h) { h.data.host_library = nullptr, h.data.host_library_size = 0; }),
       "it holds neither GPU images nor a simulator build");
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
  CHECK(refusal(fmt::format(plain, "k", "a")).find("has no kernel with a signature to bundle: give a kernel one") !=
        std::string::npos);
  request.signatures = {{"k", "void(int32[:])"}};
  request.simulator = false;
  CHECK(refusal(fmt::format(plain, "k", "a")) ==
        "the bundle would hold nothing: it was asked for no GPU architecture and no simulator build");
  request.signatures = {{"λ", "void(int32[:])"}};
  CHECK(refusal(fmt::format(plain, "λ", "a")).find("'λ' cannot be a C++ name in a bundle header") == 0);
  request.signatures = {{"k", "void(int32[:], int32, int32)"}};
  CHECK(refusal(fmt::format(plain, "k", "a, new, py_new")) ==
        "kernel 'k': two parameters would both be 'py_new' in C++; rename one");
  CHECK(refusal(fmt::format(plain, "k", "a, EOF, py_EOF")) ==
        "kernel 'k': two parameters would both be 'py_EOF' in C++; rename one");
  request.archs = {"compute_90"};
  CHECK(refusal(fmt::format(plain, "k", "a, b, c")).find("'compute_90' is not a real architecture") == 0);
  request.archs = {"sm_9"};
  CHECK(refusal(fmt::format(plain, "k", "a, b, c")).find("'sm_9' is not a GPU architecture") != std::string::npos);
}

TEST_CASE("C++ names in a bundle header") {
  CHECK(bundle::cxx_name("saxpy").value() == "saxpy");
  CHECK(bundle::cxx_name("new").value() == "py_new");
  CHECK(bundle::cxx_name("module").value() == "py_module");
  CHECK(bundle::cxx_name("launch").value() == "py_launch");
  CHECK_FALSE(bundle::cxx_name("café").ok());
  CHECK(bundle::cxx_name("Helper.step").value() == "Helper_step");  // a static method's kernel
  CHECK(bundle::cxx_name("Grid.new").value() == "Grid_new");
  for (const char* bad : {".step", "Helper.", "a..b"}) CHECK_FALSE(bundle::cxx_name(bad).ok());
  CHECK(bundle::namespace_from("", "/x/my-kernels.py").value() == "my_kernels");
  CHECK(bundle::namespace_from("", "3d.py").value() == "kernels_3d");
  CHECK(bundle::namespace_from("", "class.py").value() == "py_class");
  CHECK(bundle::namespace_from("app::kernels", "k.py").value() == "app::kernels");
  for (const char* bad : {"app::", "::k", "a b", "int", "a:::b"}) CHECK_FALSE(bundle::namespace_from(bad, "k.py").ok());
}

TEST_CASE("a static method's kernel is bundled as Class_method and launched by its Python name") {
  TempDir dir;
  bundle::Request request;
  request.file = dir.file("solver.py", R"py(from numba import cuda


class Solver:
    @staticmethod
    @cuda.jit("void(float64[::1], float64)")
    def relax(u, w):
        i = cuda.grid(1)
        if i < u.size:
            u[i] = (1.0 - w) * u[i]
)py");
  request.cache_dir = (dir.path / "cache").string();
  auto contents = bundle::make_bundle(request);
  REQUIRE_MESSAGE(contents.ok(), (contents.ok() ? "" : contents.error().describe()));
  auto header = bundle::render_bundle(*contents);
  REQUIRE(header.ok());
  CHECK(header->find("Solver_relax(") != std::string::npos);
  test::HeaderData data(*contents);
  auto module = Module::load_bundle(data.data);
  REQUIRE(module.ok());
  Array u = Array::from<double>({2, 4});
  REQUIRE(module->kernel("Solver.relax")->launch(Launch(1, 32), u, Scalar(0.25)).ok());
  CHECK(u.at<double>(1) == 3.0);
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
  CompiledKernel printing = k;
  printing.prints = true;  // its GPU context is given the larger printf buffer
  contents.kernels = {k, printing};  // two signatures, one C++ function: written once
  std::string header = bundle::render_bundle(contents).value();
  CHECK(header.find("5, false, false, false},\n") != std::string::npos);
  CHECK(header.find("5, false, false, true},\n") != std::string::npos);
  size_t image = header.find("inline constexpr char image_0[] =");
  REQUIRE(image != std::string::npos);
  CHECK(unescape(header.substr(image)) == bytes);
  CHECK(header.find("namespace app::kernels {") != std::string::npos);
  const char* launcher =
      "inline pykern::Status py_new(const pykern::Launch& launch, pykern::View<float, 2> m, const pykern::Scalar& h, "
      "std::int8_t i, const pykern::Array& v, std::complex<double> z) {\n"
      "  return pykern::bundle::launch(module(), \"new\", launch, {m, h, pykern::Scalar(i), v, pykern::Scalar(z)});\n}";
  CHECK(header.find(launcher) != std::string::npos);
  CHECK(header.find(launcher) == header.rfind(launcher));
  CHECK(header.find(fmt::format("    {{\"sm_90\", image_0, {}, {:#x}ULL}},", bytes.size(),
                                bundle::checksum(bytes.data(), bytes.size()))) != std::string::npos);
  CHECK(header.find(fmt::format("static_assert(sizeof(image_0) == {},", bytes.size() + 1)) != std::string::npos);
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

TEST_CASE("c_string_literal: newlines, */, trigraphs, backslashes, NUL and invalid UTF-8 reach C++ as the same bytes") {
  std::string hostile = std::string("a\n#error injected\n*/ /* ?\?/\n?\?=\\\n\\") + std::string("\0", 1) +
                        "1\xff\xc3(\xed\xa0\x80\r\t\"'\x7f" "end\\";
  for (size_t wrap : {size_t(0), size_t(7)}) {
    std::string literal = c_string_literal(hostile, wrap);
    for (char c : literal) CHECK(((c >= 0x20 && c < 0x7f) || (wrap > 0 && c == '\n')));
    CHECK(literal.find("??") == std::string::npos);
  }
  // Compiled (C++11 reads trigraphs, GNU C++20 does not) inside a // comment and as a literal,
  // the program prints the bytes back: no byte ended the comment or the literal.
  TempDir dir;
  std::string body = fmt::format(
      "  // {}\n  static const char text[] = {};\n  static const char wrapped[] = {};\n"
      "  if (sizeof text != sizeof wrapped) return 1;\n  std::fwrite(text, 1, sizeof text - 1, stdout);",
      c_string_literal(hostile), c_string_literal(hostile), c_string_literal(hostile, 5));
  for (const char* standard : {"c++11", "gnu++20"}) {
    std::ofstream(dir.path / "print.cpp") << "#include <cstdio>\nint main() {\n" << body << "\n}\n";
    std::string program = (dir.path / "print").string();
    int status = shell(fmt::format("g++ -std={} -trigraphs '{}.cpp' -o '{}' && '{}'", standard, program, program, program),
                       dir.path / "print.log");
    CHECK(status == 0);
    CHECK(test::read(dir.path / "print.log") == hostile);  // what the program printed
  }
}

TEST_CASE("bundle header: a hostile file, kernel, signature or architecture name cannot inject C++") {
  TempDir dir;
  const std::string payload = "\n#error injected\n*/ ?\?/\n\\";
  const std::string file_payload = "\n#error injected\n?\?=\\";  // a file name has no '/'
  // Through make_bundle: a kernel file whose name holds the payload (the header's first line).
  bundle::Request request;
  request.file = dir.file("k" + file_payload + ".py", bundle_source);
  request.signatures.push_back({"scale", "void(float32[::1], float32)"});
  request.cache_dir = (dir.path / "cache").string();
  auto made = bundle::make_bundle(request);
  REQUIRE_MESSAGE(made.ok(), (made.ok() ? "" : made.error().describe()));
  CHECK(made->source_name == "k" + file_payload + ".py");
  std::string header = bundle::render_bundle(*made).value();
  CHECK(header.find("\n#") == header.find("\n#pragma once"));  // #pragma and #includes: no line of the payload
  CHECK(compile_header(dir, header, "c++17") == "");
  // Straight to render_bundle: every text field holds the payload, NUL and invalid UTF-8, and
  // the program that includes the header reads each back as it was.
  bundle::Contents contents = twice_contents();
  std::string text = payload + std::string("\0\xff\xc3", 3);
  contents.source_name = "s" + text;
  contents.name_space = "app";
  contents.kernels[0].signature = "(sig" + text + ")";
  contents.kernels[0].symbol = "sym" + text;
  contents.images.push_back({"sm_90" + text, "image" + text});
  header = bundle::render_bundle(contents).value();
  for (char c : header) CHECK(((c >= 0x20 && c < 0x7f) || c == '\n'));
  std::string body =
      "  using namespace app::bundle_data;\n"
      "  for (const char* s : {data.source_name, kernels[0].signature, kernels[0].symbol, images[0].arch})\n"
      "    std::fwrite(s, 1, std::strlen(s) + 1, stdout);\n"
      "  std::fwrite(images[0].data, 1, images[0].size, stdout);";
  for (const char* standard : {"c++17", "gnu++20"}) {
    std::string printed;
    REQUIRE(compile_header(dir, "#include <cstring>\n" + header, standard, body, &printed) == "");
    // strlen stops at the NUL: each C string is its text up to it.
    std::string c_text = text.substr(0, text.find('\0'));
    CHECK(printed == "s" + c_text + '\0' + "(sig" + c_text + '\0' + "sym" + c_text + '\0' + "sm_90" + c_text + '\0' +
                         "image" + text);
  }
}

TEST_CASE("bundle header: kernel and parameter names that are C or C++ macros compile, as py_NAME") {
  // Macros of the C and C++ libraries, POSIX and the compiler; keywords and the header's own
  // names; and names that stay themselves.
  const std::vector<std::string> names = {
      "EOF", "BUFSIZ", "FILENAME_MAX", "FOPEN_MAX", "L_tmpnam", "P_tmpdir", "TMP_MAX", "SEEK_SET", "SEEK_CUR",
      "SEEK_END", "_IOFBF", "_IOLBF", "_IONBF", "NULL", "INT_MAX", "INT_MIN", "UINT_MAX", "LONG_MAX", "LONG_MIN",
      "LLONG_MAX", "CHAR_BIT", "CHAR_MAX", "SCHAR_MIN", "SHRT_MAX", "MB_LEN_MAX", "SIZE_MAX", "INT8_C",
      "UINT64_C", "INTMAX_MAX", "PTRDIFF_MAX", "EDOM", "ERANGE", "EILSEQ", "EINVAL", "ENOENT", "EAGAIN", "M_PI",
      "M_E", "M_SQRT2", "M_PIl", "M_LN2", "M_2_SQRTPI", "NAN", "INFINITY", "HUGE_VAL", "HUGE_VALF", "FP_NAN",
      "FP_ZERO", "FP_INFINITE", "FP_NORMAL", "FP_SUBNORMAL", "MATH_ERRNO", "MATH_ERREXCEPT", "FP_ILOGB0",
      "FLT_EPSILON", "DBL_MAX", "FLT_EVAL_METHOD", "DECIMAL_DIG", "SIGINT", "SIG_DFL", "SIG_ERR", "RAND_MAX",
      "EXIT_SUCCESS", "EXIT_FAILURE", "MB_CUR_MAX", "S_IRUSR", "S_ISDIR", "UTIME_NOW", "NDEBUG", "I", "N", "A",
      "__LINE__", "__FILE__", "__DATE__", "__TIME__", "__COUNTER__", "__cplusplus", "__GNUC__", "__STDC__",
      "__x86_64__", "__linux__", "__VA_ARGS__", "__has_include", "__func__", "_Pragma", "_GNU_SOURCE",
      "_GLIBCXX_RELEASE", "_Complex", "_Bool", "_POSIX_C_SOURCE", "major", "minor", "makedev", "linux", "unix",
      "i386", "errno", "assert", "stdin", "stdout", "stderr", "offsetof", "va_arg", "va_start", "va_end",
      "va_copy", "setjmp", "sigsetjmp", "math_errhandling", "issubnormal", "issignaling", "st_atime", "st_mtime",
      "alloca", "htobe16", "le32toh", "timeradd", "timerisset", "sa_handler", "si_pid", "sigmask", "new", "class",
      "and", "or", "not", "xor", "bitand", "compl", "co_await", "requires", "concept", "import", "export",
      "char8_t", "this", "module", "bundle_data", "launch", "pykern", "std", "saxpy", "data", "kernels", "images",
      "Matrix", "addVectors", "x"};
  CHECK(names.size() >= 147);
  bundle::Contents contents = twice_contents();
  contents.name_space = "app";
  contents.kernels.clear();
  std::string uses;
  for (size_t i = 0; i < names.size(); ++i) {
    CompiledKernel k;
    k.function = names[i];
    k.symbol = fmt::format("pk_kernel_{}", i);
    k.signature = "(array(float32, 1d, C), int64)";
    k.parameters = {{names[(i + 1) % names.size()], true, DType::float_(32), 1, 'C'},
                    {names[(i + 2) % names.size()], false, DType::int_(64), 0, 'A'}};
    contents.kernels.push_back(k);
    std::string cxx = bundle::cxx_name(names[i]).value();
    INFO(names[i]);
    CHECK((cxx == names[i] || cxx.rfind("py_", 0) == 0));
    uses += fmt::format("  (void)&app::{};\n", cxx);  // the launch function a program calls
  }
  for (const char* kept : {"saxpy", "data", "kernels", "images", "Matrix", "addVectors", "x"})
    CHECK(bundle::cxx_name(kept).value() == kept);
  CHECK(bundle::cxx_name("EOF").value() == "py_EOF");
  CHECK(bundle::cxx_name("__LINE__").value() == "py_LINE_");
  CHECK(bundle::cxx_name("_Pragma").value() == "py_Pragma");
  CHECK(bundle::cxx_name("M_PIl").value() == "py_M_PIl");
  CHECK(bundle::cxx_name("linux").value() == "py_linux");
  std::string header = bundle::render_bundle(contents).value();
  CHECK(header.find("// In C++ (a keyword or a possible macro is spelled py_NAME): \"EOF\" is py_EOF, \"BUFSIZ\" is "
                    "py_BUFSIZ, \"FILENAME_MAX\" is py_FILENAME_MAX.\n") != std::string::npos);
  TempDir dir;
  for (const char* standard : {"c++17", "gnu++20"}) CHECK(compile_header(dir, header, standard, uses) == "");

  SUBCASE("through make_bundle and the simulator, launched by their Python names") {
    const char* source = R"py(from numba import cuda

@cuda.jit("void(float32[::1], int64)")
def EOF(major, linux):
    i = cuda.grid(1)
    if i < major.size:
        major[i] = linux + i

@cuda.jit("void(float32[::1])")
def __LINE__(_Pragma):
    _Pragma[0] = 7
)py";
    bundle::Request request;
    request.file = dir.file("M_PI.py", source);
    request.cache_dir = (dir.path / "cache").string();
    auto made = bundle::make_bundle(request);
    REQUIRE_MESSAGE(made.ok(), (made.ok() ? "" : made.error().describe()));
    CHECK(made->name_space == "py_M_PI");
    std::string made_header = bundle::render_bundle(*made).value();
    for (const char* standard : {"c++17", "gnu++20"})
      CHECK(compile_header(dir, made_header, standard, "  (void)&py_M_PI::py_EOF;\n  (void)&py_M_PI::py_LINE_;") == "");
    test::HeaderData data(*made);
    auto module = Module::load_bundle(data.data);
    REQUIRE(module.ok());
    Array a = Array::zeros(DType::float_(32), {3});
    REQUIRE(module->kernel("EOF")->launch(Launch(1, 32), a, Scalar(int64_t(5))).ok());
    CHECK(a.at<float>(2) == 7);
    REQUIRE(module->kernel("__LINE__")->launch(Launch(1, 1), a).ok());
    CHECK(a.at<float>(0) == 7);
  }
}

TEST_CASE("--namespace: a part that could be a macro is refused") {
  for (const char* bad : {"EOF", "app::linux", "_App", "a__b", "M_PI"}) {
    auto refused = bundle::namespace_from(bad, "k.py");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("could be a macro") != std::string::npos);
  }
  CHECK(bundle::namespace_from("", "EOF.py").value() == "py_EOF");
  CHECK(bundle::namespace_from("", "linux.py").value() == "py_linux");
  CHECK(bundle::namespace_from("MyApp::kernels", "k.py").value() == "MyApp::kernels");
}

TEST_CASE("a bundle whose simulator build or GPU image is cut short or changed is refused before it is loaded") {
  TempDir dir;
  bundle::Contents contents = simulator_bundle(dir);
  contents.images.push_back({"sm_90", "\x7f" "ELF a cubin"});
  auto refusal = [&](auto&& spoil) { return refusal_of(contents, spoil); };
  CHECK(refusal([](test::HeaderData&) {}) == "(loaded)");
  size_t size = contents.host_library.size();
  // Cut short (the SIGBUS in dlopen of issue 27), a byte changed, or a checksum that is not its own.
  says(refusal([](test::HeaderData& h) { h.data.host_library_size /= 2; }),
       fmt::format("its simulator build ({} bytes) does not match its checksum: the header was cut short or changed; "
                   "make it again with `pykern bundle`", size / 2));
  std::string changed = contents.host_library;
  changed[size / 2] ^= 1;
  says(refusal([&](test::HeaderData& h) { h.data.host_library = changed.data(); }),
       "its simulator build (" + std::to_string(size) + " bytes) does not match its checksum");
  says(refusal([](test::HeaderData& h) { h.data.host_library_checksum += 1; }), "its simulator build");
  says(refusal([](test::HeaderData& h) { h.data.host_library = nullptr; }), "its simulator build is missing");
  says(refusal([](test::HeaderData& h) { h.images[0].size -= 1; }),
       "GPU image 0 (sm_90, 11 bytes) does not match its checksum: the header was cut short or changed");
  says(refusal([](test::HeaderData& h) { h.images[0].checksum = 0; }), "GPU image 0 (sm_90, 12 bytes)");
  // Another machine's simulator build is checked too, though it is never loaded here.
  says(refusal([](test::HeaderData& h) {
         h.data.host_target = "riscv64-linux";
         h.data.host_library_size -= 1;
       }),
       "its simulator build");
}

TEST_CASE("bundle -o: a FIFO, a device or a link is written in place, never replaced; a long name is no failure") {
  TempDir dir;
  std::string kernel_file = dir.file("kernels.py", bundle_source);
  std::string bundle = "bundle '" + kernel_file + "' --sig 'scale=void(float32[::1], float32)' --arch none -o ";
  auto is = [](const std::filesystem::path& path, mode_t kind) {
    struct stat status {};
    return ::lstat(path.c_str(), &status) == 0 && (status.st_mode & S_IFMT) == kind;
  };

  // A regular file, or none, is replaced whole; a name near NAME_MAX has room for the scratch
  // file's name too, and no scratch file stays.
  std::string long_name = std::string(253, 'k') + ".h";
  Run run = run_cli(dir, bundle + "'" + (dir.path / long_name).string() + "'");
  CHECK_MESSAGE(run.status == 0, run.output);
  std::string header = test::read(dir.path / long_name);
  CHECK(header.rfind("// Made by pykern", 0) == 0);
  int entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path)) entries += entry.path().filename().string()[0] == '.';
  CHECK(entries == 0);

  SUBCASE("a FIFO stays a FIFO, and its reader gets the header") {
    std::filesystem::path fifo = dir.path / "fifo.h", got = dir.path / "got.h";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::filesystem::path log = dir.path / "fifo.log";
    int status = shell(fmt::format("timeout 120 cat '{}' > '{}' & PYKERN_CACHE_DIR='{}' {} {}'{}' > '{}' 2>&1; made=$?; "
                                   "wait; exit $made",
                                   fifo.string(), got.string(), (dir.path / "cache").string(), PYKERN_BINARY, bundle,
                                   fifo.string(), log.string()),
                       dir.path / "shell.log");
    CHECK_MESSAGE(status == 0, test::read(log));
    CHECK(is(fifo, S_IFIFO));
    CHECK(test::read(got) == header);
  }
  SUBCASE("a link to /dev/null stays a link, /dev/null a device") {
    std::filesystem::path link = dir.path / "null.h";
    std::filesystem::create_symlink("/dev/null", link);
    run = run_cli(dir, bundle + "'" + link.string() + "'");
    CHECK_MESSAGE(run.status == 0, run.output);
    CHECK(is(link, S_IFLNK));
    CHECK(is("/dev/null", S_IFCHR));
  }
  SUBCASE("a link to a file stays a link; the file gets the header") {
    std::filesystem::path link = dir.path / "link.h", target = dir.path / "target.h";
    std::ofstream(target) << "old text, longer than nothing";
    std::filesystem::create_symlink(target, link);
    run = run_cli(dir, bundle + "'" + link.string() + "'");
    CHECK_MESSAGE(run.status == 0, run.output);
    CHECK(is(link, S_IFLNK));
    CHECK(test::read(target) == header);
  }
  SUBCASE("/dev/stdout is written to, not replaced") {
    run = run_cli(dir, bundle + "/dev/stdout");
    CHECK_MESSAGE(run.status == 0, run.output);
    CHECK(run.output.rfind(header, 0) == 0);
    CHECK(is("/dev/null", S_IFCHR));
    struct stat status {};
    CHECK((::lstat("/dev/stdout", &status) != 0 || !S_ISREG(status.st_mode)));
  }
  SUBCASE("a folder, and a link to /dev/full, are errors") {
    std::filesystem::create_directory(dir.path / "folder.h");
    run = run_cli(dir, bundle + "'" + (dir.path / "folder.h").string() + "'");
    CHECK(run.status == 1);
    CHECK(run.output.find("it is a folder; name a file") != std::string::npos);
    CHECK(is(dir.path / "folder.h", S_IFDIR));
    std::filesystem::create_symlink("/dev/full", dir.path / "full.h");
    run = run_cli(dir, bundle + "'" + (dir.path / "full.h").string() + "'");
    CHECK(run.status == 1);
    CHECK(run.output.find("No space left on device") != std::string::npos);
  }
}
