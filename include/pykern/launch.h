// A launch's shape and its arguments, as values: the grid and block, the stream, dynamic
// shared memory, the backend, a timeout, a progress callback, a cancel token, and the arrays
// and scalars a kernel takes. Both backends read them; pykern/module.h launches with them.
//
// This header compiles as C++17 (a bundle's program may be C++17): cancellation has its own
// small token, CancelToken, which a C++20 std::stop_token converts to.
#pragma once
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <variant>
#if __cplusplus >= 202002L && __has_include(<stop_token>)
#include <stop_token>
#endif

#include "pykern/array.h"
#include "pykern/scalar.h"

namespace pykern {

enum class Backend {
  automatic,  // the GPU when one is present and supported, else the CPU simulator
  cpu,        // the CPU simulator
  cuda,       // an NVIDIA GPU through the driver API
};
const char* to_string(Backend backend);

class Stream;  // pykern/device.h

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  Dim3() = default;
  Dim3(uint32_t x_, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
  uint64_t count() const { return uint64_t(x) * y * z; }
};

// Where a running launch is, as its progress callback sees it.
struct LaunchProgress {
  // The simulator: blocks that have run to their end. A GPU: the driver cannot say, so 0 while
  // the kernel runs, and blocks_total once it has finished.
  uint64_t blocks_done = 0;
  uint64_t blocks_total = 0;    // the grid's blocks
  double elapsed_seconds = 0;   // since the kernel started (on a GPU: since it was queued)
  bool finished = false;        // the last call: the kernel has ended, whether it succeeded or not
};

namespace detail {
struct StreamCapture;  // a stream's capture into a Graph (src/api/stream_capture.h)
// What a CancelSource and its tokens share. Defined here, so that a token made from a
// std::stop_token in a C++20 program needs nothing of the library's own standard.
struct CancelState {
  std::atomic<bool> requested{false};
  std::function<bool()> asked;  // a foreign token's own question, e.g. std::stop_token::stop_requested
};
static_assert(std::atomic<bool>::is_always_lock_free, "request_cancel must be one lock-free store");
}  // namespace detail

// The reading side of a cancel request, as std::stop_token is: copied freely, checked from any
// thread. A default-made token is never cancelled.
class CancelToken {
 public:
  CancelToken() = default;
#ifdef __cpp_lib_jthread
  // A C++20 std::stop_token: a launch given it is cancelled once its stop is requested.
  CancelToken(std::stop_token token) : state_(std::make_shared<detail::CancelState>()) {
    state_->asked = [token = std::move(token)] { return token.stop_requested(); };
  }
#endif
  bool cancel_requested() const {
    return state_ && (state_->requested.load(std::memory_order_acquire) || (state_->asked && state_->asked()));
  }
  // Whether a cancel could ever be requested (false for a default-made token).
  bool can_be_cancelled() const { return state_ != nullptr; }

 private:
  friend class CancelSource;
  explicit CancelToken(std::shared_ptr<detail::CancelState> state) : state_(std::move(state)) {}
  std::shared_ptr<detail::CancelState> state_;
};

// The asking side, as std::stop_source is. request_cancel() is one lock-free atomic store, so
// a signal handler (SIGINT) may call it; every token of this source then says cancelled.
class CancelSource {
 public:
  CancelSource() : state_(std::make_shared<detail::CancelState>()) {}
  CancelToken token() const { return CancelToken(state_); }
  void request_cancel() noexcept { state_->requested.store(true, std::memory_order_release); }
  bool cancel_requested() const noexcept { return state_->requested.load(std::memory_order_acquire); }

 private:
  std::shared_ptr<detail::CancelState> state_;
};

class Launch {
 public:
  using ProgressCallback = std::function<void(const LaunchProgress&)>;

  Launch(Dim3 grid, Dim3 block) : grid_(grid), block_(block) {}
  // Numba's kernel.forall(n): enough threads for n tasks, the block size chosen for you.
  static Launch forall(int64_t tasks);

