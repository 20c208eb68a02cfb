#include "cuda/launcher.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iterator>
#include <thread>

#include <fmt/format.h>

#include "base/profile_range.h"
#include "cuda/memory.h"
#include "cuda/streams.h"

namespace pykern::cuda {

namespace {

// Device memory for one launch's copy of a stretch of host memory. Given back to the GPU's pool
// once the launch has finished with it; freed on a path that leaves its copies in doubt; left
// alone on a stuck GPU, where freeing would wait for the kernel that never ends.
struct StagedArray {
  const Gpu* gpu = nullptr;
  CUdeviceptr pointer = 0;
  size_t allocated = 0;  // the block's size, at least host.bytes
  Span host;
  bool finished = false;  // the launch and the copy back are complete
  StagedArray() = default;
  StagedArray(const StagedArray&) = delete;
  StagedArray(StagedArray&& other) noexcept
      : gpu(other.gpu), pointer(other.pointer), allocated(other.allocated), host(other.host), finished(other.finished) {
    other.pointer = 0;
  }
  ~StagedArray() {
    if (!pointer || gpu->stuck()) return;
    if (finished)
      gpu->staging_pool().give_back(pointer, allocated);
    else
      gpu->driver().mem_free(pointer);
  }
};

bool is_cubin(const std::string& image) { return image.size() >= 4 && std::memcmp(image.data(), "\x7f" "ELF", 4) == 0; }

// Loads a cubin, or JIT-compiles PTX, keeping the JIT's log for the error message.
Status load_module(const Driver& d, const std::string& image, CUmodule* module, const std::string& what) {
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(static_cast<uintptr_t>(sizeof log))};
  unsigned count = is_cubin(image) ? 0 : 2;
  ProfileRange range("pykern: load " + what);
  Status loaded = d.check(d.module_load_data_ex(module, image.data(), count, options, values), "cuModuleLoadDataEx", what);
  if (!loaded.ok() && log[0] != 0) {
    Error error = loaded.error();
    error.log = log;
    return error;
  }
  return loaded;
}

// The stretches of host memory a launch's host arrays span, overlapping spans merged: views
// of one buffer that share bytes (a[::2] and a[1::2]) get one device copy, so that what the
// kernel writes through one is not overwritten by the other's copy coming back.
std::vector<Span> merged_spans(const std::vector<Argument>& args) {
  std::vector<Span> spans;
  for (const Argument& arg : args)
    if (const Array* a = std::get_if<Array>(&arg); a && a->location() == Location::host)
      if (Span span = span_of(*a); span.bytes > 0) spans.push_back(span);
  std::sort(spans.begin(), spans.end(), [](const Span& x, const Span& y) { return x.lowest < y.lowest; });
  std::vector<Span> merged;
  for (const Span& span : spans) {
    if (!merged.empty() && span.lowest < merged.back().lowest + merged.back().bytes) {
      Span& last = merged.back();
      std::byte* end = std::max(last.lowest + last.bytes, span.lowest + span.bytes);
      last.bytes = size_t(end - last.lowest);
    } else {
      merged.push_back(span);
    }
  }
  return merged;
}

// The arguments as the kernel sees them: each host array at its place in the device copy of
// the stretch that holds it, copy k starting at `bases[k]`.
std::vector<Argument> at_device_copies(const std::vector<Argument>& args, const std::vector<Span>& spans,
                                       const std::vector<CUdeviceptr>& bases) {
  std::vector<Argument> device_args = args;
  for (size_t i = 0; i < args.size(); ++i) {
    const Array* a = std::get_if<Array>(&args[i]);
    if (!a || a->location() != Location::host) continue;
    std::byte* device_data = nullptr;
    auto* host_data = static_cast<std::byte*>(a->data());
    if (span_of(*a).bytes > 0) {
      // The stretch that holds this array: the last one starting at or below its data.
      auto holder = std::upper_bound(spans.begin(), spans.end(), host_data,
                                     [](std::byte* p, const Span& s) { return p < s.lowest; });
      size_t k = size_t(std::prev(holder) - spans.begin());
      device_data = reinterpret_cast<std::byte*>(bases[k]) + (host_data - spans[k].lowest);
    }
    device_args[i] = Array::wrap(device_data, a->dtype(), a->shape(), a->strides(), Location::device);
  }
  return device_args;
}

// The copies of a launch's host arrays: allocated and filled before it, read back after.
Status stage_host_arrays(const Gpu& gpu, const std::vector<Argument>& args, const std::vector<Span>& spans,
                         CUstream stream, const std::string& what, std::vector<Argument>& device_args,
                         std::vector<StagedArray>& staged) {
  const Driver& d = gpu.driver();
  std::vector<CUdeviceptr> bases;
  for (const Span& span : spans) {
    StagedArray& s = staged.emplace_back();
    s.gpu = &gpu;
    s.host = span;
    if (auto r = d.check(gpu.staging_pool().take(span.bytes, &s.pointer, &s.allocated), "cuMemAlloc", what); !r.ok())
      return r;
    if (auto r = d.check(d.memcpy_htod_async(s.pointer, span.lowest, span.bytes, stream), "cuMemcpyHtoDAsync", what);
        !r.ok())
      return r;
    bases.push_back(s.pointer);
  }
  device_args = at_device_copies(args, spans, bases);
  return ok_status();
}

// The alignment a GPU needs for an element: its scalars' own; a record whose fields are not
// laid out as a C struct's is read field by field, byte-aligned.
int64_t required_alignment(const DType& dtype) {
  return dtype.fields.empty() || dtype.naturally_aligned() ? dtype.alignment() : 1;
}

std::string join_strides(const std::vector<int64_t>& strides) {
  std::string text;
  for (size_t i = 0; i < strides.size(); ++i) text += (i ? ", " : "") + std::to_string(strides[i]);
  return strides.size() == 1 ? text + "," : text;
}

// A GPU loads an element only from an address that is a multiple of its alignment; one that is
// not is CUDA_ERROR_MISALIGNED_ADDRESS, which leaves the context unusable. Such an array (a
// float64 view with a stride of 12 bytes, a view of a byte buffer at an odd offset) is refused
// before the launch. `args`: as the kernel will see them (host arrays at their device copies,
// which keep the host data's offset within its stretch).
Status check_alignment(const CompiledKernel& kernel, const std::vector<Argument>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const Array* a = std::get_if<Array>(&args[i]);
    if (!a || a->size() == 0) continue;
    int64_t alignment = required_alignment(a->dtype());
    bool strides_aligned = true;
    for (int axis = 0; axis < a->ndim(); ++axis)
      strides_aligned = strides_aligned && (a->shape()[axis] == 1 || a->strides()[axis] % alignment == 0);
    bool data_aligned = reinterpret_cast<uintptr_t>(a->data()) % uintptr_t(alignment) == 0;
    if (strides_aligned && data_aligned) continue;
    std::string parameter = i < kernel.parameters.size() ? kernel.parameters[i].name : "?";
    std::string why = !strides_aligned ? fmt::format("its strides ({}) are not multiples", join_strides(a->strides()))
                                       : std::string("its data address is not a multiple");
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("kernel '{}': parameter '{}' (argument {}) is a {} array and {} of the element's "
                                   "alignment, {} bytes: a GPU cannot load such elements "
                                   "(CUDA_ERROR_MISALIGNED_ADDRESS); pass an aligned copy (np.ascontiguousarray) or "
                                   "launch on the simulator",
                                   kernel.function, parameter, i + 1, a->dtype().name(), why, alignment));
  }
  return ok_status();
}

