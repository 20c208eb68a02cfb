// A fake CUDA driver for the launcher's tests on machines without a GPU.
//
// Device memory is host memory (so copies are memcpy and a test can look at it), launches are
// recorded and run a C++ stand-in for the kernel when the test gives one, and any call can be
// told to fail. What it checks is pykern's side of the driver API: which calls are made, in
// what order, with which parameters, and what happens when one fails.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cuda/driver.h"
#include "cuda/gpu.h"
#include "pykern/error_record.cuh"

namespace test {

struct FakeLaunch {
  unsigned grid[3], block[3], shared_bytes;
  CUstream stream;
  std::vector<void*> params;  // as cuLaunchKernel got them (valid during the launch only)
  bool cooperative = false;   // by cuLaunchCooperativeKernel
  CUcontext context = nullptr;  // current on the launching thread
};

struct FakeDriver {
  pykern::cuda::Driver table;
  // Calls made, in order ("cuMemAlloc", "cuLaunchKernel", ...).
  std::vector<std::string> calls;
  // A call named here returns this result instead of doing its work.
  std::map<std::string, CUresult> failures;
  // Live allocations: device (cuMemAlloc) and pinned host (cuMemAllocHost).
  std::map<CUdeviceptr, size_t> device_memory;
  std::map<void*, size_t> pinned_memory;
  int contexts_retained = 0, streams_live = 0, events_live = 0, modules_loaded = 0;
  bool freed_unknown_pointer = false;
  std::vector<std::string> loaded_images;       // what cuModuleLoadDataEx got
  std::vector<unsigned> jit_option_counts;      // and how many JIT options came with it
  std::vector<CUcontext> module_contexts;       // and the context it loaded into
  std::vector<FakeLaunch> launches;
  std::vector<CUDA_MEMCPY2D> copies_2d;         // what cuMemcpy2DAsync got
  // Runs in place of the kernel, on the launch's parameters.
  std::function<void(const FakeLaunch&)> kernel;
  // The module's error record (what cuModuleGetGlobal hands out).
  std::vector<unsigned char> error_record = std::vector<unsigned char>(sizeof(pk::ErrorRecord), 0);
  int devices = 1;  // how many GPUs the driver has
  int parameter_count = 1;  // how many kernelParams cuLaunchKernel reads
  int function_max_threads = 1024;
  int function_static_shared = 0;
  int blocks_per_multiprocessor = 16;  // what the occupancy calculator answers
  int dynamic_shared_set = -1;  // what cuFuncSetAttribute last allowed
  CUcontext dynamic_shared_context = nullptr;  // the context current when it did
  size_t printf_fifo_bytes = size_t(1) << 20;    // CU_LIMIT_PRINTF_FIFO_SIZE, as cuCtxSetLimit left it
  CUcontext printf_fifo_context = nullptr;       // the context current when cuCtxSetLimit set it
  // What a kernel stand-in sets when the kernel would fault (CUDA_ERROR_MISALIGNED_ADDRESS):
  // as on a GPU, the next wait answers it, and so does every wait after (the context is lost).
  CUresult fault = CUDA_SUCCESS;
  // A kernel that never ends (a loop, a grid.sync() some block never reaches): cuStreamQuery
  // answers "not ready" for ever, and a call that would wait for it is recorded in
  // `waited_for_ever` and fails instead of hanging the test.
  bool kernel_never_ends = false;
  // A kernel that takes a while: cuStreamQuery answers "not ready" this many times first.
  int queries_until_done = 0;
  std::vector<std::string> waited_for_ever;
  // Host memory page-locked in place (cuMemHostRegister): its start, bytes and flags.
  std::map<void*, std::pair<size_t, unsigned>> registered_memory;
  // Memory the host and the device share (cuMemAllocManaged), and what kind each allocation is.
  std::map<CUdeviceptr, size_t> managed_memory;
  // cuMemHostGetDevicePointer answers an address other than the host's (no unified addressing).
  bool maps_elsewhere = false;
  // What the streams made asked for, in order: flags and priority.
  std::vector<std::pair<unsigned, int>> stream_requests;
  std::vector<std::pair<CUstream, CUevent>> stream_waits;  // cuStreamWaitEvent's arguments
  std::vector<CUstream> callback_streams;                  // where cuStreamAddCallback queued one
  int events_not_ready = 0;  // cuEventQuery answers "not ready" this many times first
  size_t free_bytes = size_t(100) << 30;  // what cuMemGetInfo answers as free
  int ipc_mappings = 0;  // cuIpcOpenMemHandle's mappings not closed yet (the fake maps in-process)
  // CUDA Graphs: launches and copies queued on a capturing stream are recorded into its graph,
  // not run; cuGraphLaunch runs them. A captured launch keeps this many bytes of each parameter
  // (what the driver copies is the kernel's parameter size, which the fake cannot know).
  size_t captured_parameter_bytes = 24;
  std::map<CUstream, CUstreamCaptureMode> capturing;  // streams capturing now, and their mode
  int graphs_live = 0, graph_execs_live = 0, graph_launches = 0;
  // Peer access: whether devices can reach each other, and the peers' contexts enabled.
  bool peers_can_access = true;
  std::vector<CUcontext> peer_contexts_enabled;
  std::vector<CUdevice> devices_reset;  // what cuDevicePrimaryCtxReset was asked to reset

  FakeDriver();
  ~FakeDriver();
  // A GPU opened on this driver and selected for the process (deselected on destruction).
  std::shared_ptr<pykern::cuda::Gpu> select_gpu();
  int count(const std::string& call) const;
  // The calling thread's current context, as cuCtxGetCurrent answers it; a host program's own
  // context is any other non-null value.
  static CUcontext current_context();
  static void make_current(CUcontext context);
  // The primary context of device `ordinal` (select_gpu's is device 0).
  static CUcontext gpu_context(int ordinal = 0);
  size_t live_allocations() const {
    return device_memory.size() + pinned_memory.size() + managed_memory.size() + registered_memory.size();
  }
};

}  // namespace test
