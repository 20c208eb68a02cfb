#include "cuda/memory.h"

#include <vector>

#include <fmt/format.h>

namespace pykern::cuda {

namespace {

Status same_kind(const Array& from, const Array& to, Location from_at, Location to_at, const char* what) {
  if (from.location() != from_at || to.location() != to_at)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("{} copies from {} memory to {} memory", what,
                                   from_at == Location::host ? "host" : "device",
                                   to_at == Location::host ? "host" : "device"));
  if (from.dtype() != to.dtype() || from.shape() != to.shape())
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("{}: cannot copy a {} array of shape {} into a {} array of shape {}", what,
                                   from.dtype().name(), shape_text(from.shape()), to.dtype().name(),
                                   shape_text(to.shape())));
  return ok_status();
}

CUdeviceptr device_pointer(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

// The element at `a.data()` sits this many bytes after the lowest byte `a` spans.
size_t offset_in_span(const Array& a, const Span& span) {
  return static_cast<size_t>(static_cast<const std::byte*>(a.data()) - span.lowest);
}

// A host buffer holding a device array's span, with a view laid out exactly like it.
struct Staging {
  std::vector<std::byte> bytes;
  Array view;
};

// The bytes a new contiguous array needs (at least one: the driver refuses empty allocations).
size_t allocation_bytes(const DType& dtype, const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return static_cast<size_t>(std::max<int64_t>(count * dtype.itemsize, 1));
}

// One transfer of the span does: both sides have the same layout and no gaps.
bool direct(const Array& a, const Array& b, const Span& span) {
  return a.strides() == b.strides() && span.bytes == static_cast<size_t>(a.nbytes());
}

Status synchronize(const Gpu& gpu, CUstream stream, const char* what) {
  const Driver& d = gpu.driver();
  return d.check(d.stream_synchronize(stream), "cuStreamSynchronize", what);
}

// A device array's span read into a host staging buffer laid out like it (complete on return):
// what a strided copy works on, in either direction.
Result<Staging> read_span(const Gpu& gpu, const Array& device, const Span& span, CUstream stream, const char* what) {
  Staging staging;
  staging.bytes.resize(span.bytes);
  staging.view = Array::wrap(staging.bytes.data() + offset_in_span(device, span), device.dtype(), device.shape(),
                             device.strides());
  const Driver& d = gpu.driver();
  if (auto s = d.check(d.memcpy_dtoh_async(staging.bytes.data(), device_pointer(span.lowest), span.bytes, stream),
                       "cuMemcpyDtoHAsync", what);
      !s.ok())
    return s.error();
  if (auto s = synchronize(gpu, stream, what); !s.ok()) return s.error();
  return staging;
}

}  // namespace

Span span_of(const Array& a) {
  if (a.size() == 0) return {};
  int64_t low = 0, high = 0;
  for (int axis = 0; axis < a.ndim(); ++axis) {
    int64_t extent = (a.shape()[axis] - 1) * a.strides()[axis];
    (extent < 0 ? low : high) += extent;
  }
  return {static_cast<std::byte*>(a.data()) + low, static_cast<size_t>(high - low + a.dtype().itemsize)};
}

Result<Array> device_array(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order) {
  ContextScope bound(*gpu);
  if (!bound.ok()) return bound.status().error();
  std::vector<int64_t> strides = contiguous_strides(shape, dtype.itemsize, order);
  size_t bytes = allocation_bytes(dtype, shape);
  const Driver& d = gpu->driver();
  CUdeviceptr pointer = 0;
  if (auto s = d.check(d.mem_alloc(&pointer, bytes), "cuMemAlloc", fmt::format("{} bytes for a device array", bytes));
      !s.ok())
    return s.error();
  // The owner keeps the GPU (its context) alive until the memory is freed.
  std::shared_ptr<void> owner(reinterpret_cast<void*>(pointer), [gpu](void* p) {
    ContextScope bound(*gpu);
    if (bound.ok()) gpu->driver().mem_free(device_pointer(p));
  });
  return Array::adopt(std::move(owner), reinterpret_cast<void*>(pointer), std::move(dtype), std::move(shape),
                      std::move(strides), Location::device);
}

