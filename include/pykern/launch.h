// A launch's shape and its arguments, as values: the grid and block, the stream, dynamic
// shared memory, the backend, a timeout, and the arrays and scalars a kernel takes. Both
// backends read them; pykern/module.h launches with them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <variant>

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

class Launch {
 public:
  Launch(Dim3 grid, Dim3 block) : grid_(grid), block_(block) {}
  // Numba's kernel.forall(n): enough threads for n tasks, the block size chosen for you.
  static Launch forall(int64_t tasks);

  Launch& stream(void* stream) { stream_ = stream; return *this; }  // a CUstream
  Launch& stream(const Stream& stream);
  Launch& shared_bytes(size_t bytes) { shared_bytes_ = bytes; return *this; }
  Launch& backend(Backend backend) { backend_ = backend; return *this; }
  // A launch still running after `seconds` fails with a TimeoutError. On the simulator its
  // threads stop at their next loop iteration. On a GPU the launch waits for the kernel (even
  // with device arrays only) and, since a GPU kernel cannot be stopped, a kernel past its
  // timeout leaves that GPU refusing all further work until the process restarts. 0: no timeout.
  Launch& timeout(double seconds) { timeout_ = seconds; return *this; }

  const Dim3& grid() const { return grid_; }
  const Dim3& block() const { return block_; }
  void* stream() const { return stream_; }
  size_t shared_bytes() const { return shared_bytes_; }
  Backend backend() const { return backend_; }
  double timeout() const { return timeout_; }
  std::optional<int64_t> forall_tasks() const { return forall_tasks_; }

 private:
  Dim3 grid_, block_;
  void* stream_ = nullptr;
  size_t shared_bytes_ = 0;
  Backend backend_ = Backend::automatic;
  double timeout_ = 0;
  std::optional<int64_t> forall_tasks_;  // set by forall(n)
};

using Argument = std::variant<Array, Scalar>;

}  // namespace pykern
