// libFuzzer target over kernel bundles, both ways (the input's first byte picks one):
//   - render: render_bundle of contents whose names, paths and texts come from the input
//     (newlines, quotes, backslashes, trigraphs, NUL, invalid UTF-8). A header it writes must
//     be printable ASCII on lines, no trigraph, no line splice, no preprocessor line but its own,
//     launch functions and parameters whose names are their own C++ spelling (cxx_name), and
//     string literals that read back as the texts they came from.
//   - load: Module::load_bundle of a real bundle's Data (built once, with the simulator) whose
//     sizes, checksums, counts, pointers and texts the input changes as an edited or truncated
//     header would. A bundle whose simulator build is not its bytes must be refused before it is
//     loaded; one left intact must launch and compute. Nothing may crash, hang or leak.
// Every check that fails aborts with what it saw; PYKERN_FUZZ_VERBOSE=1 says when a bundle ran.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "bundle/bundle.h"
#include "pykern/bundle.h"

using namespace pykern;

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& text) {
  std::fprintf(stderr, "fuzz_bundle: %s\n----\n%s\n----\n", what.c_str(), text.c_str());
  std::abort();
}

// ---- render ----

bool is_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// Reads the adjacent C string literals that start at `at` (as render_bundle writes them: "...",
// escapes \" \\ \? \n and three octal digits, broken onto lines); moves `at` past them.
std::string read_literal(const std::string& text, size_t& at) {
  std::string bytes;
  while (at < text.size() && text[at] == '"') {
    for (++at; at < text.size() && text[at] != '"'; ++at) {
      if (text[at] != '\\') {
        bytes += text[at];
      } else if (text[at + 1] == 'n') {
        bytes += '\n', ++at;
      } else if (text[at + 1] >= '0' && text[at + 1] <= '7') {
        bytes += static_cast<char>(std::stoi(text.substr(at + 1, 3), nullptr, 8));
        at += 3;
      } else {
        bytes += text[++at];
      }
    }
    ++at;  // the closing quote
    while (at < text.size() && (text[at] == '\n' || text[at] == ' ')) {
      size_t next = text.find_first_not_of("\n ", at);
      if (next == std::string::npos || text[next] != '"') break;
      at = next;
    }
  }
  return bytes;
}

void check_header(const std::string& header, const bundle::Contents& contents) {
  for (char c : header)
    if (!((c >= 0x20 && c < 0x7f) || c == '\n')) fail("a byte outside printable ASCII", header);
  if (header.find("??") != std::string::npos) fail("a trigraph", header);
  if (header.find("\\\n") != std::string::npos) fail("a line splice", header);
  size_t line_start = 0;
  while (line_start < header.size()) {
    size_t end = header.find('\n', line_start);
    std::string line = header.substr(line_start, end - line_start);
    line_start = end == std::string::npos ? header.size() : end + 1;
    std::string trimmed = line.substr(std::min(line.size(), line.find_first_not_of(' ')));
    if (!trimmed.empty() && trimmed[0] == '#' && line != "#pragma once" && line != "#include <complex>" &&
        line != "#include <cstdint>" && line != "#include <pykern/bundle.h>")
      fail("a preprocessor line of user text: " + line, header);
    const std::string launcher = "inline pykern::Status ";
    if (line.rfind(launcher, 0) == 0) {
      // inline pykern::Status NAME(const pykern::Launch& launch, TYPE NAME, ...) {
      std::string name = line.substr(launcher.size(), line.find('(') - launcher.size());
      auto cxx = bundle::cxx_name(name);
      if (!is_identifier(name) || !cxx.ok() || *cxx != name) fail("a launch function's name: " + name, header);
      // The parameters: split at the commas outside template arguments (View<float, 2> m).
      std::string list = line.substr(line.find('(') + 1, line.rfind(')') - line.find('(') - 1);
      int depth = 0;
      size_t start = 0;
      for (size_t i = 0; i <= list.size(); ++i) {
        char c = i < list.size() ? list[i] : ',';
        depth += c == '<' ? 1 : c == '>' ? -1 : 0;
        if (c != ',' || depth != 0) continue;
        std::string declaration = list.substr(start, i - start);
        bool first = start == 0;  // const pykern::Launch& launch: the header's own
        start = i + 1;
        if (first) continue;
        std::string parameter = declaration.substr(declaration.find_last_of(" &") + 1);
        auto spelled = bundle::cxx_name(parameter);
        if (!spelled.ok() || *spelled != parameter) fail("a parameter's name: " + parameter, header);
      }
    }
  }
  // The texts read back from the tables.
  size_t at = header.find("pykern::bundle::Data data = {\n    ");
  if (at == std::string::npos) fail("no data", header);
  at = header.find(", ", at) + 2;
  read_literal(header, at);  // the version
  at += 2;
  if (read_literal(header, at) != contents.source_name) fail("the source name does not read back", header);
  at = header.find("pykern::bundle::Kernel kernels[] = {\n");
  for (const CompiledKernel& k : contents.kernels) {
    at = header.find("    {", at) + 5;
    std::string function = read_literal(header, at);
    at += 2;
    std::string symbol = read_literal(header, at);
    at += 2;
    std::string signature = read_literal(header, at);
    if (function != k.function || symbol != k.symbol || signature != k.signature)
      fail("a kernel's texts do not read back", header);
  }
}

