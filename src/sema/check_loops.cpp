// for loops (range, arrays, enumerate, zip) and array declarations (cuda.shared/local.array).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sema/builtins.h"
#include "sema/checker.h"
#include "sema/dictionaries.h"

namespace pykern::sema {

// What one iteration of an iterable yields: a value, or for zip(...) and enumerate(...) a group
// of items, bound to a tuple target part by part (`for k, (x, y) in enumerate(zip(a, b))`).
struct LoopItem {
  Value value;
  std::vector<LoopItem> parts;
  bool group = false;
};

namespace {
bool is_builtin_call(FunctionChecker& checker, const ast::Expr& e, const char* name, int local_of_name) {
  if (e.kind != ast::ExprKind::call || local_of_name >= 0) return false;
  const ast::Expr& callee = checker.module().ast()[e.operands[0]];
  return callee.kind == ast::ExprKind::name && callee.text == name &&
         !checker.module().imported(name) && !checker.module().function(name);
}

// The iterables of for loops other than range(...): arrays (along axis 0), tuples of one type,
// lists, range objects held in variables, and zip(...) and enumerate(...) of them, nested as
// Python allows. Each has a length (int64) and an
// item at a loop index.
class LoopSource {
 public:
  // zip_local and enumerate_local: the kernel's locals of those names (-1: none), which shadow
  // the builtins.
  LoopSource(FunctionChecker& checker, int zip_local, int enumerate_local)
      : c_(checker), tree_(checker.module().ast()), zip_local_(zip_local), enumerate_local_(enumerate_local) {}

  bool is_zip(const ast::Expr& e) { return is_builtin_call(c_, e, "zip", zip_local_); }
  bool is_enumerate(const ast::Expr& e) { return is_builtin_call(c_, e, "enumerate", enumerate_local_); }

  Value length(ast::ExprId source) {
    const ast::Expr& e = tree_[source];
    if (is_zip(e) || is_enumerate(e)) {
      if (!well_formed(e)) return Value::error();
      Value shortest = length(e.operands[1]);
      for (size_t i = 2; i < e.operands.size() && is_zip(e) && shortest.ok(); ++i) {
        Value other = length(e.operands[i]);
        if (!other.ok()) return other;
        shortest = c_.make_call(ir::Op::min, {shortest.expr, other.expr}, Type::i64(), e.range);
      }
      return shortest;
    }
    Value array = value_of(source);
    if (!array.ok()) return Value::error();
    if (array.type.is(TypeKind::range)) return c_.make_call(ir::Op::range_len, {array.expr}, Type::i64(), e.range);
    if (array.type.is(TypeKind::tuple) && !array.type.elements.empty() &&
        std::all_of(array.type.elements.begin(), array.type.elements.end(),
                    [&](const Type& t) { return t == array.type.elements[0]; }))
      return c_.make_constant({int64_t(array.type.elements.size())}, Type::i64(), e.range);
    if (array.type.is(TypeKind::list)) return c_.make_call(ir::Op::list_len, {array.expr}, Type::i64(), e.range);
    if (array.type.is(TypeKind::dict)) return dict_iteration_length(c_, array, e.range);
    if (array.type.is(TypeKind::string)) return c_.make_call(ir::Op::str_len, {array.expr}, Type::i64(), e.range);
    if (!array.type.is(TypeKind::array) || array.type.ndim == 0) {  // Numba: "iteration over a 0-d array"
      c_.error(DiagKind::unsupported_operation, e.range,
               array.type.is(TypeKind::array) ? std::string("iteration over a 0-d array, which Numba refuses")
                                              : "cannot iterate over a value of type '" + to_string(array.type) + "'",
               "loops go over range(...), arrays, lists, dicts, tuples of one type, enumerate(...) and zip(...)");
      return Value::error();
    }
    ir::Expr shape;
    shape.kind = ir::ExprKind::member;
    shape.name = "shape[0]";
    shape.type = Type::i64();
    shape.args = {array.expr};
    return c_.value_of(c_.add(shape));
  }

