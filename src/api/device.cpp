#include "pykern/device.h"

#include <chrono>

#include <fmt/format.h>

#include "cuda/gpu.h"
#include "cuda/memory.h"

namespace pykern {

// A stream of the GPU, or none: the simulator's streams, and the default stream.
struct Stream::State {
  std::shared_ptr<cuda::Gpu> gpu;
  CUstream stream = nullptr;
  ~State() {
    if (!stream) return;
    cuda::ContextScope bound(*gpu);
    if (bound.ok()) gpu->driver().stream_destroy(stream);
  }
};

// A GPU event, or the simulator's: the time it was recorded (its work is done by then).
struct Event::State {
  std::shared_ptr<cuda::Gpu> gpu;
  CUevent event = nullptr;
  bool recorded = false;
  std::chrono::steady_clock::time_point when;
  ~State() {
    if (!event) return;
    cuda::ContextScope bound(*gpu);
    if (bound.ok()) gpu->driver().event_destroy(event);
  }
};

namespace {

bool on_gpu(Backend backend) { return Kernel::resolve(backend) == Backend::cuda; }

Result<std::shared_ptr<cuda::Gpu>> gpu_for(Backend backend) {
  if (!on_gpu(backend)) return std::shared_ptr<cuda::Gpu>();
  return cuda::Gpu::current();
}

// The GPU whose work a wait covers: the backend's, and for Backend::automatic (which launches
// on the simulator) the GPU that Backend::cuda launches and device arrays have used, if any:
// after them, synchronize() waits for the GPU as numba.cuda.synchronize() does.
Result<std::shared_ptr<cuda::Gpu>> gpu_to_wait_for(Backend backend) {
  if (on_gpu(backend)) return cuda::Gpu::current();
  if (backend == Backend::automatic) return cuda::Gpu::opened();
  return std::shared_ptr<cuda::Gpu>();
}

// The GPU a device array belongs to (the current one: pykern uses one GPU at a time).
Result<std::shared_ptr<cuda::Gpu>> gpu_of(const Array& device) {
  if (device.location() != Location::device) return std::shared_ptr<cuda::Gpu>();
  return cuda::Gpu::current();
}

CUstream stream_of(const Stream& stream) { return static_cast<CUstream>(stream.handle()); }

}  // namespace

Launch& Launch::stream(const Stream& stream) { return this->stream(stream.handle()); }

Result<Stream> Stream::create(Backend backend) {
  auto gpu = gpu_for(backend);
  if (!gpu.ok()) return gpu.error();
  Stream stream;
  stream.state_ = std::make_shared<State>();
  if (!*gpu) return stream;
  stream.state_->gpu = *gpu;
  const cuda::Driver& d = (*gpu)->driver();
  cuda::ContextScope bound(**gpu);
  if (!bound.ok()) return bound.status().error();
  // Flags 0, as numba.cuda.stream(): the stream orders with the default stream, so work queued
  // on it and a later launch on the default stream (host arrays) cannot overlap by surprise.
  if (auto s = d.check(d.stream_create(&stream.state_->stream, CU_STREAM_DEFAULT), "cuStreamCreate", "a new stream");
      !s.ok())
    return s.error();
  return stream;
}

void* Stream::handle() const { return state_ ? state_->stream : nullptr; }

Backend Stream::backend() const { return state_ && state_->gpu ? Backend::cuda : Kernel::resolve(Backend::automatic); }

Status Stream::synchronize() const {
  std::shared_ptr<cuda::Gpu> gpu = state_ ? state_->gpu : nullptr;
  if (!gpu) {
    if (state_) return ok_status();  // a simulator stream: its work has finished already
    auto waited = gpu_to_wait_for(Backend::automatic);  // the default stream
    if (!waited.ok()) return waited.error();
    if (!*waited) return ok_status();
    gpu = *waited;
  }
  cuda::ContextScope bound(*gpu);
  if (!bound.ok()) return bound.status();
  const cuda::Driver& d = gpu->driver();
  return d.check(d.stream_synchronize(stream_of(*this)), "cuStreamSynchronize", "a stream");
}

Result<Event> Event::create(Backend backend) {
  auto gpu = gpu_for(backend);
  if (!gpu.ok()) return gpu.error();
  Event event;
  event.state_ = std::make_shared<State>();
  if (!*gpu) return event;
  event.state_->gpu = *gpu;
  const cuda::Driver& d = (*gpu)->driver();
  cuda::ContextScope bound(**gpu);
  if (!bound.ok()) return bound.status().error();
  if (auto s = d.check(d.event_create(&event.state_->event, CU_EVENT_DEFAULT), "cuEventCreate", "a new event"); !s.ok())
    return s.error();
  return event;
}

Status Event::record(const Stream& stream) {
  if (!state_) return Error::make(ErrorKind::invalid_argument, "this event was not made with Event::create");
  state_->recorded = true;
  if (!state_->gpu) {
    state_->when = std::chrono::steady_clock::now();
    return ok_status();
  }
  const cuda::Driver& d = state_->gpu->driver();
  cuda::ContextScope bound(*state_->gpu);
  if (!bound.ok()) return bound.status();
  return d.check(d.event_record(state_->event, stream_of(stream)), "cuEventRecord", "an event");
}

Status Event::synchronize() const {
  if (!state_ || !state_->gpu) return ok_status();
  if (auto s = state_->gpu->refuse_if_stuck(); !s.ok()) return s;  // it would wait for ever
  const cuda::Driver& d = state_->gpu->driver();
  return d.check(d.event_synchronize(state_->event), "cuEventSynchronize", "an event");
}

Result<float> Event::elapsed_ms(const Event& end) const {
  if (!state_ || !end.state_ || !state_->recorded || !end.state_->recorded)
    return Error::make(ErrorKind::invalid_argument, "elapsed_ms needs two events made with Event::create and recorded");
  if (!state_->gpu != !end.state_->gpu)
    return Error::make(ErrorKind::invalid_argument, "elapsed_ms needs two events of the same backend");
  if (!state_->gpu) return std::chrono::duration<float, std::milli>(end.state_->when - state_->when).count();
  const cuda::Driver& d = state_->gpu->driver();
  float ms = 0;
  if (auto s = d.check(d.event_elapsed_time(&ms, state_->event, end.state_->event), "cuEventElapsedTime", "two events");
      !s.ok())
    return s.error();
  return ms;
}

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
  if (host.location() != Location::host)
    return Error::make(ErrorKind::invalid_argument, "to_device copies a host array; this one is on the device already");
  auto device = device_array_like(host, backend);
  if (!device.ok()) return device.error();
  if (auto s = copy_to_device(host, *device, stream); !s.ok()) return s.error();
  return device;
}

