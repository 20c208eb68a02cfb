// The stacks of the simulator's fibers (sim/engine.cpp): all the stacks one OS thread needs at
// once (a block's threads) in one anonymous mapping, reserved and not committed, so a fiber's
// stack costs only the pages it touches: for most kernels its top page. boost's pooled stacks
// wrote a free-list link into the bottom of every stack (a page fault each), allocated in
// chunks of 32, 64, 128 ... (nearly twice the stacks needed, each faulted the same way) and
// were unmapped with the worker thread at the end of each launch. Arenas are kept for later
// launches of the process (at most a few; see take_stacks).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <boost/context/stack_context.hpp>

namespace pykern::sim {

class StackArena {
 public:
  // Null when the mapping cannot be made (too little address space, a strict overcommit policy).
  static std::unique_ptr<StackArena> make(size_t count, size_t stack_bytes);
  ~StackArena();
  StackArena(const StackArena&) = delete;
  StackArena& operator=(const StackArena&) = delete;

  // Throws std::bad_alloc when every stack is in use (a fiber cannot be made).
  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& stack) noexcept;

  size_t count() const { return count_; }
  size_t stack_bytes() const { return stack_bytes_; }
  size_t in_use() const { return count_ - free_.size(); }

 private:
  StackArena(char* base, size_t count, size_t stack_bytes);
  char* base_;
  size_t count_;
  size_t stack_bytes_;
  std::vector<uint32_t> free_;  // indices of free stacks; the last is handed out next
};

// What boost::context::fiber takes as its stack allocator: a handle on an arena that outlives
// the fibers made with it.
struct ArenaStack {
  StackArena* arena;
  boost::context::stack_context allocate() { return arena->allocate(); }
  void deallocate(boost::context::stack_context& stack) noexcept { arena->deallocate(stack); }
};

// An arena of at least `count` stacks of `stack_bytes` each: one kept from an earlier launch
// when one fits, else a new one (null if it cannot be mapped). Give it back when its fibers
// are gone (every stack deallocated); the process keeps at most `keep_stack_arenas` of them.
std::unique_ptr<StackArena> take_stacks(size_t count, size_t stack_bytes);
void give_back_stacks(std::unique_ptr<StackArena> arena);
inline constexpr size_t keep_stack_arenas = 4;
// How many arenas the process keeps now (for tests).
size_t kept_stack_arenas();

}  // namespace pykern::sim
