// A status line for long work, shown on a terminal only: after half a second of a phase
// ($PYKERN_PROGRESS_DELAY seconds),
// "pykern: <what> ... 2.4 s" (with the blocks done, when a launch reports them) is redrawn
// on stderr a few times a second and erased when the phase ends. Not on a terminal (a pipe, a
// file, TERM=dumb) it prints nothing.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <functional>
#include <thread>

#include "pykern/launch.h"

namespace pykern::cli {

class Progress {
 public:
  // `what` names the phase: "compiling kernels.py", "running saxpy".
  explicit Progress(std::string what);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // What a launch's progress callback (Launch::progress) reports: drawn on the next line.
  void blocks(uint64_t done, uint64_t total) {
    blocks_done_ = done;
    blocks_total_ = total;
  }
  // A callback for Launch::progress that reports to this line.
  std::function<void(const LaunchProgress&)> callback() {
    return [this](const LaunchProgress& p) { blocks(p.blocks_done, p.blocks_total); };
  }

  // Whether status lines go to stderr: it is a terminal and TERM is not "dumb".
  static bool wanted();
  // The line for `what` after `seconds`, with blocks done of total when total > 0.
  static std::string line(const std::string& what, double seconds, uint64_t blocks_done, uint64_t blocks_total);

 private:
  void draw_until_done();

  std::string what_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  bool drawn_ = false;
  std::atomic<uint64_t> blocks_done_{0}, blocks_total_{0};
  std::thread thread_;
};

}  // namespace pykern::cli
