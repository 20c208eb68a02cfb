// pykern's CPU simulator engine, compiled into each simulator library together with the
// emitted kernels (host builds only). It runs a launch as CUDA would, on the CPU:
//   - blocks run in parallel on a pool of OS threads;
//   - the threads of a block run one after another; a kernel that meets at barriers or warp
//     collectives runs its threads as fibers (Boost.Context) that switch at each meeting point,
//     so syncthreads, shuffles and votes see the whole block or warp in lock-step;
//   - each block has its own shared memory; array accesses are always bounds-checked;
//   - the first error (out of bounds, assert, deadlock) stops the launch and is reported with
//     the Python file and line, the thread and the block, as Numba's simulator does.
#pragma once
#if PK_DEVICE_BUILD
#error "pykern/sim.cuh is for host builds"
#endif
#ifndef PK_BOUNDSCHECK
#define PK_BOUNDSCHECK 1
#endif

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/context/fiber.hpp>
#include <boost/context/pooled_fixedsize_stack.hpp>

#include "pykern/runtime.cuh"

namespace pk::sim {

using Entry = void (*)(void* const* args);
struct KernelInfo {
  const char* symbol;
  Entry entry;
  bool cooperative;  // meets at barriers or warp collectives: run threads as fibers
};

// Thrown at a failing check; caught at the top of the thread.
struct KernelFailure {
  std::string message;
};

struct Barrier {
  int arrived = 0;
  u64 generation = 0;
  i32 count = 0;   // syncthreads_count: predicates seen this round
  i32 result = 0;  // and the total of the last completed round
};

struct BlockState;

struct ThreadState {
  dim3 tid{};
  int linear = 0;
  BlockState* block = nullptr;
  bool done = false;
  Barrier* waiting = nullptr;
  u64 wait_generation = 0;
  boost::context::fiber fiber;
  boost::context::fiber scheduler;
};

struct Launch;

struct BlockState {
  Launch* launch = nullptr;
  dim3 bid{};
  std::vector<ThreadState> threads;
  int live = 0;
  Barrier block_barrier;
  std::vector<Barrier> warp_barriers;
  std::vector<int> warp_live;
  std::vector<u64> warp_slots;  // 32 per warp
  std::vector<std::pair<int, std::unique_ptr<unsigned char[]>>> shared;  // by PK_SHARED_STORAGE slot
  std::vector<u64> shared_bytes;
};

struct Launch {
  dim3 grid{}, block{};
  const KernelInfo* kernel = nullptr;
  void* const* args = nullptr;
  std::atomic<bool> failed{false};
  std::atomic<u64> next_block{0};
  std::mutex mutex;
  std::string error;

