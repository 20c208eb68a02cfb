// Launching on a GPU through the driver API: a cubin loaded into the primary context of the
// device, host arrays copied to the device and back around the launch (as Numba does for host
// arrays), device arrays passed as they are.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "cuda/driver.h"
#include "pykern/compiler.h"
#include "pykern/module.h"

namespace pykern::cuda {

class LoadedModule {
 public:
  ~LoadedModule();
  LoadedModule(const LoadedModule&) = delete;
  LoadedModule& operator=(const LoadedModule&) = delete;
  CUfunction function() const { return function_; }
  CUcontext context() const { return context_; }

  // Loads `cubin` on device 0 and finds `symbol` in it.
  static Result<std::shared_ptr<LoadedModule>> load(const std::string& cubin, const std::string& symbol);

 private:
  LoadedModule() = default;
  CUcontext context_ = nullptr;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
};

// The architecture of device 0 ("sm_90"), or an error when there is no usable GPU.
Result<std::string> device_arch();

Status launch(const LoadedModule& module, const CompiledKernel& kernel, const Launch& config,
              const std::vector<Argument>& args);

}  // namespace pykern::cuda
