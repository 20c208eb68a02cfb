// Python's str in @jit functions called on the host, as Numba types and computes unicode_type
// (numba/cpython/unicode.py): literals and module constants as values, comparisons, `in`,
// len, indexing and slicing, + and *, str() of integers and bools, f-strings, a few methods,
// and exception messages made at run time. Kernels (numba-cuda) have no string values.
#include "sema/text.h"

#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

bool is_text(const Value& value) { return value.kind == Value::Kind::expr && value.type.is(TypeKind::string); }

namespace {

// Strings are values only where Numba's CPU target runs the function.
bool allow_text(FunctionChecker& c, SourceRange range) {
  if (c.on_host()) return true;
  c.error(DiagKind::unsupported_operation, range, "strings are only supported in print() and assert messages",
          "numba-cuda kernels take string literals only in print(), assert and raise; text is for @jit functions "
          "called on the host");
  return false;
}

Value constant_text(FunctionChecker& c, const std::string& text, SourceRange range) {
  return c.make_constant({text}, Type::string(), range);
}

// Python's repr() of a value inside an exception's arguments (a string quoted), or its str().
Value boxed_text(FunctionChecker& c, const Value& value, bool repr, SourceRange range);

Value tuple_text(FunctionChecker& c, const Value& tuple, SourceRange range) {
  std::vector<ir::ExprId> parts = {constant_text(c, "(", range).expr};
  size_t n = tuple.type.elements.size();
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) parts.push_back(constant_text(c, ", ", range).expr);
    Value item = boxed_text(c, c.element_of_tuple(tuple, i, range), true, range);
    if (!item.ok()) return Value::error();
    parts.push_back(item.expr);
  }
  parts.push_back(constant_text(c, n == 1 ? ",)" : ")", range).expr);
  return c.make_call(Op::str_concat, parts, Type::string(), range);
}

Value boxed_text(FunctionChecker& c, const Value& value, bool repr, SourceRange range) {
  const Type& type = value.type;
  if (type.is(TypeKind::string)) return repr ? c.make_call(Op::repr_str, {value.expr}, Type::string(), range) : value;
  if (type.is(TypeKind::floating))  // boxed as a Python float: float32 widens first
    return c.make_call(Op::repr_float, {c.cast_expr(value.expr, Type::f64())}, Type::string(), range);
  if (type.is(TypeKind::none)) return constant_text(c, "None", range);
  if (type.is(TypeKind::tuple)) return tuple_text(c, value, range);
  if (type.is(TypeKind::integer) || type.is(TypeKind::boolean)) return text_of(c, value, range);
  c.error(DiagKind::unsupported_operation, range,
          "an exception's argument of type '" + to_string(type) + "' is not supported",
          "pass numbers, booleans, strings or tuples of them, or format the value into the message");
  return Value::error();
}

Value checked_text(FunctionChecker& c, ast::ExprId id) {
  const ast::Expr& e = c.module().ast()[id];
  return c.as_runtime(c.check_expr(id), e.range);
}

}  // namespace

Value text_literal(FunctionChecker& c, const std::string& text, SourceRange range) {
  if (!allow_text(c, range)) return Value::error();
  return constant_text(c, text, range);
}

Value text_of(FunctionChecker& c, const Value& value, SourceRange range) {
  const Type& type = value.type;
  if (type.is(TypeKind::string)) return value;
  if (type.is(TypeKind::boolean)) return c.make_call(Op::str_of_bool, {value.expr}, Type::string(), range);
  if (type.is(TypeKind::integer))
    return c.make_call(Op::str_of_int, {c.cast_expr(value.expr, type.is_signed ? Type::i64() : Type::u64())},
                       Type::string(), range);
  // Numba has no str() of other types inside a function: its fallback names the type, a list's
  // with its initial value (none by then).
  std::string name = to_string(type) + (type.is(TypeKind::list) ? "<iv=None>" : "");
  return constant_text(c, "<object type:" + name + ">", range);
}

Value text_fstring(FunctionChecker& c, const ast::Expr& e) {
  if (!allow_text(c, e.range)) return Value::error();
  std::vector<ir::ExprId> parts;
  for (ast::ExprId piece : e.operands) {
    Value value = checked_text(c, piece);
    if (!value.ok()) return Value::error();
    Value text = text_of(c, value, c.module().ast()[piece].range);
    if (!text.ok()) return Value::error();
    parts.push_back(text.expr);
  }
  if (parts.empty()) return constant_text(c, "", e.range);
  return c.make_call(Op::str_concat, parts, Type::string(), e.range);
}