// A device array lives on one GPU (a DLPack tensor says which); pykern launches on the current
// one, which cannot read another's memory through the array's pointer.
Status check_devices(const CompiledKernel& kernel, const std::vector<Argument>& args, const Gpu& gpu) {
  for (size_t i = 0; i < args.size(); ++i) {
    const Array* a = std::get_if<Array>(&args[i]);
    if (!a || a->location() != Location::device || gpu.reaches(a->device_id())) continue;
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("kernel '{}': parameter '{}' (argument {}) is an array on GPU {}, and the kernel runs "
                                   "on GPU {} ({}): select its GPU first (pykern::select_gpu({})), or let this GPU "
                                   "use it (pykern::enable_peer_access({}))",
                                   kernel.function, i < kernel.parameters.size() ? kernel.parameters[i].name : "?",
                                   i + 1, a->device_id(), gpu.info().ordinal, gpu.info().name, a->device_id(),
                                   a->device_id()));
  }
  return ok_status();
}

// Calls a launch's progress callback while its kernel runs on a GPU: the time only (the driver
// cannot say how many blocks have run), every progress_every, and once at the end. An exception
// the callback throws is kept and ends the calls; the kernel is waited for all the same, since
// the arrays staged for it must outlive it.
class GpuProgress {
 public:
  using clock = std::chrono::steady_clock;
  explicit GpuProgress(const Launch& config)
      : callback_(config.progress() ? &config.progress() : nullptr),
        every_(std::max(config.progress_every(), std::chrono::milliseconds(1))),
        blocks_(config.grid().count()),
        next_(started_ + every_) {}
  bool wanted() const { return callback_ != nullptr; }
  // Between polls: a report when one is due.
  void tick() {
    if (callback_ == nullptr || clock::now() < next_) return;
    report(false, false);
    next_ = std::max(next_ + every_, clock::now());
  }
  void last(bool kernel_finished) {
    if (callback_ != nullptr) report(true, kernel_finished);
  }
  // What the callback threw, as the launch's error (none: ok).
  Status status(const std::string& what) const {
    if (!threw_) return ok_status();
    return Error::make(ErrorKind::launch,
                       fmt::format("{}: the launch's progress callback threw an exception: {}", what, thrown_));
  }

