#include "sim/blas_library.h"
#include "sim/engine.h"
#include "sim/fiber_stacks.h"
#include "sim/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <pthread.h>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <boost/context/fiber.hpp>
#include <boost/context/fixedsize_stack.hpp>

// The runtime's host declarations (the Hooks table and its types), without kernels.
#include "pykern/runtime.cuh"

namespace pykern::sim {

namespace {

using pk::i32;
using pk::i64;
using pk::u32;
using pk::u64;
using pk::sim::dim3;

// Thrown at a failing check inside a kernel; caught at the top of the simulated thread.
struct KernelFailure {
  std::string message;
};

// A Python exception (a raise, an assert, an index or zero-division check, a NumPy error):
// a try statement of a host call catches it (runtime/pykern/exceptions.cuh), and what is not
// caught stops the thread as any KernelFailure does.
struct RaisedFailure : KernelFailure, pk::PythonException {
  explicit RaisedFailure(std::string text) : KernelFailure{std::move(text)} {}
  pk::PythonException* copy() const override { return new RaisedFailure(*this); }
  [[noreturn]] void raise() const override { throw RaisedFailure(*this); }
};

struct Barrier {
  int arrived = 0;
  u64 generation = 0;
  i32 count = 0;   // syncthreads_count: predicates seen this round
  i32 result = 0;  // and the total of the last completed round
};

struct BlockState;
struct Launch;

struct ThreadState {
  dim3 tid{};
  int linear = 0;
  BlockState* block = nullptr;
  bool done = false;
  Barrier* waiting = nullptr;
  u64 wait_generation = 0;
  boost::context::fiber fiber;  // its continuation while it does not run
  const char* stack_floor = nullptr;  // run as a fiber: how deep its stack may go (stack_exhausted)
};

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
  std::unique_ptr<unsigned char[]> dynamic_shared;  // Launch::shared_bytes of it, zeroed per block
};

// A launch in progress: what was asked for, and the state its workers share.
struct Launch {
  explicit Launch(const GridLaunch& asked)
      : request(asked), grid{asked.grid[0], asked.grid[1], asked.grid[2]},
        block{asked.block[0], asked.block[1], asked.block[2]} {}
  const GridLaunch& request;
  dim3 grid, block;  // as the hooks hand them out
  std::atomic<bool> failed{false};
  std::atomic<bool> timed_out{false};  // set by the monitor: threads stop at their next loop tick
  std::atomic<u64> next_block{0};
  std::atomic<u64> finished_blocks{0};  // by the workers, for the timeout's message and progress reports
  std::mutex mutex;
  std::string error;
  ErrorKind error_kind = ErrorKind::launch;  // ErrorKind::cancelled when a cancel stopped it
  // A kernel that syncs the grid runs all its blocks at once on one OS thread, so these need
  // no lock: the grid barrier, the threads that have not returned, and the blocks that have.
  Barrier grid_barrier;
  int grid_live = 0;
  int blocks_returned = 0;
  dim3 first_returned{};  // the first of them, for the deadlock message

