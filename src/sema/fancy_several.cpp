// a[rows, cols] in @jit functions on the host (sema/fancy_several.h).
#include "sema/fancy_several.h"
#include "sema/fancy_index.h"

#include <algorithm>

#include <fmt/format.h>

namespace pykern::sema {

namespace {

bool is_integer_vector(const FunctionChecker::IndexItem& item) {
  return !item.is_slice && !item.is_ellipsis && item.value.ok() && item.value.type.is(TypeKind::array) &&
         item.value.type.ndim == 1 && item.value.type.dtype().is(TypeKind::integer);
}

// a[rows, cols] = value: a number converted to the array's type, or a 1-D array of numbers.
void store(FunctionChecker& c, const Value& base, std::vector<ir::ExprId> indices, const Value& value,
           SourceRange target, SourceRange range) {
  Value source = fancy_store_value(c, base.type, value, target, range, true);
  if (!source.ok()) return;
  std::vector<ir::ExprId> args = {base.expr, source.expr};
  args.insert(args.end(), indices.begin(), indices.end());
  ir::Stmt out;
  out.kind = ir::StmtKind::expr;
  out.range = range;
  out.value = c.make_call(ir::Op::put_several, std::move(args), Type::void_(), range).expr;
  c.emit_stmt(std::move(out));
}

}  // namespace

std::optional<Value> several_index_arrays(FunctionChecker& c, const Value& base,
                                          const std::vector<FunctionChecker::IndexItem>& items, SourceRange range,
                                          FunctionChecker::PendingStore* pending) {
  if (items.size() < 2 || !std::all_of(items.begin(), items.end(), is_integer_vector)) return std::nullopt;
  if (!c.allow_host_only(range, "advanced indexing (an array as an index)",
                         "numba-cuda has no advanced indexing: loop over the positions; it works in @jit functions "
                         "called on the host"))
    return Value::error();
  std::vector<ir::ExprId> indices;
  for (const auto& item : items) indices.push_back(item.value.expr);
  if (pending) {
    store(c, base, indices, pending->value, range, pending->range);
    pending->done = true;
    return base;
  }
  std::vector<ir::ExprId> args = {base.expr};
  args.insert(args.end(), indices.begin(), indices.end());
  int ndim = base.type.ndim - static_cast<int>(items.size()) + 1;
  return c.make_call(ir::Op::take_several, std::move(args), Type::array(base.type.dtype(), ndim, Layout::C), range);
}

bool several_aug_assign(FunctionChecker& c, const Value& current, const Value& operand, ast::BinaryOp op,
                        SourceRange range) {
  if (!current.ok() || current.kind != Value::Kind::expr) return false;
  const ir::Expr& read = c.expr(current.expr);
  if (read.kind != ir::ExprKind::call || read.op != ir::Op::take_several) return false;
  // The array and the index arrays evaluated once: the read and the store both use them.
  std::vector<ir::ExprId> parts = read.args;
  Value base = c.store_in_temporary(c.value_of(parts[0]), range);
  std::vector<ir::ExprId> indices;
  for (size_t k = 1; k < parts.size(); ++k) indices.push_back(c.store_in_temporary(c.value_of(parts[k]), range).expr);
  std::vector<ir::ExprId> args = {base.expr};
  args.insert(args.end(), indices.begin(), indices.end());
  Value taken = c.make_call(ir::Op::take_several, std::move(args), current.type, range);
  Value result = c.binary(op, taken, operand, range);
  if (result.ok()) store(c, base, indices, result, c.expr(current.expr).range, range);
  return true;
}

}  // namespace pykern::sema
