// Streams and events of the public API (include/pykern/device.h): the GPU's, or the
// simulator's, whose work has always finished by the time it is queued.
#include <chrono>

#include <fmt/format.h>

#include "api/device_choice.h"
#include "api/stream_state.h"
#include "cuda/streams.h"
#include "pykern/device.h"

namespace pykern {

namespace {

// The CUstream to queue on for `stream`: its own, or the default stream (legacy or per-thread).
Result<CUstream> queue_of(const Stream& stream) { return cuda::queue_for(static_cast<CUstream>(stream.handle())); }

// Where a stream's work goes: its GPU (for the default stream, the one a wait covers) and the
// CUstream to queue on; no GPU for the simulator's streams.
struct StreamTarget {
  std::shared_ptr<cuda::Gpu> gpu;
  CUstream queue = nullptr;
};

Result<StreamTarget> target_of(const Stream& stream, const std::shared_ptr<Stream::State>& state) {
  StreamTarget target;
  if (state) target.gpu = state->gpu;
  else if (auto waited = detail::gpu_to_wait_for(Backend::automatic); waited.ok()) target.gpu = *waited;
  else return waited.error();
  if (!target.gpu) return target;  // a simulator stream has state and no GPU
  auto queue = queue_of(stream);
  if (!queue.ok()) return queue.error();
  target.queue = *queue;
  return target;
}

// The state of a stream that is only a name for a handle pykern does not own; on the
// simulator, a stream like any other.
Result<std::shared_ptr<Stream::State>> named_state(Backend backend, CUstream handle) {
  auto gpu = detail::gpu_for(backend);
  if (!gpu.ok()) return gpu.error();
  auto state = std::make_shared<Stream::State>();
  state->gpu = *gpu;
  state->stream = *gpu ? handle : nullptr;
  state->owned = false;
  return state;
}

// What a stream callback was given: the callback, and the driver to describe a failure with.
struct CallbackCall {
  std::function<void(const Status&)> callback;
  const cuda::Driver* driver;
};

void CUDA_CB run_callback(CUstream, CUresult result, void* data) {
  std::unique_ptr<CallbackCall> call(static_cast<CallbackCall*>(data));
  try {
    call->callback(call->driver->check(result, "the stream's work", "a stream callback"));
  } catch (...) {
    // A driver thread cannot take an exception; add_callback's contract says it is dropped.
  }
}

}  // namespace

Stream::State::~State() {
  bool capturing = capture && capture->active();
  if (capturing) capture->end();  // its simulator steps hold launches that name the capture
  if (!stream || !owned) return;
  cuda::ContextScope bound(*gpu);
  if (!bound.ok()) return;
  const cuda::Driver& d = gpu->driver();
  CUgraph abandoned = nullptr;  // a capture never ended: end it, or the stream cannot be destroyed
  if (capturing && d.stream_end_capture && d.stream_end_capture(stream, &abandoned) == CUDA_SUCCESS && abandoned)
    d.graph_destroy(abandoned);
  d.stream_destroy(stream);
}

Launch& Launch::stream(const Stream& stream) {
  this->stream(stream.handle());
  capture_ = stream.state_ ? stream.state_->capture : nullptr;
  return *this;
}

Result<Stream> Stream::create(Backend backend) { return create(StreamOptions{}, backend); }

Result<Stream> Stream::create(const StreamOptions& options, Backend backend) {
  auto gpu = detail::gpu_for(backend);
  if (!gpu.ok()) return gpu.error();
  Stream stream;
  stream.state_ = std::make_shared<State>();
  stream.state_->capture = std::make_shared<detail::StreamCapture>(!*gpu);
  if (!*gpu) return stream;
  auto range = priority_range(Backend::cuda);
  if (!range.ok()) return range.error();
  auto [lowest, highest] = *range;
  if (options.priority > lowest || options.priority < highest)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("stream priority {} is outside the GPU's range: from {} (lowest) to {} (highest; "
                                   "CUDA numbers higher priorities lower)",
                                   options.priority, lowest, highest));
  stream.state_->gpu = *gpu;
  const cuda::Driver& d = (*gpu)->driver();
  cuda::ContextScope bound(**gpu);
  if (!bound.ok()) return bound.status().error();
  // Flags 0 by default, as numba.cuda.stream(): the stream orders with the legacy default
  // stream, so work queued on it and a later launch on the default stream cannot overlap by surprise.
  unsigned flags = options.non_blocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT;
  if (auto s = d.check(d.stream_create_with_priority(&stream.state_->stream, flags, options.priority),
                       "cuStreamCreateWithPriority", "a new stream");
      !s.ok())
    return s.error();
  return stream;
}

Result<Stream> Stream::wrap(void* cu_stream) {
  if (cu_stream == nullptr)
    return Error::make(ErrorKind::invalid_argument, "Stream::wrap: the handle is null; the default stream is Stream()");
  auto gpu = detail::gpu_for(Backend::cuda);
  if (!gpu.ok()) return gpu.error();
  Stream stream;
  stream.state_ = std::make_shared<State>();
  stream.state_->gpu = *gpu;
  stream.state_->stream = static_cast<CUstream>(cu_stream);
  stream.state_->owned = false;
  stream.state_->capture = std::make_shared<detail::StreamCapture>(false);
  return stream;
}

Result<Stream> Stream::legacy_default(Backend backend) {
  auto state = named_state(backend, CU_STREAM_LEGACY);
  if (!state.ok()) return state.error();
  Stream stream;
  stream.state_ = *state;
  return stream;
}

