#include "cuda/driver.h"

#include <dlfcn.h>

#include <fmt/format.h>

namespace pykern::cuda {

namespace {

// The symbol cuda.h binds a name to ("cuMemAlloc" is cuMemAlloc_v2), so the table's types and
// the symbols looked up cannot disagree.
#define PK_SYMBOL_TEXT(name) #name
#define PK_SYMBOL(name) PK_SYMBOL_TEXT(name)

Result<Driver> load() {
  void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr)
    return Error::make(ErrorKind::driver, "no CUDA driver (libcuda.so.1) on this machine; use the CPU simulator (Backend::cpu)");
  Driver d;
  std::string missing;
  auto bind = [&](auto& slot, std::initializer_list<const char*> symbols) {
    for (const char* symbol : symbols)
      if ((slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(dlsym(handle, symbol))) != nullptr) return;
    missing += std::string(" ") + *symbols.begin();
  };
#define PK_BIND(slot, name) bind(d.slot, {PK_SYMBOL(name)})
  PK_BIND(init, cuInit);
  PK_BIND(driver_version, cuDriverGetVersion);
  PK_BIND(device_count, cuDeviceGetCount);
  PK_BIND(device_get, cuDeviceGet);
  PK_BIND(device_name, cuDeviceGetName);
  PK_BIND(device_attribute, cuDeviceGetAttribute);
  PK_BIND(device_total_mem, cuDeviceTotalMem);
  PK_BIND(primary_ctx_retain, cuDevicePrimaryCtxRetain);
  PK_BIND(primary_ctx_release, cuDevicePrimaryCtxRelease);
  PK_BIND(ctx_get_current, cuCtxGetCurrent);
  PK_BIND(ctx_set_current, cuCtxSetCurrent);
  PK_BIND(ctx_synchronize, cuCtxSynchronize);
  PK_BIND(ctx_get_limit, cuCtxGetLimit);
  PK_BIND(ctx_set_limit, cuCtxSetLimit);
  PK_BIND(module_load_data_ex, cuModuleLoadDataEx);
  PK_BIND(module_unload, cuModuleUnload);
  PK_BIND(module_get_function, cuModuleGetFunction);
  PK_BIND(module_get_global, cuModuleGetGlobal);
  PK_BIND(func_get_attribute, cuFuncGetAttribute);
  PK_BIND(func_set_attribute, cuFuncSetAttribute);
  PK_BIND(launch_kernel, cuLaunchKernel);
  PK_BIND(launch_cooperative_kernel, cuLaunchCooperativeKernel);
  PK_BIND(occupancy_max_blocks, cuOccupancyMaxActiveBlocksPerMultiprocessor);
  PK_BIND(mem_alloc, cuMemAlloc);
  PK_BIND(mem_free, cuMemFree);
  PK_BIND(mem_alloc_host, cuMemAllocHost);
  PK_BIND(mem_free_host, cuMemFreeHost);
  PK_BIND(memcpy_htod_async, cuMemcpyHtoDAsync);
  PK_BIND(memcpy_dtoh_async, cuMemcpyDtoHAsync);
  PK_BIND(memcpy_dtod_async, cuMemcpyDtoDAsync);
  PK_BIND(memcpy_2d_async, cuMemcpy2DAsync);
  PK_BIND(memset_d8_async, cuMemsetD8Async);
  PK_BIND(stream_create, cuStreamCreate);
  PK_BIND(stream_destroy, cuStreamDestroy);
  PK_BIND(stream_synchronize, cuStreamSynchronize);
  PK_BIND(stream_query, cuStreamQuery);
  PK_BIND(event_create, cuEventCreate);
  PK_BIND(event_destroy, cuEventDestroy);
  PK_BIND(event_record, cuEventRecord);
  PK_BIND(event_synchronize, cuEventSynchronize);
  // Drivers before 12.8 have only the first version, with the same signature.
  bind(d.event_elapsed_time, {PK_SYMBOL(cuEventElapsedTime), "cuEventElapsedTime"});
  PK_BIND(mem_alloc_managed, cuMemAllocManaged);
  PK_BIND(mem_host_alloc, cuMemHostAlloc);
  PK_BIND(mem_host_get_device_pointer, cuMemHostGetDevicePointer);
  PK_BIND(mem_host_register, cuMemHostRegister);
  PK_BIND(mem_host_unregister, cuMemHostUnregister);
  PK_BIND(mem_get_info, cuMemGetInfo);
  PK_BIND(pointer_get_attribute, cuPointerGetAttribute);
  PK_BIND(stream_create_with_priority, cuStreamCreateWithPriority);
  PK_BIND(ctx_stream_priority_range, cuCtxGetStreamPriorityRange);
  PK_BIND(stream_wait_event, cuStreamWaitEvent);
  PK_BIND(stream_add_callback, cuStreamAddCallback);
  PK_BIND(event_query, cuEventQuery);
  PK_BIND(ipc_get_mem_handle, cuIpcGetMemHandle);
  PK_BIND(ipc_open_mem_handle, cuIpcOpenMemHandle);
  PK_BIND(ipc_close_mem_handle, cuIpcCloseMemHandle);
  PK_BIND(profiler_start, cuProfilerStart);
  PK_BIND(profiler_stop, cuProfilerStop);
  auto bind_optional = [&](auto& slot, const char* symbol) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(dlsym(handle, symbol));
    if (slot == nullptr) d.optional_missing += std::string(" ") + symbol;
  };
#define PK_BIND_OPTIONAL(slot, name) bind_optional(d.slot, PK_SYMBOL(name))
  PK_BIND_OPTIONAL(stream_begin_capture, cuStreamBeginCapture);
  PK_BIND_OPTIONAL(stream_end_capture, cuStreamEndCapture);
  PK_BIND_OPTIONAL(stream_is_capturing, cuStreamIsCapturing);
  PK_BIND_OPTIONAL(graph_instantiate, cuGraphInstantiate);
  PK_BIND_OPTIONAL(graph_launch, cuGraphLaunch);
  PK_BIND_OPTIONAL(graph_exec_update, cuGraphExecUpdate);
  PK_BIND_OPTIONAL(graph_get_nodes, cuGraphGetNodes);
  PK_BIND_OPTIONAL(graph_destroy, cuGraphDestroy);
  PK_BIND_OPTIONAL(graph_exec_destroy, cuGraphExecDestroy);
  PK_BIND_OPTIONAL(device_can_access_peer, cuDeviceCanAccessPeer);
  PK_BIND_OPTIONAL(ctx_enable_peer_access, cuCtxEnablePeerAccess);
  PK_BIND_OPTIONAL(ctx_disable_peer_access, cuCtxDisablePeerAccess);
  PK_BIND_OPTIONAL(primary_ctx_reset, cuDevicePrimaryCtxReset);
#undef PK_BIND_OPTIONAL
  PK_BIND(error_name, cuGetErrorName);
  PK_BIND(error_string, cuGetErrorString);
#undef PK_BIND
  if (!missing.empty()) return Error::make(ErrorKind::driver, "the CUDA driver is too old: it lacks" + missing);
  if (CUresult r = d.init(0); r != CUDA_SUCCESS) {
    const char* name = nullptr;
    d.error_name(r, &name);
    return Error::make(ErrorKind::driver, fmt::format("cuInit failed ({}): no usable GPU", name ? name : "?"));
  }
  return d;
}

