// libFuzzer target over parse → lower → infer → emit. The input's first line is a signature
// for every kernel of the file; the rest is the kernel file. Nothing may crash, hang or leak;
// every failure must be a Result carrying diagnostics.
#include <cstddef>
#include <cstdint>
#include <string>

#include "pykern/compiler.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  size_t newline = input.find('\n');
  std::string signature = newline == std::string::npos ? "" : input.substr(0, newline);
  std::string text = newline == std::string::npos ? input : input.substr(newline + 1);
  pykern::CompileOptions options;
  options.emit = pykern::EmitKind::cuda;
  options.use_cache = false;
  options.want_types = true;
  // First pass: check everything; second: specialise the kernel named k, if any.
  (void)pykern::compile_source(text, "fuzz.py", options);
  if (!signature.empty() && text.find("def k(") != std::string::npos) {
    options.signatures.push_back({"k", signature});
    (void)pykern::compile_source(text, "fuzz.py", options);
  }
  return 0;
}