  Launch& stream(void* stream) {  // a CUstream
    stream_ = stream;
    capture_.reset();
    return *this;
  }
  Launch& stream(const Stream& stream);
  Launch& shared_bytes(size_t bytes) { shared_bytes_ = bytes; return *this; }
  Launch& backend(Backend backend) { backend_ = backend; return *this; }
  // A launch still running after `seconds` fails with a TimeoutError. On the simulator its
  // threads stop at their next loop iteration. On a GPU the launch waits for the kernel (even
  // with device arrays only) and, since a GPU kernel cannot be stopped, a kernel past its
  // timeout leaves that GPU refusing all further work until the process restarts. 0: no timeout.
  Launch& timeout(double seconds) { timeout_ = seconds; return *this; }
  // Calls `callback` about every `every` while the kernel runs, and once more when it has ended
  // (LaunchProgress::finished), never two calls at once. On the simulator it is called from a
  // thread pykern starts for the launch, with the blocks done; on a GPU from the launching
  // thread while it polls the stream (cuStreamQuery), with the time only, and a GPU launch
  // given a callback waits for its kernel, as one with a timeout does. The callback must return
  // quickly and must not launch kernels (nor read the arrays the kernel writes: it runs
  // meanwhile). An exception it throws fails the launch with that exception's text; on the
  // simulator the kernel is stopped, on a GPU it is waited for first and not called again.
  Launch& progress(ProgressCallback callback, std::chrono::milliseconds every = std::chrono::milliseconds(100)) {
    progress_ = std::move(callback);
    progress_every_ = every;
    return *this;
  }
  // Cancels the launch once `token` says so (a CancelSource's, or a std::stop_token in C++20);
  // the launch then fails with ErrorKind::cancelled soon after (pykern polls the token: the
  // simulator's threads at their loop iterations and between blocks, a build every few ms).
  // Cancelled before it starts: nothing runs. A launch that must first build for the simulator stops the host
  // compiler too (an NVRTC compile cannot be stopped: the token is checked after it). On the
  // simulator the kernel's threads stop at their next loop iteration or block, as a timeout
  // stops them, and the arrays it writes are left in an unspecified state (partly written). On
  // a GPU a running kernel cannot be stopped: a cancel that comes once the kernel is queued is
  // not acted on; the launch waits for the kernel and returns its result, so that the GPU stays
  // usable (a kernel that may never end needs a timeout, which gives up the GPU).
  Launch& cancel_with(CancelToken token) { cancel_ = std::move(token); return *this; }

  const Dim3& grid() const { return grid_; }
  const Dim3& block() const { return block_; }
  void* stream() const { return stream_; }
  size_t shared_bytes() const { return shared_bytes_; }
  Backend backend() const { return backend_; }
  double timeout() const { return timeout_; }
  std::optional<int64_t> forall_tasks() const { return forall_tasks_; }
  const ProgressCallback& progress() const { return progress_; }
  std::chrono::milliseconds progress_every() const { return progress_every_; }
  const CancelToken& cancel_token() const { return cancel_; }
  // The capture of the Stream given to stream(const Stream&), which records this launch while
  // the stream is capturing a Graph; null for a raw CUstream and the default stream.
  const std::shared_ptr<detail::StreamCapture>& capture() const { return capture_; }

 private:
  Dim3 grid_, block_;
  void* stream_ = nullptr;
  size_t shared_bytes_ = 0;
  Backend backend_ = Backend::automatic;
  double timeout_ = 0;
  std::optional<int64_t> forall_tasks_;  // set by forall(n)
  ProgressCallback progress_;
  std::chrono::milliseconds progress_every_{100};
  CancelToken cancel_;
  std::shared_ptr<detail::StreamCapture> capture_;
};

using Argument = std::variant<Array, Scalar>;

}  // namespace pykern
