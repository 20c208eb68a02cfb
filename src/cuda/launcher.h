// Launching on a GPU through the driver API.
//
// A GpuKernel is a compiled kernel loaded into a GPU's primary context, with everything a
// launch needs prepared once (the function, the threads per block its registers allow, its
// static shared memory, its module's error record), so that each launch only checks the
// configuration, packs the arguments and calls cuLaunchKernel. Host arrays are copied to the
// device for the launch and back after it, as Numba does, and only then does the launch wait
// for the kernel; device arrays stay where they are and the launch returns at once.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "abi/arguments.h"
#include "cuda/gpu.h"
#include "pykern/error_record.cuh"
#include "pykern/compiler.h"
#include "pykern/launch.h"

namespace pykern::cuda {

class GpuKernel {
 public:
  ~GpuKernel();
  GpuKernel(const GpuKernel&) = delete;
  GpuKernel& operator=(const GpuKernel&) = delete;

  // Loads `image` (a cubin, or PTX text that the driver compiles for the device) and prepares
  // `kernel`'s launches. `debug`: the kernel reports failures through the module's error record.
  static Result<std::shared_ptr<GpuKernel>> load(std::shared_ptr<Gpu> gpu, const std::string& image,
                                                 const CompiledKernel& kernel, bool debug);

  Status launch(const Launch& config, const std::vector<Argument>& args);

  const Gpu& gpu() const { return *gpu_; }
  int max_threads_per_block() const { return max_threads_per_block_; }
  int static_shared_bytes() const { return static_shared_bytes_; }

 private:
  GpuKernel() = default;
  Status prepare_shared_memory(size_t dynamic_bytes);
  Status check_cooperative_grid(const Launch& config);
  Status check_failure(CUstream stream, const Launch& config, const std::string& what);

  std::shared_ptr<Gpu> gpu_;
  CompiledKernel kernel_;
  bool debug_ = false;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  CUdeviceptr error_record_ = 0;  // debug builds: the module's pk_error_record
  int max_threads_per_block_ = 1024;
  int static_shared_bytes_ = 0;
  std::mutex shared_mutex_;
  size_t dynamic_shared_allowed_ = 0;  // what cuFuncSetAttribute has allowed beyond the default
};

// Whether a launch fits the device and the kernel: grid and block against the device's limits,
// threads per block against what the kernel's registers allow, shared memory against the
// device's per-block maximum. `kernel` is the kernel's Python name.
Status check_launch_limits(const DeviceInfo& device, int kernel_max_threads, int static_shared_bytes,
                           const Launch& config, const std::string& kernel);

// A device failure in the simulator's words: "kernel.py:12: IndexError: tid=[..] ctaid=[..]: ...".
std::string describe_failure(const pk::ErrorRecord& record);

}  // namespace pykern::cuda
