// A GPU in use: the driver that reaches it, its primary context (retained for as long as
// anything uses it), and the limits launches are checked against.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuda/driver.h"
#include "cuda/pool.h"

namespace pykern::cuda {

class Gpu {
 public:
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  // Opens device `ordinal` through `driver` (the real one, or a test's fake).
  static Result<std::shared_ptr<Gpu>> open(const Driver& driver, int ordinal);
  // The GPU that launches and allocations use: device 0 unless select() chose another.
  static Result<std::shared_ptr<Gpu>> current();
  // Chooses the GPU for the rest of the process (numba.cuda.select_device); `gpu` may be a
  // test's device opened on a fake driver, or null to go back to the driver's device 0.
  static void select(std::shared_ptr<Gpu> gpu);
  // The GPU current() would answer if one is open already (a launch, an allocation or
  // select() opened it), else null: what waiting for "all the work" must wait for, without
  // opening a GPU for a program that never used one.
  static std::shared_ptr<Gpu> opened();
  // The architecture of the GPU current() would answer ("sm_90"), without opening one; empty
  // without a driver or GPU.
  static std::string current_arch();

  const Driver& driver() const { return *driver_; }
  // Device memory for launches' copies of host arrays, reused from launch to launch.
  StagingPool& staging_pool() const { return *staging_pool_; }
  const DeviceInfo& info() const { return info_; }
  CUcontext context() const { return context_; }
  CUdevice device() const { return device_; }
  // Peer access (pykern::enable_peer_access): `peer`'s memory is this GPU's kernels' to use; the
  // peer stays open (its context retained) while this GPU is.
  void add_peer(std::shared_ptr<Gpu> peer) const;
  // Whether a launch here may take an array on GPU `ordinal`: its own, or an enabled peer's.
  bool reaches(int ordinal) const;
  // Makes the context current on the calling thread and leaves it so: for code that drives the
  // driver itself (the GPU benchmark). pykern's own calls use ContextScope.
  Status bind() const;
  // "kernel 'add' on device 0 (NVIDIA H200)": what error messages name.
  std::string describe(const std::string& kernel) const;
  // Room for what kernels print, made before a kernel that prints is loaded: CUDA keeps printf's
  // output in a buffer of the context (1 MiB unless set) and drops what does not fit, silently.
  // Grows it to printf_buffer_bytes() once; a larger buffer (the host program's) is kept, and so
  // is one that can no longer change (a kernel that prints has run in the context already).
  Status reserve_printf_buffer() const;

  // A kernel that outlived its launch's timeout is still running: the driver cannot stop it,
  // and every call that waits for the GPU (a copy, a free, a synchronisation, the next launch)
  // would wait for it forever. From then on the GPU refuses work with `why` instead.
  void mark_stuck(const std::string& why) const;
  bool stuck() const { return stuck_.load(std::memory_order_acquire); }
  Status refuse_if_stuck() const;

 private:
  Gpu() = default;
  const Driver* driver_ = nullptr;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  DeviceInfo info_;
  std::unique_ptr<StagingPool> staging_pool_;
  mutable std::mutex stuck_mutex_;
  mutable std::atomic<bool> stuck_{false};
  mutable std::string stuck_why_;  // set once, before stuck_
  mutable std::mutex peers_mutex_;
  mutable std::vector<std::shared_ptr<Gpu>> peers_;
  mutable std::mutex printf_mutex_;
  mutable bool printf_buffer_reserved_ = false;
};

// The printf buffer a GPU's context gets for kernels that print: $PYKERN_PRINTF_FIFO_SIZE bytes
// (0: CUDA's own 1 MiB), else 64 MiB; an error when the variable is not a number of bytes.
Result<size_t> printf_buffer_bytes();

// The GPU's context current on this thread while it lives, and the host program's own context
// current again after: a library must not leave another context current under its caller.
// With no context current before, the GPU's stays current (as Numba leaves it), so that a warm
// launch costs one cuCtxGetCurrent and no switch. A stuck GPU (Gpu::mark_stuck) binds nothing:
// the scope is not ok(), and its status says why.
class ContextScope {
 public:
  explicit ContextScope(const Gpu& gpu);
  ~ContextScope();
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

 private:
  const Driver* driver_;
  CUcontext callers_ = nullptr;  // to restore; null when there is nothing to restore
  Status status_ = ok_status();
};

}  // namespace pykern::cuda
