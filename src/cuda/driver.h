// The CUDA driver API, loaded at run time (dlopen libcuda.so.1): pykern starts, translates
// and simulates on machines without a driver, and says so when a GPU is asked for.
//
// Everything in src/cuda calls the driver through a `Driver` table rather than the symbols
// themselves, so the unit tests can hand the launcher a fake driver and check what it asks
// of it (copies, launch parameters, error paths) on machines without a GPU.
#pragma once
#include <cuda.h>
#include <cudaProfiler.h>

#include <string>
#include <vector>

#include "pykern/gpu_info.h"
#include "pykern/result.h"

namespace pykern::cuda {

struct Driver {
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDriverGetVersion) driver_version = nullptr;
  decltype(&::cuDeviceGetCount) device_count = nullptr;
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDeviceGetName) device_name = nullptr;
  decltype(&::cuDeviceGetAttribute) device_attribute = nullptr;
  decltype(&::cuDeviceTotalMem) device_total_mem = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) primary_ctx_retain = nullptr;
  decltype(&::cuDevicePrimaryCtxRelease) primary_ctx_release = nullptr;
  decltype(&::cuCtxGetCurrent) ctx_get_current = nullptr;
  decltype(&::cuCtxSetCurrent) ctx_set_current = nullptr;
  decltype(&::cuCtxSynchronize) ctx_synchronize = nullptr;
  decltype(&::cuCtxGetLimit) ctx_get_limit = nullptr;
  decltype(&::cuCtxSetLimit) ctx_set_limit = nullptr;
  decltype(&::cuModuleLoadDataEx) module_load_data_ex = nullptr;
  decltype(&::cuModuleUnload) module_unload = nullptr;
  decltype(&::cuModuleGetFunction) module_get_function = nullptr;
  decltype(&::cuModuleGetGlobal) module_get_global = nullptr;
  decltype(&::cuFuncGetAttribute) func_get_attribute = nullptr;
  decltype(&::cuFuncSetAttribute) func_set_attribute = nullptr;
  decltype(&::cuLaunchKernel) launch_kernel = nullptr;
  decltype(&::cuLaunchCooperativeKernel) launch_cooperative_kernel = nullptr;
  decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor) occupancy_max_blocks = nullptr;
  decltype(&::cuMemAlloc) mem_alloc = nullptr;
  decltype(&::cuMemFree) mem_free = nullptr;
  decltype(&::cuMemAllocHost) mem_alloc_host = nullptr;
  decltype(&::cuMemFreeHost) mem_free_host = nullptr;
  decltype(&::cuMemcpyHtoDAsync) memcpy_htod_async = nullptr;
  decltype(&::cuMemcpyDtoHAsync) memcpy_dtoh_async = nullptr;
  decltype(&::cuMemcpyDtoDAsync) memcpy_dtod_async = nullptr;
  decltype(&::cuMemcpy2DAsync) memcpy_2d_async = nullptr;
  decltype(&::cuMemsetD8Async) memset_d8_async = nullptr;
  decltype(&::cuStreamCreate) stream_create = nullptr;
  decltype(&::cuStreamDestroy) stream_destroy = nullptr;
  decltype(&::cuStreamSynchronize) stream_synchronize = nullptr;
  decltype(&::cuStreamQuery) stream_query = nullptr;
  decltype(&::cuEventCreate) event_create = nullptr;
  decltype(&::cuEventDestroy) event_destroy = nullptr;
  decltype(&::cuEventRecord) event_record = nullptr;
  decltype(&::cuEventSynchronize) event_synchronize = nullptr;
  decltype(&::cuEventElapsedTime) event_elapsed_time = nullptr;
  // Memory kinds beyond device and pinned memory, and what a pointer is.
  decltype(&::cuMemAllocManaged) mem_alloc_managed = nullptr;
  decltype(&::cuMemHostAlloc) mem_host_alloc = nullptr;
  decltype(&::cuMemHostGetDevicePointer) mem_host_get_device_pointer = nullptr;
  decltype(&::cuMemHostRegister) mem_host_register = nullptr;
  decltype(&::cuMemHostUnregister) mem_host_unregister = nullptr;
  decltype(&::cuMemGetInfo) mem_get_info = nullptr;
  decltype(&::cuPointerGetAttribute) pointer_get_attribute = nullptr;
  // Streams and events beyond create, wait and time.
  decltype(&::cuStreamCreateWithPriority) stream_create_with_priority = nullptr;
  decltype(&::cuCtxGetStreamPriorityRange) ctx_stream_priority_range = nullptr;
  decltype(&::cuStreamWaitEvent) stream_wait_event = nullptr;
  decltype(&::cuStreamAddCallback) stream_add_callback = nullptr;
  decltype(&::cuEventQuery) event_query = nullptr;
  decltype(&::cuIpcGetMemHandle) ipc_get_mem_handle = nullptr;
  decltype(&::cuIpcOpenMemHandle) ipc_open_mem_handle = nullptr;
  decltype(&::cuIpcCloseMemHandle) ipc_close_mem_handle = nullptr;
  decltype(&::cuProfilerStart) profiler_start = nullptr;
  decltype(&::cuProfilerStop) profiler_stop = nullptr;
  // CUDA Graphs (captured from a stream), peer access between GPUs and a device's reset. Bound
  // when the driver has them, null otherwise: a driver that lacks them runs everything else,
  // and the calls that need them say which symbol is missing (optional_missing).
  decltype(&::cuStreamBeginCapture) stream_begin_capture = nullptr;
  decltype(&::cuStreamEndCapture) stream_end_capture = nullptr;
  decltype(&::cuStreamIsCapturing) stream_is_capturing = nullptr;
  decltype(&::cuGraphInstantiate) graph_instantiate = nullptr;
  decltype(&::cuGraphLaunch) graph_launch = nullptr;
  decltype(&::cuGraphExecUpdate) graph_exec_update = nullptr;
  decltype(&::cuGraphGetNodes) graph_get_nodes = nullptr;
  decltype(&::cuGraphDestroy) graph_destroy = nullptr;
  decltype(&::cuGraphExecDestroy) graph_exec_destroy = nullptr;
  decltype(&::cuDeviceCanAccessPeer) device_can_access_peer = nullptr;
  decltype(&::cuCtxEnablePeerAccess) ctx_enable_peer_access = nullptr;
  decltype(&::cuCtxDisablePeerAccess) ctx_disable_peer_access = nullptr;
  decltype(&::cuDevicePrimaryCtxReset) primary_ctx_reset = nullptr;
  std::string optional_missing;  // the optional symbols this driver lacks, space-separated
  decltype(&::cuGetErrorName) error_name = nullptr;
  decltype(&::cuGetErrorString) error_string = nullptr;

  // The loaded driver, initialised; an ErrorKind::driver error when there is none.
  static Result<const Driver*> get();
  // OK, or an error naming the call and what it was for: "cuLaunchKernel (kernel 'add') failed: ...".
  Status check(CUresult result, const char* call, const std::string& what) const;
  // OK when `bound` (the optional entries `feature` needs are all there), else an error naming
  // what this driver lacks: "CUDA Graphs need a newer CUDA driver: this one (version 11020) lacks ...".
  Status require(bool bound, const char* feature) const;
};

// What a launch is checked against, read once per device.
struct DeviceLimits {
  int max_threads_per_block = 1024;
  int max_block[3] = {1024, 1024, 64};
  int max_grid[3] = {2147483647, 65535, 65535};
  int shared_per_block = 48 * 1024;        // without opting in
  int shared_per_block_optin = 48 * 1024;  // the most a kernel may opt in to
  int warp_size = 32;
};

// A GPU as the public API describes it, and the limits launches are checked against.
struct DeviceInfo : GpuInfo {
  DeviceLimits limits;
};

Result<DeviceInfo> query_device(const Driver& driver, int ordinal);
Result<std::vector<DeviceInfo>> list_devices(const Driver& driver);
// The devices of the loaded driver; an error when there is no driver.
Result<std::vector<DeviceInfo>> list_devices();

}  // namespace pykern::cuda
