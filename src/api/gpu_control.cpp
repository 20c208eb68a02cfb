// The public API's control of whole GPUs (include/pykern/device.h): peer access between two,
// closing and resetting one.
#include <fmt/format.h>

#include "cuda/gpu.h"
#include "pykern/device.h"

namespace pykern {

namespace {

Status peer_feature(const cuda::Driver& d) {
  return d.require(d.device_can_access_peer && d.ctx_enable_peer_access, "peer access between GPUs");
}

// Waits for everything queued on `gpu`.
Status wait_for(const cuda::Gpu& gpu, const char* why) {
  if (auto s = gpu.refuse_if_stuck(); !s.ok()) return s;
  cuda::ContextScope bound(gpu);
  if (!bound.ok()) return bound.status();
  const cuda::Driver& d = gpu.driver();
  return d.check(d.ctx_synchronize(), "cuCtxSynchronize", fmt::format("device {} ({})", gpu.info().ordinal, why));
}

}  // namespace

Result<bool> can_access_peer(int ordinal, int peer) {
  auto current = cuda::Gpu::current();  // the driver it was opened through (a test's fake, too)
  if (!current.ok()) return current.error();
  const cuda::Driver& d = (*current)->driver();
  if (auto s = peer_feature(d); !s.ok()) return s.error();
  CUdevice from = 0, to = 0;
  if (auto s = d.check(d.device_get(&from, ordinal), "cuDeviceGet", fmt::format("device {}", ordinal)); !s.ok())
    return s.error();
  if (auto s = d.check(d.device_get(&to, peer), "cuDeviceGet", fmt::format("device {}", peer)); !s.ok()) return s.error();
  int can = 0;
  if (auto s = d.check(d.device_can_access_peer(&can, from, to), "cuDeviceCanAccessPeer",
                       fmt::format("devices {} and {}", ordinal, peer));
      !s.ok())
    return s.error();
  return can != 0;
}

Status enable_peer_access(int peer) {
  auto current = cuda::Gpu::current();
  if (!current.ok()) return current.error();
  const cuda::Gpu& gpu = **current;
  const cuda::Driver& d = gpu.driver();
  int ordinal = gpu.info().ordinal;
  if (peer == ordinal)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("enable_peer_access({}): that is the current GPU, whose memory its kernels use already", peer));
  auto can = can_access_peer(ordinal, peer);
  if (!can.ok()) return can.error();
  if (!*can)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("enable_peer_access({}): GPU {} cannot reach GPU {}'s memory directly (no NVLink or "
                                   "PCIe peer path; cuDeviceCanAccessPeer): copy the arrays instead",
                                   peer, ordinal, peer));
  auto other = cuda::Gpu::open(d, peer);
  if (!other.ok()) return other.error();
  cuda::ContextScope bound(gpu);
  if (!bound.ok()) return bound.status();
  CUresult enabled = d.ctx_enable_peer_access((*other)->context(), 0);
  if (enabled != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
    if (auto s = d.check(enabled, "cuCtxEnablePeerAccess", fmt::format("device {} using device {}", ordinal, peer)); !s.ok())
      return s;
  gpu.add_peer(std::move(*other));
  return ok_status();
}

Status close_gpu() {
  std::shared_ptr<cuda::Gpu> gpu = cuda::Gpu::opened();
  if (!gpu) return ok_status();
  Status waited = gpu->stuck() ? ok_status() : wait_for(*gpu, "closing it");
  cuda::Gpu::select(nullptr);  // closed even when its work failed: the failure is reported
  return waited;
}

Status reset_gpu() {
  auto current = cuda::Gpu::current();
  if (!current.ok()) return current.error();
  std::shared_ptr<cuda::Gpu> gpu = std::move(*current);
  const cuda::Driver& d = gpu->driver();
  if (auto s = d.require(d.primary_ctx_reset != nullptr, "resetting a GPU"); !s.ok()) return s;
  // The selection holds one reference and `gpu` another; any more are things made on it.
  if (long users = gpu.use_count() - 2; users > 0)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("reset_gpu: {} object{} made on device {} ({}) still use{} it (arrays, streams, "
                                   "events, graphs, or a Module that launched on it); a reset would free their "
                                   "memory under them: drop them first, or use close_gpu()",
                                   users, users == 1 ? "" : "s", gpu->info().ordinal, gpu->info().name,
                                   users == 1 ? "s" : ""));
  if (auto s = wait_for(*gpu, "before its reset"); !s.ok()) return s;
  {
    cuda::ContextScope bound(*gpu);
    if (bound.ok()) gpu->staging_pool().release_all();
  }
  if (auto s = d.check(d.primary_ctx_reset(gpu->device()), "cuDevicePrimaryCtxReset",
                       fmt::format("device {}", gpu->info().ordinal));
      !s.ok())
    return s;
  // A fresh hold on the reset context, for the selection; the old one lets go of its own.
  auto fresh = cuda::Gpu::open(d, gpu->info().ordinal);
  cuda::Gpu::select(fresh.ok() ? *fresh : nullptr);
  return fresh.ok() ? ok_status() : Status(fresh.error());
}

}  // namespace pykern
