// a[rows, :, cols] and the other mixes of index arrays with integers and slices, in @jit
// functions on the host (sema/fancy_mixed.h).
#include "sema/fancy_mixed.h"
#include "sema/fancy_index.h"

#include <algorithm>

#include <fmt/format.h>

namespace pykern::sema {

using IndexItem = FunctionChecker::IndexItem;

namespace {

bool is_array(const IndexItem& item) {
  return !item.is_slice && !item.is_ellipsis && item.value.ok() && item.value.type.is(TypeKind::array);
}

bool is_mask(const IndexItem& item) { return is_array(item) && item.value.type.dtype().is(TypeKind::boolean); }

IndexItem full_slice(SourceRange range) {
  IndexItem item;
  item.is_slice = true;
  item.range = range;
  return item;
}

// Every array of the subscript a 1-D integer array Numba takes here; false after reporting the
// first that is not.
bool check_arrays(FunctionChecker& c, const std::vector<IndexItem>& items) {
  for (const IndexItem& item : items) {
    if (!is_array(item)) continue;
    const Type& type = item.value.type;
    if (is_mask(item)) {
      c.error(DiagKind::bad_index, item.range,
              "a boolean mask beside another index array: Numba 0.68 types this subscript but cannot compile it",
              "pick with the mask and the positions one after the other (a[mask][:, idx]), or turn the mask "
              "into positions with np.nonzero(mask)[0]");
      return false;
    }
    if (!type.dtype().is(TypeKind::integer)) {
      c.error(DiagKind::bad_index, item.range,
              fmt::format("array indices must be integers or booleans, not '{}'", to_string(type)),
              "an index array holds positions (integers) or a mask (booleans)");
      return false;
    }
    if (type.ndim != 1) {
      c.error(DiagKind::bad_index, item.range,
              fmt::format("an integer index array must be 1-D, not {}-d (not supported yet)", type.ndim),
              "index with idx.ravel() and reshape the result");
      return false;
    }
  }
  return true;
}

// The runtime's constants for a subscript: which of the view's axes the arrays pick (a bit
// each), which of the array's axes they are (for the IndexError), and where the picked axes'
// result axis goes among the view's other axes.
struct Mixed {
  int64_t picked = 0;
  int64_t shown = 0;
  int64_t at = 0;
  std::vector<ir::ExprId> indices;
};

Mixed layout_of(const std::vector<IndexItem>& items) {
  Mixed m;
  int view_axis = 0, runs = 0, slices_before_run = -1;
  bool in_run = false;
  for (size_t k = 0; k < items.size(); ++k) {
    const IndexItem& item = items[k];
    bool advanced = !item.is_slice;  // an integer or an index array: one run of them is a subspace
    if (advanced && !in_run) ++runs;
    if (advanced && slices_before_run < 0) slices_before_run = view_axis - static_cast<int>(m.indices.size());
    in_run = advanced;
    if (is_array(item)) {
      m.picked |= int64_t{1} << view_axis;
      m.shown |= int64_t{1} << k;
      m.indices.push_back(item.value.expr);
    }
    if (item.is_slice || is_array(item)) ++view_axis;
  }
  m.at = runs > 1 ? 0 : std::max(0, slices_before_run);
  return m;
}

std::vector<ir::ExprId> operands(FunctionChecker& c, const Mixed& m, ir::ExprId view, SourceRange range) {
  auto constant = [&](int64_t v) { return c.make_constant({v}, Type::i64(), range).expr; };
  return {constant(m.at), constant(m.picked), constant(m.shown), view};
}

Value take(FunctionChecker& c, const Mixed& m, const Value& view, SourceRange range) {
  std::vector<ir::ExprId> args = operands(c, m, view.expr, range);
  args.insert(args.end(), m.indices.begin(), m.indices.end());
  int ndim = view.type.ndim - static_cast<int>(m.indices.size()) + 1;
  return c.make_call(ir::Op::take_mixed, std::move(args), Type::array(view.type.dtype(), ndim, Layout::C), range);
}

// The store view[...] = value: a number into every picked element, or an array broadcast to them.
void store(FunctionChecker& c, const Mixed& m, const Value& view, const Value& value, SourceRange target,
           SourceRange range) {
  Value source = fancy_store_value(c, view.type, value, target, range);
  if (!source.ok()) return;
  std::vector<ir::ExprId> args = operands(c, m, view.expr, range);
  args.push_back(source.expr);
  args.insert(args.end(), m.indices.begin(), m.indices.end());
  ir::Stmt out;
  out.kind = ir::StmtKind::expr;
  out.range = range;
  out.value = c.make_call(ir::Op::put_mixed, std::move(args), Type::void_(), range).expr;
  c.emit_stmt(std::move(out));
}

}  // namespace

std::optional<Value> mixed_index_arrays(FunctionChecker& c, const Value& base, const std::vector<IndexItem>& items,
                                        SourceRange range, FunctionChecker::PendingStore* pending) {
  size_t arrays = static_cast<size_t>(std::count_if(items.begin(), items.end(), is_array));
  if (arrays < 2) return std::nullopt;
  bool all_integer_vectors = arrays == items.size() && std::none_of(items.begin(), items.end(), [](const IndexItem& i) {
                               return is_mask(i) || i.value.type.ndim != 1;
                             });
  // An integer array for every axis, a[rows, cols]: sema/fancy_several.cpp.
  if (all_integer_vectors && static_cast<int>(items.size()) == base.type.ndim) return std::nullopt;
  if (!check_arrays(c, items)) return Value::error();
  if (!c.allow_host_only(range, "advanced indexing (an array as an index)",
                         "numba-cuda has no advanced indexing: loop over the positions; it works in @jit functions "
                         "called on the host"))
    return Value::error();
  Mixed m = layout_of(items);
  std::vector<IndexItem> others = items;  // the picked axes kept whole in the view
  for (IndexItem& item : others)
    if (is_array(item)) item = full_slice(item.range);
  Value view = c.index_into(base, std::move(others), range);
  if (!view.ok()) return Value::error();
  if (!pending) return take(c, m, view, range);
  store(c, m, view, pending->value, range, pending->range);
  pending->done = true;
  return view;
}

bool mixed_aug_assign(FunctionChecker& c, const Value& current, const Value& operand, ast::BinaryOp op,
                      SourceRange range) {
  if (!current.ok() || current.kind != Value::Kind::expr) return false;
  const ir::Expr& read = c.expr(current.expr);
  if (read.kind != ir::ExprKind::call || read.op != ir::Op::take_mixed) return false;
  // The view and the index arrays evaluated once: the read and the store both use them.
  std::vector<ir::ExprId> parts = read.args;
  SourceRange target = read.range;
  Mixed m;
  m.at = c.fold(parts[0])->as_int();
  m.picked = c.fold(parts[1])->as_int();
  m.shown = c.fold(parts[2])->as_int();
  Value view = c.store_in_temporary(c.value_of(parts[3]), range);
  for (size_t k = 4; k < parts.size(); ++k) m.indices.push_back(c.store_in_temporary(c.value_of(parts[k]), range).expr);
  Value result = c.binary(op, take(c, m, view, range), operand, range);
  if (result.ok()) store(c, m, view, result, target, range);
  return true;
}

}  // namespace pykern::sema