Status copy_to_device(const Array& from, const Array& device, const Stream& stream) {
  if (device.location() == Location::host) {  // the simulator's device memory
    if (from.location() != Location::host)
      return Error::make(ErrorKind::invalid_argument, "copy_to_device: a GPU array cannot be copied into simulator memory");
    return copy_elements(from, device);
  }
  auto gpu = gpu_of(device);
  if (!gpu.ok()) return gpu.error();
  if (from.location() == Location::device) return cuda::copy_device_to_device(**gpu, from, device, stream_of(stream));
  return cuda::copy_to_device(**gpu, from, device, stream_of(stream));
}

Status copy_to_host(const Array& device, const Array& host, const Stream& stream) {
  if (host.location() != Location::host)
    return Error::make(ErrorKind::invalid_argument, "copy_to_host copies into a host array; this one is on the device");
  if (device.location() == Location::host) return copy_elements(device, host);
  auto gpu = gpu_of(device);
  if (!gpu.ok()) return gpu.error();
  return cuda::copy_to_host(**gpu, device, host, stream_of(stream));
}

Result<Array> copy_to_host(const Array& device, const Stream& stream) {
  Array host = Array::zeros(device.dtype(), device.shape());
  if (auto s = copy_to_host(device, host, stream); !s.ok()) return s.error();
  return host;
}

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
