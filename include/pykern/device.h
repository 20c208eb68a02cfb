// Device memory, streams and events, as numba.cuda has them.
//
//   auto d_x = pykern::to_device(x);                        // a copy of x on the GPU
//   auto d_out = pykern::device_array_like(x);              // uninitialised, on the GPU
//   auto stream = pykern::Stream::create();
//   kernel->launch(pykern::Launch(grid, block).stream(*stream), *d_x, *d_out);   // returns at once
//   pykern::copy_to_host(*d_out, out, *stream);
//   stream->synchronize();
//
// Where the backend is the CPU simulator (Backend::cpu, or automatic without a GPU to use),
// "device" arrays are host arrays and streams do their work at once, as in Numba's simulator:
// the same program runs, with the same results, on a machine without a GPU.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "pykern/array.h"
#include "pykern/module.h"
#include "pykern/result.h"
#include "pykern/gpu_info.h"

namespace pykern {

class Stream {
 public:
  Stream() = default;  // the default stream
  static Result<Stream> create(Backend backend = Backend::automatic);
  // Waits for everything queued on the stream.
  Status synchronize() const;
  void* handle() const;  // the CUstream; null for the default stream and the simulator
  Backend backend() const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

class Event {
 public:
  static Result<Event> create(Backend backend = Backend::automatic);
  // Marks the point the stream has reached (what is queued so far).
  Status record(const Stream& stream = {});
  Status synchronize() const;
  // Milliseconds from this event to `end`, both recorded and complete (numba's elapsed_time).
  Result<float> elapsed_ms(const Event& end) const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

// The GPUs the driver sees; an error when there is no driver.
Result<std::vector<GpuInfo>> list_gpus();
// Uses GPU `ordinal` for the rest of the process (numba.cuda.select_device); kernels launched
// before are loaded again on it at their next launch.
Status select_gpu(int ordinal);
// The architecture of the GPU in use ("sm_90": the selected one, else GPU 0), or empty when no
// driver or GPU is present. Asked without making a context.
std::string current_gpu_arch();

// Uninitialised device memory (zeroed in the simulator).
Result<Array> device_array(DType dtype, std::vector<int64_t> shape, Order order = Order::C,
                           Backend backend = Backend::automatic);
// Device memory with `like`'s dtype and shape, Fortran order when `like` is Fortran-contiguous.
Result<Array> device_array_like(const Array& like, Backend backend = Backend::automatic);
// Page-locked host memory: its copies are faster and can overlap kernels on a stream.
Result<Array> pinned_array(DType dtype, std::vector<int64_t> shape, Order order = Order::C,
                           Backend backend = Backend::automatic);
// A device copy of a host array (the copy is complete on return unless a stream is given).
Result<Array> to_device(const Array& host, const Stream& stream = {}, Backend backend = Backend::automatic);
// Into a device array, from a host array or another device array of the same dtype and shape.
Status copy_to_device(const Array& from, const Array& device, const Stream& stream = {});
// Into a host array of the same dtype and shape (any strides).
Status copy_to_host(const Array& device, const Array& host, const Stream& stream = {});
// Into a new C-contiguous host array.
Result<Array> copy_to_host(const Array& device, const Stream& stream = {});
// Waits for all work on the GPU (numba.cuda.synchronize); nothing to wait for in the simulator.
// Backend::automatic waits for the GPU that Backend::cuda launches and device arrays have used.
//
// Call it before the program exits. A launch with only device arrays returns before its kernel
// has run, and what a kernel prints reaches stdout only when the GPU is waited for: CUDA does
// not flush its printf buffer at exit, so without this wait the output is lost, and so is a
// fault the kernel met (reported here). pykern does not wait by itself at exit: a static
// destructor may run after the CUDA driver has torn itself down, cannot change the exit status
// to report a fault, and would hang the exit on a kernel that never ends. (`pykern run` waits.)
Status synchronize(Backend backend = Backend::automatic);

}  // namespace pykern