  void fail(const std::string& message, ErrorKind kind = ErrorKind::launch) {
    std::lock_guard<std::mutex> lock(mutex);
    if (error.empty()) {
      error = message;
      error_kind = kind;
    }
    failed = true;
  }
};

// The threads of a launch's grid, all blocks together.
u64 thread_count(const GridLaunch& r) {
  return u64(r.grid[0]) * r.grid[1] * r.grid[2] * r.block[0] * r.block[1] * r.block[2];
}

// The simulated thread a worker is running now.
thread_local ThreadState* current = nullptr;

// ---- the hooks kernels call ----

dim3 thread_idx() { return current->tid; }
dim3 block_idx() { return current->block->bid; }
dim3 block_dim() { return current->block->launch->block; }
dim3 grid_dim() { return current->block->launch->grid; }

// The file name is kept whole (#line carries absolute paths); only the numbers go through a
// fixed buffer, which they always fit.
std::string where(const char* file, int line, const char* kind) {
  const dim3& t = current->tid;
  const dim3& b = current->block->bid;
  char numbers[160];
  std::snprintf(numbers, sizeof numbers, ": tid=[%u, %u, %u] ctaid=[%u, %u, %u]", t.x, t.y, t.z, b.x, b.y, b.z);
  return std::string(file) + ":" + std::to_string(line) + ": " + kind + numbers;
}

// Numba's form: IndexError: tid=[..] ctaid=[..]: index 10 is out of bounds for axis 0 with size 10
void report_index_error(const char* file, int line, i64 index, int axis, i64 size) {
  char text[160];
  std::snprintf(text, sizeof text, ": index %lld is out of bounds for axis %d with size %lld", index, axis, size);
  throw RaisedFailure{where(file, line, "IndexError") + text};
}

void report_failure(const char* file, int line, const char* kind, const char* message) {
  throw RaisedFailure{where(file, line, kind) + (*message ? std::string(": ") + message : std::string())};
}

std::string timeout_text(const Launch& launch) {
  char text[160];
  std::snprintf(text, sizeof text, "the kernel did not finish within its timeout of %g s (a loop that never ends?)",
                launch.request.timeout_seconds);
  return text;
}

// Whether the launch's cancel token says cancel; if so the launch fails, so every thread stops.
// The workers ask it themselves (at loop ticks and between blocks): a thread to watch it would
// cost every `pykern run`, whose Ctrl-C handling gives each launch a token, a thread's start.
bool cancelled(Launch& launch) {
  const CancelToken* token = launch.request.cancel;
  if (token == nullptr || !token->cancel_requested()) return false;
  u64 blocks = u64(launch.grid.x) * launch.grid.y * launch.grid.z;
  launch.fail(fmt::format("the launch was cancelled after {} of {} blocks had run; the arrays it writes are left "
                          "partly written",
                          launch.finished_blocks.load(), blocks),
              ErrorKind::cancelled);
  return true;
}

void check_stop(const char* file, int line) {
  Launch& launch = *current->block->launch;
  if (launch.timed_out.load(std::memory_order_relaxed))
    throw KernelFailure{where(file, line, "TimeoutError") + ": " + timeout_text(launch)};
  if (launch.failed.load(std::memory_order_relaxed) || cancelled(launch))
    throw KernelFailure{""};  // another thread failed, or a cancel: stop too
}

// The fibers an OS thread runs in run_fibers, round after round: each runs until it waits at a
// barrier or returns, then hands control straight to the next one of the round that can run,
// the last back to run_fibers. One switch per hand-over: going through run_fibers between
// fibers took two.
struct FiberRound {
  Launch* launch = nullptr;
  std::vector<ThreadState*> threads;  // in the order a round runs them
  size_t next = 0;                    // the first thread this round has not yet come to
  boost::context::fiber scheduler;    // run_fibers' continuation while a fiber runs
  // Where the continuation of the context that switched last is to be kept: the code that
  // was switched to stores it there.
  boost::context::fiber* switched_from = nullptr;
};
thread_local FiberRound* round_now = nullptr;

// The next thread of this round that can run (not returned, its barrier open), or null: the
// round is over, or the launch has failed.
ThreadState* next_runnable(FiberRound& round) {
  if (round.launch->failed) return nullptr;
  while (round.next < round.threads.size()) {
    ThreadState* t = round.threads[round.next++];
    if (t->done || (t->waiting && t->waiting->generation == t->wait_generation)) continue;
    t->waiting = nullptr;
    return t;
  }
  return nullptr;
}

// The continuation to switch to from a fiber that stops (kept in `own`): the next thread's or
// run_fibers'.
boost::context::fiber&& hand_over(FiberRound& round, boost::context::fiber* own) {
  ThreadState* next = next_runnable(round);
  current = next;
  round.switched_from = own;
  return std::move(next ? next->fiber : round.scheduler);
}

// Called at a switch's far end: keeps the continuation of the context that switched here.
void arrived(boost::context::fiber&& from) { *round_now->switched_from = std::move(from); }

// Stop here until the barrier this thread waits at opens; the others of the round run meanwhile.
void yield() {
  ThreadState* self = current;
  arrived(hand_over(*round_now, &self->fiber).resume());
  current = self;
}

void release(Barrier& b) {
  b.arrived = 0;
  b.result = b.count;
  b.count = 0;
  ++b.generation;
}

// Wait until every live thread of the group has arrived. Threads that have exited do not
// count, as on current GPUs.
i32 wait(Barrier& b, int live, i32 predicate = 0) {
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
i32 syncthreads_count(i32 predicate) { return wait(current->block->block_barrier, current->block->live, predicate != 0); }

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

// Every live thread of the grid must arrive, and every block must still have one: on a GPU a
// block that has returned never arrives, and the others wait for ever (reported as a deadlock).
void grid_sync() {
  Launch& launch = *current->block->launch;
  if (!launch.request.syncs_grid)
    throw KernelFailure{"internal error: grid.sync() in a launch that is not cooperative; please report it"};
  Barrier& b = launch.grid_barrier;
  if (++b.arrived >= launch.grid_live && launch.blocks_returned == 0) {
    release(b);
    return;
  }
  current->waiting = &b;
  current->wait_generation = b.generation;
  yield();
}

thread_local ExportedItems* exported_items = nullptr;

void export_items(const void* items, u64 count, u64 itemsize) {
  if (exported_items == nullptr) return;
  exported_items->bytes.assign(static_cast<const char*>(items), static_cast<size_t>(count * itemsize));
  exported_items->count = count;
  exported_items->set = true;
}

// A list or dict argument written back (Function::call hands it to the caller's Value).
void export_argument(i32 index, const void* bytes, u64 size) {
  if (exported_items == nullptr) return;
  exported_items->arguments.emplace_back(index, std::string(static_cast<const char*>(bytes), static_cast<size_t>(size)));
}

void export_array(i32 slot, void* storage, void* data, i32 ndim, const i64* shape, const i64* strides) {
  auto* counted = static_cast<pk::ArrayStorage*>(storage);
  // The runtime counted a reference for this: released with the pykern::Array that holds it.
  std::shared_ptr<void> owner(counted, [](void* s) { pk::release(static_cast<pk::ArrayStorage*>(s)); });
  if (counted == nullptr) owner.reset();
  if (exported_items == nullptr) return;
  ExportedArray a;
  a.slot = slot;
  a.storage = std::move(owner);
  a.data = data;
  a.shape.assign(shape, shape + ndim);
  a.strides.assign(strides, strides + ndim);
  exported_items->arrays.push_back(std::move(a));
}

// The random states of host calls (Python's and NumPy's), per OS thread, zeroed until seeded.
void* host_random_state(i32 which, u64 bytes) {
  thread_local std::vector<unsigned char> states[2];
  std::vector<unsigned char>& state = states[which == 0 ? 0 : 1];
  if (state.size() < bytes) state.resize(bytes, 0);
  return state.data();
}

u32 entropy() {
  static thread_local std::random_device device;
  return device();
}

// prange loops: only a host call's one thread uses the pool (a kernel's threads are already
// spread over the cores), and each pool thread that runs a part acts as the calling thread.
i32 parallel_parts_hook(i64 trip) {
  const GridLaunch& r = current->block->launch->request;
  if (thread_count(r) != 1 || r.cooperative) return 1;
  if (!thread_limit().error.empty()) throw KernelFailure{thread_limit().error};
  return parallel_parts(trip);
}

void parallel_for_hook(i32 parts, void* job, void (*run_part)(void* job, i32 part)) {
  ThreadState* caller = current;
  run_parts(parts, [&](int part) { run_part(job, part); }, [caller] { current = caller; });
}

i32 thread_limit_hook() { return thread_limit().threads; }
void set_num_threads_hook(i32 n) { set_num_threads(n); }
i32 get_num_threads_hook() { return get_num_threads(); }
i32 get_thread_id_hook() { return get_thread_id(); }

// Room left below a stack's floor for the frames that report a recursion too deep.
constexpr u64 stack_margin = 64 * 1024;

// The floor of the calling OS thread's stack (a worker, or the caller of a host call).
const char* os_stack_floor() {
  thread_local const char* floor = [] {
    pthread_attr_t attributes;
    void* lowest = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
      pthread_attr_getstack(&attributes, &lowest, &size);
      pthread_attr_destroy(&attributes);
    }
    return lowest == nullptr || size <= 2 * stack_margin ? nullptr : static_cast<const char*>(lowest) + stack_margin;
  }();
  return floor;
}

bool stack_exhausted(const void* frame) {
  const char* floor = current != nullptr && current->stack_floor != nullptr ? current->stack_floor : os_stack_floor();
  return floor != nullptr && static_cast<const char*>(frame) < floor;
}

void* linalg_routine(const char* file, int line, const char* symbol) {
  std::string error;
  void* routine = blas_routine(symbol, error);
  if (routine == nullptr) report_failure(file, line, "RuntimeError", error.c_str());
  return routine;
}

void* dynamic_shared() { return current->block->dynamic_shared.get(); }
u64 dynamic_shared_bytes() { return current->block->launch->request.dynamic_shared_bytes; }

const pk::sim::Hooks hooks = {thread_idx,    block_idx,   block_dim,     grid_dim,  shared_storage,
                              syncthreads,   syncthreads_count, syncwarp, warp_exchange, warp_ballot,
                              threadfence,   report_index_error, report_failure, check_stop,
                              dynamic_shared, dynamic_shared_bytes, grid_sync, export_items, export_array,
                              host_random_state, entropy, parallel_parts_hook, parallel_for_hook, thread_limit_hook,
                              set_num_threads_hook, get_num_threads_hook, get_thread_id_hook, stack_exhausted,
                              linalg_routine, export_argument};

// ---- running blocks ----

// A thread has exited: the barriers its group waits at may now be complete.
void thread_exited(ThreadState& t) {
  BlockState& b = *t.block;
  t.done = true;
  --b.live;
  int warp = t.linear / 32;
  --b.warp_live[warp];
  if (b.block_barrier.arrived > 0 && b.block_barrier.arrived >= b.live) release(b.block_barrier);
  Barrier& w = b.warp_barriers[warp];
  if (w.arrived > 0 && w.arrived >= b.warp_live[warp]) release(w);
  Launch& launch = *b.launch;
  if (!launch.request.syncs_grid) return;
  --launch.grid_live;
  if (b.live == 0) launch.finished_blocks.fetch_add(1, std::memory_order_relaxed);
  if (b.live == 0 && launch.blocks_returned++ == 0) launch.first_returned = b.bid;
  Barrier& g = launch.grid_barrier;
  if (g.arrived > 0 && g.arrived >= launch.grid_live && launch.blocks_returned == 0) release(g);
}

void run_thread(Launch& launch) {
  try {
    launch.request.entry(launch.request.args);
  } catch (const KernelFailure& failure) {
    if (!failure.message.empty()) launch.fail(failure.message);
  }
}

// Each fiber's stack holds the kernel's locals and its cuda.local.arrays: 256 KiB for the
// frames, plus the arrays (at most 512 KiB, which sema enforces), in 64 KiB steps.
u64 fiber_stack_bytes(u64 local_bytes) { return 256 * 1024 + (local_bytes + 65535) / 65536 * 65536; }

template <class StackAllocator>
void start_fibers(BlockState& b, Launch& launch, StackAllocator stacks) {
  for (ThreadState& t : b.threads) {
    ThreadState* self = &t;
    t.fiber = boost::context::fiber(std::allocator_arg, stacks, [self, &launch](boost::context::fiber&& from) {
      arrived(std::move(from));
      // The stack grows down from about here, through the fiber's fiber_stack_bytes.
      self->stack_floor = static_cast<const char*>(__builtin_frame_address(0)) -
                          fiber_stack_bytes(launch.request.local_bytes) + stack_margin;
      run_thread(launch);
      thread_exited(*self);
      // Its continuation is gone once it returns: whoever it hands over to keeps an empty one.
      return std::move(hand_over(*round_now, &self->fiber));
    });
  }
}

std::string deadlock_message(const std::vector<BlockState*>& blocks, const Launch& launch) {
  if (launch.request.syncs_grid) {
    if (launch.blocks_returned > 0) {
      const dim3& r = launch.first_returned;
      return fmt::format("deadlock: {} live threads wait at grid.sync(), but block ctaid=[{}, {}, {}] has returned; "
                         "every block of the grid must reach each grid.sync()",
                         launch.grid_live, r.x, r.y, r.z);
    }
    return fmt::format("deadlock: {} live threads of the grid wait at grid.sync(), syncthreads or a warp "
                       "collective that the others never reach",
                       launch.grid_live);
  }
  const BlockState& b = *blocks.front();
  return fmt::format("deadlock in block ctaid=[{}, {}, {}]: {} live threads wait at syncthreads or a warp "
                     "collective that the others never reach",
                     b.bid.x, b.bid.y, b.bid.z, b.live);
}

// Runs the threads of `blocks` as fibers, each until it meets a barrier, round after round,
// until all have returned, one fails, or a round makes no progress (a deadlock).
void run_fibers(const std::vector<BlockState*>& blocks, Launch& launch) {
  FiberRound round;
  round.launch = &launch;
  for (BlockState* b : blocks)
    for (ThreadState& t : b->threads) round.threads.push_back(&t);
  FiberRound* outer = round_now;  // restored: run_fibers does not nest today, but costs nothing to allow
  round_now = &round;
  while (!launch.failed) {
    round.next = 0;
    ThreadState* first = next_runnable(round);
    if (first == nullptr) {
      bool finished = std::all_of(round.threads.begin(), round.threads.end(), [](ThreadState* t) { return t->done; });
      if (!finished && !launch.failed) launch.fail(deadlock_message(blocks, launch));
      break;
    }
    current = first;
    round.switched_from = &round.scheduler;
    arrived(std::move(first->fiber).resume());  // the round's last fiber switched back
  }
  current = nullptr;
  // Unfinished fibers (after an error) are unwound as they are destroyed.
  for (ThreadState* t : round.threads) t->fiber = {};
  round_now = outer;
}

void run_block_cooperative(BlockState& b, Launch& launch, StackArena& stacks) {
  start_fibers(b, launch, ArenaStack{&stacks});
  run_fibers({&b}, launch);
}

// Fresh state for the block at linear `index` of the grid: its position, zeroed shared memory,
// every thread live.
void reset_block(BlockState& b, const Launch& launch, u64 index) {
  const dim3& g = launch.grid;
  b.bid = {static_cast<u32>(index % g.x), static_cast<u32>(index / g.x % g.y), static_cast<u32>(index / (u64(g.x) * g.y))};
  for (size_t i = 0; i < b.shared.size(); ++i) std::memset(b.shared[i].second.get(), 0, b.shared_bytes[i]);
  if (b.dynamic_shared) std::memset(b.dynamic_shared.get(), 0, launch.request.dynamic_shared_bytes);
  b.live = static_cast<int>(b.threads.size());
  b.block_barrier = {};
  std::fill(b.warp_barriers.begin(), b.warp_barriers.end(), Barrier{});
  for (size_t w = 0; w < b.warp_live.size(); ++w)
    b.warp_live[w] = static_cast<int>(std::min<size_t>(32, b.threads.size() - w * 32));
  for (ThreadState& t : b.threads) {
    t.done = false;
    t.waiting = nullptr;
  }
}

void run_block(BlockState& b, Launch& launch, u64 index, StackArena* stacks) {
  reset_block(b, launch, index);
  if (stacks) {
    run_block_cooperative(b, launch, *stacks);
    return;
  }
  for (ThreadState& t : b.threads) {
    current = &t;
    run_thread(launch);
    if (launch.failed) return;
  }
}

// A block's threads, warps and dynamic shared memory, sized for the launch.
void prepare_block(BlockState& b, Launch& launch) {
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
  // new[] aligns for any element type (16 bytes); at least one byte, so that it has an address.
  b.dynamic_shared.reset(new unsigned char[std::max<u64>(launch.request.dynamic_shared_bytes, 1)]());
  size_t warps = (count + 31) / 32;
  b.warp_barriers.resize(warps);
  b.warp_live.resize(warps);
  b.warp_slots.assign(warps * 32, 0);
}

void worker(Launch& launch) {
  BlockState b;
  prepare_block(b, launch);
  // A cooperative block's threads are all alive at once, each on a stack of its own.
  std::unique_ptr<StackArena> stacks;
  if (launch.request.cooperative) {
    stacks = take_stacks(b.threads.size(), fiber_stack_bytes(launch.request.local_bytes));
    if (!stacks) {
      launch.fail(fmt::format("cannot reserve the address space for {} fiber stacks of {} KiB each (the block's "
                              "threads run as fibers: the kernel meets at barriers or warp collectives)",
                              b.threads.size(), fiber_stack_bytes(launch.request.local_bytes) / 1024));
      return;
    }
  }
  u64 blocks = u64(launch.grid.x) * launch.grid.y * launch.grid.z;
  for (u64 index; !launch.failed && (index = launch.next_block++) < blocks;) {
    // Between blocks too: a grid of many short blocks has no loop whose ticks would see it.
    if (launch.timed_out.load(std::memory_order_relaxed)) {
      launch.fail(fmt::format("TimeoutError: {}; {} of {} blocks had run", timeout_text(launch),
                              launch.finished_blocks.load(), blocks));
      break;
    }
    if (cancelled(launch)) break;
    run_block(b, launch, index, stacks.get());
    launch.finished_blocks.fetch_add(1, std::memory_order_relaxed);
  }
  current = nullptr;
  give_back_stacks(std::move(stacks));
}


// A kernel that syncs the grid: every block is resident at once, as in a cooperative launch,
// and all their threads are fibers of this one OS thread. Their stacks are not pooled, so the
// memory goes back when the launch ends.
void run_whole_grid(Launch& launch) {
  u64 count = u64(launch.grid.x) * launch.grid.y * launch.grid.z;
  std::vector<BlockState> blocks(count);
  std::vector<BlockState*> all;
  u64 size = fiber_stack_bytes(launch.request.local_bytes);
  for (u64 index = 0; index < count; ++index) {
    prepare_block(blocks[index], launch);
    reset_block(blocks[index], launch, index);
    launch.grid_live += blocks[index].live;
    start_fibers(blocks[index], launch, boost::context::fixedsize_stack(size));
    all.push_back(&blocks[index]);
  }
  run_fibers(all, launch);
  current = nullptr;
}

// A launch of one thread that needs no fibers, timeout or dynamic shared memory (a host call
// of a @jit function): it runs on the calling thread, in a block kept from call to call.
bool is_single_thread_call(const GridLaunch& r) {
  return thread_count(r) == 1 && !r.cooperative && !r.syncs_grid && r.timeout_seconds == 0 && r.dynamic_shared_bytes == 0 &&
         !r.progress && !r.cancel;
}

Status run_single_thread(const GridLaunch& request) {
  Launch launch(request);
  thread_local BlockState block;
  thread_local bool prepared = false;
  if (!prepared) {
    prepare_block(block, launch);
    prepared = true;
  }
  block.launch = &launch;
  reset_block(block, launch, 0);
  ThreadState* caller = current;  // restored: the caller may be a simulated thread itself
  current = &block.threads[0];
  run_thread(launch);
  current = caller;
  if (launch.failed) return Error::make(ErrorKind::launch, launch.error);
  return ok_status();
}

// The monitor of a launch with a timeout or a progress callback: a thread that sleeps until the
// next thing it must do. Past the timeout it raises the flag that loop ticks check; every
// progress_every it calls the progress callback, and once more when the launch has ended. The
// callback runs on this thread alone, without the monitor's lock held. (A cancel token the
// workers ask themselves: `cancelled`.)
class Monitor {
 public:
  Monitor(Launch& launch, u64 blocks) : launch_(launch), blocks_(blocks) {
    const GridLaunch& r = launch.request;
    if (r.timeout_seconds > 0 || (r.progress && *r.progress))
      thread_ = std::thread([this] { watch(); });
  }
  // Waits for the last report: the workers have all returned.
  ~Monitor() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finished_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  Monitor(const Monitor&) = delete;
  Monitor& operator=(const Monitor&) = delete;

