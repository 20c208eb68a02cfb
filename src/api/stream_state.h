// What a Stream, an Event and a Graph of the public API (include/pykern/device.h) hold: the
// GPU's objects, or the simulator's stand-ins. Shared by streams.cpp and graphs.cpp.
#pragma once
#include <chrono>
#include <memory>

#include "api/stream_capture.h"
#include "cuda/gpu.h"
#include "pykern/device.h"

namespace pykern {

// A stream of the GPU, or none: the simulator's streams, and the default stream.
struct Stream::State {
  std::shared_ptr<cuda::Gpu> gpu;
  CUstream stream = nullptr;
  bool owned = true;  // false: someone else's (wrap) or a default stream's name: never destroyed
  // Its capture into a graph (Stream::begin_capture); null for a default stream's name.
  std::shared_ptr<detail::StreamCapture> capture;
  ~State();
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

// A captured graph: the GPU's graph and its instantiation, or the simulator's steps; and the
// arrays its work uses, kept alive with it.
struct Graph::State {
  std::shared_ptr<cuda::Gpu> gpu;
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  size_t nodes = 0;
  std::vector<detail::StreamCapture::Step> steps;
  std::vector<Array> arrays;
  ~State();
};

}  // namespace pykern
