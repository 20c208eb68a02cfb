#include "pykern/device.h"

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "api/device_choice.h"
#include "api/stream_capture.h"
#include "cuda/gpu.h"
#include "cuda/memory.h"

namespace pykern {

namespace {

using detail::gpu_for;
using detail::gpu_of;
using detail::gpu_to_wait_for;

CUstream stream_of(const Stream& stream) { return static_cast<CUstream>(stream.handle()); }

// A copy queued on `stream`: run now, or recorded by the simulator stream's capture into a
// graph (whose replays run it). A GPU stream's capture keeps the arrays alive with the graph.
Status queue_copy(const Stream& stream, const Array& from, const Array& to, bool on_simulator,
                  const std::function<Status()>& copy) {
  auto capture = detail::capture_of(stream);
  if (!capture || !capture->active()) return copy();
  if (capture->simulated != on_simulator)
    return Error::make(ErrorKind::invalid_argument, "a copy of the simulator's memory cannot be captured by a GPU "
                                                    "stream, nor a GPU copy by the simulator's");
  if (capture->take("a copy", {from, to}, copy)) return ok_status();  // a simulator replay runs it
  return copy();  // the driver records it
}

}  // namespace

Result<std::vector<GpuInfo>> list_gpus() {
  auto devices = cuda::list_devices();
  if (!devices.ok()) return devices.error();
  std::vector<GpuInfo> gpus;
  for (const cuda::DeviceInfo& d : *devices) gpus.push_back(d);  // the public part
  return gpus;
}

Status select_gpu(int ordinal) {
  auto driver = cuda::Driver::get();
  if (!driver.ok()) return driver.error();
  auto gpu = cuda::Gpu::open(**driver, ordinal);
  if (!gpu.ok()) return gpu.error();
  cuda::Gpu::select(*gpu);
  return ok_status();
}

std::string current_gpu_arch() { return cuda::Gpu::current_arch(); }

Result<Array> device_array(DType dtype, std::vector<int64_t> shape, Order order, Backend backend) {
  auto gpu = gpu_for(backend);
  if (!gpu.ok()) return gpu.error();
  if (!*gpu) return Array::zeros(std::move(dtype), std::move(shape), order);
  return cuda::device_array(*gpu, std::move(dtype), std::move(shape), order);
}

Result<Array> device_array_like(const Array& like, Backend backend) {
  Order order = !like.is_c_contiguous() && like.is_f_contiguous() ? Order::F : Order::C;
  return device_array(like.dtype(), like.shape(), order, backend);
}

Result<Array> pinned_array(DType dtype, std::vector<int64_t> shape, Order order, Backend backend) {
  auto gpu = gpu_for(backend);
  if (!gpu.ok()) return gpu.error();
  if (!*gpu) return Array::zeros(std::move(dtype), std::move(shape), order);
  return cuda::pinned_array(*gpu, std::move(dtype), std::move(shape), order);
}

Result<Array> to_device(const Array& host, const Stream& stream, Backend backend) {
  if (host.location() == Location::device)
    return Error::make(ErrorKind::invalid_argument, "to_device copies a host array; this one is on the device already");
  auto device = device_array_like(host, backend);
  if (!device.ok()) return device.error();
  if (auto s = copy_to_device(host, *device, stream); !s.ok()) return s.error();
  return device;
}

Status copy_to_device(const Array& from, const Array& device, const Stream& stream) {
  if (device.location() == Location::host) {  // the simulator's device memory
    if (from.location() == Location::device)
      return Error::make(ErrorKind::invalid_argument, "copy_to_device: a GPU array cannot be copied into simulator memory");
    return queue_copy(stream, from, device, true, [from, device] { return copy_elements(from, device); });
  }
  auto gpu = gpu_of(device);
  if (!gpu.ok()) return gpu.error();
  return queue_copy(stream, from, device, false, [&] {
    if (from.location() == Location::device) return cuda::copy_device_to_device(**gpu, from, device, stream_of(stream));
    return cuda::copy_to_device(**gpu, from, device, stream_of(stream));
  });
}

Status copy_to_host(const Array& device, const Array& host, const Stream& stream) {
  if (host.location() == Location::device)
    return Error::make(ErrorKind::invalid_argument, "copy_to_host copies into a host array; this one is on the device");
  if (device.location() == Location::host)
    return queue_copy(stream, device, host, true, [device, host] { return copy_elements(device, host); });
  auto gpu = gpu_of(device);
  if (!gpu.ok()) return gpu.error();
  return queue_copy(stream, device, host, false,
                    [&] { return cuda::copy_to_host(**gpu, device, host, stream_of(stream)); });
}

Result<Array> copy_to_host(const Array& device, const Stream& stream) {
  Array host = Array::zeros(device.dtype(), device.shape());
  if (auto s = copy_to_host(device, host, stream); !s.ok()) return s.error();
  return host;
}

Result<Array> managed_array(DType dtype, std::vector<int64_t> shape, Order order, Backend backend) {
  auto gpu = gpu_for(backend);
  if (!gpu.ok()) return gpu.error();
  if (!*gpu) return Array::zeros(std::move(dtype), std::move(shape), order);
  return cuda::managed_array(*gpu, std::move(dtype), std::move(shape), order);
}

Result<Array> mapped_array(DType dtype, std::vector<int64_t> shape, Order order, Backend backend) {
  auto gpu = gpu_for(backend);
  if (!gpu.ok()) return gpu.error();
  if (!*gpu) return Array::zeros(std::move(dtype), std::move(shape), order);
  return cuda::mapped_array(*gpu, std::move(dtype), std::move(shape), order);
}

Result<Array> register_host(const Array& host, bool mapped, Backend backend) {
  if (host.read_only())
    return Error::make(ErrorKind::invalid_argument, "register_host: the array is read-only (its owner lent it so "
                                                    "through DLPack), and a kernel could write through the view; "
                                                    "register a copy");
  if (host.location() != Location::host)
    return Error::make(ErrorKind::invalid_argument, "register_host page-locks host memory in place; this array is not "
                                                    "plain host memory");
  auto gpu = gpu_for(backend);
  if (!gpu.ok()) return gpu.error();
  if (!*gpu) return host;  // the simulator's memory needs no locking
  return cuda::register_host(*gpu, host, mapped);
}

Result<Array> wrap_device(void* data, DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides,
                          std::shared_ptr<void> keep_alive) {
  Array view;
  try {  // the shape and strides checked as Array::wrap checks them
    view = Array::wrap(data, dtype, shape, strides, Location::device);
  } catch (const std::invalid_argument& e) {
    return Error::make(ErrorKind::invalid_argument, std::string("wrap_device: ") + e.what());
  }
  if (view.size() == 0) return Array::adopt(std::move(keep_alive), data, std::move(dtype), view.shape(), view.strides(), Location::device);
  auto gpu = gpu_for(Backend::cuda);
  if (!gpu.ok()) return gpu.error();
  auto facts = cuda::pointer_facts(**gpu, data);
  if (!facts.ok()) return Error::make(ErrorKind::invalid_argument, "wrap_device: " + facts.error().message);
  cuda::Span span = cuda::span_of(view);
  if (span.lowest < facts->start || span.lowest + span.bytes > facts->start + facts->bytes)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("wrap_device: a {} array of shape {} and strides ({}) spans {} bytes from {}, outside "
                                   "its allocation of {} bytes at {}",
                                   dtype.name(), shape_text(view.shape()), fmt::join(view.strides(), ", "), span.bytes,
                                   static_cast<const void*>(span.lowest), facts->bytes,
                                   static_cast<const void*>(facts->start)));
  return Array::adopt(std::move(keep_alive), data, std::move(dtype), view.shape(), view.strides(), facts->location,
                      facts->device);
}