Value text_binary(FunctionChecker& c, ast::BinaryOp op, const Value& left, const Value& right, SourceRange range) {
  if (op == ast::BinaryOp::add && is_text(left) && is_text(right))
    return c.make_call(Op::str_concat, {left.expr, right.expr}, Type::string(), range);
  if (op == ast::BinaryOp::mul && (is_text(left) ? right : left).type.is_integer_like()) {
    const Value& text = is_text(left) ? left : right;
    const Value& count = is_text(left) ? right : left;
    return c.make_call(Op::str_repeat, {text.expr, c.cast_expr(count.expr, Type::i64())}, Type::string(), range);
  }
  c.error(DiagKind::type_mismatch, range,
          fmt::format("unsupported operand types for {}: '{}' and '{}'", ast::to_string(op), to_string(left.type),
                      to_string(right.type)),
          op == ast::BinaryOp::add ? "convert the number with str() first, or use an f-string" : "");
  return Value::error();
}

namespace {
Value logical(FunctionChecker& c, Op op, std::vector<ir::ExprId> args, SourceRange range) {
  ir::Expr e;
  e.kind = args.size() == 1 ? ir::ExprKind::unary : ir::ExprKind::logical;
  e.op = op;
  e.type = Type::boolean();
  e.args = std::move(args);
  e.range = range;
  return c.value_of(c.add(std::move(e)));
}
}  // namespace

Value text_compare(FunctionChecker& c, ast::CompareOp op, const Value& left, const Value& right, SourceRange range) {
  bool membership = op == ast::CompareOp::in || op == ast::CompareOp::not_in;
  if (membership && right.type.is(TypeKind::tuple)) {
    // s in ("mean", "median"): equal to one of the items, s read once. Numba's tuple
    // containment takes items of the one type only.
    for (const Type& element : right.type.elements) {
      if (element != left.type) {
        c.error(DiagKind::type_mismatch, range,
                fmt::format("'{}' cannot be looked up in a '{}'", to_string(left.type), to_string(right.type)),
                "Numba's 'in' takes a tuple of items of the value's own type");
        return Value::error();
      }
    }
    Value item = c.store_in_temporary(left, range);
    Value found = c.make_constant({false}, Type::boolean(), range);
    for (size_t k = 0; k < right.type.elements.size(); ++k) {
      Value equal = text_compare(c, ast::CompareOp::eq, item, c.element_of_tuple(right, k, range), range);
      if (!equal.ok()) return Value::error();
      found = k == 0 ? equal : logical(c, Op::logical_or, {found.expr, equal.expr}, range);
    }
    return op == ast::CompareOp::in ? found : logical(c, Op::logical_not, {found.expr}, range);
  }
  if (!is_text(left) || !is_text(right)) {
    // Numba: a string and a number are never equal; they have no order.
    if (op == ast::CompareOp::eq || op == ast::CompareOp::ne)
      return c.make_constant({op == ast::CompareOp::ne}, Type::boolean(), range);
    c.error(DiagKind::type_mismatch, range,
            fmt::format("cannot compare '{}' and '{}' with '{}'", to_string(left.type), to_string(right.type),
                        ast::to_string(op)));
    return Value::error();
  }
  Op call = Op::none;
  switch (op) {
    case ast::CompareOp::eq: call = Op::str_eq; break;
    case ast::CompareOp::ne: call = Op::str_ne; break;
    case ast::CompareOp::lt: call = Op::str_lt; break;
    case ast::CompareOp::le: call = Op::str_le; break;
    case ast::CompareOp::gt: call = Op::str_gt; break;
    case ast::CompareOp::ge: call = Op::str_ge; break;
    case ast::CompareOp::in:
    case ast::CompareOp::not_in: {
      Value found = c.make_call(Op::str_contains, {right.expr, left.expr}, Type::boolean(), range);
      return op == ast::CompareOp::in ? found : logical(c, Op::logical_not, {found.expr}, range);
    }
    default: break;
  }
  if (call == Op::none) {
    c.error(DiagKind::type_mismatch, range, fmt::format("'{}' does not compare strings", ast::to_string(op)),
            "compare strings with == or !=");
    return Value::error();
  }
  return c.make_call(call, {left.expr, right.expr}, Type::boolean(), range);
}

