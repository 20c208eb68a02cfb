// The current GPU's architecture, read through the CUDA driver loaded at run time: the binary
// must start on machines without a driver, where this answers "" and sm_90 is used.
#include <dlfcn.h>

#include <string>

#include "pykern/compiler.h"

namespace pykern {

std::string current_gpu_arch() {
  static const std::string arch = [] {
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (driver == nullptr) return std::string();
    using Init = int (*)(unsigned);
    using Get = int (*)(int*, int);
    using Attribute = int (*)(int*, int, int);
    auto init = reinterpret_cast<Init>(dlsym(driver, "cuInit"));
    auto get = reinterpret_cast<Get>(dlsym(driver, "cuDeviceGet"));
    auto attribute = reinterpret_cast<Attribute>(dlsym(driver, "cuDeviceGetAttribute"));
    int device = 0, major = 0, minor = 0;
    // 75 and 76: CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR.
    if (!init || !get || !attribute || init(0) != 0 || get(&device, 0) != 0 ||
        attribute(&major, 75, device) != 0 || attribute(&minor, 76, device) != 0)
      return std::string();
    return "sm_" + std::to_string(major) + std::to_string(minor);
  }();
  return arch;
}

}  // namespace pykern
