// The one corridor through the compiler: a request names what to translate (the kernels of a
// file, @jit functions typed for a host call, or a kernel pykern writes for a generator or a
// host call), and translate() runs the pipeline once for it. The public compile_source, the
// module API and bundles all come through here.
#pragma once
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/fastmath.h"
#include "pykern/compiler.h"

namespace pykern::compiler {

// The architecture compiled for when the options name none.
inline constexpr const char* default_arch = "sm_90";

// ---- kernels pykern writes in Python, appended to the user's file (generated_source.cpp) ----

// The one-thread kernel that calls a @jit function on the host: its scalar value (or a tuple's
// scalar parts) into 1-element arrays, an Optional's presence into a flag, a list's items and
// returned arrays to the engine.
struct HostCallKernel {
  std::string function;
  int arguments = 0;
  int parts = 0;
  bool is_tuple = false, is_optional = false, is_list = false;
  std::vector<bool> array_parts;  // per part: an array, handed over (empty: none is)
  // Per argument: the type of one that crosses as encoded bytes (a str, list, dict, tuple),
  // in signature syntax, read by __pk_import_value; "" for a scalar or array passed as it is.
  std::vector<std::string> encoded_arguments;
  bool encoded_result = false;  // the value goes back as encoded bytes (__pk_export_value)
};
// out[j...] = function(in0[j...], ...) over `ndim`-d arrays of one shape; on the CPU
// (`cpu`), a prange loop on the thread pool, as Numba's target='parallel' ufuncs run.
struct UfuncKernel {
  std::string function;
  int inputs = 0;
  int ndim = 0;
  bool cpu = false;
};
// One call of `function` per index of the `loop_ndim` leading dimensions.
struct GufuncKernel {
  std::string function;
  int arguments = 0;
  int loop_ndim = 0;
  bool cpu = false;  // a prange loop on the thread pool, as Numba's CPU gufuncs run
};
// Grid-stride fold, then a tree in shared memory; one partial per block.
struct ReduceKernel {
  std::string function;
  std::string dtype;  // Numba's name: "float64"
};

struct GeneratedKernel {
  std::variant<HostCallKernel, UfuncKernel, GufuncKernel, ReduceKernel> form;
  std::string signature;  // the kernel's: "void(float64[::1], int64)"
};
// The generated kernel's Python name: unique for its form.
std::string kernel_name(const GeneratedKernel& kernel);
// Everything that decides the generated kernel: a key for the compiled forms a module keeps.
std::string describe(const GeneratedKernel& kernel);

// ---- what a file holds, and what its @jit functions return ----

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
  std::string target;  // vectorize, guvectorize: "cpu" (Numba's default), "parallel" or "cuda"
  std::string identity;  // vectorize(identity=...): "0", "1", "reorderable", or "" for None
};

// A function of the file and its parameter names.
struct NamedFunction {
  std::string name;
  std::vector<std::string> parameters;
  bool device_only = false;  // @cuda.jit(device=True): called from kernels, never from the host
};

struct ModuleContents {
  std::vector<NamedFunction> kernels;         // every @cuda.jit kernel
  std::vector<NamedFunction> host_functions;  // every @jit / @njit and CUDA device function
  std::vector<GeneratorFunction> generators;
};

// What a @jit function returns for one set of argument types: nothing (None), one scalar or
// array, a tuple of scalars and arrays, an Optional scalar (a value or None), or a list.
struct FunctionReturn {
  std::string function;
  std::string signature;                  // argument types, Numba style
  std::vector<ParameterInfo> parameters;  // as typed: the decorator's signature converts arguments
  std::vector<std::string> parameter_types;  // each parameter's type as Numba names it (sema's to_string)
  std::string type;                       // Numba's name of the return type: "float64", "UniTuple(int64 x 2)"
  std::vector<DType> parts;               // the scalars it is made of, an array's dtype (empty for None)
  std::vector<int> part_ndims;            // per part: an array's dimensions (0 for a 0-d one), -1 for a scalar
  bool is_tuple = false;
  bool is_optional = false;
  bool is_list = false;        // a list of parts[0]: comes back as a 1-d array
  bool returns_other = false;  // a part is neither a scalar nor an array (a record, a list in a tuple, ...)
  bool list_of_numbers = false;  // is_list, and its items are numbers (else they cross encoded)
  bool has_records = false;      // a record anywhere in it: no host call returns one
  bool has_arrays() const;     // a part is an array
  bool boundscheck = false;    // its decorator's boundscheck=True
  FastMath fastmath;           // its decorator's fastmath (True, or a set of flags)
};

// ---- the corridor ----

struct Request {
  std::string text;
  std::string file_name;
  CompileOptions options;  // which kernels, their signatures, what to emit, the cache
  // Also the simulator's entry points (Translation::simulator_source).
  bool for_simulator = false;
  // @jit functions to type for a host call's argument types ("(float64, int64)").
  std::vector<KernelSignature> host_functions;
  // A kernel pykern writes and translates with the file, for its signature; then only it.
  std::optional<GeneratedKernel> generated;
  // As Numba compiles a kernel without a signature when it is first launched, what is wrong
  // with one is found then: now, it is a warning (Module::load_source). Otherwise such kernels
  // are checked, and their errors are errors (`pykern compile FILE`).
  bool defer_unsigned_kernels = false;
};

struct Translation {
  CompileOutput output;
  std::string simulator_source;  // for_simulator: the CUDA C++ plus the simulator's entry points
  bool simulator_uses_cxx_runtime = false;  // its build links libstdc++
  ModuleContents contents;
  std::vector<FunctionReturn> functions;  // for Request::host_functions
};

// Errors: ErrorKind::compile (message holds the rendered diagnostics), ErrorKind::nvrtc
// (log holds NVRTC's log), io, invalid_argument.
Result<Translation> translate(const Request& request);

}  // namespace pykern::compiler
