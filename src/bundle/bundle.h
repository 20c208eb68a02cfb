// `pykern bundle`: a kernel file compiled ahead of time into a C++ header (pykern/bundle.h says
// what the header holds and how a program uses it).
//
// make_bundle compiles: once without NVRTC to learn the kernels and make the simulator's
// source, once per architecture to a cubin, once to PTX for GPUs newer than the newest
// architecture, and the simulator's shared library with the host compiler. render_bundle
// only prints what those made.
#pragma once
#include <string>
#include <vector>

#include "pykern/compiler.h"

namespace pykern::bundle {

struct Request {
  std::string file;                         // the kernel file (.py)
  std::vector<KernelSignature> signatures;  // in addition to the decorators'
  std::vector<std::string> kernels;         // only these; empty: every kernel with a signature
  std::vector<std::string> archs;           // "sm_80", "sm_90a"; empty: no GPU images
  bool ptx = true;                          // PTX of the newest architecture, for newer GPUs
  bool simulator = true;                    // the CPU simulator's build
  std::string name_space;                   // the header's C++ namespace; empty: the file's stem
  bool use_cache = true;
  std::string cache_dir;
  bool debug = false;
};

struct Contents {
  std::string source_name;  // for messages: the file's name, without its folders
  std::string name_space;
  std::vector<CompiledKernel> kernels;
  struct Image {
    std::string arch;  // "sm_90" or "compute_90"
    std::string bytes;
  };
  std::vector<Image> images;
  std::string host_library;  // empty when left out
};

// Compiles what the header holds; the error of the first step that failed.
Result<Contents> make_bundle(const Request& request);
// The header's text.
std::string render_bundle(const Contents& contents);

// `name` as a C++ identifier: itself, with a trailing '_' when it is a C++ keyword or one of
// the header's own names. An error when it is not plain ASCII (C++ cannot spell it portably).
Result<std::string> cxx_name(const std::string& name);
// A namespace ("kernels", "app::kernels") checked, or made from a file stem ("my-kernels" ->
// "my_kernels").
Result<std::string> namespace_from(const std::string& given, const std::string& file);

}  // namespace pykern::bundle
