// Advanced indexing as Numba's CPU target does it (numba/np/arrayobj.py): the subscript's
// other items make a view (integers drop axes, slices keep them), and one of its axes is then
// picked by the array: the positions where a mask is true, or integer positions (negative ones
// wrap; one out of range is an IndexError). The result is a new C-ordered array; a store
// writes the picked elements in place.
#include "sema/fancy_index.h"
#include "sema/fancy_mixed.h"
#include "sema/fancy_several.h"

#include <algorithm>

#include <fmt/format.h>

namespace pykern::sema {

using IndexItem = FunctionChecker::IndexItem;

Value fancy_store_value(FunctionChecker& c, const Type& array, const Value& value, SourceRange target,
                        SourceRange range, bool one_d_arrays) {
  std::string shown(c.file().slice(target));
  if (array.readonly) {
    c.error(DiagKind::bad_assignment, target,
            "cannot assign to '" + shown + "': a module-level array is frozen into the kernel, read-only (as in Numba)",
            "copy it first (np.copy), or pass the array as an argument");
    return Value::error();
  }
  Value source = c.as_runtime(value, range);
  if (!source.ok()) return source;
  const Type& dtype = array.dtype();
  const Type& given = source.type.is(TypeKind::array) ? source.type.dtype() : source.type;
  bool converts = given.is_scalar() && !given.is(TypeKind::record) && !dtype.is(TypeKind::record) &&
                  (dtype.is(TypeKind::complex) || !given.is(TypeKind::complex)) &&
                  (!one_d_arrays || !source.type.is(TypeKind::array) || source.type.ndim == 1);
  if (!converts) {
    c.error(DiagKind::type_mismatch, range,
            fmt::format("cannot assign a '{}' to '{}', elements of an array of type '{}'", to_string(source.type),
                        shown, to_string(array)),
            one_d_arrays ? "assign a number, or a 1-D array of numbers that converts to the array's type"
                         : "assign a number, or an array of numbers, that converts to the array's type");
    return Value::error();
  }
  if (source.type.is(TypeKind::array)) return source;
  return c.value_of(c.cast_expr(source.expr, dtype));
}

namespace {

bool is_array_item(const IndexItem& item) {
  return !item.is_slice && !item.is_ellipsis && item.value.ok() && item.value.type.is(TypeKind::array);
}

IndexItem full_slice(SourceRange range) {
  IndexItem item;
  item.is_slice = true;
  item.range = range;
  return item;
}

// An index array Numba takes: 1-D, of booleans or integers.
bool check_index_array(FunctionChecker& c, const IndexItem& item) {
  const Type& type = item.value.type;
  const Type& dtype = type.dtype();
  bool mask = dtype.is(TypeKind::boolean);
  if (!mask && !dtype.is(TypeKind::integer)) {
    c.error(DiagKind::bad_index, item.range,
            fmt::format("array indices must be integers or booleans, not '{}'", to_string(type)),
            "an index array holds positions (integers) or a mask (booleans)");
    return false;
  }
  if (type.ndim == 1) return true;
  if (mask)
    c.error(DiagKind::bad_index, item.range,
            fmt::format("a boolean mask index must be 1-D, not {}-d: Numba cannot compile an indexing by a {}-d mask",
                        type.ndim, type.ndim),
            "index the flattened arrays, a.ravel()[mask.ravel()], or loop over the elements");
  else
    c.error(DiagKind::bad_index, item.range,
            fmt::format("an integer index array must be 1-D, not {}-d (not supported yet)", type.ndim),
            "index with idx.ravel() and reshape the result");
  return false;
}

// Where Numba puts the picked axis: integer positions move it first when integers and the
// index array form more than one run in the subscript (a[1, :, idx]), as NumPy does; a mask
// keeps its place (Numba's FancyIndexer counts only integer arrays there).
bool moves_first(const std::vector<IndexItem>& items, size_t picked) {
  if (!items[picked].value.type.dtype().is(TypeKind::integer)) return false;
  int runs = 0;
  bool in_run = false;
  for (const IndexItem& item : items) {
    bool integer = !item.is_slice;
    if (integer && !in_run) ++runs;
    in_run = integer;
  }
  return runs > 1;
}

// What a take or a store needs: the view, the axis of it picked, and the operands' constants.
struct Picking {
  Value view;
  Value index;
  int axis = 0;   // of the view
  int shown = 0;  // of the array (for the IndexError's message)
  bool first = false;
};

std::optional<Picking> plan(FunctionChecker& c, const Value& base, const std::vector<IndexItem>& items,
                            SourceRange range) {
  size_t picked = items.size();
  for (size_t k = 0; k < items.size(); ++k) {
    if (!is_array_item(items[k])) continue;
    if (picked != items.size()) {
      c.error(DiagKind::bad_index, items[k].range, "only one array index per subscript is supported",
              "pick one axis at a time, or loop over the positions");
      return std::nullopt;
    }
    picked = k;
  }
  if (!check_index_array(c, items[picked])) return std::nullopt;
  Picking p;
  p.index = items[picked].value;
  p.shown = static_cast<int>(picked);
  for (size_t k = 0; k < picked; ++k) p.axis += items[k].is_slice ? 1 : 0;
  p.first = moves_first(items, picked);
  std::vector<IndexItem> others = items;  // the picked axis kept whole in the view
  others[picked] = full_slice(items[picked].range);
  p.view = c.index_into(base, std::move(others), range);
  if (!p.view.ok()) return std::nullopt;
  return p;
}

bool allowed_here(FunctionChecker& c, SourceRange range) {
  return c.allow_host_only(range, "advanced indexing (an array as an index)",
                           "numba-cuda has no advanced indexing: loop over the positions; it "
                           "works in @jit functions called on the host");
}

std::vector<ir::ExprId> operands(FunctionChecker& c, const Picking& p, SourceRange range) {
  auto constant = [&](int64_t v) { return c.make_constant({v}, Type::i64(), range).expr; };
  return {constant(p.axis), constant(p.first ? 1 : 0), constant(p.shown), p.view.expr, p.index.expr};
}

// A take's index as the selection reads it: a whole-array expression (x[x > 0.25]) as its lazy
// map, computed where each element is read (runtime/pykern/fused_index.cuh), not made first.
ir::ExprId fused_index(const FunctionChecker& c, ir::ExprId index) {
  const ir::Expr& e = c.expr(index);
  if (e.kind == ir::ExprKind::call && e.op == ir::Op::materialize) return e.args[0];
  return index;
}

Value take(FunctionChecker& c, const Picking& p, SourceRange range) {
  const Type& view = p.view.type;
  std::vector<ir::ExprId> args = operands(c, p, range);
  args.back() = fused_index(c, args.back());
  return c.make_call(ir::Op::take_axis, std::move(args), Type::array(view.dtype(), view.ndim, Layout::C), range);
}

// The store a[index] = value: a scalar into every picked element, or an array broadcast to them.
void store(FunctionChecker& c, const Picking& p, const Value& value, SourceRange target, SourceRange range) {
  Value source = fancy_store_value(c, p.view.type, value, target, range);
  if (!source.ok()) return;
  std::vector<ir::ExprId> args = operands(c, p, range);
  args.push_back(source.expr);
  ir::Stmt out;
  out.kind = ir::StmtKind::expr;
  out.range = range;
  out.value = c.make_call(ir::Op::put_axis, std::move(args), Type::void_(), range).expr;
  c.emit_stmt(std::move(out));
}

}  // namespace

bool expand_ellipsis(FunctionChecker& c, const Type& base, std::vector<IndexItem>& items, SourceRange range,
                     const FunctionChecker::PendingStore* store) {
  size_t at = items.size();
  for (size_t k = 0; k < items.size(); ++k) {
    if (!items[k].is_ellipsis) continue;
    if (!base.is(TypeKind::array)) {
      c.error(DiagKind::bad_index, items[k].range,
              "an Ellipsis (...) index needs an array, not a value of type '" + to_string(base) + "'");
      return false;
    }
    if (at != items.size()) {
      c.error(DiagKind::bad_index, items[k].range, "an index can only have a single ellipsis ('...')");
      return false;
    }
    at = k;
  }
  if (at == items.size()) return true;
  if (items.size() == 1 && !store) {
    // Numba types a[...] but has no implementation for it (a NotImplementedError when it compiles).
    c.error(DiagKind::unsupported_operation, range, "Numba cannot compile a[...] read as a value",
            "use the array itself, or a[:] for a view");
    return false;
  }
  SourceRange where = items[at].range;
  int others = static_cast<int>(items.size()) - 1;
  bool trailing = at + 1 == items.size();  // a[i, ...] is the view a[i]
  items.erase(items.begin() + static_cast<std::ptrdiff_t>(at));
  if (!trailing)
    items.insert(items.begin() + static_cast<std::ptrdiff_t>(at), static_cast<size_t>(std::max(0, base.ndim - others)),
                 full_slice(where));
  return true;
}

std::optional<Value> advanced_index(FunctionChecker& c, const Value& base, const std::vector<IndexItem>& items,
                                    SourceRange range, FunctionChecker::PendingStore* pending) {
  if (std::none_of(items.begin(), items.end(), is_array_item)) return std::nullopt;
  if (auto mixed = mixed_index_arrays(c, base, items, range, pending)) return mixed;  // a[rows, :, cols]
  if (auto several = several_index_arrays(c, base, items, range, pending)) return several;  // a[rows, cols]
  auto p = plan(c, base, items, range);
  if (!p || !allowed_here(c, range)) return Value::error();
  if (!pending) return take(c, *p, range);
  store(c, *p, pending->value, range, pending->range);
  pending->done = true;
  return p->view;
}

bool advanced_aug_assign(FunctionChecker& c, const Value& current, const Value& operand, ast::BinaryOp op,
                         SourceRange range) {
  if (several_aug_assign(c, current, operand, op, range)) return true;  // a[rows, cols] op= v
  if (mixed_aug_assign(c, current, operand, op, range)) return true;    // a[rows, :, cols] op= v
  if (!current.ok() || current.kind != Value::Kind::expr) return false;
  const ir::Expr& read = c.expr(current.expr);
  if (read.kind != ir::ExprKind::call || read.op != ir::Op::take_axis) return false;
  // The view and the index evaluated once: the read and the store both use them.
  Picking p;
  p.axis = static_cast<int>(c.fold(read.args[0])->as_int());
  p.first = c.fold(read.args[1])->as_int() != 0;
  p.shown = static_cast<int>(c.fold(read.args[2])->as_int());
  ir::ExprId view = read.args[3], index = read.args[4];
  p.view = c.store_in_temporary(c.value_of(view), range);
  // A fused index is made here: the store must pick the elements the read picked.
  Value index_value = c.value_of(index);
  if (c.expr(index).kind == ir::ExprKind::array_map)
    index_value = c.make_call(ir::Op::materialize, {index}, index_value.type, range);
  p.index = c.store_in_temporary(index_value, range);
  Value result = c.binary(op, take(c, p, range), operand, range);
  if (result.ok()) store(c, p, result, c.expr(current.expr).range, range);
  return true;
}

}  // namespace pykern::sema
