// Memory both the host and the GPU address (managed and mapped), host memory page-locked in
// place, and how much memory the GPU has free: the memory kinds numba.cuda offers beyond
// device_array and pinned_array.
#include <fmt/format.h>

#include "cuda/memory.h"

namespace pykern::cuda {

namespace {

// A mapped host allocation is used through its host address, as the GPU's address for it is
// the same wherever the driver has unified addressing (every 64-bit platform CUDA 12 runs on).
// Checked, not assumed.
Status check_same_address(const Driver& d, void* host, const std::string& what) {
  CUdeviceptr device = 0;
  if (auto s = d.check(d.mem_host_get_device_pointer(&device, host, 0), "cuMemHostGetDevicePointer", what); !s.ok())
    return s;
  if (reinterpret_cast<void*>(device) != host)
    return Error::make(ErrorKind::driver, fmt::format("{}: the GPU maps it at another address than the host's (the "
                                                      "driver has no unified addressing), which pykern does not support",
                                                      what));
  return ok_status();
}

}  // namespace

Result<Array> managed_array(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order) {
  auto allocate = [](const Driver& d, void** p, size_t bytes) {
    CUdeviceptr managed = 0;
    CUresult r = d.mem_alloc_managed(&managed, bytes, CU_MEM_ATTACH_GLOBAL);
    *p = reinterpret_cast<void*>(managed);
    return r;
  };
  auto release = [](const Driver& d, void* p) { d.mem_free(device_pointer(p)); };
  return new_allocation(gpu, std::move(dtype), std::move(shape), order, Location::unified, allocate, release,
                        "cuMemAllocManaged", "a managed array");
}

Result<Array> mapped_array(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order) {
  // PORTABLE: pinned for every context, as numba.cuda.mapped_array(portable=True) asks.
  auto allocate = [](const Driver& d, void** p, size_t bytes) {
    return d.mem_host_alloc(p, bytes, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
  };
  auto release = [](const Driver& d, void* p) { d.mem_free_host(p); };
  auto mapped = new_allocation(gpu, std::move(dtype), std::move(shape), order, Location::unified, allocate, release,
                               "cuMemHostAlloc", "a mapped array");
  if (!mapped.ok()) return mapped;
  ContextScope bound(*gpu);
  if (!bound.ok()) return bound.status().error();
  if (auto s = check_same_address(gpu->driver(), mapped->data(), "a mapped array"); !s.ok()) return s.error();
  return mapped;
}

Result<Array> register_host(const std::shared_ptr<Gpu>& gpu, const Array& host, bool mapped) {
  if (host.location() != Location::host)
    return Error::make(ErrorKind::invalid_argument,
                       "register_host page-locks host memory in place; this array is not host memory");
  Span span = span_of(host);
  if (span.bytes == 0) return host;  // nothing to lock
  ContextScope bound(*gpu);
  if (!bound.ok()) return bound.status().error();
  const Driver& d = gpu->driver();
  std::string what = fmt::format("{} bytes of host memory at {}", span.bytes, static_cast<void*>(span.lowest));
  unsigned flags = CU_MEMHOSTREGISTER_PORTABLE | (mapped ? CU_MEMHOSTREGISTER_DEVICEMAP : 0u);
  if (auto s = d.check(d.mem_host_register(span.lowest, span.bytes, flags), "cuMemHostRegister", what); !s.ok())
    return s.error();
  // The view's owner undoes the registration with the last view, and keeps the host array's
  // storage alive until then.
  std::shared_ptr<void> owner(span.lowest, [gpu, keep = host](void* p) {
    ContextScope bound(*gpu);
    if (bound.ok()) gpu->driver().mem_host_unregister(p);
  });
  if (mapped)
    if (auto s = check_same_address(d, span.lowest, what); !s.ok()) return s.error();
  Location location = mapped ? Location::unified : Location::host;
  return Array::adopt(std::move(owner), host.data(), host.dtype(), host.shape(), host.strides(), location,
                      gpu->info().ordinal)
      .with_label(host.label());
}

Result<PointerFacts> pointer_facts(const Gpu& gpu, const void* pointer) {
  ContextScope bound(gpu);
  if (!bound.ok()) return bound.status().error();
  const Driver& d = gpu.driver();
  CUdeviceptr p = device_pointer(pointer);
  std::string what = fmt::format("the memory at {}", pointer);
  unsigned memory_type = 0, managed = 0;
  int device = 0;
  CUdeviceptr start = 0;
  size_t bytes = 0;
  CUresult asked = d.pointer_get_attribute(&memory_type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p);
  if (asked == CUDA_ERROR_INVALID_VALUE)
    return Error::make(ErrorKind::invalid_argument, fmt::format("{} is not memory the CUDA driver allocated or "
                                                                "registered (a host pointer? a stray one?)", what));
  for (auto [result, call] : {std::pair{asked, "cuPointerGetAttribute (memory type)"},
                              {d.pointer_get_attribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, p), "cuPointerGetAttribute (managed)"},
                              {d.pointer_get_attribute(&device, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, p), "cuPointerGetAttribute (device)"},
                              {d.pointer_get_attribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, p), "cuPointerGetAttribute (range)"},
                              {d.pointer_get_attribute(&bytes, CU_POINTER_ATTRIBUTE_RANGE_SIZE, p), "cuPointerGetAttribute (size)"}})
    if (auto s = d.check(result, call, what); !s.ok()) return s.error();
  PointerFacts facts;
  facts.location = managed || memory_type == CU_MEMORYTYPE_HOST ? Location::unified : Location::device;
  facts.device = device;
  facts.start = reinterpret_cast<const std::byte*>(start);
  facts.bytes = bytes;
  return facts;
}

