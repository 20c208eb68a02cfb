// Launch arguments: their Numba types (to specialise), and their bytes in the kernel ABI
// (what both the simulator and cuLaunchKernel receive: one pointer per parameter).
#pragma once
#include <string>
#include <vector>

#include "pykern/compiler.h"
#include "pykern/launch.h"

namespace pykern::detail {

// Numba's typeof for an argument, in signature syntax: "float32[:, ::1]", "int64".
Result<std::string> signature_type(const Argument& argument);
// "void(float32[::1], int64)" for these arguments.
Result<std::string> signature_for(const std::vector<Argument>& args);
// An argument's type as Numba names it in messages: "array(float32, 1d, C)", "int64".
std::string numba_type_name(const Argument& argument);

// Numba's typeof of an argument as a value: scalar or array, dtype, dimensions and layout.
struct ArgumentType {
  bool is_array = false;
  DType dtype;
  int ndim = 0;
  char layout = 'A';  // 'C', 'F' or 'A'
};
ArgumentType type_of(const Argument& argument);
// Whether `args` have exactly these types (no allocation: checked on every host call).
bool have_types(const std::vector<Argument>& args, const std::vector<ArgumentType>& types);

// Whether a compiled kernel's parameters accept these arguments (for kernels whose decorator
// fixes their signatures).
bool accepts(const CompiledKernel& kernel, const std::vector<Argument>& args);
// Whether `args` have exactly the types `kernel` was specialised for (Numba's typeof of each:
// dtype, dimensions and layout), so that a kernel compiled for them can run them.
bool matches_exactly(const CompiledKernel& kernel, const std::vector<Argument>& args);

// The kernel parameters' bytes in one buffer and a pointer to each: what cuLaunchKernel and
// the simulator take. Reused from launch to launch, so packing allocates nothing once warm.
struct PackedArguments {
  std::vector<unsigned char> bytes;
  std::vector<size_t> offsets;
  std::vector<void*> pointers;
};
// Where a kernel's parameter lies in its parameter bank (constant bank 0), as the CUDA C++ ABI
// lays out the emitted kernel's signature: each at the next multiple of its alignment. The
// cubin's own table (EIATTR_KPARAM_INFO) must say the same; the driver copies `size` bytes of
// launch argument i there from the launcher's pointer i (cuLaunchKernel's kernelParams).
struct ParameterPlace {
  size_t offset = 0, size = 0, alignment = 1;
};
std::vector<ParameterPlace> parameter_bank_layout(const CompiledKernel& kernel);
// The bank's bytes: the end of the last parameter.
size_t parameter_bank_bytes(const CompiledKernel& kernel);

// "kernel 'add' takes 3 arguments (r, x, y), 2 given"
Error arity_error(const std::string& kernel, const std::vector<std::string>& parameters, size_t given);
// Refuses an array argument that holds elements but no data (a null pointer), a read-only one,
// or one of bfloat16, before a launch types, copies or reads it.
Status check_array_data(const std::string& kernel, const std::vector<std::string>& parameters,
                        const std::vector<Argument>& args);

// Packs `args` for `kernel`; arrays must live at `where` (host for the simulator, device for a GPU).
Status pack_arguments(const CompiledKernel& kernel, const std::vector<Argument>& args, Location where,
                      PackedArguments& packed);
// The same one parameter at a time: the buffer laid out for `kernel`'s parameters, then
// argument i packed into it, or a 1-element 1-d array view of `data` (a host call's result).
void layout_arguments(const CompiledKernel& kernel, PackedArguments& packed);
Status pack_argument(const CompiledKernel& kernel, size_t i, const Argument& arg, Location where,
                     PackedArguments& packed);
void pack_element_view(const CompiledKernel& kernel, size_t i, void* data, PackedArguments& packed);

}  // namespace pykern::detail
