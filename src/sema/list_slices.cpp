// l[a:b:c] = other and del l[a:b:c] in @jit functions on the host, as Numba's setitem and delitem
// of a list and a slice (numba/cpython/listobj.py); runtime: runtime/pykern/list_slices.cuh.
// A slice of step 1 takes a list of any length; another step takes exactly as many items as it
// names (Numba's ValueError otherwise); a step of 0 is Python's ValueError.
#include <fmt/format.h>

#include "sema/lists.h"

namespace pykern::sema {

using ir::Op;

namespace {

// Whether a list of `from` items may fill a slice of a list of `to` items: the same type, or
// numbers that convert as an assignment converts them (not a complex into a real).
bool fills(const Type& to, const Type& from) {
  if (to == from) return true;
  if (!to.is_numeric() || !from.is_numeric()) return false;
  return to.is(TypeKind::complex) || !from.is(TypeKind::complex);
}

// The slice's three bounds, none_index (INT64_MIN) where a bound is absent.
std::vector<ir::ExprId> bounds_of(FunctionChecker& c, const FunctionChecker::IndexItem& index, SourceRange range) {
  auto none = [&] { return c.make_constant({INT64_MIN}, Type::i64(), range).expr; };
  return {index.start.valid() ? index.start : none(), index.stop.valid() ? index.stop : none(),
          index.step.valid() ? index.step : none()};
}

void emit_call(FunctionChecker& c, const Value& call, SourceRange range) {
  if (!call.ok()) return;
  ir::Stmt out;
  out.kind = ir::StmtKind::expr;
  out.range = range;
  out.value = call.expr;
  c.emit_stmt(std::move(out));
}

}  // namespace

void list_store_slice(FunctionChecker& c, const Value& list, const FunctionChecker::IndexItem& index,
                      FunctionChecker::PendingStore& store, SourceRange range) {
  store.done = true;  // reported or emitted here, either way
  std::vector<ir::ExprId> args = {list.expr};
  for (ir::ExprId bound : bounds_of(c, index, range)) args.push_back(bound);
  if (store.deletes) {  // the call is the statement's value (del lowers to l.__delitem__(slice))
    store.value = c.make_call(Op::list_delete_slice, std::move(args), Type::void_(), range);
    return;
  }
  const Value& source = store.value;
  if (!source.ok()) return;
  const Type& item = list.type.elements[0];
  if (!source.type.is(TypeKind::list)) {
    c.error(DiagKind::type_mismatch, store.range,
            fmt::format("a list slice takes a list, not '{}'", to_string(source.type)),
            "make a list of the items first, e.g. l[a:b] = list(other)");
    return;
  }
  const Type& given = source.type.elements[0];
  if (!item.known() || !given.known() || !fills(item, given)) {
    c.error(DiagKind::type_mismatch, store.range,
            fmt::format("cannot assign a '{}' to a slice of a '{}'", to_string(source.type), to_string(list.type)),
            "the items must be of the list's item type (or numbers that convert to it)");
    return;
  }
  args.push_back(source.expr);
  emit_call(c, c.make_call(Op::list_set_slice, std::move(args), Type::void_(), store.range), store.range);
}

Value delete_list_slice(FunctionChecker& c, const Value& list, ast::ExprId slice, SourceRange range) {
  FunctionChecker::PendingStore pending{Value::error(), range};
  pending.deletes = true;
  c.subscript(list, {slice}, range, &pending);
  return pending.done ? pending.value : Value::error();
}

}  // namespace pykern::sema
