// Which GPU, if any, a device call of the public API works on: none for the simulator, the
// current GPU for Backend::cuda (and automatic where it resolves to it).
#pragma once
#include <memory>

#include "cuda/gpu.h"
#include "pykern/array.h"
#include "pykern/module.h"

namespace pykern::detail {

inline bool on_gpu(Backend backend) { return Kernel::resolve(backend) == Backend::cuda; }

// The GPU to use for `backend`; null for the simulator.
inline Result<std::shared_ptr<cuda::Gpu>> gpu_for(Backend backend) {
  if (!on_gpu(backend)) return std::shared_ptr<cuda::Gpu>();
  return cuda::Gpu::current();
}

// The GPU whose work a wait covers: the backend's, and for Backend::automatic (which launches
// on the simulator) the GPU that Backend::cuda launches and device arrays have used, if any:
// after them, synchronize() waits for the GPU as numba.cuda.synchronize() does.
inline Result<std::shared_ptr<cuda::Gpu>> gpu_to_wait_for(Backend backend) {
  if (on_gpu(backend)) return cuda::Gpu::current();
  if (backend == Backend::automatic) return cuda::Gpu::opened();
  return std::shared_ptr<cuda::Gpu>();
}

// The GPU an array's memory belongs to (the current one: pykern uses one GPU at a time); null
// for host memory.
inline Result<std::shared_ptr<cuda::Gpu>> gpu_of(const Array& array) {
  if (array.location() == Location::host) return std::shared_ptr<cuda::Gpu>();
  return cuda::Gpu::current();
}

}  // namespace pykern::detail