 private:
  void report(bool last, bool kernel_finished) {
    if (threw_) return;
    LaunchProgress progress;
    progress.blocks_total = blocks_;
    progress.blocks_done = kernel_finished ? blocks_ : 0;
    progress.elapsed_seconds = std::chrono::duration<double>(clock::now() - started_).count();
    progress.finished = last;
    try {
      (*callback_)(progress);
    } catch (const std::exception& e) {
      threw_ = true;
      thrown_ = e.what();
    } catch (...) {
      threw_ = true;
      thrown_ = "one that is not a std::exception";
    }
  }

  const Launch::ProgressCallback* callback_;
  std::chrono::milliseconds every_;
  uint64_t blocks_;
  clock::time_point started_ = clock::now();
  clock::time_point next_;
  bool threw_ = false;
  std::string thrown_;
};

// Waits for `stream`'s work. With a timeout (seconds; 0: none) or a progress callback it polls
// instead of blocking, and a kernel still running past the timeout leaves the GPU stuck: the
// driver cannot stop a kernel, and every later wait (a copy, a free, the next launch) would
// hang on it. A cancel request is not looked at here: the kernel is already running.
Status wait_for_stream(const Gpu& gpu, CUstream stream, const Launch& config, GpuProgress& progress,
                       const std::string& what, const std::string& kernel) {
  const Driver& d = gpu.driver();
  double timeout_seconds = config.timeout();
  if (timeout_seconds <= 0 && !progress.wanted()) {
    return d.check(d.stream_synchronize(stream), "cuStreamSynchronize", what + " while running");
  }
  using clock = std::chrono::steady_clock;
  auto deadline = timeout_seconds <= 0 ? clock::time_point::max()
                                       : clock::now() + std::chrono::duration_cast<clock::duration>(
                                                            std::chrono::duration<double>(std::min(timeout_seconds, 1e9)));
  auto pause = std::chrono::microseconds(20);  // short kernels are seen at once, long ones cost little
  for (;;) {
    CUresult state = d.stream_query(stream);
    if (state != CUDA_ERROR_NOT_READY) {
      progress.last(state == CUDA_SUCCESS);
      return d.check(state, "cuStreamQuery", what + " while running");
    }
    if (clock::now() >= deadline) break;
    progress.tick();
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(2000));
  }
  progress.last(false);
  gpu.mark_stuck(fmt::format("kernel '{}', which did not finish within its launch's timeout of {:g} s", kernel,
                             timeout_seconds));
  return Error::make(ErrorKind::launch,
                     fmt::format("TimeoutError: {} did not finish within its timeout of {:g} s (a loop that never "
                                 "ends, or a grid.sync() that a block which has returned never reaches?); a GPU kernel "
                                 "cannot be stopped, so device {} takes no more work: restart the process to use it "
                                 "again",
                                 what, timeout_seconds, gpu.info().ordinal));
}

// Every launch on this thread packs into the same buffers.
thread_local detail::PackedArguments packed;

}  // namespace

std::string describe_failure(const pk::ErrorRecord& r) {
  std::string where = fmt::format("{}:{}: {}: tid=[{}, {}, {}] ctaid=[{}, {}, {}]", r.file, r.line,
                                  r.is_index_error ? "IndexError" : r.kind, r.tid[0], r.tid[1], r.tid[2], r.ctaid[0],
                                  r.ctaid[1], r.ctaid[2]);
  if (r.is_index_error)
    return where + fmt::format(": index {} is out of bounds for axis {} with size {}", r.index, r.axis, r.size);
  return where + ": " + r.message;
}

