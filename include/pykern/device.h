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
#include <array>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pykern/array.h"
#include "pykern/module.h"
#include "pykern/result.h"
#include "pykern/gpu_info.h"

namespace pykern {

class Event;

// How a new stream behaves; the defaults are numba.cuda.stream()'s.
struct StreamOptions {
  // Neither waits for the other: the stream and the legacy default stream (CU_STREAM_NON_BLOCKING).
  bool non_blocking = false;
  // CUDA's stream priority: a lower number runs first. Within Stream::priority_range(), else
  // an error (CUDA would clamp it silently); 0 is the default priority.
  int priority = 0;
};

class Graph;

class Stream {
 public:
  Stream() = default;  // the default stream
  static Result<Stream> create(Backend backend = Backend::automatic);
  static Result<Stream> create(const StreamOptions& options, Backend backend = Backend::automatic);
  // A stream someone else made and owns (numba.cuda.external_stream): a CUstream of the context
  // pykern uses (the device's primary context, the CUDA runtime's). pykern queues work on it and
  // never destroys it. An error without a GPU, or for a null handle (that is Stream()).
  static Result<Stream> wrap(void* cu_stream);
  // The default streams by name (numba.cuda.legacy_default_stream / per_thread_default_stream).
  // Stream() is the legacy one unless PYKERN_PER_THREAD_DEFAULT_STREAM=1 (Numba's
  // NUMBA_CUDA_PER_THREAD_DEFAULT_STREAM) makes it each host thread's own.
  static Result<Stream> legacy_default(Backend backend = Backend::automatic);
  static Result<Stream> per_thread_default(Backend backend = Backend::automatic);
  // The priorities a stream may have on the current GPU, {lowest, highest}: CUDA numbers the
  // highest priority lowest ({0, -5} on recent GPUs). {0, 0} on the simulator.
  static Result<std::pair<int, int>> priority_range(Backend backend = Backend::automatic);

  // Waits for everything queued on the stream.
  Status synchronize() const;
  // Whether everything queued on it has finished, without waiting (cuStreamQuery).
  Result<bool> query() const;
  // Work queued on this stream from now on waits until `event` has completed (cuStreamWaitEvent;
  // numba's event.wait(stream)). An event never recorded is complete.
  Status wait(const Event& event) const;
  // Calls `callback` once the work queued so far has finished, with how it ended (numba's
  // stream.add_callback; cuStreamAddCallback, which reports a failed stream too). It runs on a
  // driver thread and must not call CUDA nor throw: what it throws is caught there and dropped.
  // On the simulator the work has finished already and it runs before add_callback returns.
  Status add_callback(std::function<void(const Status&)> callback) const;
  // A future that becomes ready, with how the work ended, once the work queued so far has
  // finished (numba's stream.async_done).
  Result<std::future<Status>> done() const;
  void* handle() const;  // the CUstream; null for the default stream and the simulator
  Backend backend() const;

  // Starts capturing a Graph: the launches and copies queued on this stream from now until
  // end_capture() are recorded, not run. A stream of Stream::create or Stream::wrap only (the
  // default streams cannot capture). On a GPU it is the driver's capture in relaxed mode
  // (cuStreamBeginCapture): other threads may use CUDA meanwhile.
  Status begin_capture() const;
  // Ends the capture and makes the graph, ready to launch (cuStreamEndCapture,
  // cuGraphInstantiate). An error when the stream was not capturing, or when something queued
  // during the capture broke it (the driver's error, naming it).
  Result<Graph> end_capture() const;
  bool is_capturing() const;

  struct State;

 private:
  friend class Launch;
  std::shared_ptr<State> state_;
};

class Event {
 public:
  static Result<Event> create(Backend backend = Backend::automatic);
  // Marks the point the stream has reached (what is queued so far).
  Status record(const Stream& stream = {});
  Status synchronize() const;
  // Whether the work before the event has finished, without waiting (cuEventQuery); an event
  // never recorded has.
  Result<bool> query() const;
  // Milliseconds from this event to `end`, both recorded and complete (numba's elapsed_time).
  Result<float> elapsed_ms(const Event& end) const;

  struct State;

 private:
  friend class Stream;
  std::shared_ptr<State> state_;
};

// A recorded sequence of kernel launches and copies (a CUDA Graph), replayed with one call, so
// that many small launches repeated cost one launch each time:
//
//   stream.begin_capture();
//   step->launch(pykern::Launch(grid, block).stream(stream).backend(backend), d_state, dt);  // recorded
//   reduce->launch(pykern::Launch(grid, block).stream(stream).backend(backend), d_state, d_sum);
//   auto graph = stream.end_capture();
//   for (int i = 0; i < 1000; ++i) graph->launch(stream);  // both kernels, in order, each time
//
// What a graph holds is fixed when it is captured: the kernels, their grids and blocks, and
// their arguments' values; an array argument is its memory, so a replay reads and writes what
// the arrays hold then. The graph keeps the arrays of the launches and copies it captured alive.
// A launch that would wait for its kernel cannot be captured and is refused: one with host
// arrays (they are copied in and out around the kernel: capture device, managed or mapped
// arrays), a timeout or a progress callback, or a debug=True kernel (its error record is read
// after the kernel). On the simulator the stream records the launches and copies, and a replay
// runs them in order, with the same results.
class Graph {
 public:
  // Queues a replay on `stream` (the default stream if none); on the simulator it runs now.
  Status launch(const Stream& stream = {}) const;
  // Takes `newer`'s work into this graph: a capture of the same launches in the same order with
  // other argument values (other arrays, other scalars). On a GPU the instantiated graph is
  // updated in place (cuGraphExecUpdate, cheaper than instantiating) when the driver allows it,
  // else made again from `newer`; true when updated in place.
  Result<bool> update(const Graph& newer);
  // The launches and copies it holds (on a GPU, the graph's nodes).
  size_t size() const;
  Backend backend() const;

