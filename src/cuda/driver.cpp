#include "cuda/driver.h"

#include <dlfcn.h>

#include <fmt/format.h>

namespace pykern::cuda {

namespace {

Result<Driver> load() {
  void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr)
    return Error::make(ErrorKind::driver, "no CUDA driver (libcuda.so.1) on this machine; use the CPU simulator (--backend cpu)");
  Driver d;
  std::string missing;
  auto bind = [&](auto& slot, const char* symbol) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(dlsym(handle, symbol));
    if (slot == nullptr) missing += std::string(" ") + symbol;
  };
  bind(d.init, "cuInit");
  bind(d.driver_version, "cuDriverGetVersion");
  bind(d.device_count, "cuDeviceGetCount");
  bind(d.device_get, "cuDeviceGet");
  bind(d.device_name, "cuDeviceGetName");
  bind(d.device_attribute, "cuDeviceGetAttribute");
  bind(d.device_total_mem, "cuDeviceTotalMem_v2");
  bind(d.primary_ctx_retain, "cuDevicePrimaryCtxRetain");
  bind(d.ctx_set_current, "cuCtxSetCurrent");
  bind(d.ctx_synchronize, "cuCtxSynchronize");
  bind(d.module_load_data, "cuModuleLoadData");
  bind(d.module_unload, "cuModuleUnload");
  bind(d.module_get_function, "cuModuleGetFunction");
  bind(d.launch_kernel, "cuLaunchKernel");
  bind(d.func_set_attribute, "cuFuncSetAttribute");
  bind(d.mem_alloc, "cuMemAlloc_v2");
  bind(d.mem_free, "cuMemFree_v2");
  bind(d.memcpy_htod, "cuMemcpyHtoD_v2");
  bind(d.memcpy_dtoh, "cuMemcpyDtoH_v2");
  bind(d.stream_synchronize, "cuStreamSynchronize");
  bind(d.error_name, "cuGetErrorName");
  bind(d.error_string, "cuGetErrorString");
  if (!missing.empty()) return Error::make(ErrorKind::driver, "the CUDA driver lacks" + missing);
  if (CUresult r = d.init(0); r != CUDA_SUCCESS) {
    const char* name = nullptr;
    d.error_name(r, &name);
    return Error::make(ErrorKind::driver, fmt::format("cuInit failed ({}): no usable GPU", name ? name : "?"));
  }
  return d;
}

}  // namespace

Result<const Driver*> Driver::get() {
  static const Result<Driver> driver = load();
  if (!driver.ok()) return driver.error();
  return &driver.value();
}

Status Driver::check(CUresult result, const char* call, const std::string& what) const {
  if (result == CUDA_SUCCESS) return ok_status();
  const char* name = nullptr;
  const char* text = nullptr;
  error_name(result, &name);
  error_string(result, &text);
  return Error::make(ErrorKind::driver, fmt::format("{} ({}) failed: {}: {}", call, what, name ? name : "?", text ? text : ""));
}

Result<std::vector<DeviceInfo>> list_devices() {
  auto driver = Driver::get();
  if (!driver.ok()) return driver.error();
  const Driver& d = **driver;
  int count = 0;
  if (auto s = d.check(d.device_count(&count), "cuDeviceGetCount", "listing devices"); !s.ok()) return s.error();
  std::vector<DeviceInfo> devices;
  for (int i = 0; i < count; ++i) {
    CUdevice device = 0;
    if (auto s = d.check(d.device_get(&device, i), "cuDeviceGet", "device " + std::to_string(i)); !s.ok()) return s.error();
    DeviceInfo info;
    info.ordinal = i;
    char name[256] = {0};
    d.device_name(name, sizeof name, device);
    info.name = name;
    d.device_attribute(&info.major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
    d.device_attribute(&info.minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
    d.device_attribute(&info.multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
    size_t bytes = 0;
    d.device_total_mem(&bytes, device);
    info.memory_bytes = bytes;
    devices.push_back(std::move(info));
  }
  return devices;
}

}  // namespace pykern::cuda