int attribute(const Driver& d, CUdevice device, CUdevice_attribute which, int fallback) {
  int value = 0;
  return d.device_attribute(&value, which, device) == CUDA_SUCCESS ? value : fallback;
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

Status Driver::require(bool bound, const char* feature) const {
  if (bound) return ok_status();
  int version = 0;
  if (driver_version) driver_version(&version);
  return Error::make(ErrorKind::driver, fmt::format("{} need a newer CUDA driver: this one (version {}) lacks{}",
                                                    feature, version, optional_missing));
}

Result<DeviceInfo> query_device(const Driver& d, int ordinal) {
  CUdevice device = 0;
  if (auto s = d.check(d.device_get(&device, ordinal), "cuDeviceGet", "device " + std::to_string(ordinal)); !s.ok())
    return s.error();
  DeviceInfo info;
  info.ordinal = ordinal;
  char name[256] = {0};
  d.device_name(name, sizeof name, device);
  info.name = name;
  info.major = attribute(d, device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0);
  info.minor = attribute(d, device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0);
  info.multiprocessors = attribute(d, device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0);
  size_t bytes = 0;
  d.device_total_mem(&bytes, device);
  info.memory_bytes = bytes;
  DeviceLimits& l = info.limits;
  l.max_threads_per_block = attribute(d, device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, l.max_threads_per_block);
  l.max_block[0] = attribute(d, device, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, l.max_block[0]);
  l.max_block[1] = attribute(d, device, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, l.max_block[1]);
  l.max_block[2] = attribute(d, device, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, l.max_block[2]);
  l.max_grid[0] = attribute(d, device, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, l.max_grid[0]);
  l.max_grid[1] = attribute(d, device, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, l.max_grid[1]);
  l.max_grid[2] = attribute(d, device, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, l.max_grid[2]);
  l.shared_per_block = attribute(d, device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, l.shared_per_block);
  l.shared_per_block_optin =
      attribute(d, device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, l.shared_per_block);
  l.warp_size = attribute(d, device, CU_DEVICE_ATTRIBUTE_WARP_SIZE, l.warp_size);
  return info;
}

Result<std::vector<DeviceInfo>> list_devices(const Driver& d) {
  int count = 0;
  if (auto s = d.check(d.device_count(&count), "cuDeviceGetCount", "listing devices"); !s.ok()) return s.error();
  std::vector<DeviceInfo> devices;
  for (int i = 0; i < count; ++i) {
    auto info = query_device(d, i);
    if (!info.ok()) return info.error();
    devices.push_back(std::move(*info));
  }
  return devices;
}

Result<std::vector<DeviceInfo>> list_devices() {
  auto driver = Driver::get();
  if (!driver.ok()) return driver.error();
  return list_devices(**driver);
}

}  // namespace pykern::cuda