 private:
  using clock = std::chrono::steady_clock;

  void watch() {
    const GridLaunch& r = launch_.request;
    bool reports = r.progress && *r.progress;
    auto every = std::max(r.progress_every, std::chrono::milliseconds(1));
    clock::time_point never = clock::time_point::max();
    clock::time_point deadline =
        r.timeout_seconds > 0 ? started_ + std::chrono::duration_cast<clock::duration>(
                                               std::chrono::duration<double>(std::min(r.timeout_seconds, 1e9)))
                              : never;
    clock::time_point next_report = reports ? started_ + every : never;
    std::unique_lock<std::mutex> lock(mutex_);
    while (!finished_) {
      clock::time_point wake = std::min(deadline, next_report);
      bool ended = wake == never ? (wake_.wait(lock, [this] { return finished_; }), true)  // timed out, nothing else to do
                                 : wake_.wait_until(lock, wake, [this] { return finished_; });
      if (ended) break;
      clock::time_point now = clock::now();
      if (now >= deadline) {
        launch_.timed_out = true;
        deadline = never;
      }
      if (now >= next_report) {
        lock.unlock();
        report(false);
        lock.lock();
        next_report = std::max(next_report + every, clock::now());
      }
    }
    lock.unlock();
    if (reports) report(true);
  }