Result<MemoryInfo> memory_info(Backend backend) {
  auto gpu = gpu_for(backend);
  if (!gpu.ok()) return gpu.error();
  if (!*gpu) {
    auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return MemoryInfo{static_cast<size_t>(sysconf(_SC_AVPHYS_PAGES)) * page,
                      static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * page};
  }
  auto info = cuda::memory_info(**gpu);
  if (!info.ok()) return info.error();
  return MemoryInfo{info->free, info->total};
}

namespace {

Status profiler(Backend backend, bool start) {
  auto gpu = gpu_for(backend);
  if (!gpu.ok()) return gpu.error();
  if (!*gpu) return ok_status();
  cuda::ContextScope bound(**gpu);
  if (!bound.ok()) return bound.status();
  const cuda::Driver& d = (*gpu)->driver();
  return start ? d.check(d.profiler_start(), "cuProfilerStart", "profile_start")
               : d.check(d.profiler_stop(), "cuProfilerStop", "profile_stop");
}

}  // namespace

Status profile_start(Backend backend) { return profiler(backend, true); }
Status profile_stop(Backend backend) { return profiler(backend, false); }

Status synchronize(Backend backend) {
  auto gpu = gpu_to_wait_for(backend);
  if (!gpu.ok()) return gpu.error();
  if (!*gpu) return ok_status();  // the simulator has finished already
  cuda::ContextScope bound(**gpu);
  if (!bound.ok()) return bound.status();
  const cuda::Driver& d = (*gpu)->driver();
  return d.check(d.ctx_synchronize(), "cuCtxSynchronize", "synchronize");
}

}  // namespace pykern
