// Python's heapq module in @jit functions on the host, typed as numba/cpython/heapq.py types
// it: the heap is a list whose items' type is known and ordered by `<` (numbers, tuples of
// them, strings; not complex numbers, not arrays), and an item pushed must be of the heap's
// own item type (an int literal counts as int64), else Numba's "heap type must be the same as
// item type". Runtime: runtime/pykern/heapq.cuh (CPython's sift steps).
#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

namespace {

// Items a heap can order: those whose `<` Python and Numba define.
bool orderable(const Type& item) {
  if (item.is(TypeKind::complex) || item.is(TypeKind::record)) return false;
  if (item.is_numeric() || item.is(TypeKind::string)) return true;
  if (item.is(TypeKind::tuple)) {
    for (const Type& element : item.elements)
      if (!orderable(element)) return false;
    return !item.elements.empty();
  }
  return false;
}

// The heap argument (args[0]): a list of known, orderable items; reports otherwise.
bool want_heap(FunctionChecker& c, const CallSite& call) {
  const std::string name = short_name(call.name) + "()";
  if (call.args.empty() || !call.args[0].type.is(TypeKind::list)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}'s heap argument must be a list, not '{}'", name,
                        call.args.empty() ? std::string("nothing") : to_string(call.args[0].type)));
    return false;
  }
  const Type& item = call.args[0].type.elements[0];
  if (!item.known()) {
    c.error(DiagKind::type_mismatch, call.range, "the type of this heap's items is not known here",
            "start the heap with an item ([(0.0, source)]), as Numba needs");
    return false;
  }
  if (!orderable(item)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{} orders its items with '<', which a '{}' does not have", name, to_string(item)),
            item.is(TypeKind::complex) ? "Numba: '<' not supported between instances of 'complex' and 'complex'"
                                       : "a heap holds numbers, strings or tuples of them");
    return false;
  }
  return true;
}

// The item of heappush/heapreplace/heappushpop (args[1]): of the heap's item type exactly.
bool want_heap_item(FunctionChecker& c, const CallSite& call) {
  const Type& item = call.args[0].type.elements[0];
  if (call.args[1].type == item) return true;
  c.error(DiagKind::type_mismatch, call.range,
          fmt::format("{}() pushes a '{}' onto a heap of '{}': heap type must be the same as item type",
                      short_name(call.name), to_string(call.args[1].type), to_string(item)),
          "convert the item first, as Numba converts nothing here");
  return false;
}

// heappush(heap, item), heapreplace(heap, item), heappushpop(heap, item).
Handler with_item(Op op, bool returns_item) {
  return [op, returns_item](FunctionChecker& c, const CallSite& call) -> Value {
    if (!c.allow_host_only(call.range, short_name(call.name) + "()") || !want_args(c, call, 2, 2) ||
        !want_heap(c, call) || !want_heap_item(c, call))
      return Value::error();
    Type result = returns_item ? call.args[0].type.elements[0] : Type::void_();
    return c.make_call(op, {call.args[0].expr, call.args[1].expr}, result, call.range);
  };
}

// heappop(heap), heapify(heap).
Handler heap_only(Op op, bool returns_item) {
  return [op, returns_item](FunctionChecker& c, const CallSite& call) -> Value {
    if (!c.allow_host_only(call.range, short_name(call.name) + "()") || !want_args(c, call, 1, 1) ||
        !want_heap(c, call))
      return Value::error();
    Type result = returns_item ? call.args[0].type.elements[0] : Type::void_();
    return c.make_call(op, {call.args[0].expr}, result, call.range);
  };
}

}  // namespace

void add_heapq_builtins(HandlerTable& t) {
  t["heapq.heappush"] = with_item(Op::heap_push, false);
  t["heapq.heapreplace"] = with_item(Op::heap_replace, true);
  t["heapq.heappushpop"] = with_item(Op::heap_pushpop, true);
  t["heapq.heappop"] = heap_only(Op::heap_pop, true);
  t["heapq.heapify"] = heap_only(Op::heapify, false);
}

}  // namespace pykern::sema
