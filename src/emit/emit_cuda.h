// Typed IR → CUDA C++ against the runtime headers. The emitter only prints: every decision
// (types, casts, which runtime function) was made by sema.
#pragma once
#include <string>
#include <vector>

#include "base/c_literal.h"
#include "emit/writer.h"
#include "sema/ir.h"

namespace pykern::emit {

struct KernelSymbol {
  std::string python_name;
  std::string symbol;     // the extern "C" name to look up in the cubin
  std::string signature;  // Numba-style, e.g. (array(float32, 1d, C), int64)
};

struct EmittedSource {
  std::string text;
  std::vector<KernelSymbol> kernels;
};

// `file_name` appears in #line directives so tools point at the Python source.
EmittedSource emit_cuda(const ir::Program& program, const std::string& file_name);

// The runtime headers `program` includes: pykern/core.cuh, and cmath.cuh and fp16.cuh where a
// value of the program is complex or float16.
std::vector<std::string> runtime_includes(const ir::Program& program);

// Whether a host build of `program` needs the C++ runtime (libstdc++): lists and the partial
// results of parallel loops allocate with new and have destructors. Other simulator libraries
// link the C and math libraries only, which links faster (sim/simulator.h).
bool uses_cxx_runtime(const ir::Program& program);

// The simulator's entry points for the kernels of `program`, appended to the emitted CUDA in
// host builds: one wrapper per kernel that unpacks the argument pointers the launcher passes,
// the table the simulator looks kernels up in, and pk_sim_set_hooks, through which the
// engine (src/sim/engine.cpp) reaches the kernels and they reach it.
std::string emit_simulator_entries(const ir::Program& program);

// The C++ spelling of a type: pk::f32, pk::Array<pk::i32, 2, pk::layout_c>, pk_record_1a2b3c4d;
// with `owning_arrays`, an array is a pk::OwnedArray (a host call's values).
std::string cxx_type(const sema::Type& type, bool owning_arrays = false);

// Record (structured dtype) types: the struct name a record gets, and the definitions of every
// record struct `program` uses, nested ones first, each with NumPy's layout (its padding
// explicit, its size checked by static_assert).
std::string record_struct_name(const sema::Type& record);
void emit_record_structs(const ir::Program& program, Writer& out);

// Mangling: every Python identifier becomes a C++ name that cannot collide with a keyword, a
// macro, a runtime name or another Python identifier.
std::string mangle_local(const std::string& python_name);
std::string kernel_symbol(const ir::Function& function);
// The argument types of a specialisation, Numba style: "(array(float32, 1d, C), int64)".
std::string signature_text(const ir::Function& function);
std::string device_symbol(const ir::Function& function);

// User text reaches emitted code through base/c_literal.h's c_string_literal, the one escaping
// function of generated C++ and CUDA.
using pykern::c_string_literal;

}  // namespace pykern::emit
