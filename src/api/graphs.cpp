// CUDA Graphs of the public API (include/pykern/device.h): a stream's capture, and the graph it
// makes, replayed with one call. On a GPU the driver captures and replays; on the simulator the
// stream's capture holds the launches and copies, and a replay runs them in order.
#include <fmt/format.h>

#include "api/stream_state.h"
#include "cuda/streams.h"
#include "pykern/device.h"

namespace pykern {

namespace detail {

std::shared_ptr<StreamCapture> capture_of(const Stream& stream) {
  Launch probe({1, 1, 1}, {1, 1, 1});
  probe.stream(stream);
  return probe.capture();
}

Status check_capturable(const std::string& kernel, const StreamCapture& capture, const Launch& config,
                        const std::vector<Argument>& args) {
  auto refuse = [&](const std::string& why) {
    return Error::make(ErrorKind::launch, fmt::format("kernel '{}' cannot be captured into a graph: {}", kernel, why));
  };
  bool on_simulator = Kernel::resolve(config.backend()) == Backend::cpu;
  if (capture.simulated && !on_simulator)
    return refuse("the stream is the simulator's and the launch asks for the GPU (Launch::backend)");
  if (!capture.simulated && on_simulator)
    return refuse("the stream is a GPU's and the launch runs on the simulator: give it .backend(Backend::cuda)");
  if (config.timeout() > 0) return refuse("it has a timeout, which waits for the kernel; a graph's launches cannot wait");
  if (config.progress()) return refuse("it has a progress callback, which waits for the kernel; a graph's launches cannot wait");
  if (!capture.simulated)
    for (size_t i = 0; i < args.size(); ++i)
      if (const Array* a = std::get_if<Array>(&args[i]); a && a->location() == Location::host)
        return refuse(fmt::format("argument {} is a host array, which a launch copies to the GPU and back around the "
                                  "kernel; capture launches on device arrays (to_device, device_array, managed_array)",
                                  i + 1));
  return ok_status();
}

}  // namespace detail

namespace {

Error no_capture(const char* call) {
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("Stream::{}: the default stream cannot capture a graph; use a stream of Stream::create", call));
}

// Makes the executable graph of `graph` (owned by `state` from then on).
Status instantiate(Graph::State& state) {
  const cuda::Driver& d = state.gpu->driver();
  if (auto s = d.check(d.graph_instantiate(&state.exec, state.graph, 0), "cuGraphInstantiate", "a captured graph"); !s.ok())
    return s;
  return d.check(d.graph_get_nodes(state.graph, nullptr, &state.nodes), "cuGraphGetNodes", "a captured graph");
}

Status require_graphs(const cuda::Driver& d) {
  return d.require(d.stream_begin_capture && d.stream_end_capture && d.stream_is_capturing && d.graph_instantiate &&
                       d.graph_launch && d.graph_exec_update && d.graph_get_nodes && d.graph_destroy &&
                       d.graph_exec_destroy,
                   "CUDA Graphs");
}

}  // namespace

Graph::State::~State() {
  if (!gpu || (!graph && !exec)) return;
  cuda::ContextScope bound(*gpu);
  if (!bound.ok()) return;
  const cuda::Driver& d = gpu->driver();
  if (exec) d.graph_exec_destroy(exec);
  if (graph) d.graph_destroy(graph);
}

Status Stream::begin_capture() const {
  if (!state_ || !state_->capture) return no_capture("begin_capture");
  if (state_->capture->active())
    return Error::make(ErrorKind::invalid_argument, "Stream::begin_capture: the stream is capturing already");
  if (state_->gpu) {
    const cuda::Driver& d = state_->gpu->driver();
    if (auto s = require_graphs(d); !s.ok()) return s;
    cuda::ContextScope bound(*state_->gpu);
    if (!bound.ok()) return bound.status();
    if (auto s = d.check(d.stream_begin_capture(state_->stream, CU_STREAM_CAPTURE_MODE_RELAXED), "cuStreamBeginCapture",
                         "a stream's capture");
        !s.ok())
      return s;
  }
  state_->capture->begin();
  return ok_status();
}

bool Stream::is_capturing() const { return state_ && state_->capture && state_->capture->active(); }