Result<IpcExport> ipc_export(const Gpu& gpu, const void* pointer) {
  auto facts = pointer_facts(gpu, pointer);
  if (!facts.ok()) return facts.error();
  if (facts->location != Location::device)
    return Error::make(ErrorKind::invalid_argument, "CUDA IPC shares device memory (cuMemAlloc's); managed and mapped "
                                                    "memory cannot be shared through it");
  ContextScope bound(gpu);
  if (!bound.ok()) return bound.status().error();
  const Driver& d = gpu.driver();
  IpcExport exported{};
  if (auto s = d.check(d.ipc_get_mem_handle(&exported.handle, device_pointer(facts->start)), "cuIpcGetMemHandle",
                       "an IPC handle");
      !s.ok())
    return s.error();
  exported.offset = static_cast<size_t>(static_cast<const std::byte*>(pointer) - facts->start);
  return exported;
}

Result<std::shared_ptr<void>> ipc_open(const std::shared_ptr<Gpu>& gpu, const CUipcMemHandle& handle) {
  ContextScope bound(*gpu);
  if (!bound.ok()) return bound.status().error();
  const Driver& d = gpu->driver();
  CUdeviceptr base = 0;
  if (auto s = d.check(d.ipc_open_mem_handle(&base, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS), "cuIpcOpenMemHandle",
                       "another process's device memory");
      !s.ok())
    return s.error();
  return std::shared_ptr<void>(reinterpret_cast<void*>(base), [gpu](void* p) {
    ContextScope bound(*gpu);
    if (bound.ok()) gpu->driver().ipc_close_mem_handle(device_pointer(p));
  });
}

Result<MemoryInfo> memory_info(const Gpu& gpu) {
  ContextScope bound(gpu);
  if (!bound.ok()) return bound.status().error();
  const Driver& d = gpu.driver();
  MemoryInfo info;
  if (auto s = d.check(d.mem_get_info(&info.free, &info.total), "cuMemGetInfo", "the GPU's free memory"); !s.ok())
    return s.error();
  return info;
}

}  // namespace pykern::cuda
