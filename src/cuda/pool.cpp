#include "cuda/pool.h"

namespace pykern::cuda {

namespace {
// Sizes are rounded up so that launches whose arrays differ by a few elements share blocks.
constexpr size_t granule = 64 * 1024;
size_t rounded(size_t bytes) { return (bytes + granule - 1) / granule * granule; }
}  // namespace

CUresult StagingPool::take(size_t bytes, CUdeviceptr* block, size_t* got) {
  size_t want = rounded(bytes);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto fit = free_.lower_bound(want);
    if (fit != free_.end() && fit->first <= 2 * want) {
      *block = fit->second;
      *got = fit->first;
      kept_bytes_ -= fit->first;
      free_.erase(fit);
      return CUDA_SUCCESS;
    }
  }
  *got = want;
  return driver_->mem_alloc(block, want);
}

void StagingPool::give_back(CUdeviceptr block, size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (kept_bytes_ + bytes <= cap_bytes_) {
      free_.emplace(bytes, block);
      kept_bytes_ += bytes;
      return;
    }
  }
  driver_->mem_free(block);
}

void StagingPool::release_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [bytes, block] : free_) driver_->mem_free(block);
  free_.clear();
  kept_bytes_ = 0;
}

size_t StagingPool::kept_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return kept_bytes_;
}

}  // namespace pykern::cuda
