// Small typed ids into value stores. An id is an index; its tag type keeps an ExprId from
// being used where a StmtId is expected. Stores own the nodes; nothing points into them.
#pragma once
#include <cstdint>
#include <deque>

namespace pykern {

template <class Tag>
struct Id {
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t index = kNone;

  constexpr Id() = default;
  constexpr explicit Id(uint32_t i) : index(i) {}
  constexpr bool valid() const { return index != kNone; }
  constexpr explicit operator bool() const { return valid(); }
  friend constexpr bool operator==(Id a, Id b) { return a.index == b.index; }
};

// A sequence of T addressed by Id<Tag>. A deque, so adding a node never moves the others:
// phases hold references to nodes while they add more (lowering a callee mid-inference).
template <class Tag, class T>
class Store {
 public:
  using IdType = Id<Tag>;
  IdType add(T value) {
    items_.push_back(std::move(value));
    return IdType(static_cast<uint32_t>(items_.size() - 1));
  }
  T& operator[](IdType id) { return items_.at(id.index); }
  const T& operator[](IdType id) const { return items_.at(id.index); }
  size_t size() const { return items_.size(); }

 private:
  std::deque<T> items_;
};

}  // namespace pykern
