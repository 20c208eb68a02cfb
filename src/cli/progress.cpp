#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace pykern::cli {

namespace {
constexpr auto redraw_every = std::chrono::milliseconds(200);

// How long a phase runs before its line shows (short work shows nothing): half a second, or
// $PYKERN_PROGRESS_DELAY seconds (0 to 60).
std::chrono::milliseconds quiet_for() {
  const char* text = std::getenv("PYKERN_PROGRESS_DELAY");
  char* end = nullptr;
  double seconds = text ? std::strtod(text, &end) : 0.5;
  if (!text || end == text || *end != '\0' || !(seconds >= 0 && seconds <= 60)) seconds = 0.5;
  return std::chrono::milliseconds(static_cast<long>(seconds * 1000));
}
}  // namespace

bool Progress::wanted() {
  const char* term = std::getenv("TERM");
  return ::isatty(STDERR_FILENO) == 1 && !(term && std::strcmp(term, "dumb") == 0);
}

std::string Progress::line(const std::string& what, double seconds, uint64_t blocks_done, uint64_t blocks_total) {
  std::string text = fmt::format("pykern: {} ... {:.1f} s", what, seconds);
  if (blocks_total > 0) text += fmt::format(", {}/{} blocks", blocks_done, blocks_total);
  return text;
}

Progress::Progress(std::string what) : what_(std::move(what)) {
  if (wanted()) thread_ = std::thread([this] { draw_until_done(); });
}

Progress::~Progress() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void Progress::draw_until_done() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_for(lock, quiet_for(), [this] { return done_; })) return;
  do {
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    // \r and "erase line": the status line is rewritten in place.
    std::fprintf(stderr, "\r\033[K%s", line(what_, seconds, blocks_done_, blocks_total_).c_str());
    std::fflush(stderr);
    drawn_ = true;
  } while (!wake_.wait_for(lock, redraw_every, [this] { return done_; }));
  if (drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
}

}  // namespace pykern::cli
