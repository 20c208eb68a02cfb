// Device memory that launches reuse for their copies of host arrays.
//
// A launch with host arrays needs device memory for as long as it runs. cuMemAlloc and cuMemFree
// cost tens of microseconds each, and cuMemFree waits for the whole device, so a launch in a loop
// would spend more time there than in a small kernel. Blocks a launch is done with are kept for
// the next one, up to a cap; past it they are freed.
#pragma once
#include <cstddef>
#include <map>
#include <mutex>

#include "cuda/driver.h"

namespace pykern::cuda {

class StagingPool {
 public:
  // Keeps at most `cap_bytes` of free blocks.
  StagingPool(const Driver& driver, size_t cap_bytes) : driver_(&driver), cap_bytes_(cap_bytes) {}
  ~StagingPool() = default;  // the owner calls release_all() with its context current
  StagingPool(const StagingPool&) = delete;
  StagingPool& operator=(const StagingPool&) = delete;

  // A block of at least `bytes` (its size in `*got`): a kept one no more than twice as large,
  // else a new one. The caller's context is current.
  CUresult take(size_t bytes, CUdeviceptr* block, size_t* got);
  // A block whose work is complete (no copy or kernel still uses it): kept, or freed past the cap.
  void give_back(CUdeviceptr block, size_t bytes);
  // Frees every kept block (the context is current).
  void release_all();
  size_t kept_bytes() const;

 private:
  const Driver* driver_;
  size_t cap_bytes_;
  mutable std::mutex mutex_;
  std::multimap<size_t, CUdeviceptr> free_;  // by size, for the smallest that fits
  size_t kept_bytes_ = 0;
};

}  // namespace pykern::cuda