  struct State;

 private:
  friend class Stream;
  std::shared_ptr<State> state_;
};

// The GPUs the driver sees; an error when there is no driver.
Result<std::vector<GpuInfo>> list_gpus();
// Uses GPU `ordinal` for the rest of the process (numba.cuda.select_device); kernels launched
// before are loaded again on it at their next launch.
Status select_gpu(int ordinal);
// Whether kernels on GPU `ordinal` can read and write GPU `peer`'s memory directly, over NVLink
// or PCIe (cuDeviceCanAccessPeer); false for a GPU and itself.
Result<bool> can_access_peer(int ordinal, int peer);
// Lets kernels on the current GPU use arrays on GPU `peer` (cuCtxEnablePeerAccess): a launch
// then takes them as they are, where before it asked for the array's GPU to be selected.
// Enabling it twice is no error. An error when the GPUs cannot (can_access_peer) or `peer` is
// the current GPU.
Status enable_peer_access(int peer);
// Closes the current GPU for this process (numba.cuda.close()): waits for its work, then lets go
// of pykern's hold on its context, which the driver frees once the arrays, streams, events,
// graphs and loaded kernels still alive that use it are dropped. The next GPU call opens device
// 0 again (select_gpu chooses another). Nothing to do when no GPU was opened.
Status close_gpu();
// Resets the current GPU (numba's cuda.get_current_device().reset(); cuDevicePrimaryCtxReset):
// every allocation and loaded module on it is destroyed. It waits for the GPU's work first, and
// is refused while anything pykern made on the GPU is alive (an array, stream, event, graph, or
// a Module that launched on it), since its memory would go from under it. The GPU stays selected.
Status reset_gpu();
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
// Managed (unified) memory (numba.cuda.managed_array): one address for the host and the GPU,
// the driver moving pages where they are used. Location::unified: launches take it as it is,
// and the host reads and writes it directly once the GPU's work on it is done (synchronize).
Result<Array> managed_array(DType dtype, std::vector<int64_t> shape, Order order = Order::C,
                            Backend backend = Backend::automatic);
// Page-locked host memory the GPU reads and writes over the bus (numba.cuda.mapped_array):
// Location::unified, no copies; for data a kernel touches once.
Result<Array> mapped_array(DType dtype, std::vector<int64_t> shape, Order order = Order::C,
                           Backend backend = Backend::automatic);
// A view of `host`'s memory page-locked in place (cuMemHostRegister) while the view lives
// (numba.cuda.pinned), and mapped into the GPU's address space too when `mapped` (numba.cuda.mapped:
// the view is Location::unified and kernels use it without copies). The view keeps `host`'s
// storage alive. A read-only array is refused: a kernel could write through the view.
Result<Array> register_host(const Array& host, bool mapped = false, Backend backend = Backend::automatic);
// An array over GPU memory someone else allocated (the CUDA runtime's cudaMalloc, another
// library's tensor), kept alive by `keep_alive` as long as the array or a view of it lives.
// The driver is asked what the pointer is: memory it did not allocate or register, a shape and
// strides reaching outside the allocation, are errors. Managed and mapped memory give a
// Location::unified array. Needs a GPU (Backend::cuda).
Result<Array> wrap_device(void* data, DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides = {},
                          std::shared_ptr<void> keep_alive = nullptr);
// A device array shared with another process through CUDA IPC (numba's
// DeviceNDArray.get_ipc_handle and cuda.open_ipc_array). The exporting process keeps the array
// alive while others use it; to_bytes() is what to send them (a short JSON text), from_bytes()
// checks what arrives: a malformed or altered handle is an error, never a wild pointer.
struct IpcHandle {
  std::array<unsigned char, 64> handle{};  // cuIpcGetMemHandle's, for the whole allocation
  uint64_t offset = 0;                     // the array's data within the allocation
  DType dtype;
  std::vector<int64_t> shape, strides;     // strides in bytes
  int device = 0;                          // the exporter's GPU ordinal
  std::string to_bytes() const;
  static Result<IpcHandle> from_bytes(const std::string& bytes);
};
// `device` (memory of cuMemAlloc: device_array, to_device) as a handle for another process.
Result<IpcHandle> ipc_handle(const Array& device);
// The array another process exported, mapped into this one while the array or a view of it
// lives (cuIpcOpenMemHandle). On the current GPU; a handle cannot be opened in its own process.
Result<Array> open_ipc_array(const IpcHandle& handle);
// Free and total bytes of the current GPU's memory (numba's get_memory_info); of the host's
// physical memory on the simulator.
struct MemoryInfo {
  size_t free = 0, total = 0;
};
Result<MemoryInfo> memory_info(Backend backend = Backend::automatic);
// Starts and stops the profiler's collection (cuProfilerStart/Stop; numba.cuda.profile_start),
// for Nsight Systems' --capture-range=cudaProfilerApi. Nothing to do on the simulator.
Status profile_start(Backend backend = Backend::automatic);
Status profile_stop(Backend backend = Backend::automatic);

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
