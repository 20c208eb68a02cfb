#include "cuda/gpu.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string_view>

#include <fmt/format.h>


namespace pykern::cuda {

namespace {
std::mutex selection_mutex;
// Never destroyed: the driver tears itself down at exit, and releasing the context from a
// static destructor could run after that.
std::shared_ptr<Gpu>& selected = *new std::shared_ptr<Gpu>();
}  // namespace

Gpu::~Gpu() {
  // Freeing memory and releasing the last reference to the context wait for a stuck kernel.
  if (context_ == nullptr || stuck()) return;
  {
    ContextScope bound(*this);
    if (bound.ok()) staging_pool_->release_all();
  }
  driver_->primary_ctx_release(device_);
}

Result<std::shared_ptr<Gpu>> Gpu::open(const Driver& driver, int ordinal) {
  auto info = query_device(driver, ordinal);
  if (!info.ok()) return info.error();
  std::shared_ptr<Gpu> gpu(new Gpu());
  gpu->driver_ = &driver;
  gpu->info_ = std::move(*info);
  // Kept between launches: up to 256 MiB, and no more than a sixteenth of the GPU's memory.
  size_t pool_cap = std::min<uint64_t>(uint64_t(256) << 20, gpu->info_.memory_bytes / 16);
  gpu->staging_pool_ = std::make_unique<StagingPool>(driver, pool_cap);
  std::string what = fmt::format("device {}", ordinal);
  if (auto s = driver.check(driver.device_get(&gpu->device_, ordinal), "cuDeviceGet", what); !s.ok()) return s.error();
  if (auto s = driver.check(driver.primary_ctx_retain(&gpu->context_, gpu->device_), "cuDevicePrimaryCtxRetain", what);
      !s.ok())
    return s.error();
  return gpu;
}

Result<std::shared_ptr<Gpu>> Gpu::current() {
  std::lock_guard<std::mutex> lock(selection_mutex);
  if (selected) return selected;
  auto driver = Driver::get();
  if (!driver.ok()) return driver.error();
  auto gpu = open(**driver, 0);
  if (!gpu.ok()) return gpu.error();
  selected = *gpu;
  return selected;
}

void Gpu::select(std::shared_ptr<Gpu> gpu) {
  std::lock_guard<std::mutex> lock(selection_mutex);
  selected = std::move(gpu);
}

std::shared_ptr<Gpu> Gpu::opened() {
  std::lock_guard<std::mutex> lock(selection_mutex);
  return selected;
}

Status Gpu::bind() const {
  return driver_->check(driver_->ctx_set_current(context_), "cuCtxSetCurrent", fmt::format("device {}", info_.ordinal));
}

void Gpu::add_peer(std::shared_ptr<Gpu> peer) const {
  std::lock_guard<std::mutex> lock(peers_mutex_);
  for (const auto& p : peers_)
    if (p->info().ordinal == peer->info().ordinal) return;
  peers_.push_back(std::move(peer));
}

bool Gpu::reaches(int ordinal) const {
  if (ordinal == info_.ordinal) return true;
  std::lock_guard<std::mutex> lock(peers_mutex_);
  for (const auto& p : peers_)
    if (p->info().ordinal == ordinal) return true;
  return false;
}

void Gpu::mark_stuck(const std::string& why) const {
  std::lock_guard<std::mutex> lock(stuck_mutex_);
  if (stuck()) return;
  stuck_why_ = why;
  stuck_.store(true, std::memory_order_release);
}

Status Gpu::refuse_if_stuck() const {
  if (!stuck()) return ok_status();
  std::lock_guard<std::mutex> lock(stuck_mutex_);
  return Error::make(ErrorKind::launch, fmt::format("device {} ({}) is still running {}; a GPU kernel cannot be stopped, "
                                                    "so the device takes no more work: restart the process to use it "
                                                    "again",
                                                    info_.ordinal, info_.name, stuck_why_));
}

ContextScope::ContextScope(const Gpu& gpu) : driver_(&gpu.driver()) {
  if (gpu.stuck()) {
    status_ = gpu.refuse_if_stuck();
    return;
  }
  // Asked each time rather than remembered: the host program may switch contexts itself.
  CUcontext now = nullptr;
  if (driver_->ctx_get_current(&now) == CUDA_SUCCESS && now == gpu.context()) return;
  status_ = driver_->check(driver_->ctx_set_current(gpu.context()), "cuCtxSetCurrent",
                           fmt::format("device {}", gpu.info().ordinal));
  if (status_.ok()) callers_ = now;
}

ContextScope::~ContextScope() {
  if (callers_ != nullptr) driver_->ctx_set_current(callers_);
}

std::string Gpu::current_arch() {
  // Asked without making a context (that alone takes a tenth of a second): `pykern compile`
  // only needs the architecture.
  {
    std::lock_guard<std::mutex> lock(selection_mutex);
    if (selected) return selected->info().arch();
  }
  auto driver = Driver::get();
  if (!driver.ok()) return "";
  auto info = query_device(**driver, 0);
  return info.ok() ? info->arch() : "";
}

Result<size_t> printf_buffer_bytes() {
  constexpr size_t default_bytes = size_t(64) << 20;
  const char* text = std::getenv("PYKERN_PRINTF_FIFO_SIZE");
  if (text == nullptr || *text == 0) return default_bytes;
  std::string_view digits(text);
  size_t bytes = 0;
  bool number = digits.size() <= 18 && digits.find_first_not_of("0123456789") == std::string_view::npos;
  if (number) bytes = std::stoull(std::string(digits));
  if (!number || bytes > (size_t(1) << 40))
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("PYKERN_PRINTF_FIFO_SIZE is the bytes of the GPU's printf buffer, a whole number "
                                   "up to 2**40 (0 keeps CUDA's 1 MiB), not '{}'",
                                   digits));
  return bytes;
}

Status Gpu::reserve_printf_buffer() const {
  std::lock_guard<std::mutex> lock(printf_mutex_);
  if (printf_buffer_reserved_) return ok_status();
  auto wanted = printf_buffer_bytes();
  if (!wanted.ok()) return wanted.error();
  std::string what = fmt::format("a printf buffer of {} bytes (PYKERN_PRINTF_FIFO_SIZE) on device {}", *wanted, info_.ordinal);
  ContextScope bound(*this);
  if (!bound.ok()) return bound.status();
  size_t now = 0;
  if (auto s = driver_->check(driver_->ctx_get_limit(&now, CU_LIMIT_PRINTF_FIFO_SIZE), "cuCtxGetLimit", what); !s.ok())
    return s;
  if (*wanted > now) {
    CUresult set = driver_->ctx_set_limit(CU_LIMIT_PRINTF_FIFO_SIZE, *wanted);
    // CUDA_ERROR_INVALID_VALUE: a kernel that prints has run in this context (the host
    // program's, sharing the primary context), and the buffer stays as it is.
    if (set != CUDA_ERROR_INVALID_VALUE)
      if (auto s = driver_->check(set, "cuCtxSetLimit", what); !s.ok()) return s;
  }
  printf_buffer_reserved_ = true;
  return ok_status();
}

std::string Gpu::describe(const std::string& kernel) const {
  return fmt::format("kernel '{}' on device {} ({})", kernel, info_.ordinal, info_.name);
}

}  // namespace pykern::cuda