void fuzz_render(FuzzedDataProvider& input) {
  static const char* names[] = {"EOF", "major", "linux", "__LINE__", "_Pragma", "new", "module", "launch",
                                "M_PI", "a", "saxpy", "N", "py_EOF", "errno", "std"};
  auto text = [&]() -> std::string {
    if (input.ConsumeBool()) return input.PickValueInArray(names);
    return input.ConsumeRandomLengthString(64);
  };
  bundle::Contents contents;
  contents.source_name = text();
  contents.name_space = input.ConsumeBool() ? "kernels" : text();
  int kernels = input.ConsumeIntegralInRange(0, 4);
  for (int i = 0; i < kernels; ++i) {
    CompiledKernel k;
    k.function = text();
    k.symbol = text();
    k.signature = text();
    k.debug = input.ConsumeBool();
    k.cooperative = input.ConsumeBool();
    int parameters = input.ConsumeIntegralInRange(0, 3);
    for (int p = 0; p < parameters; ++p) {
      ParameterInfo info;
      info.name = text();
      info.is_array = input.ConsumeBool();
      info.dtype = input.ConsumeBool() ? DType::float_(32) : DType::int_(64);
      info.ndim = input.ConsumeIntegralInRange(0, 3);
      info.layout = input.ConsumeIntegral<char>();
      k.parameters.push_back(info);
    }
    contents.kernels.push_back(k);
  }
  int images = input.ConsumeIntegralInRange(0, 2);
  for (int i = 0; i < images; ++i) contents.images.push_back({text(), text()});
  if (input.ConsumeBool()) contents.host_library = input.ConsumeRandomLengthString(256);
  auto header = bundle::render_bundle(contents);
  if (header.ok()) check_header(*header, contents);
}

// ---- load ----

const char* bundle_source = R"py(from numba import cuda

@cuda.jit("void(int64[::1], int64)")
def count_up(a, step):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i * step
)py";

