#include "cuda/memory.h"

#include "cuda/streams.h"

#include <cstdint>
#include <optional>
#include <vector>

#include <fmt/format.h>

namespace pykern::cuda {

namespace {

// Unified memory is both: the driver's copies take its address as host or device memory.
bool at(const Array& a, Location where) { return a.location() == where || a.location() == Location::unified; }

Status same_kind(const Array& from, const Array& to, Location from_at, Location to_at, const char* what) {
  if (!at(from, from_at) || !at(to, to_at))
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("{} copies from {} memory to {} memory", what,
                                   from_at == Location::host ? "host" : "device",
                                   to_at == Location::host ? "host" : "device"));
  if (from.dtype() != to.dtype() || from.shape() != to.shape())
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("{}: cannot copy a {} array of shape {} into a {} array of shape {}", what,
                                   from.dtype().name(), shape_text(from.shape()), to.dtype().name(),
                                   shape_text(to.shape())));
  if (to.read_only())
    return Error::make(ErrorKind::invalid_argument, fmt::format("{}: cannot copy into a read-only array (its owner "
                                                                "lent it so through DLPack)", what));
  return ok_status();
}

// The element at `a.data()` sits this many bytes after the lowest byte `a` spans.
size_t offset_in_span(const Array& a, const Span& span) {
  return static_cast<size_t>(static_cast<const std::byte*>(a.data()) - span.lowest);
}

// A host buffer holding a device array's span, with a view laid out exactly like it.
struct Staging {
  std::vector<std::byte> bytes;
  Array view;
};

// One transfer of the span does: both sides have the same layout and no gaps.
bool direct(const Array& a, const Array& b, const Span& span) {
  return a.strides() == b.strides() && span.bytes == static_cast<size_t>(a.nbytes());
}

Status synchronize(const Gpu& gpu, CUstream stream, const char* what) {
  const Driver& d = gpu.driver();
  return d.check(d.stream_synchronize(stream), "cuStreamSynchronize", what);
}

// A host buffer for a device array's span, with a view laid out exactly like the array.
Staging span_buffer(const Array& device, const Span& span) {
  Staging staging;
  staging.bytes.resize(span.bytes);
  staging.view = Array::wrap(staging.bytes.data() + offset_in_span(device, span), device.dtype(), device.shape(),
                             device.strides());
  return staging;
}

// A device array's span read into a host staging buffer laid out like it (complete on return):
// what a strided copy works on, in either direction.
Result<Staging> read_span(const Gpu& gpu, const Array& device, const Span& span, CUstream stream, const char* what) {
  Staging staging = span_buffer(device, span);
  const Driver& d = gpu.driver();
  if (auto s = d.check(d.memcpy_dtoh_async(staging.bytes.data(), device_pointer(span.lowest), span.bytes, stream),
                       "cuMemcpyDtoHAsync", what);
      !s.ok())
    return s.error();
  if (auto s = synchronize(gpu, stream, what); !s.ok()) return s.error();
  return staging;
}

// A strided device view's elements as rows for cuMemcpy2D: `width` contiguous bytes each,
// `height` rows `pitch` bytes apart, once for each index of the outer axes. Only the elements
// cross the bus, not the span with the gaps between them.
struct RowPlan {
  size_t width = 0, height = 1, pitch = 0;
  std::vector<int64_t> outer_shape, outer_strides;
  int64_t copies() const {
    int64_t n = 1;
    for (int64_t extent : outer_shape) n *= extent;
    return n;
  }
};

// Beyond this many cuMemcpy2D calls the span is cheaper whatever its gaps.
constexpr int64_t most_row_copies = 4096;

// Rows for a view whose strides are positive and whose rows do not overlap; none for others
// (negative or zero strides, too many copies), which go through the span.
std::optional<RowPlan> row_plan(const Array& a) {
  std::vector<int64_t> shape, strides;
  for (int axis = 0; axis < a.ndim(); ++axis) {
    if (a.shape()[axis] == 1) continue;
    if (a.strides()[axis] <= 0) return std::nullopt;
    shape.push_back(a.shape()[axis]);
    strides.push_back(a.strides()[axis]);
  }
  RowPlan plan;
  int64_t width = a.dtype().itemsize;
  size_t axis = shape.size();
  while (axis > 0 && strides[axis - 1] == width) width *= shape[--axis];  // the contiguous run
  plan.width = static_cast<size_t>(width);
  plan.pitch = plan.width;
  if (axis > 0) {
    --axis;
    plan.pitch = static_cast<size_t>(strides[axis]);
    plan.height = static_cast<size_t>(shape[axis]);
  }
  if (plan.pitch < plan.width || plan.pitch > size_t(INT32_MAX)) return std::nullopt;
  plan.outer_shape.assign(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(axis));
  plan.outer_strides.assign(strides.begin(), strides.begin() + static_cast<std::ptrdiff_t>(axis));
  if (plan.copies() > most_row_copies) return std::nullopt;
  return plan;
}