  LoopItem item(ast::ExprId source, const Value& index) {
    const ast::Expr& e = tree_[source];
    LoopItem out;
    if (is_enumerate(e)) {
      out.group = true;
      LoopItem count;
      count.value = index;
      if (e.operands.size() == 3) {
        Value start = c_.as_runtime(c_.check_expr(e.operands[2]), tree_[e.operands[2]].range);
        count.value = start.ok() ? c_.binary(ast::BinaryOp::add, index, start, e.range) : Value::error();
      }
      out.parts = {count, item(e.operands[1], index)};
      return out;
    }
    if (is_zip(e)) {
      out.group = true;
      for (size_t i = 1; i < e.operands.size(); ++i) out.parts.push_back(item(e.operands[i], index));
      return out;
    }
    Value sequence = value_of(source);
    if (sequence.ok() && sequence.type.is(TypeKind::range)) {
      out.value = c_.make_call(ir::Op::range_item, {sequence.expr, index.expr}, sequence.type.elements.at(0), e.range);
      return out;
    }
    if (sequence.ok() && sequence.type.is(TypeKind::dict)) {  // a key, a value or an item, in order
      out.value = dict_iteration_item(c_, sequence, index, e.range);
      return out;
    }
    out.value = c_.subscript_value(sequence, {index}, e.range);
    return out;
  }

 private:
  // The iterable's value, evaluated once before the loop (range(n), a call, a slice), as
  // Python evaluates it: its length and every item read that one value. A plain name is read
  // where it is used.
  Value value_of(ast::ExprId source) {
    if (tree_[source].kind == ast::ExprKind::name) return c_.as_runtime(c_.check_expr(source), tree_[source].range);
    auto held = evaluated_.find(source.index);
    if (held != evaluated_.end()) return c_.read_local(held->second, tree_[source].range);
    Value value = c_.as_runtime(c_.check_expr(source), tree_[source].range);
    if (!value.ok()) return value;
    Value stored = c_.store_in_temporary(value, tree_[source].range);
    evaluated_[source.index] = c_.expr(stored.expr).local;
    return stored;
  }

  bool well_formed(const ast::Expr& e) {
    size_t sources = e.operands.size() - 1;
    bool ok = e.keywords.empty() && sources >= 1 && (!is_enumerate(e) || sources <= 2);
    if (!ok)
      c_.error(DiagKind::unsupported_operation, e.range,
               is_enumerate(e) ? "use enumerate as 'for i, x in enumerate(array)' or enumerate(array, start)"
                               : "use zip as 'for a, b in zip(x, y)', with one or more iterables");
    return ok;
  }

