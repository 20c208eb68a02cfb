// The compiler API's view of a cubin: what each function uses and the occupancy it allows
// (the reading and the arithmetic live in jit/, below every layer that loads code).
#include "jit/cubin_info.h"
#include "jit/occupancy.h"
#include "pykern/compiler.h"

namespace pykern {

Result<std::vector<KernelResources>> kernel_resources(const std::string& cubin) { return jit::read_cubin(cubin); }

Result<Occupancy> occupancy(const KernelResources& kernel, int block_size, int64_t dynamic_shared_bytes) {
  return jit::theoretical_occupancy(kernel, block_size, dynamic_shared_bytes);
}

}  // namespace pykern