// Rows pay off when they are wide, or when the span is mostly gaps; a dense view's span is
// one fast transfer.
std::optional<RowPlan> worth_rows(const Array& device, const Span& span) {
  auto plan = row_plan(device);
  if (!plan) return std::nullopt;
  bool wide = plan->width >= 256, sparse = span.bytes >= 8 * static_cast<size_t>(device.nbytes());
  return wide || sparse ? plan : std::nullopt;
}

// One cuMemcpy2D per outer index, between the device view and a packed host buffer (C order
// of the view's shape): to the device when `to_device`, else from it.
Status copy_rows(const Gpu& gpu, const Array& device, const RowPlan& plan, std::byte* packed, bool to_device,
                 CUstream stream, const char* what) {
  const Driver& d = gpu.driver();
  std::vector<int64_t> index(plan.outer_shape.size(), 0);
  size_t block_bytes = plan.width * plan.height;
  for (int64_t copy = 0; copy < plan.copies(); ++copy) {
    int64_t offset = 0;
    for (size_t axis = 0; axis < index.size(); ++axis) offset += index[axis] * plan.outer_strides[axis];
    CUdeviceptr rows = device_pointer(static_cast<const std::byte*>(device.data()) + offset);
    std::byte* host = packed + static_cast<size_t>(copy) * block_bytes;
    CUDA_MEMCPY2D c{};
    c.WidthInBytes = plan.width;
    c.Height = plan.height;
    (to_device ? c.srcMemoryType : c.dstMemoryType) = CU_MEMORYTYPE_HOST;
    (to_device ? c.dstMemoryType : c.srcMemoryType) = CU_MEMORYTYPE_DEVICE;
    (to_device ? c.srcPitch : c.dstPitch) = plan.width;
    (to_device ? c.dstPitch : c.srcPitch) = plan.pitch;
    if (to_device) {
      c.srcHost = host;
      c.dstDevice = rows;
    } else {
      c.dstHost = host;
      c.srcDevice = rows;
    }
    if (auto s = d.check(d.memcpy_2d_async(&c, stream), "cuMemcpy2DAsync", what); !s.ok()) return s;
    for (size_t axis = index.size(); axis-- > 0;) {  // the next outer index, last axis fastest
      if (++index[axis] < plan.outer_shape[axis]) break;
      index[axis] = 0;
    }
  }
  return ok_status();
}

// A packed host buffer for a device view's elements, and a view of it with the view's shape.
struct Packed {
  std::vector<std::byte> bytes;
  Array view;
};
Packed packed_like(const Array& device) {
  Packed p;
  p.bytes.resize(static_cast<size_t>(device.nbytes()));
  p.view = Array::wrap(p.bytes.data(), device.dtype(), device.shape(),
                       contiguous_strides(device.shape(), device.dtype().itemsize, Order::C));
  return p;
}

}  // namespace

size_t allocation_bytes(const DType& dtype, const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return static_cast<size_t>(std::max<int64_t>(count * dtype.itemsize, 1));
}

Span span_of(const Array& a) {
  if (a.size() == 0) return {};
  int64_t low = 0, high = 0;
  for (int axis = 0; axis < a.ndim(); ++axis) {
    int64_t extent = (a.shape()[axis] - 1) * a.strides()[axis];
    (extent < 0 ? low : high) += extent;
  }
  return {static_cast<std::byte*>(a.data()) + low, static_cast<size_t>(high - low + a.dtype().itemsize)};
}

