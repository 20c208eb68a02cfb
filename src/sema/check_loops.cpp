// for loops (range, arrays, enumerate, zip) and array declarations (cuda.shared/local.array).
#include <algorithm>

#include <fmt/format.h>

#include "sema/checker.h"

namespace pykern::sema {

namespace {
bool is_builtin_call(FunctionChecker& checker, const ast::Expr& e, const char* name, int local_of_name) {
  if (e.kind != ast::ExprKind::call || local_of_name >= 0) return false;
  const ast::Expr& callee = checker.module().ast()[e.operands[0]];
  return callee.kind == ast::ExprKind::name && callee.text == name &&
         !checker.module().imported(name) && !checker.module().function(name);
}
}  // namespace

void FunctionChecker::check_for(const ast::Stmt& stmt) {
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
  auto length_of = [&](ast::ExprId source) -> Value {
    Value array = as_runtime(check_expr(source), tree[source].range);
    if (!array.ok()) return Value::error();
    if (array.type.is(TypeKind::tuple) && !array.type.elements.empty() &&
        std::all_of(array.type.elements.begin(), array.type.elements.end(),
                    [&](const Type& e) { return e == array.type.elements[0]; }))
      return make_constant({int64_t(array.type.elements.size())}, Type::i64(), tree[source].range);
    if (!array.type.is(TypeKind::array)) {
      error(DiagKind::unsupported_operation, tree[source].range,
            "cannot iterate over a value of type '" + to_string(array.type) + "'",
            "kernels loop over range(...), arrays, tuples of one type, enumerate(...) and zip(...)");
      return Value::error();
    }
    ir::Expr shape;
    shape.kind = ir::ExprKind::member;
    shape.name = "shape[0]";
    shape.type = Type::i64();
    shape.args = {array.expr};
    return value_of(add(shape));
  };

  if (is_builtin_call(*this, iterable, "range", local_named("range"))) {
    std::vector<Value> bounds;
    for (size_t i = 1; i < iterable.operands.size(); ++i)
      bounds.push_back(as_runtime(check_expr(iterable.operands[i]), tree[iterable.operands[i]].range));
    if (bounds.empty() || bounds.size() > 3 || !iterable.keywords.empty()) {
      error(DiagKind::wrong_arity, iterable.range,
            fmt::format("range() takes 1 to 3 arguments, {} given", bounds.size()));
      return;
    }
    Type type = Type::i64();
    for (const Value& bound : bounds) {
      if (!bound.ok()) return;
      if (!bound.type.is_integer_like()) {
        error(DiagKind::type_mismatch, expr(bound.expr).range,
              "range() needs integers, not '" + to_string(bound.type) + "'",
              "convert with int(...)");
        return;
      }
    }
    if (bounds.size() == 3) {
      type = arithmetic_result(arithmetic_result(bounds[0].type, bounds[1].type), bounds[2].type);
    } else if (bounds.size() == 2) {
      type = arithmetic_result(bounds[0].type, bounds[1].type);
    } else {
      type = arithmetic_result(bounds[0].type, bounds[0].type);
    }
    loop.start = bounds.size() >= 2 ? cast_expr(bounds[0].expr, type) : cast_expr(int64_value(0), type);
    loop.stop = cast_expr(bounds.size() >= 2 ? bounds[1].expr : bounds[0].expr, type);
    loop.step = bounds.size() == 3 ? cast_expr(bounds[2].expr, type) : cast_expr(int64_value(1), type);
    if (bounds.size() == 3) {
      auto step = fold(bounds[2].expr);
      loop.step_sign = step ? (step->as_int() > 0 ? 1 : step->as_int() < 0 ? -1 : 0) : 0;
      if (step && step->as_int() == 0) {
        error(DiagKind::bad_argument, expr(bounds[2].expr).range, "range() step must not be zero");
        return;
      }
    }
    Value index = counter(type);
    per_iteration.push_back({stmt.targets[0], index});
  } else if (is_builtin_call(*this, iterable, "enumerate", local_named("enumerate")) ||
             is_builtin_call(*this, iterable, "zip", local_named("zip"))) {
    bool enumerate = tree[iterable.operands[0]].text == "enumerate";
    const ast::Expr& target = tree[stmt.targets[0]];
    size_t sources = iterable.operands.size() - 1;
    size_t wanted = enumerate ? 2 : sources;
    if (sources == 0 || (enumerate && sources > 2) || target.kind != ast::ExprKind::tuple ||
        target.operands.size() != wanted) {
      error(DiagKind::unsupported_operation, iterable.range,
            enumerate ? "use enumerate as 'for i, x in enumerate(array)'"
                      : "use zip as 'for a, b in zip(x, y)' with one name per array");
      return;
    }
    Value stop = length_of(iterable.operands[1]);
    if (!stop.ok()) return;
    for (size_t i = 2; i < iterable.operands.size() && !enumerate; ++i) {
      Value other = length_of(iterable.operands[i]);
      if (!other.ok()) return;
      stop = make_call("pk::min", {stop.expr, other.expr}, Type::i64(), iterable.range);
    }
    loop.start = int64_value(0);
    loop.stop = stop.expr;
    loop.step = int64_value(1);
    Value index = counter(Type::i64());
    if (enumerate) {
      Value shown = index;
      if (sources == 2) {
        Value start = as_runtime(check_expr(iterable.operands[2]), tree[iterable.operands[2]].range);
        if (!start.ok()) return;
        shown = binary(ast::BinaryOp::add, index, start, iterable.range);
      }
      per_iteration.push_back({target.operands[0], shown});
      Value array = check_expr(iterable.operands[1]);
      per_iteration.push_back({target.operands[1], subscript_value(array, {index}, iterable.range)});
    } else {
      for (size_t i = 0; i < sources; ++i) {
        Value array = check_expr(iterable.operands[i + 1]);
        per_iteration.push_back({target.operands[i], subscript_value(array, {index}, iterable.range)});
      }
    }
  } else {
    Value stop = length_of(stmt.value);
    if (!stop.ok()) return;
    loop.start = int64_value(0);
    loop.stop = stop.expr;
    loop.step = int64_value(1);
    Value index = counter(Type::i64());
    Value array = check_expr(stmt.value);
    per_iteration.push_back({stmt.targets[0], subscript_value(array, {index}, iterable.range)});
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
  bool shared = callee == "numba.cuda.shared.array";
  bool local_memory = callee == "numba.cuda.local.array";
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
  int target_local = local_named(name.text);
  auto failed = [&] {
    if (final_round_) poisoned_[target_local] = true;
    return true;
  };
  if (!shape_expr.valid() || !dtype_expr.valid()) {
    error(DiagKind::wrong_arity, call.range, std::string(what) + "() needs a shape and a dtype");
    return failed();
  }
  Value dtype = check_expr(dtype_expr);
  if (dtype.kind != Value::Kind::type || !dtype.type.is_scalar()) {
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
  for (int64_t extent : extents) {
    if (extent <= 0 || extent > (int64_t(1) << 31)) {
      error(DiagKind::not_constant, tree[shape_expr].range,
            fmt::format("array extent {} is out of range (1 .. 2^31)", extent));
      return failed();
    }
  }
  int local = local_named(name.text);
  set_local_type(local, Type::array(dtype.type, static_cast<int>(extents.size()), Layout::C), range);
  ir::Stmt declare;
  declare.kind = ir::StmtKind::declare_array;
  declare.range = range;
  declare.local = local;
  declare.array_dtype = dtype.type;
  declare.array_shape = extents;
  declare.in_shared_memory = shared;
  emit_stmt(std::move(declare));
  return true;
}

}  // namespace pykern::sema