Result<Array> pinned_array(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order) {
  ContextScope bound(*gpu);
  if (!bound.ok()) return bound.status().error();
  std::vector<int64_t> strides = contiguous_strides(shape, dtype.itemsize, order);
  size_t bytes = allocation_bytes(dtype, shape);
  const Driver& d = gpu->driver();
  void* pointer = nullptr;
  if (auto s = d.check(d.mem_alloc_host(&pointer, bytes), "cuMemAllocHost", fmt::format("{} pinned bytes", bytes));
      !s.ok())
    return s.error();
  std::shared_ptr<void> owner(pointer, [gpu](void* p) {
    ContextScope bound(*gpu);
    if (bound.ok()) gpu->driver().mem_free_host(p);
  });
  return Array::adopt(std::move(owner), pointer, std::move(dtype), std::move(shape), std::move(strides), Location::host);
}

Status copy_to_device(const Gpu& gpu, const Array& host, const Array& device, CUstream stream) {
  if (auto s = same_kind(host, device, Location::host, Location::device, "copy_to_device"); !s.ok()) return s;
  if (host.size() == 0) return ok_status();
  ContextScope bound(gpu);
  if (!bound.ok()) return bound.status();
  const Driver& d = gpu.driver();
  Span span = span_of(device);
  CUdeviceptr target = device_pointer(span.lowest);
  if (direct(host, device, span)) {
    Span from = span_of(host);
    if (auto s = d.check(d.memcpy_htod_async(target, from.lowest, from.bytes, stream), "cuMemcpyHtoDAsync", "copy_to_device");
        !s.ok())
      return s;
    return stream == nullptr ? synchronize(gpu, stream, "copy_to_device") : ok_status();
  }
  // Read the span, write the elements into it, write it back: the gaps keep their bytes.
  auto staging = read_span(gpu, device, span, stream, "copy_to_device (reading a strided view)");
  if (!staging.ok()) return staging.error();
  if (auto s = copy_elements(host, staging->view); !s.ok()) return s;
  if (auto s = d.check(d.memcpy_htod_async(target, staging->bytes.data(), span.bytes, stream), "cuMemcpyHtoDAsync",
                       "copy_to_device");
      !s.ok())
    return s;
  return synchronize(gpu, stream, "copy_to_device");  // the staging buffer goes away on return
}

Status copy_to_host(const Gpu& gpu, const Array& device, const Array& host, CUstream stream) {
  if (auto s = same_kind(device, host, Location::device, Location::host, "copy_to_host"); !s.ok()) return s;
  if (host.size() == 0) return ok_status();
  ContextScope bound(gpu);
  if (!bound.ok()) return bound.status();
  const Driver& d = gpu.driver();
  Span span = span_of(device);
  CUdeviceptr source = device_pointer(span.lowest);
  if (direct(device, host, span)) {
    Span to = span_of(host);
    if (auto s = d.check(d.memcpy_dtoh_async(to.lowest, source, to.bytes, stream), "cuMemcpyDtoHAsync", "copy_to_host");
        !s.ok())
      return s;
    return stream == nullptr ? synchronize(gpu, stream, "copy_to_host") : ok_status();
  }
  auto staging = read_span(gpu, device, span, stream, "copy_to_host");
  if (!staging.ok()) return staging.error();
  return copy_elements(staging->view, host);
}

Status copy_device_to_device(const Gpu& gpu, const Array& from, const Array& to, CUstream stream) {
  if (auto s = same_kind(from, to, Location::device, Location::device, "copy_to_device"); !s.ok()) return s;
  if (from.size() == 0) return ok_status();
  Span source = span_of(from), target = span_of(to);
  if (!direct(from, to, source))
    return Error::make(ErrorKind::invalid_argument,
                       "copy_to_device between device arrays needs two contiguous arrays of the same layout; copy "
                       "through the host");
  ContextScope bound(gpu);
  if (!bound.ok()) return bound.status();
  const Driver& d = gpu.driver();
  if (auto s = d.check(d.memcpy_dtod_async(device_pointer(target.lowest), device_pointer(source.lowest), source.bytes, stream),
                       "cuMemcpyDtoDAsync", "copy_to_device");
      !s.ok())
    return s;
  return stream == nullptr ? synchronize(gpu, stream, "copy_to_device") : ok_status();
}

}  // namespace pykern::cuda