  void fail(const std::string& message) {
    std::lock_guard<std::mutex> lock(mutex);
    if (error.empty()) error = message;
    failed = true;
  }
};

// The thread a worker is running now. The functions below implement the declarations of
// thread.cuh and errors.cuh; this header is compiled once per simulator library.
inline thread_local ThreadState* current = nullptr;

dim3 thread_idx() { return current->tid; }
dim3 block_idx() { return current->block->bid; }
dim3 block_dim() { return current->block->launch->block; }
dim3 grid_dim() { return current->block->launch->grid; }

inline std::string where(const char* file, int line) {
  const dim3& t = current->tid;
  const dim3& b = current->block->bid;
  char text[160];
  std::snprintf(text, sizeof text, "%s:%d: tid=[%u, %u, %u] ctaid=[%u, %u, %u]", file, line, t.x, t.y, t.z, b.x, b.y, b.z);
  return text;
}

void report_index_error(const char* file, int line, i64 index, int axis, i64 size) {
  char text[200];
  std::snprintf(text, sizeof text, ": index %lld is out of bounds for axis %d with size %lld", index, axis, size);
  std::string place = where(file, line);
  // Numba's form: IndexError: tid=[..] ctaid=[..]: index 10 is out of bounds for axis 0 with size 10
  size_t colon = place.find(": tid=");
  throw KernelFailure{place.substr(0, colon) + ": IndexError: " + place.substr(colon + 2) + text};
}

void report_failure(const char* file, int line, const char* kind, const char* message) {
  std::string place = where(file, line);
  size_t colon = place.find(": tid=");
  throw KernelFailure{place.substr(0, colon) + ": " + kind + ": " + place.substr(colon + 2) + ": " + message};
}

// Give control back to the block's scheduler until the barrier this thread waits at opens.
inline void yield() {
  ThreadState* self = current;
  self->scheduler = std::move(self->scheduler).resume();
}

inline void release(Barrier& b) {
  b.arrived = 0;
  b.result = b.count;
  b.count = 0;
  ++b.generation;
}

// Wait until every live thread of the group has arrived. Threads that have exited do not
// count, as on current GPUs.
inline i32 wait(Barrier& b, int live, i32 predicate = 0) {
  b.count += predicate;
  if (++b.arrived >= live) {
    release(b);
    return b.result;
  }
  ThreadState* self = current;
  self->waiting = &b;
  self->wait_generation = b.generation;
  yield();
  return b.result;
}

void syncthreads() { wait(current->block->block_barrier, current->block->live); }
i32 syncthreads_count(i32 predicate) {
  return wait(current->block->block_barrier, current->block->live, predicate != 0);
}

void syncwarp(u32) {
  BlockState& b = *current->block;
  int warp = current->linear / 32;
  wait(b.warp_barriers[warp], b.warp_live[warp]);
}

u64 warp_exchange(u32, u64 value, i32 lane) {
  BlockState& b = *current->block;
  int warp = current->linear / 32;
  b.warp_slots[current->linear] = value;
  wait(b.warp_barriers[warp], b.warp_live[warp]);
  size_t source = static_cast<size_t>(warp) * 32 + static_cast<size_t>(lane & 31);
  u64 result = source < b.threads.size() ? b.warp_slots[source] : value;
  wait(b.warp_barriers[warp], b.warp_live[warp]);
  return result;
}

u32 warp_ballot(u32 mask, i32 predicate) {
  BlockState& b = *current->block;
  int warp = current->linear / 32;
  b.warp_slots[current->linear] = predicate != 0;
  wait(b.warp_barriers[warp], b.warp_live[warp]);
  u32 bits = 0;
  for (int lane = 0; lane < 32; ++lane) {
    size_t i = static_cast<size_t>(warp) * 32 + lane;
    if (i < b.threads.size() && !b.threads[i].done && b.warp_slots[i] && (mask >> lane & 1)) bits |= 1u << lane;
  }
  wait(b.warp_barriers[warp], b.warp_live[warp]);
  return bits;
}

void threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }

void* shared_storage(int slot, u64 bytes, u64) {
  BlockState& b = *current->block;
  for (auto& [id, memory] : b.shared)
    if (id == slot) return memory.get();
  b.shared.emplace_back(slot, std::unique_ptr<unsigned char[]>(new unsigned char[bytes]()));
  b.shared_bytes.push_back(bytes);
  return b.shared.back().second.get();
}

// A thread has exited: the barriers its group waits at may now be complete.
inline void thread_exited(ThreadState& t) {
  BlockState& b = *t.block;
  t.done = true;
  --b.live;
  int warp = t.linear / 32;
  --b.warp_live[warp];
  if (b.block_barrier.arrived > 0 && b.block_barrier.arrived >= b.live) release(b.block_barrier);
  Barrier& w = b.warp_barriers[warp];
  if (w.arrived > 0 && w.arrived >= b.warp_live[warp]) release(w);
}

inline void run_thread(ThreadState& t, Launch& launch) {
  try {
    launch.kernel->entry(launch.args);
  } catch (const KernelFailure& failure) {
    launch.fail(failure.message);
  }
}

inline boost::context::pooled_fixedsize_stack& stack_pool() {
  // Each fiber's stack holds the kernel's locals and cuda.local.arrays.
  static thread_local boost::context::pooled_fixedsize_stack pool(256 * 1024);
  return pool;
}