  FunctionChecker& c_;
  const ast::Ast& tree_;
  int zip_local_, enumerate_local_;
  std::map<uint32_t, int> evaluated_;  // a source expression's temporary local
};
}  // namespace

// Pairs each name of a loop target with its value: a group binds a tuple target part by part,
// and a plain name bound to a group gets the tuple of its values, as in Python.
void FunctionChecker::bind_loop_item(ast::ExprId target, const LoopItem& item,
                                     std::vector<std::pair<ast::ExprId, Value>>& per_iteration) {
  const ast::Expr& t = module().ast()[target];
  if (!item.group) {
    per_iteration.push_back({target, item.value});
    return;
  }
  if (t.kind == ast::ExprKind::tuple) {
    if (t.operands.size() != item.parts.size()) {
      error(DiagKind::bad_assignment, t.range,
            fmt::format("the loop gives {} values here, but the target names {}", item.parts.size(), t.operands.size()));
      return;
    }
    for (size_t i = 0; i < item.parts.size(); ++i) bind_loop_item(t.operands[i], item.parts[i], per_iteration);
    return;
  }
  per_iteration.push_back({target, loop_item_value(item, t.range)});
}

std::optional<RangeBounds> FunctionChecker::range_bounds(const std::vector<Value>& given) {
  std::vector<Value> bounds;  // an Optional bound is its value, as Numba converts it
  for (const Value& bound : given) bounds.push_back(bound.ok() ? unwrap_optional(bound, expr(bound.expr).range) : bound);
  for (const Value& bound : bounds) {
    if (!bound.ok()) return std::nullopt;
    if (!bound.type.is_integer_like()) {
      error(DiagKind::type_mismatch, expr(bound.expr).range, "range() needs integers, not '" + to_string(bound.type) + "'",
            "convert with int(...)");
      return std::nullopt;
    }
  }
  RangeBounds out;
  std::vector<Type> types;
  for (const Value& bound : bounds) types.push_back(bound.type);
  out.type = range_index_type(types);
  SourceRange where = expr(bounds[0].expr).range;
  auto constant = [&](int64_t v) { return make_constant({v}, Type::i64(), where).expr; };
  out.start = cast_expr(bounds.size() >= 2 ? bounds[0].expr : constant(0), out.type);
  out.stop = cast_expr(bounds.size() >= 2 ? bounds[1].expr : bounds[0].expr, out.type);
  out.step = cast_expr(bounds.size() == 3 ? bounds[2].expr : constant(1), out.type);
  if (bounds.size() == 3) {
    auto step = fold(bounds[2].expr);
    out.step_sign = step ? (step->as_int() > 0 ? 1 : step->as_int() < 0 ? -1 : 0) : 0;
    if (step && step->as_int() == 0) {
      error(DiagKind::bad_argument, expr(bounds[2].expr).range, "range() step must not be zero");
      return std::nullopt;
    }
  }
  return out;
}

// The qualified name a call's callee resolves to (numba.prange, numba.literal_unroll, ...), however
// it was imported: `prange(...)`, `nb.prange(...)`, `from numba import prange as p`. Empty for any
// other callee, or no call. Diagnostics are muted: the caller checks the call itself later.
std::string FunctionChecker::qualified_callee(const ast::Expr& e) {
  if (e.kind != ast::ExprKind::call) return {};
  const ast::Expr& callee = module().ast()[e.operands[0]];
  if (callee.kind != ast::ExprKind::name && callee.kind != ast::ExprKind::attribute) return {};
  bool was_muted = diagnostics().muted();
  diagnostics().set_muted(true);
  Value resolved = check_expr(e.operands[0]);
  diagnostics().set_muted(was_muted);
  return resolved.kind == Value::Kind::qualified ? resolved.name : std::string();
}

// The iterable as a range object held in a variable, or an invalid value for anything else (it
// is then checked as a sequence). Only a plain name is looked at, so nothing is evaluated twice.
Value FunctionChecker::range_value(ast::ExprId iterable) {
  const ast::Expr& e = module().ast()[iterable];
  int local = e.kind == ast::ExprKind::name ? local_at(iterable) : -1;
  if (local < 0 || !function_.locals[local].type.is(TypeKind::range)) return Value::error();
  return check_expr(iterable);
}

// A group as one value: the tuple of its parts (`for k, pair in enumerate(zip(a, b))`).
Value FunctionChecker::loop_item_value(const LoopItem& item, SourceRange range) {
  if (!item.group) return item.value;
  ir::Expr tuple;
  tuple.kind = ir::ExprKind::make_tuple;
  tuple.range = range;
  std::vector<Type> types;
  for (const LoopItem& part : item.parts) {
    Value value = loop_item_value(part, range);
    if (!value.ok()) return value;
    tuple.args.push_back(value.expr);
    types.push_back(value.type);
  }
  tuple.type = Type::tuple(std::move(types));
  return value_of(add(std::move(tuple)));
}

void FunctionChecker::check_for(const ast::Stmt& stmt) {
  int unrolling = unrolling_;  // a literal_unroll loop over one type counts too (sema/unroll.cpp)
  if (!check_unrolled_loop(stmt)) check_plain_for(stmt);
  unrolling_ = unrolling;
}

void FunctionChecker::check_plain_for(const ast::Stmt& stmt) {
  const ast::Ast& tree = module().ast();
  const ast::Expr& iterable = tree[stmt.value];
  ir::Stmt loop;
  loop.kind = ir::StmtKind::for_range;
  loop.range = stmt.range;
  loop.loop_id = next_loop_id_++;
  loop.loop_has_else = !stmt.orelse.empty();
  auto int64_value = [&](int64_t v) { return make_constant({v}, Type::i64(), iterable.range).expr; };
  loop.step_sign = 1;
  std::vector<std::pair<ast::ExprId, Value>> per_iteration;
  auto counter = [&](const Type& type) {
    loop.local = new_temporary(type);
    return read_local(loop.local, iterable.range);
  };
  // numba.prange(...): a range whose iterations may run in parallel. In a parallel=True function
  // sema/parallel_loops.cpp decides whether they do; elsewhere prange is range, as in Numba.
  loop.is_prange = qualified_callee(iterable) == prange_name;
  if (loop.is_prange || is_builtin_call(*this, iterable, "range", local_named("range"))) {
    std::vector<Value> bounds;
    for (size_t i = 1; i < iterable.operands.size(); ++i)
      bounds.push_back(as_runtime(check_expr(iterable.operands[i]), tree[iterable.operands[i]].range));
    if (bounds.empty() || bounds.size() > 3 || !iterable.keywords.empty()) {
      error(DiagKind::wrong_arity, iterable.range,
            fmt::format("range() takes 1 to 3 arguments, {} given", bounds.size()));
      return;
    }
    auto range = range_bounds(bounds);
    if (!range) return;
    Type type = range->type;
    loop.start = range->start;
    loop.stop = range->stop;
    loop.step = range->step;
    loop.step_sign = range->step_sign;
    Value index = counter(type);
    per_iteration.push_back({stmt.targets[0], index});
  } else if (Value held = range_value(stmt.value); held.ok()) {
    // for i in r, where r = range(...): the bounds are read from the object.
    Type type = held.type.elements[0];
    auto member = [&](const char* name) {
      ir::Expr e;
      e.kind = ir::ExprKind::member;
      e.name = name;
      e.type = type;
      e.range = iterable.range;
      e.args = {held.expr};
      return add(std::move(e));
    };
    loop.start = member("start");
    loop.stop = member("stop");
    loop.step = member("step");
    loop.step_sign = 0;  // decided at run time
    per_iteration.push_back({stmt.targets[0], counter(type)});
  } else {
    LoopSource source(*this, local_named("zip"), local_named("enumerate"));
    Value stop = source.length(stmt.value);
    if (!stop.ok()) return;
    loop.start = int64_value(0);
    loop.stop = stop.expr;
    loop.step = int64_value(1);
    bind_loop_item(stmt.targets[0], source.item(stmt.value, counter(Type::i64())), per_iteration);
  }
  emit_loop_body(stmt, loop, stmt.targets[0], per_iteration);
}

void FunctionChecker::emit_loop_body(const ast::Stmt& stmt, ir::Stmt& loop, ast::ExprId,
                                     const std::vector<std::pair<ast::ExprId, Value>>& per_iteration) {
  // Each iteration first binds the loop's names, then runs the body.
  std::vector<ir::StmtId>* saved = current_block_;
  current_block_ = &loop.body;
  for (const auto& [target, value] : per_iteration)
    if (value.ok()) assign_to(target, value, stmt.range);
  current_block_ = saved;
  check_loop_body(loop, stmt.body, loop.body);
  check_block(stmt.orelse, loop.orelse);
  emit_stmt(std::move(loop));
}

bool FunctionChecker::check_array_declaration(ast::ExprId target, ast::ExprId value, SourceRange range) {
  const ast::Ast& tree = module().ast();
  const ast::Expr& call = tree[value];
  if (call.kind != ast::ExprKind::call) return false;
  auto callee = module().qualified_name(call.operands[0]);
  bool shared = callee == shared_array_name;
  bool local_memory = callee == local_array_name;
  if (!shared && !local_memory) return false;
  const ast::Expr& name = tree[target];
  if (name.kind != ast::ExprKind::name) {
    error(DiagKind::bad_assignment, name.range, "assign a new array to a plain variable name");
    return true;
  }
  ast::ExprId shape_expr, dtype_expr;
  if (call.operands.size() > 1) shape_expr = call.operands[1];
  if (call.operands.size() > 2) dtype_expr = call.operands[2];
  for (const ast::Keyword& keyword : call.keywords) {
    if (keyword.name == "shape") shape_expr = keyword.value;
    else if (keyword.name == "dtype") dtype_expr = keyword.value;
    else error(DiagKind::bad_argument, keyword.range, "unexpected argument '" + keyword.name + "'");
  }
  const char* what = shared ? "cuda.shared.array" : "cuda.local.array";
  int target_local = local_at(target);
  auto failed = [&] {
    if (final_round_) poisoned_[target_local] = true;
    return true;
  };
  if (!shape_expr.valid() || !dtype_expr.valid()) {
    error(DiagKind::wrong_arity, call.range, std::string(what) + "() needs a shape and a dtype");
    return failed();
  }
  // A type (float32, np.float32), a dtype (np.dtype("f4"), a.dtype) or a dtype's name
  // ("float32"), as Numba's parse_dtype takes it.
  Value dtype_value = check_type_argument(dtype_expr);
  std::optional<Type> dtype = dtype_of(dtype_value);
  if (!dtype && tree[dtype_expr].kind == ast::ExprKind::string) return failed();  // reported: names no dtype
  if (!dtype) {
    error(DiagKind::bad_argument, tree[dtype_expr].range,
          "the dtype of " + std::string(what) + " must be a scalar type such as float32");
    return failed();
  }
  Value shape = as_runtime(check_expr(shape_expr), tree[shape_expr].range);
  if (!shape.ok()) return failed();
  std::vector<int64_t> extents;
  auto folded = fold(shape.expr);
  bool constant = folded.has_value();
  if (constant && shape.type.is_integer_like()) {
    extents.push_back(folded->as_int());
  } else if (shape.type.is(TypeKind::tuple) && expr(shape.expr).kind == ir::ExprKind::make_tuple) {
    for (ir::ExprId part : expr(shape.expr).args) {
      auto extent = fold(part);
      if (!extent || !expr(part).type.is_integer_like()) {
        constant = false;
        break;
      }
      extents.push_back(extent->as_int());
    }
    constant = !extents.empty() && extents.size() == expr(shape.expr).args.size();
  } else {
    constant = false;
  }
  if (!constant) {
    error(DiagKind::not_constant, tree[shape_expr].range,
          "the shape of " + std::string(what) + " must be a constant integer or tuple of them",
          "use literals or module-level constants, e.g. TPB = 16 ... shape=(TPB, TPB)");
    return failed();
  }
  // cuda.shared.array(0, dtype): dynamic shared memory, sized by the launch (every such array
  // of a kernel views the same bytes, as in CUDA).
  bool dynamic = shared && extents.size() == 1 && extents[0] == 0;
  for (int64_t extent : extents) {
    if (dynamic) break;
    if (extent <= 0 || extent > (int64_t(1) << 31)) {
      error(DiagKind::not_constant, tree[shape_expr].range,
            fmt::format("array extent {} is out of range (1 .. 2^31)", extent));
      return failed();
    }
  }
  int local = local_at(target);
  set_local_type(local, Type::array(*dtype, static_cast<int>(extents.size()), Layout::C), range);
  ir::Stmt declare;
  declare.kind = ir::StmtKind::declare_array;
  declare.range = range;
  declare.local = local;
  declare.array_dtype = *dtype;
  declare.array_shape = extents;
  declare.in_shared_memory = shared;
  declare.dynamic_shared = dynamic;
  emit_stmt(std::move(declare));
  feed_merges(name.text, webs_.merges_fed_by(target), local, name.range);
  return true;
}

}  // namespace pykern::sema