Result<Array> new_allocation(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order,
                             Location location, Allocate allocate, Release release, const char* call, const char* what) {
  ContextScope bound(*gpu);
  if (!bound.ok()) return bound.status().error();
  std::vector<int64_t> strides = contiguous_strides(shape, dtype.itemsize, order);
  size_t bytes = allocation_bytes(dtype, shape);
  void* pointer = nullptr;
  if (auto s = gpu->driver().check(allocate(gpu->driver(), &pointer, bytes), call, fmt::format("{} bytes for {}", bytes, what));
      !s.ok())
    return s.error();
  // The owner keeps the GPU (its context) alive until the memory is freed.
  std::shared_ptr<void> owner(pointer, [gpu, release](void* p) {
    ContextScope bound(*gpu);
    if (bound.ok()) release(gpu->driver(), p);
  });
  return Array::adopt(std::move(owner), pointer, std::move(dtype), std::move(shape), std::move(strides), location,
                      gpu->info().ordinal);
}

Result<Array> device_array(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order) {
  auto allocate = [](const Driver& d, void** p, size_t bytes) {
    CUdeviceptr device = 0;
    CUresult r = d.mem_alloc(&device, bytes);
    *p = reinterpret_cast<void*>(device);
    return r;
  };
  auto release = [](const Driver& d, void* p) { d.mem_free(device_pointer(p)); };
  return new_allocation(gpu, std::move(dtype), std::move(shape), order, Location::device, allocate, release, "cuMemAlloc",
                        "a device array");
}

Result<Array> pinned_array(const std::shared_ptr<Gpu>& gpu, DType dtype, std::vector<int64_t> shape, Order order) {
  auto allocate = [](const Driver& d, void** p, size_t bytes) { return d.mem_alloc_host(p, bytes); };
  auto release = [](const Driver& d, void* p) { d.mem_free_host(p); };
  return new_allocation(gpu, std::move(dtype), std::move(shape), order, Location::host, allocate, release,
                        "cuMemAllocHost", "a pinned array");
}

Status copy_to_device(const Gpu& gpu, const Array& host, const Array& device, CUstream stream) {
  if (auto s = same_kind(host, device, Location::host, Location::device, "copy_to_device"); !s.ok()) return s;
  bool wait_here = stream == nullptr;  // the default stream's copies are complete on return
  auto queue = queue_for(stream);
  if (!queue.ok()) return queue.error();
  stream = *queue;
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
    return wait_here ? synchronize(gpu, stream, "copy_to_device") : ok_status();
  }
  if (auto plan = worth_rows(device, span)) {  // only the elements go over
    Packed packed = packed_like(device);
    if (auto s = copy_elements(host, packed.view); !s.ok()) return s;
    if (auto s = copy_rows(gpu, device, *plan, packed.bytes.data(), true, stream, "copy_to_device"); !s.ok()) return s;
    return synchronize(gpu, stream, "copy_to_device");  // the packed buffer goes away on return
  }
  // Read the span, write the elements into it, write it back: the gaps keep their bytes. A span
  // without gaps (another layout of the same elements) need not be read first.
  bool gaps = span.bytes != static_cast<size_t>(device.nbytes());
  auto staging = gaps ? read_span(gpu, device, span, stream, "copy_to_device (reading a strided view)")
                      : Result<Staging>(span_buffer(device, span));
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
  bool wait_here = stream == nullptr;  // the default stream's copies are complete on return
  auto queue = queue_for(stream);
  if (!queue.ok()) return queue.error();
  stream = *queue;
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
    return wait_here ? synchronize(gpu, stream, "copy_to_host") : ok_status();
  }
  if (auto plan = worth_rows(device, span)) {
    Packed packed = packed_like(device);
    if (auto s = copy_rows(gpu, device, *plan, packed.bytes.data(), false, stream, "copy_to_host"); !s.ok()) return s;
    if (auto s = synchronize(gpu, stream, "copy_to_host"); !s.ok()) return s;
    return copy_elements(packed.view, host);
  }
  auto staging = read_span(gpu, device, span, stream, "copy_to_host");
  if (!staging.ok()) return staging.error();
  return copy_elements(staging->view, host);
}

Status copy_device_to_device(const Gpu& gpu, const Array& from, const Array& to, CUstream stream) {
  if (auto s = same_kind(from, to, Location::device, Location::device, "copy_to_device"); !s.ok()) return s;
  bool wait_here = stream == nullptr;  // the default stream's copies are complete on return
  auto queue = queue_for(stream);
  if (!queue.ok()) return queue.error();
  stream = *queue;
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
  return wait_here ? synchronize(gpu, stream, "copy_to_device") : ok_status();
}

}  // namespace pykern::cuda
