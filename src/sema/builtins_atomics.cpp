// numba.cuda.atomic.* and the warp intrinsics (shuffles, votes, matches, masks).
#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

namespace {

Value array_operand(FunctionChecker& c, const CallSite& call, size_t i) {
  if (i < call.args.size() && call.args[i].type.is(TypeKind::array)) return call.args[i];
  c.error(DiagKind::type_mismatch, call.range,
          fmt::format("argument {} of {}() must be an array", i + 1, short_name(call.name)));
  return Value::error();
}

// The element types numba-cuda's cudadecl.py types each atomic for: what NVRTC cannot update
// atomically (8- and 16-bit values, bool, complex) is refused here rather than by the GPU compiler.
enum class AtomicTypes { arithmetic, integer, unsigned_integer };

bool atomic_takes(AtomicTypes accepted, const Type& element) {
  bool wide = element.bits == 32 || element.bits == 64;
  if (element.is(TypeKind::floating)) return wide && accepted == AtomicTypes::arithmetic;
  if (!element.is(TypeKind::integer) || !wide) return false;
  return accepted != AtomicTypes::unsigned_integer || !element.is_signed;
}

const char* atomic_type_list(AtomicTypes accepted) {
  switch (accepted) {
    case AtomicTypes::arithmetic: return "int32, uint32, int64, uint64, float32 and float64";
    case AtomicTypes::integer: return "int32, uint32, int64 and uint64";
    case AtomicTypes::unsigned_integer: return "uint32 and uint64";
  }
  return "";
}

const char* atomic_type_example(AtomicTypes accepted) {
  switch (accepted) {
    case AtomicTypes::arithmetic: return "int32 or float32";
    case AtomicTypes::integer: return "int32 or int64";
    case AtomicTypes::unsigned_integer: return "uint32";
  }
  return "";
}

// The name as the program spells it: cuda.atomic.and_ for numba.cuda.atomic.and_.
std::string atomic_name(const CallSite& call) {
  const std::string prefix = "numba.";
  return call.name.rfind(prefix, 0) == 0 ? call.name.substr(prefix.size()) : call.name;
}

bool want_atomic_element(FunctionChecker& c, const CallSite& call, AtomicTypes accepted, const Type& element) {
  if (atomic_takes(accepted, element)) return true;
  c.error(DiagKind::type_mismatch, call.range,
          fmt::format("{} does not take {} arrays: numba-cuda types it for {} only", atomic_name(call),
                      to_string(element), atomic_type_list(accepted)),
          fmt::format("keep the values in an array of one of those types, e.g. {}", atomic_type_example(accepted)));
  return false;
}

// cuda.atomic.add(array, index, value): returns the old value; the index is an integer, or a
// tuple of them for an array of more dimensions. `indexed` is false for compare_and_swap(array,
// old, value), which works on array[0]. The element is the operation's by-reference operand.
Handler atomic(Op op, size_t values, AtomicTypes accepted, bool indexed = true) {
  return [op, values, accepted, indexed](FunctionChecker& c, const CallSite& call) -> Value {
    size_t first_value = indexed ? 2 : 1;
    if (!want_args(c, call, first_value + values, first_value + values)) return Value::error();
    Value array = array_operand(c, call, 0);
    if (!array.ok()) return array;
    if (array.type.readonly) {
      c.error(DiagKind::bad_assignment, call.range, "an atomic operation cannot update a read-only (module-level) array");
      return Value::error();
    }
    if (!want_atomic_element(c, call, accepted, array.type.dtype())) return Value::error();
    if (!indexed && array.type.ndim != 1) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("{} takes a 1-d array, not one of {} dimensions", atomic_name(call), array.type.ndim),
              "use cuda.atomic.cas(array, index, old, value) for an array of more dimensions");
      return Value::error();
    }
    Value index = indexed ? call.args[1] : c.make_constant({int64_t(0)}, Type::i64(), call.range);
    Value element = c.subscript_value(array, {index}, call.range);
    if (!element.ok()) return element;
    if (c.expr(element.expr).kind != ir::ExprKind::element) {
      c.error(DiagKind::bad_index, call.range, "an atomic operation needs one element: give an index per dimension");
      return Value::error();
    }
    std::vector<ir::ExprId> args = {element.expr};
    for (size_t i = 0; i < values; ++i) args.push_back(c.cast_expr(call.args[first_value + i].expr, element.type));
    return c.make_call(op, args, element.type, call.range);
  };
}

// cuda.shfl_*_sync(mask, value, lane_or_delta): the value keeps its type.
Handler shuffle(Op op) {
  return [op](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 3, 3)) return Value::error();
    const Type& type = call.args[1].type;
    // numba-cuda's shfl_sync_intrinsic takes int32, int64, float32 and float64 only.
    bool takes = (type.is(TypeKind::integer) && type.is_signed) || type.is(TypeKind::floating);
    if (!takes || (type.bits != 32 && type.bits != 64)) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("cuda.{} does not move {} values: numba-cuda shuffles int32, int64, float32 and float64 only",
                          short_name(call.name), to_string(type)),
              "convert the value first, e.g. float32(x) or int32(x)");
      return Value::error();
    }
    return c.make_call(op,
                       {c.cast_expr(call.args[0].expr, Type::int_(32, false)), call.args[1].expr,
                        c.cast_expr(call.args[2].expr, Type::i32())},
                       type, call.range);
  };
}