Status check_launch_limits(const DeviceInfo& device, int kernel_max_threads, int static_shared_bytes,
                           const Launch& config, const std::string& kernel) {
  // The checks are comparisons; the message is built only when one fails.
  const Dim3& g = config.grid();
  const Dim3& b = config.block();
  const DeviceLimits& l = device.limits;
  auto refuse = [&](const std::string& why) {
    return Error::make(ErrorKind::launch, fmt::format("cannot launch kernel '{}' on device {} ({}) with grid ({}, {}, {}) "
                                                      "and block ({}, {}, {}): {}",
                                                      kernel, device.ordinal, device.name, g.x, g.y, g.z, b.x, b.y, b.z,
                                                      why));
  };
  if (b.x > uint32_t(l.max_block[0]) || b.y > uint32_t(l.max_block[1]) || b.z > uint32_t(l.max_block[2]))
    return refuse(fmt::format("a block is at most ({}, {}, {})", l.max_block[0], l.max_block[1], l.max_block[2]));
  if (g.x > uint32_t(l.max_grid[0]) || g.y > uint32_t(l.max_grid[1]) || g.z > uint32_t(l.max_grid[2]))
    return refuse(fmt::format("a grid is at most ({}, {}, {})", l.max_grid[0], l.max_grid[1], l.max_grid[2]));
  if (b.count() > uint64_t(l.max_threads_per_block))
    return refuse(fmt::format("a block has at most {} threads", l.max_threads_per_block));
  if (b.count() > uint64_t(kernel_max_threads))
    return refuse(fmt::format("this kernel runs at most {} threads per block (its registers limit it); use smaller "
                              "blocks",
                              kernel_max_threads));
  size_t shared = size_t(static_shared_bytes) + config.shared_bytes();
  if (shared > size_t(l.shared_per_block_optin))
    return refuse(fmt::format("it needs {} bytes of shared memory per block ({} static, {} dynamic) and the device "
                              "allows {}",
                              shared, static_shared_bytes, config.shared_bytes(), l.shared_per_block_optin));
  return ok_status();
}

GpuKernel::~GpuKernel() {
  if (!module_) return;
  ContextScope bound(*gpu_);
  if (bound.ok()) gpu_->driver().module_unload(module_);
}

Result<std::shared_ptr<GpuKernel>> GpuKernel::load(std::shared_ptr<Gpu> gpu, const std::string& image,
                                                   const CompiledKernel& kernel, bool debug) {
  std::shared_ptr<GpuKernel> k(new GpuKernel());
  k->gpu_ = std::move(gpu);
  k->kernel_ = kernel;
  k->debug_ = debug;
  const Gpu& g = *k->gpu_;
  const Driver& d = g.driver();
  std::string what = g.describe(kernel.function);
  ContextScope bound(g);
  if (!bound.ok()) return bound.status().error();
  if (kernel.prints)
    if (auto s = g.reserve_printf_buffer(); !s.ok()) return s.error();
  if (auto s = load_module(d, image, &k->module_, what); !s.ok()) return s.error();
  if (auto s = d.check(d.module_get_function(&k->function_, k->module_, kernel.symbol.c_str()), "cuModuleGetFunction", what);
      !s.ok())
    return s.error();
  d.func_get_attribute(&k->max_threads_per_block_, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k->function_);
  d.func_get_attribute(&k->static_shared_bytes_, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k->function_);
  if (debug) {
    size_t bytes = 0;
    if (auto s = d.check(d.module_get_global(&k->error_record_, &bytes, k->module_, PK_ERROR_RECORD_SYMBOL),
                         "cuModuleGetGlobal", what + " (its error record)");
        !s.ok())
      return s.error();
    if (bytes != sizeof(pk::ErrorRecord))
      return Error::make(ErrorKind::internal, fmt::format("{}: the error record has {} bytes, not {}", what, bytes,
                                                          sizeof(pk::ErrorRecord)));
  }
  return k;
}

