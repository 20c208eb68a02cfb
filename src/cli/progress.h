// A status line for long work, shown on a terminal only: after half a second of a phase
// ($PYKERN_PROGRESS_DELAY seconds),
// "pykern: <what> ... 2.4 s" (with the simulator's blocks done when a launch runs) is redrawn
// on stderr a few times a second and erased when the phase ends. Not on a terminal (a pipe, a
// file, TERM=dumb) it prints nothing.
#pragma once
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace pykern::cli {

class Progress {
 public:
  // `what` names the phase: "compiling kernels.py", "running saxpy".
  explicit Progress(std::string what);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

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
  std::thread thread_;
};

}  // namespace pykern::cli
