// Device and pinned memory as Arrays, and the copies between host and device.
//
// A copy moves the bytes in one transfer when both sides are contiguous with the same layout.
// A strided device view whose elements are mostly gaps, or come in wide runs, moves as rows
// (cuMemcpy2D) through a packed host buffer; other views go through a host buffer laid out like
// the device's span, so the gaps of a strided device view are never overwritten.
#pragma once
#include <memory>

#include "cuda/gpu.h"
#include "pykern/array.h"

namespace pykern::cuda {

// A host-side pointer value as the driver's device address (unified addressing: the same bits).
inline CUdeviceptr device_pointer(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

// The bytes an array's elements span, from its lowest element to the end of its highest.
struct Span {
  std::byte* lowest = nullptr;
  size_t bytes = 0;
};
Span span_of(const Array& a);
// The bytes a new contiguous array needs (at least one: the driver refuses empty allocations).
size_t allocation_bytes(const DType& dtype, const std::vector<int64_t>& shape);

// A new contiguous array at `location` over an allocation: `allocate` makes it with the driver
// (`call` and `what` name it in an error), `release` frees it with the last view of the array,
// in the GPU's context. What every kind of memory below is made with.
using Allocate = CUresult (*)(const Driver& driver, void** pointer, size_t bytes);
using Release = void (*)(const Driver& driver, void* pointer);
Result<Array> new_allocation(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order,
                             Location location, Allocate allocate, Release release, const char* call, const char* what);

// Uninitialised device memory (as numba.cuda.device_array), freed with the last view of it.
Result<Array> device_array(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order);
// Page-locked host memory (numba.cuda.pinned_array): copies from and to it run at full speed
// and can overlap kernels.
Result<Array> pinned_array(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order);

// The kinds of memory beyond these two are in memory_kinds.cpp.
// Managed (unified) memory (numba.cuda.managed_array): one address the host and the GPU both
// use, migrated by the driver; Location::unified.
Result<Array> managed_array(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order);
// Page-locked host memory mapped into the GPU's address space (numba.cuda.mapped_array): a
// kernel reads and writes it over the bus, with no copy; Location::unified.
Result<Array> mapped_array(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order);
// `host`'s memory page-locked (cuMemHostRegister) while the returned view of it lives
// (numba.cuda.pinned), and mapped into the GPU's address space as well when `mapped`
// (numba.cuda.mapped: the view is Location::unified). The view keeps `host`'s storage alive.
Result<Array> register_host(const std::shared_ptr<Gpu>& gpu, const Array& host, bool mapped);
// What the driver says a pointer is: where its memory is, on which GPU, and the allocation it
// falls in. An error for memory the driver does not know (plain host memory, a stray pointer).
struct PointerFacts {
  Location location = Location::device;
  int device = 0;
  const std::byte* start = nullptr;  // the allocation's first byte
  size_t bytes = 0;                  // and its size
};
Result<PointerFacts> pointer_facts(const Gpu& gpu, const void* pointer);
// Legacy CUDA IPC: the handle of the allocation `device` memory lies in, and the offset of
// `pointer` in it; and an allocation another process exported, mapped into this one (closed
// with the owner the returned pointer comes with).
struct IpcExport {
  CUipcMemHandle handle;
  size_t offset = 0;
};
Result<IpcExport> ipc_export(const Gpu& gpu, const void* pointer);
Result<std::shared_ptr<void>> ipc_open(const std::shared_ptr<Gpu>& gpu, const CUipcMemHandle& handle);
// The GPU's free and total memory (numba.cuda.current_context().get_memory_info()).
struct MemoryInfo {
  size_t free = 0, total = 0;
};
Result<MemoryInfo> memory_info(const Gpu& gpu);

// Copies on `stream` (null: the default stream, and the copy is complete on return).
Status copy_to_device(const Gpu& gpu, const Array& host, const Array& device, CUstream stream);
Status copy_to_host(const Gpu& gpu, const Array& device, const Array& host, CUstream stream);
Status copy_device_to_device(const Gpu& gpu, const Array& from, const Array& to, CUstream stream);

}  // namespace pykern::cuda
