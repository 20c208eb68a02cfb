// The simulator's fiber stacks (sim/fiber_stacks.h) and the engine's use of them: one mapping
// per worker, reused by later launches; blocks whose threads meet at barriers still run in
// lock-step, fail, deadlock and recurse as before.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <new>
#include <set>

#include <doctest/doctest.h>

#include "pykern/module.h"
#include "sim/fiber_stacks.h"

using namespace pykern;

TEST_CASE("a stack arena hands out distinct page-aligned stacks until none is left, and takes them back") {
  CHECK(sim::StackArena::make(0, 65536) == nullptr);
  CHECK(sim::StackArena::make(4, 1000) == nullptr);               // not whole pages
  CHECK(sim::StackArena::make(SIZE_MAX / 4096, 8192) == nullptr);  // its size overflows
  auto arena = sim::StackArena::make(3, 64 * 1024);
  REQUIRE(arena != nullptr);
  std::set<char*> tops;
  std::vector<boost::context::stack_context> stacks;
  for (int i = 0; i < 3; ++i) {
    stacks.push_back(arena->allocate());
    char* top = static_cast<char*>(stacks.back().sp);
    CHECK(stacks.back().size == 64 * 1024);
    CHECK(reinterpret_cast<uintptr_t>(top) % 4096 == 0);
    std::memset(top - stacks.back().size, 1, stacks.back().size);  // all of it is writable
    tops.insert(top);
  }
  CHECK(tops.size() == 3);
  CHECK(arena->in_use() == 3);
  CHECK_THROWS_AS(arena->allocate(), std::bad_alloc);
  arena->deallocate(stacks[1]);
  CHECK(arena->allocate().sp == stacks[1].sp);  // the one given back serves again
}

TEST_CASE("stack arenas are kept for later launches, at most keep_stack_arenas of them") {
  std::vector<std::unique_ptr<sim::StackArena>> taken;
  for (size_t i = 0; i < sim::keep_stack_arenas + 2; ++i) taken.push_back(sim::take_stacks(8, 65536 * 3));
  const sim::StackArena* first = taken.front().get();
  for (auto& arena : taken) sim::give_back_stacks(std::move(arena));
  CHECK(sim::kept_stack_arenas() <= sim::keep_stack_arenas);
  // The newest fitting one comes back, not a fresh mapping; a larger request maps a new one.
  auto again = sim::take_stacks(4, 65536 * 3);
  REQUIRE(again != nullptr);
  CHECK(again->count() == 8);
  CHECK(again.get() != first);  // the oldest was unmapped when the fifth came back
  auto larger = sim::take_stacks(16, 65536 * 3);
  REQUIRE(larger != nullptr);
  CHECK(larger->count() == 16);
  sim::give_back_stacks(std::move(again));
  sim::give_back_stacks(std::move(larger));
}

namespace {
Module load_kernels(const std::string& text) {
  ModuleOptions options;
  options.cache_dir = (std::filesystem::temp_directory_path() / ("pykern-fiber-cache-" + std::to_string(::getpid()))).string();
  auto module = Module::load_source(text, "fiber_test.py", options);
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  return *module;
}
}  // namespace

TEST_CASE("blocks of 1024 threads meeting at barriers run many rounds in order, launch after launch") {
  // Each round every thread reads its left neighbour's value of the round before: any thread
  // run out of turn (a hand-over that skipped one, or ran one twice) changes the sums.
  Module module = load_kernels(R"py(from numba import cuda, int64

@cuda.jit
def rounds(out, n):
    s = cuda.shared.array(1024, int64)
    t = cuda.threadIdx.x
    v = t
    for r in range(n):
        s[t] = v
        cuda.syncthreads()
        v = v + s[(t + 1023) % 1024]
        cuda.syncthreads()
    out[cuda.blockIdx.x * 1024 + t] = v
)py");
  for (int launch = 0; launch < 3; ++launch) {
    Array out = Array::zeros(DType::int_(64), {4 * 1024});
    REQUIRE(module.kernel("rounds")->launch({4}, {1024}, out, Scalar(5LL)).ok());
    // v_r(t) = v_{r-1}(t) + v_{r-1}(t-1), v_0(t) = t: the binomial sums of t, t-1, ... (mod 1024).
    for (int t : {0, 1, 7, 1023}) {
      std::vector<int64_t> v(1024);
      for (int i = 0; i < 1024; ++i) v[i] = i;
      for (int r = 0; r < 5; ++r) {
        std::vector<int64_t> next(1024);
        for (int i = 0; i < 1024; ++i) next[i] = v[i] + v[(i + 1023) % 1024];
        v = next;
      }
      for (int b = 0; b < 4; ++b) CHECK(out.at<int64_t>(b * 1024 + t) == v[t]);
    }
  }
  CHECK(sim::kept_stack_arenas() >= 1);
}