Result<Graph> Stream::end_capture() const {
  if (!state_ || !state_->capture) return no_capture("end_capture");
  if (!state_->capture->active())
    return Error::make(ErrorKind::invalid_argument, "Stream::end_capture: the stream is not capturing (begin_capture first)");
  detail::StreamCapture::Taken taken = state_->capture->end();
  Graph graph;
  graph.state_ = std::make_shared<Graph::State>();
  graph.state_->steps = std::move(taken.steps);
  graph.state_->arrays = std::move(taken.arrays);
  if (!state_->gpu) return graph;
  graph.state_->gpu = state_->gpu;
  const cuda::Driver& d = state_->gpu->driver();
  cuda::ContextScope bound(*state_->gpu);
  if (!bound.ok()) return bound.status().error();
  // An invalidated capture (something unsupported was queued) ends with that error here.
  if (auto s = d.check(d.stream_end_capture(state_->stream, &graph.state_->graph), "cuStreamEndCapture",
                       "a stream's capture");
      !s.ok())
    return s.error();
  if (auto s = instantiate(*graph.state_); !s.ok()) return s.error();
  return graph;
}

Status Graph::launch(const Stream& stream) const {
  if (!state_) return Error::make(ErrorKind::invalid_argument, "Graph::launch: the graph was not made by Stream::end_capture");
  if (!state_->gpu) {
    auto capture = detail::capture_of(stream);
    auto state = state_;
    auto replay = [state]() -> Status {
      for (const auto& step : state->steps)
        if (auto s = step.run(); !s.ok()) return s;
      return ok_status();
    };
    if (stream.backend() == Backend::cuda)
      return Error::make(ErrorKind::invalid_argument, "Graph::launch: a simulator graph cannot replay on a GPU stream");
    if (capture && capture->take("a graph", {}, replay)) return ok_status();  // a graph within a capture
    return replay();
  }
  if (stream.backend() != Backend::cuda)
    return Error::make(ErrorKind::invalid_argument, "Graph::launch: a GPU graph replays on a GPU stream, not the simulator's");
  auto queue = cuda::queue_for(static_cast<CUstream>(stream.handle()));
  if (!queue.ok()) return queue.error();
  cuda::ContextScope bound(*state_->gpu);
  if (!bound.ok()) return bound.status();
  const cuda::Driver& d = state_->gpu->driver();
  return d.check(d.graph_launch(state_->exec, *queue), "cuGraphLaunch", fmt::format("a graph of {} nodes", state_->nodes));
}

Result<bool> Graph::update(const Graph& newer) {
  if (!state_ || !newer.state_)
    return Error::make(ErrorKind::invalid_argument, "Graph::update: both graphs must come from Stream::end_capture");
  if (state_ == newer.state_) return true;
  if (state_->gpu != newer.state_->gpu)
    return Error::make(ErrorKind::invalid_argument, "Graph::update: the graphs belong to different backends or GPUs");
  if (!state_->gpu) {
    bool same_shape = state_->steps.size() == newer.state_->steps.size();
    for (size_t i = 0; same_shape && i < state_->steps.size(); ++i)
      same_shape = state_->steps[i].what == newer.state_->steps[i].what;
    state_->steps = newer.state_->steps;
    state_->arrays = newer.state_->arrays;
    return same_shape;
  }
  cuda::ContextScope bound(*state_->gpu);
  if (!bound.ok()) return bound.status().error();
  const cuda::Driver& d = state_->gpu->driver();
  CUgraphExecUpdateResultInfo info{};
  CUresult updated = d.graph_exec_update(state_->exec, newer.state_->graph, &info);
  if (updated == CUDA_SUCCESS) {
    state_->arrays = newer.state_->arrays;
    state_->nodes = newer.state_->nodes;
    return true;
  }
  if (updated != CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE)
    return d.check(updated, "cuGraphExecUpdate", "a graph's update").error();
  // The graphs differ in more than their arguments (another kernel, grid or order): this graph
  // becomes a handle to newer's instantiation, as instantiating again would make.
  *this = newer;
  return false;
}

size_t Graph::size() const {
  if (!state_) return 0;
  return state_->gpu ? state_->nodes : state_->steps.size();
}

Backend Graph::backend() const { return state_ && state_->gpu ? Backend::cuda : Backend::cpu; }

}  // namespace pykern