inline void run_block_cooperative(BlockState& b, Launch& launch) {
  for (ThreadState& t : b.threads) {
    ThreadState* self = &t;
    t.fiber = boost::context::fiber(std::allocator_arg, stack_pool(),
                                    [self, &launch](boost::context::fiber&& scheduler) {
                                      self->scheduler = std::move(scheduler);
                                      run_thread(*self, launch);
                                      thread_exited(*self);
                                      return std::move(self->scheduler);
                                    });
  }
  while (!launch.failed) {
    bool progress = false, finished = true;
    for (ThreadState& t : b.threads) {
      if (t.done) continue;
      finished = false;
      if (t.waiting && t.waiting->generation == t.wait_generation) continue;
      t.waiting = nullptr;
      current = &t;
      t.fiber = std::move(t.fiber).resume();
      progress = true;
      if (launch.failed) break;
    }
    if (finished) break;
    if (!progress) {
      char text[200];
      std::snprintf(text, sizeof text,
                    "deadlock in block ctaid=[%u, %u, %u]: %d live threads wait at syncthreads or a warp "
                    "collective that the others never reach",
                    b.bid.x, b.bid.y, b.bid.z, b.live);
      launch.fail(text);
    }
  }
  // Unfinished fibers (after an error) are unwound as they are destroyed.
  for (ThreadState& t : b.threads) t.fiber = {};
}

inline void run_block(BlockState& b, Launch& launch, u64 index) {
  const dim3& g = launch.grid;
  b.bid = {static_cast<u32>(index % g.x), static_cast<u32>(index / g.x % g.y), static_cast<u32>(index / (u64(g.x) * g.y))};
  for (size_t i = 0; i < b.shared.size(); ++i) std::memset(b.shared[i].second.get(), 0, b.shared_bytes[i]);
  b.live = static_cast<int>(b.threads.size());
  b.block_barrier = {};
  std::fill(b.warp_barriers.begin(), b.warp_barriers.end(), Barrier{});
  for (size_t w = 0; w < b.warp_live.size(); ++w)
    b.warp_live[w] = static_cast<int>(std::min<size_t>(32, b.threads.size() - w * 32));
  for (ThreadState& t : b.threads) {
    t.done = false;
    t.waiting = nullptr;
  }
  if (launch.kernel->cooperative) {
    run_block_cooperative(b, launch);
    return;
  }
  for (ThreadState& t : b.threads) {
    current = &t;
    run_thread(t, launch);
    if (launch.failed) return;
  }
}

inline void worker(Launch& launch) {
  BlockState b;
  b.launch = &launch;
  const dim3& d = launch.block;
  size_t count = size_t(d.x) * d.y * d.z;
  b.threads.resize(count);
  for (size_t i = 0; i < count; ++i) {
    ThreadState& t = b.threads[i];
    t.linear = static_cast<int>(i);
    t.tid = {static_cast<u32>(i % d.x), static_cast<u32>(i / d.x % d.y), static_cast<u32>(i / (size_t(d.x) * d.y))};
    t.block = &b;
  }
  size_t warps = (count + 31) / 32;
  b.warp_barriers.resize(warps);
  b.warp_live.resize(warps);
  b.warp_slots.assign(warps * 32, 0);
  u64 blocks = u64(launch.grid.x) * launch.grid.y * launch.grid.z;
  for (u64 index; !launch.failed && (index = launch.next_block++) < blocks;) run_block(b, launch, index);
  current = nullptr;
}

}  // namespace pk::sim

extern "C" const pk::sim::KernelInfo pk_sim_kernels[];
extern "C" const int pk_sim_kernel_count;

// The library's one entry point. Returns 0, or 1 with the error message in `error`.
extern "C" __attribute__((visibility("default"))) int pk_sim_launch(const char* symbol, const unsigned* grid,
                                                                    const unsigned* block, void* const* args,
                                                                    int workers, char* error, unsigned long error_size) {
  pk::sim::Launch launch;
  for (int i = 0; i < pk_sim_kernel_count; ++i)
    if (std::strcmp(pk_sim_kernels[i].symbol, symbol) == 0) launch.kernel = &pk_sim_kernels[i];
  if (launch.kernel == nullptr) {
    std::snprintf(error, error_size, "the simulator library has no kernel %s", symbol);
    return 1;
  }
  launch.grid = {grid[0], grid[1], grid[2]};
  launch.block = {block[0], block[1], block[2]};
  launch.args = args;
  unsigned long long blocks = 1ull * grid[0] * grid[1] * grid[2];
  unsigned count = static_cast<unsigned>(std::min<unsigned long long>(workers > 0 ? workers : 1, blocks));
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < count; ++i) pool.emplace_back([&launch] { pk::sim::worker(launch); });
  pk::sim::worker(launch);
  for (std::thread& t : pool) t.join();
  if (!launch.failed) return 0;
  std::snprintf(error, error_size, "%s", launch.error.c_str());
  return 1;
}