Result<Stream> Stream::per_thread_default(Backend backend) {
  auto state = named_state(backend, CU_STREAM_PER_THREAD);
  if (!state.ok()) return state.error();
  Stream stream;
  stream.state_ = *state;
  return stream;
}

Result<std::pair<int, int>> Stream::priority_range(Backend backend) {
  auto gpu = detail::gpu_for(backend);
  if (!gpu.ok()) return gpu.error();
  if (!*gpu) return std::pair{0, 0};
  cuda::ContextScope bound(**gpu);
  if (!bound.ok()) return bound.status().error();
  const cuda::Driver& d = (*gpu)->driver();
  int least = 0, greatest = 0;
  if (auto s = d.check(d.ctx_stream_priority_range(&least, &greatest), "cuCtxGetStreamPriorityRange", "stream priorities");
      !s.ok())
    return s.error();
  return std::pair{least, greatest};
}

void* Stream::handle() const { return state_ ? state_->stream : nullptr; }

Backend Stream::backend() const { return state_ && state_->gpu ? Backend::cuda : Kernel::resolve(Backend::automatic); }

Status Stream::synchronize() const {
  auto target = target_of(*this, state_);
  if (!target.ok()) return target.error();
  const std::shared_ptr<cuda::Gpu>& gpu = target->gpu;
  if (!gpu) return ok_status();  // the simulator's work has finished already
  cuda::ContextScope bound(*gpu);
  if (!bound.ok()) return bound.status();
  const cuda::Driver& d = gpu->driver();
  return d.check(d.stream_synchronize(target->queue), "cuStreamSynchronize", "a stream");
}

Result<bool> Stream::query() const {
  auto target = target_of(*this, state_);
  if (!target.ok()) return target.error();
  const std::shared_ptr<cuda::Gpu>& gpu = target->gpu;
  if (!gpu) return true;
  cuda::ContextScope bound(*gpu);
  if (!bound.ok()) return bound.status().error();
  const cuda::Driver& d = gpu->driver();
  CUresult state = d.stream_query(target->queue);
  if (state == CUDA_ERROR_NOT_READY) return false;
  if (auto s = d.check(state, "cuStreamQuery", "a stream"); !s.ok()) return s.error();
  return true;
}

Status Stream::wait(const Event& event) const {
  if (!event.state_) return Error::make(ErrorKind::invalid_argument, "Stream::wait: the event was not made with Event::create");
  auto target = target_of(*this, state_);
  if (!target.ok()) return target.error();
  const std::shared_ptr<cuda::Gpu>& gpu = target->gpu;
  if (!gpu && !event.state_->gpu) return ok_status();  // the simulator: the event's work is done
  if (gpu != event.state_->gpu)
    return Error::make(ErrorKind::invalid_argument, "Stream::wait: the stream and the event belong to different "
                                                    "backends or GPUs");
  cuda::ContextScope bound(*gpu);
  if (!bound.ok()) return bound.status();
  const cuda::Driver& d = gpu->driver();
  return d.check(d.stream_wait_event(target->queue, event.state_->event, 0), "cuStreamWaitEvent", "a stream waiting for an event");
}

Status Stream::add_callback(std::function<void(const Status&)> callback) const {
  if (!callback) return Error::make(ErrorKind::invalid_argument, "Stream::add_callback: the callback is empty");
  auto target = target_of(*this, state_);
  if (!target.ok()) return target.error();
  const std::shared_ptr<cuda::Gpu>& gpu = target->gpu;
  if (!gpu) {
    try {
      callback(ok_status());
    } catch (...) {  // as on a GPU, where a driver thread runs it
    }
    return ok_status();
  }
  cuda::ContextScope bound(*gpu);
  if (!bound.ok()) return bound.status();
  const cuda::Driver& d = gpu->driver();
  auto call = std::make_unique<CallbackCall>(CallbackCall{std::move(callback), &d});
  if (auto s = d.check(d.stream_add_callback(target->queue, run_callback, call.get(), 0), "cuStreamAddCallback",
                       "a stream callback");
      !s.ok())
    return s;  // never queued: the call is freed here
  call.release();  // run_callback owns it now
  return ok_status();
}

Result<std::future<Status>> Stream::done() const {
  auto promise = std::make_shared<std::promise<Status>>();
  std::future<Status> future = promise->get_future();
  if (auto s = add_callback([promise](const Status& status) { promise->set_value(status); }); !s.ok()) return s.error();
  return future;
}

Result<Event> Event::create(Backend backend) {
  auto gpu = detail::gpu_for(backend);
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
  auto queue = queue_of(stream);
  if (!queue.ok()) return queue.error();
  const cuda::Driver& d = state_->gpu->driver();
  cuda::ContextScope bound(*state_->gpu);
  if (!bound.ok()) return bound.status();
  return d.check(d.event_record(state_->event, *queue), "cuEventRecord", "an event");
}

Status Event::synchronize() const {
  if (!state_ || !state_->gpu) return ok_status();
  if (auto s = state_->gpu->refuse_if_stuck(); !s.ok()) return s;  // it would wait for ever
  const cuda::Driver& d = state_->gpu->driver();
  return d.check(d.event_synchronize(state_->event), "cuEventSynchronize", "an event");
}

Result<bool> Event::query() const {
  if (!state_ || !state_->gpu) return true;
  const cuda::Driver& d = state_->gpu->driver();
  CUresult state = d.event_query(state_->event);
  if (state == CUDA_ERROR_NOT_READY) return false;
  if (auto s = d.check(state, "cuEventQuery", "an event"); !s.ok()) return s.error();
  return true;
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

}  // namespace pykern