  void report(bool last) {
    if (callback_failed_) return;
    LaunchProgress progress;
    progress.blocks_done = launch_.finished_blocks.load(std::memory_order_relaxed);
    progress.blocks_total = blocks_;
    progress.elapsed_seconds = std::chrono::duration<double>(clock::now() - started_).count();
    progress.finished = last;
    try {
      (*launch_.request.progress)(progress);
    } catch (const std::exception& e) {
      callback_failed_ = true;
      launch_.fail(fmt::format("the launch's progress callback threw an exception: {}", e.what()));
    } catch (...) {
      callback_failed_ = true;
      launch_.fail("the launch's progress callback threw an exception that is not a std::exception");
    }
  }

  Launch& launch_;
  u64 blocks_;
  clock::time_point started_ = clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  bool callback_failed_ = false;
  std::thread thread_;
};

}  // namespace

const void* engine_hooks() { return &hooks; }

void capture_exported_items(ExportedItems* sink) { exported_items = sink; }

Status run_grid(const GridLaunch& request) {
  if (request.syncs_grid) {
    u64 threads = thread_count(request);
    if (threads > max_grid_sync_threads)
      return Error::make(ErrorKind::launch,
                         fmt::format("the kernel syncs the grid, so all its {} threads must run at once; the "
                                     "simulator runs at most {} (a GPU, as many blocks as fit on it at once)",
                                     threads, max_grid_sync_threads));
  }
  if (request.cancel && request.cancel->cancel_requested())
    return Error::make(ErrorKind::cancelled, "the launch was cancelled before it started; nothing ran");
  if (is_single_thread_call(request)) return run_single_thread(request);
  Launch launch(request);
  static const unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  u64 blocks = u64(launch.grid.x) * launch.grid.y * launch.grid.z;
  unsigned count = static_cast<unsigned>(std::min<u64>(workers, blocks));
  {
    Monitor monitor(launch, blocks);
    if (request.syncs_grid) {
      run_whole_grid(launch);
    } else {
      std::vector<std::thread> pool;
      for (unsigned i = 1; i < count; ++i) pool.emplace_back([&launch] { worker(launch); });
      worker(launch);
      for (std::thread& t : pool) t.join();
    }
  }  // the monitor has made its last report
  if (launch.failed) return Error::make(launch.error_kind, launch.error);
  return ok_status();
}

}  // namespace pykern::sim
