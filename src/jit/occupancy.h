// Theoretical occupancy by the rules of NVIDIA's occupancy calculator (cuda_occupancy.h's
// cudaOccMaxActiveBlocksPerMultiprocessor), from a kernel's registers, shared memory and
// barriers and its architecture's limits, for sm_70 to sm_121: what the driver's
// cuOccupancyMaxActiveBlocksPerMultiprocessor answers on a GPU, without one.
#pragma once
#include "pykern/compiler.h"

namespace pykern::jit {

// Per multiprocessor, for one architecture (the default carveout: all the shared memory).
struct ArchLimits {
  int arch = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int shared_per_sm = 0;         // bytes the blocks may share
  int shared_per_block_optin = 0;  // a block's most, dynamic memory opted in (cuFuncSetAttribute)
  int reserved_shared_per_block = 0;  // the system's, from sm_80 on
  int shared_granularity = 0;    // shared memory is allocated in these units
  int barriers_per_block_slot = 0;  // named barriers per block slot (sm_90 on; 0: no limit)
};

// nullopt-like: arch 0 when the calculator has no limits for `arch` (90 for sm_90).
ArchLimits arch_limits(int arch);
Result<Occupancy> theoretical_occupancy(const KernelResources& kernel, int block_size, int64_t dynamic_shared_bytes);

}  // namespace pykern::jit
