// What a cubin says about its functions, read from the ELF itself (no cuobjdump): the section
// and symbol tables, and the .nv.info attribute records (EIATTR_*) that ptxas leaves for the
// driver: registers, stack, shared and constant memory, barriers and the parameter table.
// The cubin is untrusted input: every read is bounds-checked, and a malformed file is an error.
#pragma once
#include <string_view>
#include <vector>

#include "pykern/compiler.h"

namespace pykern::jit {

Result<std::vector<KernelResources>> read_cubin(std::string_view bytes);

}  // namespace pykern::jit