Status GpuKernel::prepare_shared_memory(size_t dynamic_bytes) {
  // Beyond the default 48 KiB a kernel must opt in to its dynamic shared memory.
  size_t default_limit = size_t(gpu_->info().limits.shared_per_block);
  if (size_t(static_shared_bytes_) + dynamic_bytes <= default_limit) return ok_status();
  std::lock_guard<std::mutex> lock(shared_mutex_);
  if (dynamic_bytes <= dynamic_shared_allowed_) return ok_status();
  const Driver& d = gpu_->driver();
  if (auto s = d.check(d.func_set_attribute(function_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(dynamic_bytes)),
                       "cuFuncSetAttribute", gpu_->describe(kernel_.function));
      !s.ok())
    return s;
  dynamic_shared_allowed_ = dynamic_bytes;
  return ok_status();
}

// A kernel that syncs the grid needs all its blocks resident at once: at most as many as the
// occupancy calculator fits on each multiprocessor, times the multiprocessors. Said before the
// launch, in Numba's terms (max_cooperative_grid_blocks), rather than as the driver's
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE.
Status GpuKernel::check_cooperative_grid(const Launch& config) {
  const Driver& d = gpu_->driver();
  const Dim3& b = config.block();
  int per_multiprocessor = 0;
  if (auto s = d.check(d.occupancy_max_blocks(&per_multiprocessor, function_, int(b.x * b.y * b.z), config.shared_bytes()),
                       "cuOccupancyMaxActiveBlocksPerMultiprocessor", gpu_->describe(kernel_.function));
      !s.ok())
    return s;
  const Dim3& g = config.grid();
  uint64_t blocks = uint64_t(g.x) * g.y * g.z;
  uint64_t most = uint64_t(per_multiprocessor) * uint64_t(gpu_->info().multiprocessors);
  if (blocks <= most) return ok_status();
  return Error::make(ErrorKind::launch,
                     fmt::format("kernel '{}' syncs the grid (cuda.cg), so all its blocks must be resident at once: "
                                 "this GPU holds at most {} blocks of {} threads ({} per multiprocessor), and the "
                                 "launch asks for {}; launch fewer blocks, or loop over the data in each thread",
                                 kernel_.function, most, b.x * b.y * b.z, per_multiprocessor, blocks));
}

// A launch that waits for its kernel (to copy host arrays back, read a debug build's error
// record, enforce a timeout) on a stream capturing a graph: the wait would invalidate the
// capture, so it is refused before anything is queued.
namespace {
Status refuse_if_capturing(const Driver& d, CUstream stream, bool has_host_arrays, const std::string& what) {
  if (!d.stream_is_capturing) return ok_status();  // a driver without graphs cannot be capturing
  CUstreamCaptureStatus capturing = CU_STREAM_CAPTURE_STATUS_NONE;
  if (d.stream_is_capturing(stream, &capturing) != CUDA_SUCCESS || capturing == CU_STREAM_CAPTURE_STATUS_NONE)
    return ok_status();
  return Error::make(ErrorKind::launch,
                     fmt::format("{}: the stream is capturing a graph, and this launch waits for its kernel ({}), "
                                 "which a capture cannot; capture launches on device arrays, without a timeout or "
                                 "progress callback, of kernels not compiled with debug=True",
                                 what, has_host_arrays ? "to copy its host arrays back" : "to check how it ended"));
}
}  // namespace

// After the kernel ran: a timeout, a fault (illegal address), a debug build's recorded failure,
// or an exception from the progress callback.
Status GpuKernel::check_failure(CUstream stream, const Launch& config, const std::string& what) {
  const Driver& d = gpu_->driver();
  GpuProgress progress(config);
  if (auto s = wait_for_stream(*gpu_, stream, config, progress, what, kernel_.function); !s.ok()) {
    if (gpu_->stuck()) return s;
    return Error::make(ErrorKind::launch, s.error().message +
                                              " (a fault leaves the GPU context unusable: restart the process to use "
                                              "this GPU again; debug=True reports out-of-bounds accesses)");
  }
  if (auto s = progress.status(what); !s.ok()) return s;
  if (!debug_) return ok_status();
  pk::ErrorRecord record{};
  if (auto s = d.check(d.memcpy_dtoh_async(&record, error_record_, sizeof record, stream), "cuMemcpyDtoHAsync",
                       what + " (reading its error record)");
      !s.ok())
    return s;
  if (auto s = d.check(d.stream_synchronize(stream), "cuStreamSynchronize", what); !s.ok()) return s;
  if (record.claimed) return Error::make(ErrorKind::launch, describe_failure(record));
  return ok_status();
}

