// A stream's capture into a Graph (include/pykern/device.h), as the launches and copies queued
// on the stream see it. On a GPU the driver records the work itself; what pykern keeps here is
// the arrays that work uses, so that the graph keeps them alive. On the simulator, whose work
// runs as it is queued, the capture holds the work itself, run in order by each replay.
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pykern/array.h"
#include "pykern/launch.h"

namespace pykern::detail {

struct StreamCapture {
  // One piece of captured simulator work: what it is ("kernel 'add'", "a copy") and how to run it.
  struct Step {
    std::string what;
    std::function<Status()> run;
  };
  // What a capture ends with: handed to the Graph, and the capture cleared for the next one.
  struct Taken {
    std::vector<Step> steps;
    std::vector<Array> arrays;
  };

  explicit StreamCapture(bool simulated) : simulated(simulated) {}

  const bool simulated;  // the simulator's stream: `steps` hold the work

  bool active() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return active_;
  }
  // Starts a capture; false when one is under way already.
  bool begin() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (active_) return false;
    active_ = true;
    return true;
  }
  Taken end() {
    std::lock_guard<std::mutex> lock(mutex_);
    active_ = false;
    Taken taken{std::move(steps_), std::move(arrays_)};
    steps_.clear();
    arrays_.clear();
    return taken;
  }
  // While capturing, keeps the arrays among `args` alive with the graph. On the simulator it
  // also records `run` for each replay and answers true: the caller must not run it now. On a
  // GPU, and when not capturing, false: the caller queues the work, which the driver records.
  bool take(std::string what, const std::vector<Argument>& args, std::function<Status()> run) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!active_) return false;
    for (const Argument& a : args)
      if (const Array* array = std::get_if<Array>(&a)) arrays_.push_back(*array);
    if (!simulated) return false;
    steps_.push_back({std::move(what), std::move(run)});
    return true;
  }

 private:
  mutable std::mutex mutex_;
  bool active_ = false;
  std::vector<Step> steps_;
  std::vector<Array> arrays_;
};

// The capture `stream` belongs to, or null for the default stream.
std::shared_ptr<StreamCapture> capture_of(const Stream& stream);

// Why a launch on a capturing stream cannot be captured, or OK: a launch that waits for its
// kernel (host arrays copied in and out on a GPU, a timeout, a progress callback) cannot be part
// of a graph, and a simulator launch cannot be captured by a GPU stream nor the reverse.
Status check_capturable(const std::string& kernel, const StreamCapture& capture, const Launch& config,
                        const std::vector<Argument>& args);

}  // namespace pykern::detail
