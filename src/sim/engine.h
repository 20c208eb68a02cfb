// The CPU simulator's engine: runs a simulator library's kernel over a grid.
//   - blocks run in parallel on a pool of OS threads;
//   - the threads of a block run one after another; a kernel that meets at barriers or warp
//     collectives runs its threads as fibers (Boost.Context) that switch at each meeting point,
//     so syncthreads, shuffles and votes see the whole block or warp in lock-step;
//   - each block has its own shared memory;
//   - the first error (out of bounds, assert, deadlock) stops the launch and is reported with
//     the Python file and line, the thread and the block, as Numba's simulator does.
// Kernel code reaches the engine through the hooks of runtime/pykern/thread.cuh.
#pragma once
#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pykern/launch.h"
#include "pykern/result.h"

namespace pykern::sim {

using KernelEntry = void (*)(void* const* args);

// The table the simulator library's pk_sim_set_hooks receives (a pk::sim::Hooks).
const void* engine_hooks();

struct GridLaunch {
  KernelEntry entry = nullptr;
  bool cooperative = false;    // runs its threads as fibers
  bool syncs_grid = false;     // calls grid.sync(): every block runs at once, on one OS thread
  uint64_t local_bytes = 0;    // the fibers' stacks are sized from it
  std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  void* const* args = nullptr;
  double timeout_seconds = 0;  // 0: none; past it the threads stop at their next loop iteration
  uint64_t dynamic_shared_bytes = 0;  // per block (Launch::shared_bytes)
  // Launch::progress and Launch::cancel_with (null: none); they outlive the launch.
  const Launch::ProgressCallback* progress = nullptr;
  std::chrono::milliseconds progress_every{100};
  const CancelToken* cancel = nullptr;
};

// An array a host call returns (the runtime's export_array): value `slot` of what it returns.
// `storage` keeps the elements alive (null: memory the call borrowed, an argument's or a
// module constant's); strides are in bytes.
struct ExportedArray {
  int slot = 0;
  std::shared_ptr<void> storage;
  void* data = nullptr;
  std::vector<int64_t> shape, strides;
};
// A host call's list result (the runtime's export_list): the items' bytes and count; and its
// returned arrays.
struct ExportedItems {
  std::string bytes;
  uint64_t count = 0;
  bool set = false;
  std::vector<ExportedArray> arrays;
  // List and dict arguments as the call left them: (argument index, value stream bytes).
  std::vector<std::pair<int, std::string>> arguments;
};
// Where export_list puts items on this OS thread (nullptr: nowhere). A one-block, one-thread
// launch (a host call) runs on the calling thread.
void capture_exported_items(ExportedItems* sink);

// The most threads a launch of a kernel that syncs the grid may have: they all exist at once.
inline constexpr uint64_t max_grid_sync_threads = 65536;

Status run_grid(const GridLaunch& launch);

}  // namespace pykern::sim