Status GpuKernel::launch(const Launch& config, const std::vector<Argument>& args) {
  ProfileRange range(kernel_.function);  // the kernel's name: no text is built on a warm launch
  const Gpu& g = *gpu_;
  const Driver& d = g.driver();
  if (auto s = check_launch_limits(g.info(), max_threads_per_block_, static_shared_bytes_, config, kernel_.function);
      !s.ok())
    return s;
  if (auto s = check_devices(kernel_, args, g); !s.ok()) return s;
  // Bound before the first driver call that needs the context (cuFuncSetAttribute does).
  ContextScope bound(g);
  if (!bound.ok()) return bound.status();
  if (auto s = prepare_shared_memory(config.shared_bytes()); !s.ok()) return s;
  if (kernel_.cooperative)
    if (auto s = check_cooperative_grid(config); !s.ok()) return s;
  auto queue = queue_for(static_cast<CUstream>(config.stream()));
  if (!queue.ok()) return queue.error();
  CUstream stream = *queue;
  std::vector<Argument> device_args;  // stays empty unless a host array needs a device copy
  std::vector<StagedArray> staged;
  std::string what;  // built only on the slow paths: a warm launch formats nothing
  auto describe = [&]() -> const std::string& {
    if (what.empty()) what = g.describe(kernel_.function);
    return what;
  };
  bool has_host_arrays = false;
  for (const Argument& a : args)
    if (const Array* array = std::get_if<Array>(&a); array && array->location() == Location::host) has_host_arrays = true;
  if (has_host_arrays || debug_ || config.timeout() > 0 || config.progress())
    if (auto s = refuse_if_capturing(d, stream, has_host_arrays, describe()); !s.ok()) return s;
  std::vector<Span> spans = has_host_arrays ? merged_spans(args) : std::vector<Span>();
  // Alignment is checked where the copies will be, before anything is allocated or copied: a
  // device allocation starts at a multiple of 256 bytes, so any such base stands for it.
  std::vector<CUdeviceptr> nominal_bases(spans.size(), CUdeviceptr(1) << 20);
  if (auto s = check_alignment(kernel_, has_host_arrays ? at_device_copies(args, spans, nominal_bases) : args); !s.ok())
    return s;
  if (has_host_arrays)
    if (auto s = stage_host_arrays(g, args, spans, stream, describe(), device_args, staged); !s.ok()) return s;
  const std::vector<Argument>& kernel_args = device_args.empty() ? args : device_args;
  if (auto s = detail::pack_arguments(kernel_, kernel_args, Location::device, packed); !s.ok()) return s;
  if (debug_)
    if (auto s = d.check(d.memset_d8_async(error_record_, 0, sizeof(pk::ErrorRecord), stream), "cuMemsetD8Async", describe());
        !s.ok())
      return s;
  // The last moment a cancel is acted on: once queued, a kernel cannot be stopped.
  if (config.cancel_token().cancel_requested())
    return Error::make(ErrorKind::cancelled, "the launch was cancelled before its kernel was queued; nothing ran on "
                                             "the GPU and no array was changed");
  const Dim3& gd = config.grid();
  const Dim3& bd = config.block();
  auto shared = static_cast<unsigned>(config.shared_bytes());
  CUresult launched =
      kernel_.cooperative
          ? d.launch_cooperative_kernel(function_, gd.x, gd.y, gd.z, bd.x, bd.y, bd.z, shared, stream, packed.pointers.data())
          : d.launch_kernel(function_, gd.x, gd.y, gd.z, bd.x, bd.y, bd.z, shared, stream, packed.pointers.data(), nullptr);
  if (launched != CUDA_SUCCESS)
    return d.check(launched, kernel_.cooperative ? "cuLaunchCooperativeKernel" : "cuLaunchKernel", describe());
  // Device arrays only, no debug build, no timeout to enforce, no progress to report: the launch
  // is asynchronous, as in Numba.
  if (!has_host_arrays && !debug_ && config.timeout() == 0 && !config.progress()) return ok_status();
  if (auto s = check_failure(stream, config, describe()); !s.ok()) return s;
  for (const StagedArray& s : staged)  // one copy back per stretch, the views' writes all in it
    if (auto r = d.check(d.memcpy_dtoh_async(s.host.lowest, s.pointer, s.host.bytes, stream), "cuMemcpyDtoHAsync", describe());
        !r.ok())
      return r;
  if (auto s = d.check(d.stream_synchronize(stream), "cuStreamSynchronize", describe()); !s.ok()) return s;
  for (StagedArray& s : staged) s.finished = true;
  return ok_status();
}

}  // namespace pykern::cuda