Value text_truth(FunctionChecker& c, const Value& value, SourceRange range) {
  return c.make_call(Op::str_truth, {value.expr}, Type::boolean(), range);
}

Value text_index(FunctionChecker& c, const Value& base, const std::vector<FunctionChecker::IndexItem>& items,
                 SourceRange range, bool is_store) {
  if (is_store) {
    c.error(DiagKind::bad_assignment, range, "'str' object does not support item assignment",
            "strings are immutable: build a new one with slices and +");
    return Value::error();
  }
  if (items.size() != 1 || items[0].is_ellipsis ||
      (!items[0].is_slice && (!items[0].value.ok() || !items[0].value.type.is_integer_like()))) {
    c.error(DiagKind::bad_index, range, "a string takes one integer index or a slice");
    return Value::error();
  }
  const FunctionChecker::IndexItem& item = items[0];
  if (!item.is_slice)
    return c.make_call(Op::str_at, {base.expr, c.cast_expr(item.value.expr, Type::i64())}, Type::string(), range);
  auto part = [&](ir::ExprId id) {
    return id.valid() ? id : c.make_constant({int64_t(-9223372036854775807LL - 1)}, Type::i64(), range).expr;
  };
  return c.make_call(Op::str_slice, {base.expr, part(item.start), part(item.stop), part(item.step)}, Type::string(),
                     range);
}

ir::ExprId exception_message(FunctionChecker& c, const std::string& exception, const std::vector<ast::ExprId>& arguments,
                             SourceRange range) {
  std::vector<Value> values;
  for (ast::ExprId argument : arguments) {
    Value value = checked_text(c, argument);
    if (!value.ok()) return {};
    values.push_back(value);
  }
  // BaseException.__str__: the one argument's str() (KeyError's: its repr), else the tuple's repr.
  if (values.size() == 1) {
    Value text = boxed_text(c, values[0], exception == "KeyError", c.module().ast()[arguments[0]].range);
    return text.ok() ? text.expr : ir::ExprId();
  }
  std::vector<ir::ExprId> parts = {constant_text(c, "(", range).expr};
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) parts.push_back(constant_text(c, ", ", range).expr);
    Value item = boxed_text(c, values[i], true, c.module().ast()[arguments[i]].range);
    if (!item.ok()) return {};
    parts.push_back(item.expr);
  }
  parts.push_back(constant_text(c, ")", range).expr);
  return c.make_call(Op::str_concat, parts, Type::string(), range).expr;
}

// assert condition, message with a message made at run time: `if not condition: raise
// AssertionError(message)`, the message computed only when the assertion fails, as in Python.
void FunctionChecker::check_assert_message(const ast::Stmt& stmt, const Value& condition) {
  ir::Stmt test;
  test.kind = ir::StmtKind::if_;
  test.range = stmt.range;
  test.condition = unary_not(condition, stmt.range).expr;
  std::vector<ir::StmtId>* saved = current_block_;
  current_block_ = &test.body;
  ir::Stmt raise;
  raise.kind = ir::StmtKind::raise_;
  raise.range = stmt.range;
  raise.exception = "AssertionError";
  raise.value = exception_message(*this, "AssertionError", {stmt.message}, stmt.range);
  if (raise.value.valid()) emit_stmt(std::move(raise));
  current_block_ = saved;
  emit_stmt(std::move(test));
}

void add_text_builtins(HandlerTable& t) {
  t["builtins.str"] = [](FunctionChecker& c, const CallSite& call) -> Value {
    if (!allow_text(c, call.range)) return Value::error();
    if (call.args.empty() && call.keywords.empty()) return constant_text(c, "", call.range);
    if (!want_args(c, call, 1, 1)) return Value::error();
    return text_of(c, call.args[0], call.range);
  };
  Handler length = t["builtins.len"].rule;  // len() of everything else
  t["builtins.len"] = [length](FunctionChecker& c, const CallSite& call) -> Value {
    if (call.args.size() == 1 && call.keywords.empty() && is_text(call.args[0]))
      return c.make_call(Op::str_len, {call.args[0].expr}, Type::i64(), call.range);
    return length(c, call);
  };
}

}  // namespace pykern::sema
