// The IR's operations (ir::Op): calls of the runtime and C++'s operators, one per row of
// sema/calls.def, and what each row says about its operation. Passes ask the flags and compare
// ids; nobody matches runtime names.
#pragma once
#include <cstdint>
#include <string_view>

namespace pykern::ir {

enum class Op : uint16_t {
  none,
#define PK_CALL(id, spelling, flags) id,
#define PK_FOLDABLE(id, function, flags) id,
#include "sema/calls.def"
#undef PK_FOLDABLE
#undef PK_CALL
  end_,  // not an operation: one past the registry's last row
};

namespace call_flag {
enum : uint32_t {
  none = 0,
  effects = 1u << 0,
  by_reference = 1u << 1,
  foldable = 1u << 2,
  reduction = 1u << 3,
  appends = 1u << 4,
  non_negative = 1u << 5,
  positive = 1u << 6 | non_negative,
  barrier = 1u << 7,
  grid_barrier = 1u << 8,
  host_only = 1u << 9,
  device_only = 1u << 10,
  folds_float = 1u << 11,    // folds for float operands (PK_FOLDABLE rows)
  folds_integer = 1u << 12,  // folds for integer operands (PK_FOLDABLE rows)
  operator_ = 1u << 13,      // a C++ operator: ExprKind unary, binary or logical
  allocates = 1u << 14,      // makes an array that owns its storage (a host call's program holds owning arrays)
};
}  // namespace call_flag

struct CallInfo {
  std::string_view id;        // the row's identifier, "atomic_add"
  std::string_view spelling;  // the runtime's name, "pk::atomic_add"; {n} and {lane} filled in by the emitter
  uint32_t flags = 0;
};

const CallInfo& call_info(Op op);

inline bool call_has(Op op, uint32_t flag) { return (call_info(op).flags & flag) == flag; }

}  // namespace pykern::ir
