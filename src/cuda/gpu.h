// A GPU in use: the driver that reaches it, its primary context (retained for as long as
// anything uses it), and the limits launches are checked against.
#pragma once
#include <memory>

#include "cuda/driver.h"

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

  const Driver& driver() const { return *driver_; }
  const DeviceInfo& info() const { return info_; }
  CUcontext context() const { return context_; }
  // Makes the context current on the calling thread (one cheap query when it already is).
  Status bind() const;
  // "kernel 'add' on device 0 (NVIDIA H200)": what error messages name.
  std::string describe(const std::string& kernel) const;

 private:
  Gpu() = default;
  const Driver* driver_ = nullptr;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  DeviceInfo info_;
};

}  // namespace pykern::cuda
