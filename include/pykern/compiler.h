// pykern's compiler API: a Numba-CUDA kernel file in, CUDA C++ / PTX / cubin out.
//
//   pykern::CompileOptions options;
//   options.signatures.push_back({"add", "void(float32[:], float32[:], float32[:])"});
//   auto compiled = pykern::compile_file("kernels.py", options);
//   if (!compiled) std::cerr << compiled.error().describe();
#pragma once
#include <string>
#include <vector>

#include "pykern/dtype.h"
#include "pykern/result.h"

namespace pykern {

enum class EmitKind { cuda, ptx, cubin };

struct KernelSignature {
  std::string function;   // the Python function name
  std::string signature;  // Numba syntax: "void(float32[:, ::1], int64)", "f8(i4, i4)"
  // What an error in the text calls it, as if it were a file's name ("signature for add:1:6:
  // error: unknown type 'flaot32'"); empty: "signature for FUNCTION".
  std::string origin = {};
};

struct CompileOptions {
  std::vector<std::string> kernels;           // only these (and what they call); empty: all
  std::vector<KernelSignature> signatures;    // in addition to those in decorators
  EmitKind emit = EmitKind::cubin;
  std::string arch;                           // "sm_90"; empty: the current GPU's, else sm_90
  bool use_cache = true;
  std::string cache_dir;                      // empty: the default (see README)
  bool want_types = false;                    // fill CompileOutput::types (Numba's inspect_types)
  bool debug = false;                         // compile every kernel as with debug=True
};

// A kernel parameter as the launcher sees it: an array (dtype, ndim, layout) or a scalar.
struct ParameterInfo {
  std::string name;
  bool is_array = false;
  DType dtype;
  int ndim = 0;
  char layout = 'A';  // 'C', 'F' or 'A' (any)
};

struct CompiledKernel {
  std::string function;   // Python name
  std::string symbol;     // extern "C" name in the cubin/PTX
  std::string signature;  // argument types, Numba style
  std::vector<ParameterInfo> parameters;
  bool debug = false;     // built with debug=True: asserts and raise are checked
  bool cooperative = false;  // syncs the grid (cuda.cg): launched cooperatively, all blocks at once
  bool prints = false;       // calls print(): on a GPU, its context needs room for what it prints
};

struct PhaseTimings {
  double parse_ms = 0, lower_ms = 0, infer_ms = 0, emit_ms = 0, nvrtc_ms = 0, cache_ms = 0;
};

struct CompileOutput {
  std::string cuda_source;   // the emitted CUDA C++ (empty when nothing was specialised)
  std::string binary;        // cubin bytes or PTX text (empty for EmitKind::cuda)
  std::vector<CompiledKernel> kernels;
  std::vector<std::string> checked_only;  // kernels checked but not compiled (no signature)
  std::string warnings;      // rendered warnings (e.g. the cache is disabled)
  std::string types;         // with want_types: the source annotated with inferred types
  bool cache_hit = false;
  bool frontend_cache_hit = false;
  std::string arch;
  PhaseTimings timings;
};

// Errors: ErrorKind::compile (message holds the rendered diagnostics), ErrorKind::nvrtc
// (log holds NVRTC's log), io, invalid_argument.
Result<CompileOutput> compile_source(const std::string& text, const std::string& file_name,
                                     const CompileOptions& options);
Result<CompileOutput> compile_file(const std::string& path, const CompileOptions& options);

}  // namespace pykern
