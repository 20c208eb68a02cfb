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
// The header's text; an error when a name has no C++ spelling (check_cxx_names) or the
// namespace is not one. Every name, path and byte of user text in it is a C string literal
// (base/c_literal.h), and every C++ name is one a macro cannot spell (cxx_name).
Result<std::string> render_bundle(const Contents& contents);

// `name` as a C++ identifier: itself, or py_NAME when it is a C++ keyword, one of the header's
// own names, or could be a macro (a reserved name such as __LINE__ or _Pragma, one without a
// lower-case letter such as EOF or INT_MAX, one like M_PIl, or a known lower-case macro such as
// major, errno or linux); the header's comments say which name is spelled how. An error when it
// is not plain ASCII (C++ cannot spell it portably).
Result<std::string> cxx_name(const std::string& name);
// Every kernel and parameter has a C++ name, and no two of a kind share one ("EOF" and "py_EOF"
// would both be py_EOF).
Status check_cxx_names(const std::vector<CompiledKernel>& kernels);
// A namespace ("kernels", "app::kernels") checked (no part may be a keyword or a possible
// macro), or made from a file stem ("my-kernels" -> "my_kernels", "linux" -> "py_linux").
Result<std::string> namespace_from(const std::string& given, const std::string& file);

}  // namespace pykern::bundle