// A real bundle (the simulator's build), made once.
const bundle::Contents& real_bundle() {
  static const bundle::Contents contents = [] {
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("pykern-fuzz-bundle-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "kernels.py") << bundle_source;
    bundle::Request request;
    request.file = (dir / "kernels.py").string();
    request.use_cache = false;
    auto made = bundle::make_bundle(request);
    std::filesystem::remove_all(dir);
    if (!made.ok()) fail("make_bundle failed", made.error().describe());
    return *made;
  }();
  return contents;
}

void fuzz_load(FuzzedDataProvider& input) {
  const bundle::Contents& contents = real_bundle();
  std::string library = contents.host_library;  // a copy the input may change
  std::deque<std::string> texts;                // stays where it is as it grows
  auto text = [&]() -> const char* {
    if (input.ConsumeBool()) return nullptr;
    texts.push_back(input.ConsumeRandomLengthString(32));
    return texts.back().c_str();
  };
  const CompiledKernel& k = contents.kernels.at(0);
  std::string descr = k.parameters.at(0).dtype.descr(), step_descr = k.parameters.at(1).dtype.descr();
  bundle::Parameter parameters[] = {{"a", true, descr.c_str(), 1, 'C'}, {"step", false, step_descr.c_str(), 0, 'A'}};
  bundle::Kernel kernels[] = {{k.function.c_str(), k.symbol.c_str(), k.signature.c_str(), parameters, 2, false, false, false}};
  std::string image_bytes = "\x7f" "ELF not a cubin";
  bundle::Image images[] = {{"sm_90", image_bytes.data(), image_bytes.size(),
                             bundle::checksum(image_bytes.data(), image_bytes.size())}};
  bundle::Data data = {bundle::format_version, version(), "kernels.py", kernels, 1, nullptr, 0,
                       library.data(), library.size(), bundle::checksum(library.data(), library.size()),
                       bundle::host_target()};
  bool kernels_changed = false;
  while (input.remaining_bytes() > 0) {
    switch (input.ConsumeIntegralInRange(0, 13)) {
      case 0: {  // cut short
        data.host_library_size = input.ConsumeIntegralInRange<size_t>(0, library.size());
        break;
      }
      case 1: {  // a byte changed
        size_t at = input.ConsumeIntegralInRange<size_t>(0, library.size() - 1);
        library[at] = input.ConsumeIntegral<char>();
        break;
      }
      case 2:  // one bit of the checksum: the fuzzer cannot write the checksum of bytes it changed
        data.host_library_checksum ^= uint64_t(1) << input.ConsumeIntegralInRange(0, 63);
        break;
      case 3: data.host_library = nullptr; break;
      case 4: data.kernel_count = input.ConsumeIntegralInRange(-2, 1); kernels_changed = true; break;
      case 5: data.format = input.ConsumeIntegral<int>(); break;
      case 6: data.pykern_version = text(); break;
      case 7: data.source_name = text(); break;
      case 8: data.host_target = text(); break;
      case 9: kernels[0].function = text(); kernels_changed = true; break;
      case 10: {  // never another kernel's symbol: "fuzz_" starts none
        texts.push_back("fuzz_" + input.ConsumeRandomLengthString(16));
        kernels[0].symbol = input.ConsumeBool() ? nullptr : texts.back().c_str();
        kernels_changed = true;
        break;
      }
      case 11:
        kernels[0].parameter_count = input.ConsumeIntegralInRange(-2, 2);
        if (input.ConsumeBool()) kernels[0].parameters = nullptr;
        kernels_changed = true;
        break;
      case 12: {  // a parameter's type: a launch would pass what the kernel does not read
        bundle::Parameter& p = parameters[input.ConsumeIntegralInRange(0, 1)];
        p.dtype = text();
        p.ndim = input.ConsumeIntegral<int>();
        p.layout = input.ConsumeIntegral<char>();
        kernels_changed = true;
        break;
      }
      case 13: {  // a GPU image, cut short, changed or intact
        data.images = input.ConsumeBool() ? nullptr : images;
        data.image_count = input.ConsumeIntegralInRange(-1, 1);
        images[0].arch = text();
        images[0].size = input.ConsumeIntegralInRange<size_t>(0, image_bytes.size());
        if (input.ConsumeBool()) images[0].checksum ^= uint64_t(1) << input.ConsumeIntegralInRange(0, 63);
        break;
      }
    }
  }
  auto module = Module::load_bundle(data);
  bool library_intact = data.host_library != nullptr && data.host_library_size == contents.host_library.size() &&
                        std::string(data.host_library, data.host_library_size) == contents.host_library &&
                        data.host_library_checksum == bundle::checksum(library.data(), library.size());
  // Whatever it holds, an accepted bundle holds the bytes it was written with.
  if (module.ok() && data.host_library != nullptr && data.host_library_size > 0 && !library_intact)
    fail("a changed simulator build was accepted", std::to_string(data.host_library_size));
  if (module.ok() && data.images != nullptr && data.image_count == 1 &&
      (images[0].size != image_bytes.size() ||
       images[0].checksum != bundle::checksum(image_bytes.data(), image_bytes.size())))
    fail("a changed GPU image was accepted", std::to_string(images[0].size));
  if (!module.ok() || kernels_changed || !library_intact) return;
  if (data.host_target == nullptr || std::string(data.host_target) != bundle::host_target()) return;
  Array a = Array::zeros(DType::int_(64), {5});
  auto launched = module->kernel(k.function);
  if (!launched.ok()) fail("the intact bundle lacks its kernel", launched.error().describe());
  Status ran = launched->launch(Launch(1, 8).backend(Backend::cpu), a, Scalar(int64_t(3)));
  if (!ran.ok()) fail("the intact bundle did not launch", ran.error().describe());
  if (a.at<int64_t>(4) != 12) fail("the intact bundle computed a wrong value", std::to_string(a.at<int64_t>(4)));
  if (std::getenv("PYKERN_FUZZ_VERBOSE")) std::fprintf(stderr, "fuzz_bundle: the intact bundle ran\n");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  if (input.ConsumeBool())
    fuzz_render(input);
  else
    fuzz_load(input);
  return 0;
}
