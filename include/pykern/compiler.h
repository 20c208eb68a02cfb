// pykern's compiler API: a Numba-CUDA kernel file in, CUDA C++ / PTX / cubin out.
//
//   pykern::CompileOptions options;
//   options.signatures.push_back({"add", "void(float32[:], float32[:], float32[:])"});
//   auto compiled = pykern::compile_file("kernels.py", options);
//   if (!compiled) std::cerr << compiled.error().describe();
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "pykern/dtype.h"
#include "pykern/result.h"

namespace pykern {

enum class EmitKind { cuda, ptx, cubin };

struct KernelSignature {
  std::string function;   // the Python function name
  std::string signature;  // Numba syntax: "void(float32[:, ::1], int64)", "f8(i4, i4)"
};

struct CompileOptions {
  std::vector<std::string> kernels;           // only these (and what they call); empty: all
  std::vector<KernelSignature> signatures;    // in addition to those in decorators
  EmitKind emit = EmitKind::cubin;
  std::string arch;                           // "sm_90"; empty: the current GPU's, else sm_90
  bool use_cache = true;
  std::string cache_dir;                      // empty: the default (see README)
  bool want_types = false;                    // fill CompileOutput::types (Numba's inspect_types)
  bool want_simulator = false;                // fill CompileOutput::simulator_source
  bool debug = false;                         // compile every kernel as with debug=True
  // @jit / @njit functions to type for these argument types (signatures without a return
  // type, "(float64, int64)"): CompileOutput::functions says what each returns.
  std::vector<KernelSignature> functions;
};


// A kernel parameter as the launcher sees it: an array (dtype, ndim, layout) or a scalar.
struct ParameterInfo {
  std::string name;
  bool is_array = false;
  DType dtype;
  int ndim = 0;
  char layout = 'A';  // 'C', 'F' or 'A' (any)
};

// What a @jit function returns for one set of argument types: nothing (None), one scalar, a
// tuple of scalars, or an Optional scalar (a value or None).
struct FunctionReturn {
  std::string function;
  std::string signature;       // argument types, Numba style
  std::vector<ParameterInfo> parameters;  // as typed: the decorator's signature converts arguments
  std::string type;            // Numba's name of the return type: "float64", "UniTuple(int64 x 2)"
  std::vector<DType> parts;    // the scalars it is made of (empty for None)
  bool is_tuple = false;
  bool is_optional = false;
  bool is_list = false;        // a list of parts[0]: comes back as a 1-d array
  bool returns_other = false;  // a part is not a scalar (an array, a record): not callable from the host yet
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

// A @vectorize, @guvectorize or @cuda.reduce function, with its declared signatures.
struct GeneratorSignature {
  std::vector<ParameterInfo> arguments;
  std::optional<DType> result;  // vectorize: the return type
};
struct GeneratorFunction {
  std::string name;
  std::string kind;  // "vectorize", "guvectorize" or "reduce"
  std::vector<GeneratorSignature> signatures;
  std::string layout;  // guvectorize: "(m,n),(n)->(m)"
  std::vector<std::string> parameters;
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
  std::string simulator_source;  // with want_simulator: the CUDA C++ plus the simulator's entry points
  bool simulator_uses_cxx_runtime = false;  // with want_simulator: its build links libstdc++
  std::vector<std::string> kernel_functions;  // every @cuda.jit kernel of the file (entry points)
  std::vector<std::vector<std::string>> kernel_parameters;  // their parameter names, in the same order
  std::vector<GeneratorFunction> generators;
  std::vector<FunctionReturn> functions;  // for CompileOptions::functions
  std::vector<std::string> host_functions;  // every @jit / @njit function of the file
  std::vector<std::vector<std::string>> host_function_parameters;  // their parameter names
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
