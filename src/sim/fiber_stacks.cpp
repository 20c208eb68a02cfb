#include "sim/fiber_stacks.h"

#include <sys/mman.h>

#include <algorithm>
#include <mutex>
#include <new>

namespace pykern::sim {

namespace {
constexpr size_t page_bytes = 4096;

std::mutex kept_mutex;
std::vector<std::unique_ptr<StackArena>>& kept() {
  static std::vector<std::unique_ptr<StackArena>> arenas;
  return arenas;
}
}  // namespace

std::unique_ptr<StackArena> StackArena::make(size_t count, size_t stack_bytes) {
  if (count == 0 || stack_bytes == 0 || stack_bytes % page_bytes != 0 || count > UINT32_MAX ||
      stack_bytes > SIZE_MAX / count)
    return nullptr;
  // MAP_NORESERVE: the stacks are mostly never touched, so no swap is set aside for them.
  void* base = ::mmap(nullptr, count * stack_bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (base == MAP_FAILED) return nullptr;
  // Where transparent huge pages are always on, a fiber's first touch would fault in (and
  // zero) 2 MiB, eight stacks' worth, where it uses a page.
  ::madvise(base, count * stack_bytes, MADV_NOHUGEPAGE);
  return std::unique_ptr<StackArena>(new StackArena(static_cast<char*>(base), count, stack_bytes));
}

StackArena::StackArena(char* base, size_t count, size_t stack_bytes)
    : base_(base), count_(count), stack_bytes_(stack_bytes) {
  free_.reserve(count);
  for (size_t i = count; i-- > 0;) free_.push_back(static_cast<uint32_t>(i));  // stack 0 goes first
}

StackArena::~StackArena() { ::munmap(base_, count_ * stack_bytes_); }

boost::context::stack_context StackArena::allocate() {
  if (free_.empty()) throw std::bad_alloc();
  uint32_t index = free_.back();
  free_.pop_back();
  boost::context::stack_context stack;
  stack.size = stack_bytes_;
  stack.sp = base_ + (size_t(index) + 1) * stack_bytes_;  // stacks grow down from their top
  return stack;
}

void StackArena::deallocate(boost::context::stack_context& stack) noexcept {
  char* top = static_cast<char*>(stack.sp);
  free_.push_back(static_cast<uint32_t>((top - base_) / stack_bytes_ - 1));
}

std::unique_ptr<StackArena> take_stacks(size_t count, size_t stack_bytes) {
  {
    std::lock_guard<std::mutex> lock(kept_mutex);
    auto& arenas = kept();
    // The smallest kept arena that fits: its touched pages are the ones reused.
    auto best = arenas.end();
    for (auto it = arenas.begin(); it != arenas.end(); ++it)
      if ((*it)->stack_bytes() == stack_bytes && (*it)->count() >= count &&
          (best == arenas.end() || (*it)->count() < (*best)->count()))
        best = it;
    if (best != arenas.end()) {
      std::unique_ptr<StackArena> arena = std::move(*best);
      arenas.erase(best);
      return arena;
    }
  }
  return StackArena::make(count, stack_bytes);
}

void give_back_stacks(std::unique_ptr<StackArena> arena) {
  if (!arena) return;
  std::lock_guard<std::mutex> lock(kept_mutex);
  auto& arenas = kept();
  arenas.push_back(std::move(arena));
  if (arenas.size() > keep_stack_arenas) arenas.erase(arenas.begin());  // the oldest goes
}

size_t kept_stack_arenas() {
  std::lock_guard<std::mutex> lock(kept_mutex);
  return kept().size();
}

}  // namespace pykern::sim
