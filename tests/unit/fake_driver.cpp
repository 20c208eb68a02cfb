#include "fake_driver.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace test {

namespace {

FakeDriver* fake = nullptr;

// Records the call and answers the failure the test asked for, if any.
CUresult enter(const char* call) {
  fake->calls.push_back(call);
  auto failure = fake->failures.find(call);
  return failure == fake->failures.end() ? CUDA_SUCCESS : failure->second;
}

#define PK_FAKE_ENTER(name)                   \
  if (CUresult r = enter(name); r != CUDA_SUCCESS) return r

CUresult wait(const char* call);  // what a call that waits for the device answers (below)

CUresult init(unsigned) { return CUDA_SUCCESS; }
CUresult device_count(int* n) { *n = fake->devices; return CUDA_SUCCESS; }
CUresult device_get(CUdevice* d, int ordinal) {
  *d = ordinal;
  return ordinal >= 0 && ordinal < fake->devices ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
CUresult device_name(char* name, int size, CUdevice) { std::strncpy(name, "Fake H200", size); return CUDA_SUCCESS; }
CUresult device_attribute(int* value, CUdevice_attribute a, CUdevice) {
  switch (a) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 132; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *value = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *value = 64; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *value = 2147483647; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *value = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *value = 48 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *value = 227 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *value = 32; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
CUresult total_mem(size_t* bytes, CUdevice) { *bytes = size_t(141) << 30; return CUDA_SUCCESS; }

// Each device's primary context: device 0's, then one 0x100 further for each ordinal.
CUcontext context_of(CUdevice device) { return reinterpret_cast<CUcontext>(0x1000 + 0x100 * uintptr_t(device)); }
thread_local CUcontext current_ctx = nullptr;  // per thread, as the driver keeps it
CUresult ctx_retain(CUcontext* c, CUdevice device) {
  PK_FAKE_ENTER("cuDevicePrimaryCtxRetain");
  ++fake->contexts_retained;
  *c = context_of(device);
  return CUDA_SUCCESS;
}
CUresult ctx_release(CUdevice) {
  if (CUresult r = wait("cuDevicePrimaryCtxRelease"); r != CUDA_SUCCESS) return r;
  --fake->contexts_retained;
  return CUDA_SUCCESS;
}
CUresult ctx_get_current(CUcontext* c) { *c = current_ctx; return CUDA_SUCCESS; }
CUresult ctx_set_current(CUcontext c) { PK_FAKE_ENTER("cuCtxSetCurrent"); current_ctx = c; return CUDA_SUCCESS; }
CUresult ctx_synchronize() { PK_FAKE_ENTER("cuCtxSynchronize"); return wait("cuCtxSynchronize"); }
CUresult ctx_get_limit(size_t* value, CUlimit limit) {
  PK_FAKE_ENTER("cuCtxGetLimit");
  if (limit != CU_LIMIT_PRINTF_FIFO_SIZE) return CUDA_ERROR_INVALID_VALUE;
  *value = fake->printf_fifo_bytes;
  return CUDA_SUCCESS;
}
CUresult ctx_set_limit(CUlimit limit, size_t value) {
  PK_FAKE_ENTER("cuCtxSetLimit");
  if (limit != CU_LIMIT_PRINTF_FIFO_SIZE) return CUDA_ERROR_INVALID_VALUE;
  fake->printf_fifo_bytes = value;
  fake->printf_fifo_context = current_ctx;
  return CUDA_SUCCESS;
}

CUmodule the_module = reinterpret_cast<CUmodule>(0x2000);
CUfunction the_function = reinterpret_cast<CUfunction>(0x3000);
CUresult module_load(CUmodule* m, const void* image, unsigned options, CUjit_option*, void** values) {
  PK_FAKE_ENTER("cuModuleLoadDataEx");
  const char* bytes = static_cast<const char*>(image);
  bool elf = std::memcmp(bytes, "\x7f" "ELF", 4) == 0;
  fake->loaded_images.push_back(elf ? std::string("cubin") : std::string(bytes));
  fake->jit_option_counts.push_back(options);
  fake->module_contexts.push_back(current_ctx);
  ++fake->modules_loaded;
  *m = the_module;
  return CUDA_SUCCESS;
}
CUresult module_unload(CUmodule) {
  if (CUresult r = wait("cuModuleUnload"); r != CUDA_SUCCESS) return r;
  --fake->modules_loaded;
  return CUDA_SUCCESS;
}
CUresult module_get_function(CUfunction* f, CUmodule, const char* name) {
  PK_FAKE_ENTER("cuModuleGetFunction");
  *f = the_function;
  return std::strncmp(name, "pk_kernel_py_", 13) == 0 ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}
CUresult module_get_global(CUdeviceptr* p, size_t* bytes, CUmodule, const char* name) {
  PK_FAKE_ENTER("cuModuleGetGlobal");
  if (std::strcmp(name, "pk_error_record") != 0) return CUDA_ERROR_NOT_FOUND;
  *p = reinterpret_cast<CUdeviceptr>(fake->error_record.data());
  *bytes = fake->error_record.size();
  return CUDA_SUCCESS;
}
CUresult func_get_attribute(int* value, CUfunction_attribute a, CUfunction) {
  if (a == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK) *value = fake->function_max_threads;
  else if (a == CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) *value = fake->function_static_shared;
  else return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}
CUresult func_set_attribute(CUfunction, CUfunction_attribute a, int value) {
  PK_FAKE_ENTER("cuFuncSetAttribute");
  if (a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    fake->dynamic_shared_set = value;
    fake->dynamic_shared_context = current_ctx;
  }
  return CUDA_SUCCESS;
}
bool capture_launch(const FakeLaunch& launch, void** params);  // below, with the graphs
bool capture_copy(CUstream stream, void* to, const void* from, size_t bytes);

// Runs the test's stand-in for the kernel and keeps the launch.
CUresult run_launch(FakeLaunch launch, void** params) {
  if (capture_launch(launch, params)) return CUDA_SUCCESS;
  for (int i = 0; i < fake->parameter_count; ++i) launch.params.push_back(params[i]);
  launch.context = current_ctx;
  if (fake->kernel) fake->kernel(launch);
  fake->launches.push_back(launch);
  return CUDA_SUCCESS;
}
CUresult launch_kernel(CUfunction, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                       unsigned shared, CUstream stream, void** params, void**) {
  PK_FAKE_ENTER("cuLaunchKernel");
  return run_launch({{gx, gy, gz}, {bx, by, bz}, shared, stream, {}, false}, params);
}
CUresult launch_cooperative_kernel(CUfunction, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned shared, CUstream stream, void** params) {
  PK_FAKE_ENTER("cuLaunchCooperativeKernel");
  return run_launch({{gx, gy, gz}, {bx, by, bz}, shared, stream, {}, true}, params);
}
CUresult occupancy_max_blocks(int* blocks, CUfunction, int, size_t) {
  PK_FAKE_ENTER("cuOccupancyMaxActiveBlocksPerMultiprocessor");
  *blocks = fake->blocks_per_multiprocessor;
  return CUDA_SUCCESS;
}

bool free_managed(CUdeviceptr p);  // below, with cuMemAllocManaged

CUresult mem_alloc(CUdeviceptr* p, size_t bytes) {
  PK_FAKE_ENTER("cuMemAlloc");
  *p = reinterpret_cast<CUdeviceptr>(std::calloc(1, bytes));
  fake->device_memory[*p] = bytes;
  return CUDA_SUCCESS;
}
CUresult mem_free(CUdeviceptr p) {
  fake->calls.push_back("cuMemFree");
  if (CUresult r = wait("cuMemFree"); r != CUDA_SUCCESS) return r;
  if (free_managed(p)) return CUDA_SUCCESS;
  if (fake->device_memory.erase(p) == 0) fake->freed_unknown_pointer = true;
  std::free(reinterpret_cast<void*>(p));
  return CUDA_SUCCESS;
}
CUresult mem_alloc_host(void** p, size_t bytes) {
  PK_FAKE_ENTER("cuMemAllocHost");
  *p = std::calloc(1, bytes);
  fake->pinned_memory[*p] = bytes;
  return CUDA_SUCCESS;
}
CUresult mem_free_host(void* p) {
  if (CUresult r = wait("cuMemFreeHost"); r != CUDA_SUCCESS) return r;
  if (fake->pinned_memory.erase(p) == 0) fake->freed_unknown_pointer = true;
  std::free(p);
  return CUDA_SUCCESS;
}
CUresult mem_alloc_managed(CUdeviceptr* p, size_t bytes, unsigned flags) {
  PK_FAKE_ENTER("cuMemAllocManaged");
  if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST) return CUDA_ERROR_INVALID_VALUE;
  *p = reinterpret_cast<CUdeviceptr>(std::calloc(1, bytes));
  fake->managed_memory[*p] = bytes;
  return CUDA_SUCCESS;
}
// cuMemFree frees managed memory too.
bool free_managed(CUdeviceptr p) {
  if (fake->managed_memory.erase(p) == 0) return false;
  std::free(reinterpret_cast<void*>(p));
  return true;
}
CUresult mem_host_alloc(void** p, size_t bytes, unsigned) {
  PK_FAKE_ENTER("cuMemHostAlloc");
  *p = std::calloc(1, bytes);
  fake->pinned_memory[*p] = bytes;
  return CUDA_SUCCESS;
}
CUresult mem_host_get_device_pointer(CUdeviceptr* device, void* host, unsigned) {
  PK_FAKE_ENTER("cuMemHostGetDevicePointer");
  *device = reinterpret_cast<CUdeviceptr>(host) + (fake->maps_elsewhere ? 0x10000 : 0);
  return CUDA_SUCCESS;
}
CUresult mem_host_register(void* p, size_t bytes, unsigned flags) {
  PK_FAKE_ENTER("cuMemHostRegister");
  if (fake->registered_memory.count(p)) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  fake->registered_memory[p] = {bytes, flags};
  return CUDA_SUCCESS;
}
CUresult mem_host_unregister(void* p) {
  PK_FAKE_ENTER("cuMemHostUnregister");
  if (fake->registered_memory.erase(p) == 0) fake->freed_unknown_pointer = true;
  return CUDA_SUCCESS;
}
CUresult mem_get_info(size_t* free, size_t* total) {
  PK_FAKE_ENTER("cuMemGetInfo");
  *free = fake->free_bytes;
  *total = size_t(141) << 30;
  return CUDA_SUCCESS;
}
// The allocation `p` falls in, among `memory`'s: its start and size.
template <class Map> bool find_allocation(const Map& memory, uintptr_t p, uintptr_t* start, size_t* bytes) {
  for (const auto& [base, size] : memory) {
    uintptr_t b = 0;
    std::memcpy(&b, &base, sizeof b);  // a CUdeviceptr or a void*
    if (p >= b && p < b + size) return *start = b, *bytes = size, true;
  }
  return false;
}
CUresult pointer_get_attribute(void* value, CUpointer_attribute attribute, CUdeviceptr pointer) {
  PK_FAKE_ENTER("cuPointerGetAttribute");
  uintptr_t start = 0;
  size_t bytes = 0;
  auto p = static_cast<uintptr_t>(pointer);
  unsigned type = CU_MEMORYTYPE_DEVICE, managed = 0;
  if (find_allocation(fake->managed_memory, p, &start, &bytes)) managed = 1;
  else if (find_allocation(fake->pinned_memory, p, &start, &bytes)) type = CU_MEMORYTYPE_HOST;
  else if (!find_allocation(fake->device_memory, p, &start, &bytes)) return CUDA_ERROR_INVALID_VALUE;
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *static_cast<unsigned*>(value) = type; break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: *static_cast<unsigned*>(value) = managed; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *static_cast<int*>(value) = 0; break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *static_cast<CUdeviceptr*>(value) = start; break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *static_cast<size_t*>(value) = bytes; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
// A handle holds a mark and the allocation's address; opening it maps that address again.
constexpr char ipc_mark[] = "fake-ipc";
CUresult ipc_get_mem_handle(CUipcMemHandle* handle, CUdeviceptr base) {
  PK_FAKE_ENTER("cuIpcGetMemHandle");
  if (!fake->device_memory.count(base)) return CUDA_ERROR_INVALID_VALUE;
  std::memset(handle, 0, sizeof *handle);
  std::memcpy(handle->reserved, ipc_mark, sizeof ipc_mark);
  std::memcpy(handle->reserved + 16, &base, sizeof base);
  return CUDA_SUCCESS;
}
CUresult ipc_open_mem_handle(CUdeviceptr* base, CUipcMemHandle handle, unsigned) {
  PK_FAKE_ENTER("cuIpcOpenMemHandle");
  if (std::memcmp(handle.reserved, ipc_mark, sizeof ipc_mark) != 0) return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(base, handle.reserved + 16, sizeof *base);
  if (!fake->device_memory.count(*base)) return CUDA_ERROR_INVALID_VALUE;
  ++fake->ipc_mappings;
  return CUDA_SUCCESS;
}
CUresult ipc_close_mem_handle(CUdeviceptr) {
  PK_FAKE_ENTER("cuIpcCloseMemHandle");
  --fake->ipc_mappings;
  return CUDA_SUCCESS;
}
CUresult htod(CUdeviceptr to, const void* from, size_t bytes, CUstream stream) {
  PK_FAKE_ENTER("cuMemcpyHtoDAsync");
  if (capture_copy(stream, reinterpret_cast<void*>(to), from, bytes)) return CUDA_SUCCESS;
  std::memcpy(reinterpret_cast<void*>(to), from, bytes);
  return CUDA_SUCCESS;
}
CUresult dtoh(void* to, CUdeviceptr from, size_t bytes, CUstream stream) {
  PK_FAKE_ENTER("cuMemcpyDtoHAsync");
  if (capture_copy(stream, to, reinterpret_cast<const void*>(from), bytes)) return CUDA_SUCCESS;
  std::memcpy(to, reinterpret_cast<const void*>(from), bytes);
  return CUDA_SUCCESS;
}
CUresult dtod(CUdeviceptr to, CUdeviceptr from, size_t bytes, CUstream stream) {
  PK_FAKE_ENTER("cuMemcpyDtoDAsync");
  if (capture_copy(stream, reinterpret_cast<void*>(to), reinterpret_cast<const void*>(from), bytes)) return CUDA_SUCCESS;
  std::memcpy(reinterpret_cast<void*>(to), reinterpret_cast<const void*>(from), bytes);
  return CUDA_SUCCESS;
}
// Rows of WidthInBytes, each side's pitch apart; device and host memory are both host memory here.
CUresult memcpy_2d(const CUDA_MEMCPY2D* copy, CUstream) {
  PK_FAKE_ENTER("cuMemcpy2DAsync");
  fake->copies_2d.push_back(*copy);
  auto* from = copy->srcMemoryType == CU_MEMORYTYPE_HOST ? static_cast<const char*>(copy->srcHost)
                                                         : reinterpret_cast<const char*>(copy->srcDevice);
  auto* to = copy->dstMemoryType == CU_MEMORYTYPE_HOST ? static_cast<char*>(copy->dstHost)
                                                       : reinterpret_cast<char*>(copy->dstDevice);
  if (copy->srcPitch < copy->WidthInBytes || copy->dstPitch < copy->WidthInBytes) return CUDA_ERROR_INVALID_VALUE;
  for (size_t row = 0; row < copy->Height; ++row)
    std::memcpy(to + row * copy->dstPitch, from + row * copy->srcPitch, copy->WidthInBytes);
  return CUDA_SUCCESS;
}
CUresult memset_d8(CUdeviceptr p, unsigned char value, size_t bytes, CUstream) {
  PK_FAKE_ENTER("cuMemsetD8Async");
  std::memset(reinterpret_cast<void*>(p), value, bytes);
  return CUDA_SUCCESS;
}

CUresult stream_create(CUstream* s, unsigned) {
  PK_FAKE_ENTER("cuStreamCreate");
  *s = reinterpret_cast<CUstream>(0x4000 + ++fake->streams_live);
  return CUDA_SUCCESS;
}
CUresult stream_create_with_priority(CUstream* s, unsigned flags, int priority) {
  PK_FAKE_ENTER("cuStreamCreateWithPriority");
  fake->stream_requests.push_back({flags, priority});
  *s = reinterpret_cast<CUstream>(0x4000 + ++fake->streams_live);
  return CUDA_SUCCESS;
}
// As recent GPUs: priorities 0 (lowest) to -5 (highest).
CUresult ctx_stream_priority_range(int* least, int* greatest) {
  PK_FAKE_ENTER("cuCtxGetStreamPriorityRange");
  *least = 0;
  *greatest = -5;
  return CUDA_SUCCESS;
}
CUresult stream_wait_event(CUstream stream, CUevent event, unsigned) {
  PK_FAKE_ENTER("cuStreamWaitEvent");
  fake->stream_waits.push_back({stream, event});
  return CUDA_SUCCESS;
}
// The work queued so far is done at once here: the callback runs now, with the stream's state.
CUresult stream_add_callback(CUstream stream, CUstreamCallback callback, void* data, unsigned) {
  PK_FAKE_ENTER("cuStreamAddCallback");
  fake->callback_streams.push_back(stream);
  callback(stream, fake->fault, data);
  return CUDA_SUCCESS;
}
CUresult stream_destroy(CUstream) { --fake->streams_live; return CUDA_SUCCESS; }
// What a call that waits for the device answers: the fault, or for ever when the kernel never ends.
CUresult wait(const char* call) {
  if (!fake->kernel_never_ends) return fake->fault;
  fake->waited_for_ever.push_back(call);
  return CUDA_ERROR_LAUNCH_TIMEOUT;
}
CUresult stream_synchronize(CUstream stream) {
  PK_FAKE_ENTER("cuStreamSynchronize");
  // As the driver: waiting for a capturing stream invalidates its capture.
  if (fake->capturing.count(stream)) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  return wait("cuStreamSynchronize");
}
CUresult stream_query(CUstream) {
  PK_FAKE_ENTER("cuStreamQuery");
  if (fake->kernel_never_ends) return CUDA_ERROR_NOT_READY;
  if (fake->queries_until_done > 0) {
    --fake->queries_until_done;
    return CUDA_ERROR_NOT_READY;
  }
  return fake->fault;
}
CUresult event_create(CUevent* e, unsigned) {
  PK_FAKE_ENTER("cuEventCreate");
  *e = reinterpret_cast<CUevent>(0x5000 + ++fake->events_live);
  return CUDA_SUCCESS;
}
CUresult event_destroy(CUevent) { --fake->events_live; return CUDA_SUCCESS; }
CUresult event_record(CUevent, CUstream) { PK_FAKE_ENTER("cuEventRecord"); return CUDA_SUCCESS; }
CUresult event_synchronize(CUevent) { PK_FAKE_ENTER("cuEventSynchronize"); return wait("cuEventSynchronize"); }
CUresult event_query(CUevent) {
  PK_FAKE_ENTER("cuEventQuery");
  if (fake->events_not_ready > 0) {
    --fake->events_not_ready;
    return CUDA_ERROR_NOT_READY;
  }
  return fake->fault;
}
CUresult profiler_start() { PK_FAKE_ENTER("cuProfilerStart"); return CUDA_SUCCESS; }
CUresult profiler_stop() { PK_FAKE_ENTER("cuProfilerStop"); return CUDA_SUCCESS; }
CUresult event_elapsed(float* ms, CUevent, CUevent) { PK_FAKE_ENTER("cuEventElapsedTime"); *ms = 1.5f; return CUDA_SUCCESS; }

// A graph is what a capture recorded: launches (their parameters' bytes kept) and copies.
struct FakeNode {
  FakeLaunch launch;
  std::vector<std::vector<unsigned char>> parameters;  // empty for a copy
  void* to = nullptr;
  const void* from = nullptr;
  size_t bytes = 0;
  bool is_copy = false;
};
struct FakeGraph {
  std::vector<FakeNode> nodes;
};
std::map<CUstream, FakeGraph> captures;  // the graph each capturing stream is recording

bool capture_launch(const FakeLaunch& launch, void** params) {
  auto capture = captures.find(launch.stream);
  if (capture == captures.end()) return false;
  FakeNode node{launch, {}};
  for (int i = 0; i < fake->parameter_count; ++i) {
    auto* bytes = static_cast<const unsigned char*>(params[i]);
    node.parameters.emplace_back(bytes, bytes + fake->captured_parameter_bytes);
  }
  capture->second.nodes.push_back(std::move(node));
  return true;
}
bool capture_copy(CUstream stream, void* to, const void* from, size_t bytes) {
  auto capture = captures.find(stream);
  if (capture == captures.end()) return false;
  FakeNode node{};
  node.is_copy = true;
  node.to = to;
  node.from = from;
  node.bytes = bytes;
  capture->second.nodes.push_back(node);
  return true;
}
CUresult stream_begin_capture(CUstream stream, CUstreamCaptureMode mode) {
  PK_FAKE_ENTER("cuStreamBeginCapture");
  if (stream == nullptr || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  if (fake->capturing.count(stream)) return CUDA_ERROR_ILLEGAL_STATE;
  fake->capturing[stream] = mode;
  captures[stream] = FakeGraph{};
  return CUDA_SUCCESS;
}
CUresult stream_end_capture(CUstream stream, CUgraph* graph) {
  PK_FAKE_ENTER("cuStreamEndCapture");
  auto capture = captures.find(stream);
  if (capture == captures.end()) return CUDA_ERROR_ILLEGAL_STATE;
  *graph = reinterpret_cast<CUgraph>(new FakeGraph(std::move(capture->second)));
  captures.erase(capture);
  fake->capturing.erase(stream);
  ++fake->graphs_live;
  return CUDA_SUCCESS;
}
CUresult stream_is_capturing(CUstream stream, CUstreamCaptureStatus* status) {
  PK_FAKE_ENTER("cuStreamIsCapturing");
  *status = fake->capturing.count(stream) ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}
CUresult graph_instantiate(CUgraphExec* exec, CUgraph graph, unsigned long long) {
  PK_FAKE_ENTER("cuGraphInstantiateWithFlags");
  *exec = reinterpret_cast<CUgraphExec>(new FakeGraph(*reinterpret_cast<FakeGraph*>(graph)));
  ++fake->graph_execs_live;
  return CUDA_SUCCESS;
}
CUresult graph_get_nodes(CUgraph graph, CUgraphNode*, size_t* count) {
  PK_FAKE_ENTER("cuGraphGetNodes");
  *count = reinterpret_cast<FakeGraph*>(graph)->nodes.size();
  return CUDA_SUCCESS;
}
// Runs the nodes in order on `stream`: each launch is kept, and runs the test's stand-in.
CUresult graph_launch(CUgraphExec exec, CUstream stream) {
  PK_FAKE_ENTER("cuGraphLaunch");
  ++fake->graph_launches;
  for (FakeNode& node : reinterpret_cast<FakeGraph*>(exec)->nodes) {
    if (node.is_copy) {
      std::memcpy(node.to, node.from, node.bytes);
      continue;
    }
    FakeLaunch launch = node.launch;
    launch.stream = stream;
    for (auto& p : node.parameters) launch.params.push_back(p.data());
    if (fake->kernel) fake->kernel(launch);
    fake->launches.push_back(launch);
  }
  return CUDA_SUCCESS;
}
// As the driver: the same nodes in the same order (kernels with the same grid) take the new
// parameters; anything else is a topology change.
CUresult graph_exec_update(CUgraphExec exec, CUgraph graph, CUgraphExecUpdateResultInfo* info) {
  PK_FAKE_ENTER("cuGraphExecUpdate");
  auto& to = *reinterpret_cast<FakeGraph*>(exec);
  const auto& from = *reinterpret_cast<FakeGraph*>(graph);
  bool same = to.nodes.size() == from.nodes.size();
  for (size_t i = 0; same && i < to.nodes.size(); ++i)
    same = to.nodes[i].is_copy == from.nodes[i].is_copy &&
           std::memcmp(to.nodes[i].launch.grid, from.nodes[i].launch.grid, sizeof to.nodes[i].launch.grid) == 0;
  if (!same) {
    info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
    return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  }
  to = from;
  info->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  return CUDA_SUCCESS;
}
CUresult graph_destroy(CUgraph graph) {
  fake->calls.push_back("cuGraphDestroy");
  delete reinterpret_cast<FakeGraph*>(graph);
  --fake->graphs_live;
  return CUDA_SUCCESS;
}
CUresult graph_exec_destroy(CUgraphExec exec) {
  fake->calls.push_back("cuGraphExecDestroy");
  delete reinterpret_cast<FakeGraph*>(exec);
  --fake->graph_execs_live;
  return CUDA_SUCCESS;
}
CUresult device_can_access_peer(int* can, CUdevice device, CUdevice peer) {
  PK_FAKE_ENTER("cuDeviceCanAccessPeer");
  if (device < 0 || device >= fake->devices || peer < 0 || peer >= fake->devices) return CUDA_ERROR_INVALID_DEVICE;
  *can = fake->peers_can_access && device != peer;
  return CUDA_SUCCESS;
}
CUresult ctx_enable_peer_access(CUcontext peer, unsigned) {
  PK_FAKE_ENTER("cuCtxEnablePeerAccess");
  if (current_ctx == nullptr) return CUDA_ERROR_INVALID_CONTEXT;
  if (!fake->peers_can_access || peer == current_ctx) return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
  for (CUcontext c : fake->peer_contexts_enabled)
    if (c == peer) return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
  fake->peer_contexts_enabled.push_back(peer);
  return CUDA_SUCCESS;
}
CUresult ctx_disable_peer_access(CUcontext peer) {
  PK_FAKE_ENTER("cuCtxDisablePeerAccess");
  auto& enabled = fake->peer_contexts_enabled;
  auto at = std::find(enabled.begin(), enabled.end(), peer);
  if (at == enabled.end()) return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
  enabled.erase(at);
  return CUDA_SUCCESS;
}
CUresult primary_ctx_reset(CUdevice device) {
  PK_FAKE_ENTER("cuDevicePrimaryCtxReset");
  fake->devices_reset.push_back(device);
  return CUDA_SUCCESS;
}

CUresult error_name(CUresult r, const char** name) {
  *name = r == CUDA_ERROR_OUT_OF_MEMORY     ? "CUDA_ERROR_OUT_OF_MEMORY"
          : r == CUDA_ERROR_ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS"
          : r == CUDA_ERROR_INVALID_PTX     ? "CUDA_ERROR_INVALID_PTX"
          : r == CUDA_ERROR_MISALIGNED_ADDRESS ? "CUDA_ERROR_MISALIGNED_ADDRESS"
                                            : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}
CUresult error_string(CUresult r, const char** text) {
  *text = r == CUDA_ERROR_OUT_OF_MEMORY     ? "out of memory"
          : r == CUDA_ERROR_ILLEGAL_ADDRESS ? "an illegal memory access was encountered"
                                            : "something failed";
  return CUDA_SUCCESS;
}

}  // namespace

FakeDriver::FakeDriver() {
  fake = this;
  current_ctx = nullptr;
  pykern::cuda::Driver& d = table;
  d.init = init;
  d.device_count = device_count;
  d.device_get = device_get;
  d.device_name = device_name;
  d.device_attribute = device_attribute;
  d.device_total_mem = total_mem;
  d.primary_ctx_retain = ctx_retain;
  d.primary_ctx_release = ctx_release;
  d.ctx_get_current = ctx_get_current;
  d.ctx_set_current = ctx_set_current;
  d.ctx_synchronize = ctx_synchronize;
  d.ctx_get_limit = ctx_get_limit;
  d.ctx_set_limit = ctx_set_limit;
  d.module_load_data_ex = module_load;
  d.module_unload = module_unload;
  d.module_get_function = module_get_function;
  d.module_get_global = module_get_global;
  d.func_get_attribute = func_get_attribute;
  d.func_set_attribute = func_set_attribute;
  d.launch_kernel = launch_kernel;
  d.launch_cooperative_kernel = launch_cooperative_kernel;
  d.occupancy_max_blocks = occupancy_max_blocks;
  d.mem_alloc = mem_alloc;
  d.mem_free = mem_free;
  d.mem_alloc_host = mem_alloc_host;
  d.mem_free_host = mem_free_host;
  d.memcpy_htod_async = htod;
  d.memcpy_dtoh_async = dtoh;
  d.memcpy_dtod_async = dtod;
  d.memcpy_2d_async = memcpy_2d;
  d.memset_d8_async = memset_d8;
  d.stream_create = stream_create;
  d.stream_destroy = stream_destroy;
  d.stream_synchronize = stream_synchronize;
  d.stream_query = stream_query;
  d.event_create = event_create;
  d.event_destroy = event_destroy;
  d.event_record = event_record;
  d.event_synchronize = event_synchronize;
  d.event_elapsed_time = event_elapsed;
  d.mem_alloc_managed = mem_alloc_managed;
  d.mem_host_alloc = mem_host_alloc;
  d.mem_host_get_device_pointer = mem_host_get_device_pointer;
  d.mem_host_register = mem_host_register;
  d.mem_host_unregister = mem_host_unregister;
  d.mem_get_info = mem_get_info;
  d.pointer_get_attribute = pointer_get_attribute;
  d.ipc_get_mem_handle = ipc_get_mem_handle;
  d.ipc_open_mem_handle = ipc_open_mem_handle;
  d.ipc_close_mem_handle = ipc_close_mem_handle;
  d.stream_create_with_priority = stream_create_with_priority;
  d.ctx_stream_priority_range = ctx_stream_priority_range;
  d.stream_wait_event = stream_wait_event;
  d.stream_add_callback = stream_add_callback;
  d.event_query = event_query;
  d.profiler_start = profiler_start;
  d.profiler_stop = profiler_stop;
  d.stream_begin_capture = stream_begin_capture;
  d.stream_end_capture = stream_end_capture;
  d.stream_is_capturing = stream_is_capturing;
  d.graph_instantiate = graph_instantiate;
  d.graph_launch = graph_launch;
  d.graph_exec_update = graph_exec_update;
  d.graph_get_nodes = graph_get_nodes;
  d.graph_destroy = graph_destroy;
  d.graph_exec_destroy = graph_exec_destroy;
  d.device_can_access_peer = device_can_access_peer;
  d.ctx_enable_peer_access = ctx_enable_peer_access;
  d.ctx_disable_peer_access = ctx_disable_peer_access;
  d.primary_ctx_reset = primary_ctx_reset;
  d.error_name = error_name;
  d.error_string = error_string;
}

FakeDriver::~FakeDriver() {
  pykern::cuda::Gpu::select(nullptr);
  // What is still allocated goes as at a process's exit: memory a stuck GPU keeps on purpose
  // (freeing it would wait for the kernel), or a failing test's.
  for (const auto& [pointer, bytes] : device_memory) std::free(reinterpret_cast<void*>(pointer));
  for (const auto& [pointer, bytes] : pinned_memory) std::free(pointer);
  for (const auto& [pointer, bytes] : managed_memory) std::free(reinterpret_cast<void*>(pointer));
  captures.clear();
  fake = nullptr;
}

std::shared_ptr<pykern::cuda::Gpu> FakeDriver::select_gpu() {
  auto gpu = pykern::cuda::Gpu::open(table, 0);
  if (!gpu.ok()) return nullptr;
  pykern::cuda::Gpu::select(*gpu);
  return *gpu;
}

CUcontext FakeDriver::current_context() { return current_ctx; }
void FakeDriver::make_current(CUcontext context) { current_ctx = context; }
CUcontext FakeDriver::gpu_context(int ordinal) { return context_of(ordinal); }

int FakeDriver::count(const std::string& call) const {
  int n = 0;
  for (const std::string& c : calls) n += c == call;
  return n;
}

}  // namespace test