// The type numba-cuda's match_any_sync/match_all_sync cases (int32, int64, float32, float64)
// convert a value to, by Numba's overload choice: the narrow integers and bool to int32, uint32
// to int64, uint64 to float64, float16 to float32 (read off numba-cuda's PTX); none for complex.
std::optional<Type> warp_match_operand(const Type& type) {
  if (type.is(TypeKind::boolean)) return Type::i32();
  if (type.is(TypeKind::floating)) return type.bits == 64 ? Type::f64() : Type::f32();
  if (!type.is(TypeKind::integer)) return std::nullopt;
  if (type.bits < 32 || (type.bits == 32 && type.is_signed)) return Type::i32();
  if (type.bits == 64 && !type.is_signed) return Type::f64();
  return Type::i64();
}

// cuda.match_any_sync(mask, value) -> uint32; match_all_sync -> (uint32, bool). (numba-cuda types
// the lanes as int32: lane 31 reads negative there.)
Handler warp_match(Op op, Type result) {
  return [op, result](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 2, 2)) return Value::error();
    std::optional<Type> operand = warp_match_operand(call.args[1].type);
    if (!operand) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("cuda.{} does not compare {} values: numba-cuda takes integers and floats",
                          short_name(call.name), to_string(call.args[1].type)),
              "match the real and imaginary parts one at a time");
      return Value::error();
    }
    return c.make_call(op, {c.cast_expr(call.args[0].expr, Type::int_(32, false)), c.cast_expr(call.args[1].expr, *operand)},
                       result, call.range);
  };
}

}  // namespace

void add_atomic_and_warp_builtins(HandlerTable& t) {
  struct AtomicRow {
    const char* name;
    Op op;
    AtomicTypes accepted;
  };
  static const AtomicRow atomics[] = {
      {"add", Op::atomic_add, AtomicTypes::arithmetic},      {"sub", Op::atomic_sub, AtomicTypes::arithmetic},
      {"max", Op::atomic_max, AtomicTypes::arithmetic},      {"min", Op::atomic_min, AtomicTypes::arithmetic},
      {"nanmax", Op::atomic_nanmax, AtomicTypes::arithmetic}, {"nanmin", Op::atomic_nanmin, AtomicTypes::arithmetic},
      {"exch", Op::atomic_exch, AtomicTypes::integer},       {"and_", Op::atomic_and, AtomicTypes::integer},
      {"or_", Op::atomic_or, AtomicTypes::integer},          {"xor", Op::atomic_xor, AtomicTypes::integer},
      {"inc", Op::atomic_inc, AtomicTypes::unsigned_integer}, {"dec", Op::atomic_dec, AtomicTypes::unsigned_integer}};
  for (const AtomicRow& row : atomics) t[std::string("numba.cuda.atomic.") + row.name] = atomic(row.op, 1, row.accepted);
  t["numba.cuda.atomic.cas"] = atomic(Op::atomic_cas, 2, AtomicTypes::integer);
  t["numba.cuda.atomic.compare_and_swap"] = atomic(Op::atomic_cas, 2, AtomicTypes::integer, false);

  t["numba.cuda.shfl_sync"] = shuffle(Op::shfl_sync);
  t["numba.cuda.shfl_up_sync"] = shuffle(Op::shfl_up_sync);
  t["numba.cuda.shfl_down_sync"] = shuffle(Op::shfl_down_sync);
  t["numba.cuda.shfl_xor_sync"] = shuffle(Op::shfl_xor_sync);
  const std::vector<Type> vote = {Type::int_(32, false), Type::i32()};
  t["numba.cuda.all_sync"] = fixed(Op::all_sync, vote, Type::i32());
  t["numba.cuda.any_sync"] = fixed(Op::any_sync, vote, Type::i32());
  t["numba.cuda.eq_sync"] = fixed(Op::eq_sync, vote, Type::i32());
  t["numba.cuda.ballot_sync"] = fixed(Op::ballot_sync, vote, Type::int_(32, false));
  t["numba.cuda.match_any_sync"] = warp_match(Op::match_any_sync, Type::int_(32, false));
  t["numba.cuda.match_all_sync"] = warp_match(Op::match_all_sync, Type::tuple({Type::int_(32, false), Type::boolean()}));
  t["numba.cuda.activemask"] = nullary(Op::activemask, Type::int_(32, false));
  t["numba.cuda.lanemask_lt"] = nullary(Op::lanemask_lt, Type::int_(32, false));
}

}  // namespace pykern::sema
