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

// What a kernel (or a device function it calls) uses, read from a cubin as `cuobjdump
// -res-usage` reads it: registers, stack, shared and constant memory, and the parameter table
// the driver copies launch arguments by.
struct CubinParameter {
  int ordinal = 0;      // the parameter's position in the kernel's signature
  int64_t offset = 0;   // its bytes in the parameter bank
  int64_t size = 0;
};

struct KernelResources {
  std::string symbol;           // the function's name in the cubin
  bool is_kernel = false;       // an entry point (__global__); else a device function
  int arch = 0;                 // the cubin's architecture: 90 for sm_90
  int registers = 0;            // per thread
  int64_t spill_store_bytes = 0;  // ptxas's "bytes spill stores": register spills written to local memory
  int64_t spill_load_bytes = 0;   // ... and read back ("bytes spill loads")
  int64_t stack_bytes = 0;      // per thread: the call stack, spills and local arrays (cuobjdump's STACK)
  int64_t local_bytes = 0;      // per thread, outside the stack (cuobjdump's LOCAL; usually 0)
  int64_t shared_bytes = 0;     // static shared memory per block (on sm_90+ with the 1 KB the system reserves)
  int64_t constant_bytes = 0;   // constant bank 0: the driver's header and the parameters
  int barriers = 0;             // named barriers (bar.sync ids) the kernel uses
  int max_threads_per_block = 0;  // a limit compiled in (__launch_bounds__); 0: none
  std::vector<CubinParameter> parameters;  // by ordinal (kernels only)
  int64_t parameter_bank_bytes = 0;        // the parameters' bytes in constant bank 0
  bool shared_includes_reserve = false;    // shared_bytes holds the system's per-block reserve
};

// A cubin's functions, kernels first in the cubin's order. A cubin that is not one (truncated,
// altered, another kind of ELF) is an ErrorKind::invalid_argument error, never a crash.
Result<std::vector<KernelResources>> kernel_resources(const std::string& cubin);

// The theoretical occupancy of a kernel on its architecture, by the rules of NVIDIA's occupancy
// calculator: how many blocks of `block_size` threads fit on one multiprocessor at once, given
// its registers, shared memory (static, plus `dynamic_shared_bytes`) and barriers.
struct Occupancy {
  int block_size = 0;
  int blocks_per_sm = 0;
  int warps_per_sm = 0;      // active warps: blocks times warps per block
  int max_warps_per_sm = 0;  // the architecture's
  std::string limited_by;    // "warps", "registers", "shared memory", "blocks", "barriers" (those that bind)
};
// For `block_size` threads; block_size 0: the size (a multiple of 32, at most the kernel's
// limit) that keeps the most threads active, as cudaOccupancyMaxPotentialBlockSize picks it.
// Errors: an architecture the calculator has no limits for, a block larger than allowed.
Result<Occupancy> occupancy(const KernelResources& kernel, int block_size = 0, int64_t dynamic_shared_bytes = 0);

// Errors: ErrorKind::compile (message holds the rendered diagnostics), ErrorKind::nvrtc
// (log holds NVRTC's log), io, invalid_argument.
Result<CompileOutput> compile_source(const std::string& text, const std::string& file_name,
                                     const CompileOptions& options);
Result<CompileOutput> compile_file(const std::string& path, const CompileOptions& options);

}  // namespace pykern
