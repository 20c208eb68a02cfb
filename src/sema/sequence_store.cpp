// a[i] = (x, y, z) and a[k:k + 3] = t: Numba lowers a store from a sequence (a homogeneous tuple
// is one) into a 1-d view element by element, after checking the lengths agree
// (numba/np/arrayobj.py, setitem: "cannot assign slice from input of different size").
#include "sema/sequence_store.h"

#include <fmt/format.h>

namespace pykern::sema {

namespace {

// The tuple's one item type, where every item is the same number type; nullopt otherwise
// (Numba's heterogeneous tuples are no Sequence, and it refuses the store).
std::optional<Type> uniform_item(const Type& tuple) {
  if (!tuple.is(TypeKind::tuple) || tuple.elements.empty()) return std::nullopt;
  for (const Type& item : tuple.elements)
    if (!(item == tuple.elements[0])) return std::nullopt;
  const Type& item = tuple.elements[0];
  if (!item.is_scalar() || item.is(TypeKind::record) || item.is(TypeKind::optional)) return std::nullopt;
  return item;
}

}  // namespace

bool store_tuple_into_view(FunctionChecker& c, const Value& view, const Value& source, SourceRange range) {
  std::optional<Type> item = uniform_item(source.type);
  if (!item || view.type.ndim != 1) return false;
  const Type dtype = view.type.dtype();
  if (dtype.is(TypeKind::record) || (item->is(TypeKind::complex) && !dtype.is(TypeKind::complex))) return false;
  Value target = c.store_in_temporary(view, range);
  Value tuple = c.store_in_temporary(source, range);
  const size_t count = source.type.elements.size();
  ir::Stmt check;
  check.kind = ir::StmtKind::expr;
  check.range = range;
  check.value = c.make_call(ir::Op::check_sequence_store,
                            {target.expr, c.make_constant({int64_t(count)}, Type::i64(), range).expr,
                             c.make_constant({c.on_host()}, Type::boolean(), range).expr},
                            Type::void_(), range)
                    .expr;
  c.emit_stmt(std::move(check));
  for (size_t k = 0; k < count; ++k) {
    FunctionChecker::IndexItem position;
    position.value = c.make_constant({int64_t(k)}, Type::i64(), range);
    Value place = c.index_into(target, {position}, range);
    Value value = c.element_of_tuple(tuple, k, range);
    if (!place.ok() || !value.ok()) return true;
    ir::Stmt store;
    store.kind = ir::StmtKind::assign;
    store.range = range;
    store.target = place.expr;
    store.value = c.cast_expr(value.expr, dtype);
    c.emit_stmt(std::move(store));
  }
  return true;
}

}  // namespace pykern::sema
