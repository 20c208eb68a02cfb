// Expressions: names, literals, operators by Numba's typing rules, attributes, subscripts.
#include <algorithm>

#include <fmt/format.h>

#include "sema/builtins.h"
#include "sema/checker.h"
#include "sema/dictionaries.h"
#include "sema/fancy_index.h"
#include "sema/lists.h"
#include "sema/module_values.h"
#include "sema/name_resolution.h"
#include "sema/text.h"

namespace pykern::sema {

using ast::ExprKind;

Value FunctionChecker::value_of(ir::ExprId id) const {
  Value value;
  value.kind = Value::Kind::expr;
  value.expr = id;
  value.type = expr(id).type;
  return value;
}

Value FunctionChecker::make_constant(ir::Constant constant, Type type, SourceRange range) {
  ir::Expr e;
  e.kind = ir::ExprKind::constant;
  e.constant = std::move(constant);
  e.type = std::move(type);
  e.range = range;
  return value_of(add(std::move(e)));
}

Value FunctionChecker::make_call(ir::Op op, std::vector<ir::ExprId> args, Type type, SourceRange range, int op_arg) {
  if (ir::call_has(op, ir::call_flag::barrier)) function_.uses_barriers = true;
  if (ir::call_has(op, ir::call_flag::grid_barrier)) function_.syncs_grid = true;
  if (ir::call_has(op, ir::call_flag::host_only)) function_.host_only = true;
  // Numba's CPU target has no numba.cuda intrinsics: a @jit function called on the host (a
  // host call's program) that uses one is refused, as Numba's typing refuses it.
  if (ir::call_has(op, ir::call_flag::device_only) && program_.host_calls() && origin() == frontend::Origin::user) {
    error(DiagKind::unsupported_operation, range,
          "this numba.cuda intrinsic runs only in kernels and device functions, not in a @jit function called on "
          "the host",
          "call the function from a kernel, or pass what it reads in as an argument");
    return Value::error();
  }
  ir::Expr e;
  e.kind = ir::ExprKind::call;
  e.op = op;
  e.op_arg = op_arg;
  e.args = std::move(args);
  e.type = std::move(type);
  e.range = range;
  return value_of(add(std::move(e)));
}

// An Optional used where its value is wanted: the value. Numba raises TypeError for a None
// there, which a kernel without debug=True does not report (as with raise); pykern then reads
// the type's zero.
Value FunctionChecker::unwrap_optional(const Value& value, SourceRange range) {
  if (value.kind != Value::Kind::expr || !value.type.is(TypeKind::optional)) return value;
  ir::Op op = function_.options.raises ? ir::Op::checked_unwrap : ir::Op::unwrap;
  return make_call(op, {value.expr}, value.type.elements[0], range);
}

ir::ExprId FunctionChecker::cast_expr(ir::ExprId id, const Type& to) {
  const ir::Expr& from = expr(id);
  if (!to.known() || !from.type.known() || from.type == to) return id;
  if (from.type.is(TypeKind::optional)) return cast_expr(unwrap_optional(value_of(id), from.range).expr, to);
  // [] meeting the list it becomes: made with the items' type.
  if (from.type.is(TypeKind::list) && to.is(TypeKind::list) && !from.type.elements[0].known() &&
      from.kind == ir::ExprKind::call && from.op == ir::Op::new_list)
    return new_list(to, {}, from.range).expr;
  if (to.is(TypeKind::optional)) {
    SourceRange range = from.range;
    if (from.type.is(TypeKind::none)) return make_call(ir::Op::optional_none, {}, to, range).expr;
    ir::Expr wrap;
    wrap.kind = ir::ExprKind::cast;
    wrap.type = to;
    wrap.range = range;
    wrap.args = {cast_expr(id, to.elements[0])};
    return add(std::move(wrap));
  }
  // Tuples convert element-wise.
  if (to.is(TypeKind::tuple) && from.type.is(TypeKind::tuple) &&
      to.elements.size() == from.type.elements.size()) {
    std::vector<ir::ExprId> parts;
    // A tuple display converts item by item, never made itself: (x, None) as a Tuple(float64,
    // OptionalType(float64)) has no C++ tuple holding a None.
    std::vector<ir::ExprId> items = from.kind == ir::ExprKind::make_tuple ? from.args : std::vector<ir::ExprId>();
    for (size_t i = 0; i < to.elements.size(); ++i)
      parts.push_back(cast_expr(items.size() == to.elements.size() ? items[i] : element_of_tuple(value_of(id), i, from.range).expr,
                                to.elements[i]));
    ir::Expr tuple;
    tuple.kind = ir::ExprKind::make_tuple;
    tuple.args = std::move(parts);
    tuple.type = to;
    tuple.range = expr(id).range;
    return add(std::move(tuple));
  }
  // Numba converts complex to nothing else (its TypingError): the imaginary part would be lost.
  if (from.type.is(TypeKind::complex) && to.is_scalar() && !to.is(TypeKind::complex)) {
    error(DiagKind::type_mismatch, from.range,
          fmt::format("cannot convert '{}' to '{}': the imaginary part would be lost", to_string(from.type),
                      to_string(to)),
          "take z.real, z.imag or abs(z) explicitly");
    return id;
  }
  ir::Expr c;
  c.kind = ir::ExprKind::cast;
  c.type = to;
  c.range = from.range;
  c.args = {id};
  return add(std::move(c));
}

Value FunctionChecker::cast(const Value& value, const Type& to, SourceRange) {
  if (!value.ok()) return value;
  return value_of(cast_expr(value.expr, to));
}

Value FunctionChecker::as_runtime(const Value& value, SourceRange range) {
  switch (value.kind) {
    case Value::Kind::expr:
    case Value::Kind::error: return value;
    case Value::Kind::type:
      error(DiagKind::unsupported_operation, range,
            "the type '" + to_string(value.type) + "' cannot be used as a value here",
            "call it to convert a value, e.g. float32(x)");
      return Value::error();
    case Value::Kind::function:
      error(DiagKind::unsupported_operation, range,
            "the function '" + value.name + "' cannot be used as a value", "call it");
      return Value::error();
    case Value::Kind::qualified:
      error(DiagKind::unknown_name, range, "'" + value.name + "' is not a value pykern knows",
            "kernels can use numba.cuda, math and numpy scalar functions");
      return Value::error();
  }
  return Value::error();
}

bool FunctionChecker::on_host() const { return program_.host_calls(); }

Type FunctionChecker::float_type_for(const Type& type) {
  if (type.is(TypeKind::floating)) return type.bits == 16 ? Type::f32() : type;
  return Type::f64();
}

Value FunctionChecker::check_expr(ast::ExprId id) {
  if (!id.valid()) return Value::error();
  const ast::Expr& e = module().ast()[id];
  switch (e.kind) {
    case ExprKind::name: return check_name(id);
    case ExprKind::integer:
      if (e.int_overflows) {
        error(DiagKind::type_mismatch, e.range, "integer literal does not fit in uint64, the widest integer Numba types",
              "write it as a float, or split it into parts");
        return Value::error();
      }
      // Numba types a literal from 2**63 up to 2**64 - 1 as uint64.
      if (e.int_unsigned) return make_constant({static_cast<uint64_t>(e.int_value)}, Type::u64(), e.range);
      return make_constant({e.int_value}, Type::i64(), e.range);
    case ExprKind::float_: return make_constant({e.float_value}, Type::f64(), e.range);
    case ExprKind::imaginary:
      return make_constant({std::complex<double>(0, e.float_value)}, Type::complex(128), e.range);
    case ExprKind::boolean: return make_constant({e.int_value != 0}, Type::boolean(), e.range);
    case ExprKind::none: return make_constant({int64_t(0)}, Type::none(), e.range);
    case ExprKind::ellipsis:  // an index item (FunctionChecker::subscript), nothing else
      error(DiagKind::unsupported_operation, e.range, "an Ellipsis (...) can only be an array index",
            "write a[...] or a[..., i]");
      return Value::error();
    case ExprKind::string: return text_literal(*this, e.text, e.range);  // sema/text.cpp
    case ExprKind::fstring: return text_fstring(*this, e);
    case ExprKind::binary: {
      Value left = as_runtime(check_expr(e.operands[0]), module().ast()[e.operands[0]].range);
      Value right = as_runtime(check_expr(e.operands[1]), module().ast()[e.operands[1]].range);
      if (!left.ok() || !right.ok()) return Value::error();
      return binary(e.binary_op, left, right, e.range);
    }
    case ExprKind::unary: {
      Value operand = as_runtime(check_expr(e.operands[0]), e.range);
      if (!operand.ok()) return Value::error();
      // CPython's compiler folds ~True to -2 before Numba sees the code: a literal bool
      // inverts as the int it is in Python (a bool value inverts as a bool).
      if (e.unary_op == ast::UnaryOp::invert && module().ast()[e.operands[0]].kind == ExprKind::boolean)
        operand = value_of(cast_expr(operand.expr, Type::i64()));
      return unary(e.unary_op, operand, e.range);
    }
    case ExprKind::not_: {
      Value operand = truth(check_expr(e.operands[0]), e.range);
      if (!operand.ok()) return Value::error();
      return unary_not(operand, e.range);
    }
    case ExprKind::bool_op: return check_bool_op(e);
    case ExprKind::compare: return check_compare(e);
    case ExprKind::if_else: return check_if_else(e);
    case ExprKind::call: return check_call(id);
    case ExprKind::attribute: {
      Value base = check_expr(e.operands[0]);
      if (!base.ok()) return base;
      // An Optional's attribute is its value's (Numba's OptionalAttribute; TypeError for a None).
      return attribute_of(unwrap_optional(base, module().ast()[e.operands[0]].range), e.text, e.range);
    }
    case ExprKind::subscript: {
      Value base = check_expr(e.operands[0]);
      if (!base.ok()) return base;
      std::vector<ast::ExprId> indices(e.operands.begin() + 1, e.operands.end());
      return subscript(base, indices, e.range);
    }
    case ExprKind::tuple: return check_tuple(e);
    case ExprKind::list: return check_list(e);
    case ExprKind::dict: return dict_display(*this, e);
    case ExprKind::set:
      error(DiagKind::unsupported_syntax, e.range, "a set is not supported in " + refusal_place());
      return Value::error();
    case ExprKind::slice:
      error(DiagKind::bad_index, e.range, "a slice can only appear inside [ ]");
      return Value::error();
    case ExprKind::starred:
      error(DiagKind::unsupported_syntax, e.range, "a starred value (*args) can only be a call's argument");
      return Value::error();
    case ExprKind::error: return Value::error();
  }
  return Value::error();
}

Value FunctionChecker::check_name(ast::ExprId id) { return check_name_as(id, global_depth_ > 0 ? -1 : local_at(id)); }

Value FunctionChecker::check_name_as(ast::ExprId id, int local) {
  const ast::Expr& e = module().ast()[id];
  if (auto found = static_parameters_.find(e.text); global_depth_ == 0 && found != static_parameters_.end())
    return static_parameter_value(found->second, e.range);
  if (local >= 0) {
    const ir::Local& variable = function_.locals[local];
    bool unassigned = final_round_ && static_cast<size_t>(local) < assigned_.size() && !assigned_[local];
    if (final_round_ && static_cast<size_t>(local) < poisoned_.size() && poisoned_[local]) return Value::error();
    if (!variable.type.known() || unassigned) {
      if (final_round_)
        error(DiagKind::undefined_variable, e.range,
              "'" + e.text + "' is used before any value is assigned to it");
      return Value::error();
    }
    if (auto literal = literal_locals_.find(local); literal != literal_locals_.end())
      return make_constant(literal->second, variable.type, e.range);
    ir::Expr read;
    read.kind = ir::ExprKind::local;
    read.local = local;
    read.type = variable.type;
    read.range = e.range;
    return value_of(add(std::move(read)));
  }
  if (auto inner = inner_defs_.find(e.text); inner != inner_defs_.end() && global_depth_ == 0) {
    Value function;
    function.kind = Value::Kind::function;
    function.name = program_.inner_function(module_function_, ast_, inner->second);
    return function;
  }
  if (module().function(e.text)) {
    Value function;
    function.kind = Value::Kind::function;
    function.name = e.text;
    return function;
  }
  if (auto qualified = module().imported(e.text)) return resolve_qualified(*this, *qualified, e.range);
  if (auto statement = module().opaque_binding(e.text)) {
    error(DiagKind::not_constant, e.range,
          fmt::format("module global '{}' is {}bound by a statement pykern does not evaluate (line {})", e.text,
                      module().has_global(e.text) ? "also " : "", module().file().position(statement->begin).line),
          "kernels see module globals bound once at top level by `NAME = constant`; compute the value in that "
          "one assignment");
    return Value::error();
  }
  if (module().has_global(e.text)) return program_.global_constant(*this, e.text, e.range);
  if (is_python_builtin(e.text)) return resolve_qualified(*this, "builtins." + e.text, e.range);
  error(DiagKind::unknown_name, e.range, "name '" + e.text + "' is not defined",
        (refusal_place() == "kernels" ? "kernels" : "@jit functions") +
            std::string(" see their parameters, their locals, module-level constants, functions and imports"));
  return Value::error();
}

Value FunctionChecker::check_tuple(const ast::Expr& e) {
  ir::Expr tuple;
  tuple.kind = ir::ExprKind::make_tuple;
  tuple.range = e.range;
  std::vector<Type> types;
  for (ast::ExprId operand : e.operands) {
    Value element = as_runtime(check_expr(operand), module().ast()[operand].range);
    if (!element.ok()) return Value::error();
    tuple.args.push_back(element.expr);
    types.push_back(element.type);
  }
  tuple.type = Type::tuple(std::move(types));
  return value_of(add(std::move(tuple)));
}

Value FunctionChecker::truth(const Value& input, SourceRange range) {
  Value runtime = as_runtime(input, range);
  if (runtime.ok() && runtime.type.is(TypeKind::optional)) {  // Numba types no bool() of an Optional
    error(DiagKind::type_mismatch, range,
          "'" + to_string(runtime.type) + "' is a value that may be None, which has no truth value in " +
              (refusal_place() == "kernels" ? "a kernel" : "a @jit function") + " (Numba refuses bool() of it)",
          "test it against None first: `if r is not None:`, or `if r is not None and r != 0:` for its value's truth");
    return Value::error();
  }
  Value value = runtime;
  if (!value.ok()) return value;
  if (value.type.is(TypeKind::boolean)) return value;
  if (value.type.is(TypeKind::none)) return make_constant({false}, Type::boolean(), range);
  if (value.type.is(TypeKind::list)) return list_truth(*this, value, range);
  if (is_text(value)) return text_truth(*this, value, range);
  if (value.type.is_numeric()) {
    Value zero = make_constant({int64_t(0)}, Type::i64(), range);
    ir::Expr test;
    test.kind = ir::ExprKind::binary;
    test.op = ir::Op::ne;
    test.type = Type::boolean();
    test.args = {value.expr, cast_expr(zero.expr, value.type)};
    test.range = range;
    return value_of(add(std::move(test)));
  }
  error(DiagKind::type_mismatch, range,
        "a value of type '" + to_string(value.type) + "' has no truth value in " +
            (refusal_place() == "kernels" ? "a kernel" : "a @jit function"));
  return Value::error();
}

namespace {
ir::Op cxx_operator(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::add: return ir::Op::add;
    case ast::BinaryOp::sub: return ir::Op::sub;
    case ast::BinaryOp::mul: return ir::Op::mul;
    case ast::BinaryOp::lshift: return ir::Op::shift_left;
    case ast::BinaryOp::rshift: return ir::Op::shift_right;
    case ast::BinaryOp::bitand_: return ir::Op::bit_and;
    case ast::BinaryOp::bitor_: return ir::Op::bit_or;
    case ast::BinaryOp::bitxor: return ir::Op::bit_xor;
    default: return ir::Op::none;
  }
}

ir::Op cxx_operator(ast::CompareOp op) {
  switch (op) {
    case ast::CompareOp::eq: return ir::Op::eq;
    case ast::CompareOp::ne: return ir::Op::ne;
    case ast::CompareOp::lt: return ir::Op::lt;
    case ast::CompareOp::le: return ir::Op::le;
    case ast::CompareOp::gt: return ir::Op::gt;
    case ast::CompareOp::ge: return ir::Op::ge;
    default: return ir::Op::none;
  }
}
}  // namespace

Value FunctionChecker::binary(ast::BinaryOp op, Value left, Value right, SourceRange range) {
  left = unwrap_optional(left, range);
  right = unwrap_optional(right, range);
  if (!left.type.known() || !right.type.known()) return Value::error();
  if (is_text(left) || is_text(right)) return text_binary(*this, op, left, right, range);
  // a @ b: np.dot's rule (sema/builtins_linalg.cpp, as Numba's operator.matmul overload).
  if (op == ast::BinaryOp::matmul && (left.type.is(TypeKind::array) || right.type.is(TypeKind::array)))
    return call_builtin(*this, CallSite{"operator.matmul", {left, right}, {}, range});
  if (on_array_path(left, right)) return array_binary(op, left, right, range);
  if (left.type.is(TypeKind::list) || right.type.is(TypeKind::list)) return list_binary(*this, op, left, right, range);
  if (!left.type.is_numeric() || !right.type.is_numeric()) {
    bool arrays = left.type.is(TypeKind::array) || right.type.is(TypeKind::array);
    error(DiagKind::type_mismatch, range,
          fmt::format("unsupported operand types for {}: '{}' and '{}'", ast::to_string(op),
                      to_string(left.type), to_string(right.type)),
          arrays ? "whole-array arithmetic is not available in kernels; index the arrays, e.g. a[i]"
                 : "");
    return Value::error();
  }
  auto build = [&](ir::ExprKind kind, ir::Op operation, const Type& operand_type, const Type& result) {
    ir::Expr e;
    e.kind = kind;
    e.op = operation;
    e.type = result;
    e.range = range;
    e.args = {cast_expr(left.expr, operand_type), cast_expr(right.expr, operand_type)};
    return value_of(add(std::move(e)));
  };
  // A runtime operation on the two operands, both converted to `type`.
  auto call = [&](ir::Op runtime, const Type& type) {
    return make_call(runtime, {cast_expr(left.expr, type), cast_expr(right.expr, type)}, type, range);
  };
  switch (op) {
    case ast::BinaryOp::add:
    case ast::BinaryOp::sub:
    case ast::BinaryOp::mul: {
      Type type = arithmetic_result(left.type, right.type);
      return build(ir::ExprKind::binary, cxx_operator(op), type, type);
    }
    case ast::BinaryOp::div: {
      Type type = true_divide_result(left.type, right.type);
      // Python's error model checks the divisor (sema/ir.h FunctionOptions::checks_division).
      if (function_.options.checks_division) return call(ir::Op::checked_truediv, type);
      return build(ir::ExprKind::binary, ir::Op::truediv, type, type);
    }
    case ast::BinaryOp::floordiv:
    case ast::BinaryOp::mod: {
      Type type = arithmetic_result(left.type, right.type);
      if (type.is(TypeKind::complex)) {
        error(DiagKind::type_mismatch, range,
              std::string("complex numbers do not support ") + ast::to_string(op));
        return Value::error();
      }
      bool floor = op == ast::BinaryOp::floordiv;
      if (function_.options.checks_division)
        return call(floor ? ir::Op::checked_floordiv : ir::Op::checked_mod, type);
      return call(floor ? ir::Op::floordiv : ir::Op::mod, type);
    }
    case ast::BinaryOp::pow: {
      Type type = power_result(left.type, right.type);
      // Python's error model refuses a negative integer power of zero (ZeroDivisionError).
      bool checked = function_.options.checks_division && !type.is(TypeKind::complex) && right.type.is_integer_like();
      ir::Op power = checked ? ir::Op::checked_pow : ir::Op::pow;
      // A float base with an integer exponent keeps the exponent an integer: Numba computes
      // it by repeated multiplication, exactly.
      if (type.is(TypeKind::floating) && right.type.is_integer_like()) {
        return make_call(power, {cast_expr(left.expr, type), cast_expr(right.expr, Type::i64())}, type, range);
      }
      return call(power, type);
    }
    case ast::BinaryOp::lshift:
    case ast::BinaryOp::rshift:
    case ast::BinaryOp::bitand_:
    case ast::BinaryOp::bitor_:
    case ast::BinaryOp::bitxor: {
      if (!left.type.is_integer_like() || !right.type.is_integer_like()) {
        error(DiagKind::type_mismatch, range,
              fmt::format("'{}' needs integers, not '{}' and '{}'", ast::to_string(op),
                          to_string(left.type), to_string(right.type)));
        return Value::error();
      }
      // A shift takes the left operand's signedness (uint64 >> int64 is a logical uint64
      // shift); & | ^ take Numba's integer rule, or stay bool on two bools.
      if (op == ast::BinaryOp::lshift || op == ast::BinaryOp::rshift)
        return call(op == ast::BinaryOp::lshift ? ir::Op::lshift : ir::Op::rshift, shift_result(left.type));
      bool logical = left.type.is(TypeKind::boolean) && right.type.is(TypeKind::boolean);
      Type type = logical ? Type::boolean() : arithmetic_result(left.type, right.type);
      return build(ir::ExprKind::binary, cxx_operator(op), type, type);
    }
    case ast::BinaryOp::matmul:
      error(DiagKind::unsupported_operation, range, "the '@' operator is not supported in kernels");
      return Value::error();
  }
  return Value::error();
}

Value FunctionChecker::unary(ast::UnaryOp op, Value operand, SourceRange range) {
  operand = unwrap_optional(operand, range);
  if (on_array_path(operand, operand)) return array_unary(op, operand, range);
  if (!operand.type.is_numeric()) {
    error(DiagKind::type_mismatch, range,
          fmt::format("bad operand type for unary {}: '{}'", ast::to_string(op), to_string(operand.type)));
    return Value::error();
  }
  if (op == ast::UnaryOp::invert && !operand.type.is_integer_like()) {
    error(DiagKind::type_mismatch, range, "'~' needs an integer, not '" + to_string(operand.type) + "'");
    return Value::error();
  }
  // ~ on a bool is a bool, its bit flipped (Numba's BitwiseInvert types bool -> bool and
  // int_invert_impl xors the i1 with 1), so ~True is False where Python gives -2.
  if (op == ast::UnaryOp::invert && operand.type.is(TypeKind::boolean)) return unary_not(operand, range);
  Type type = unary_result(operand.type);
  // Numba negates and inverts an integer in its own width and then widens the result
  // (cpython/numbers.py int_negate_impl, int_invert_impl): -uint8(3) is uint64 253 and
  // -(-int8(-128)) is 128. C++ would promote a narrow operand to int first: the runtime's
  // functions compute in the operand's type. +x only widens, as C++'s cast does.
  bool narrow = operand.type.is(TypeKind::integer) && operand.type.bits < 64;
  if (narrow && op != ast::UnaryOp::pos) {
    Value in_width = make_call(op == ast::UnaryOp::neg ? ir::Op::negate_in_width : ir::Op::invert_in_width,
                               {operand.expr}, operand.type, range);
    return value_of(cast_expr(in_width.expr, type));
  }
  ir::Expr e;
  e.kind = ir::ExprKind::unary;
  e.op = op == ast::UnaryOp::neg ? ir::Op::negate : op == ast::UnaryOp::pos ? ir::Op::unary_plus : ir::Op::invert;
  e.type = type;
  e.range = range;
  e.args = {cast_expr(operand.expr, type)};
  return value_of(add(std::move(e)));
}

Value FunctionChecker::compare(ast::CompareOp op, Value left, Value right, SourceRange range) {
  if (op == ast::CompareOp::is || op == ast::CompareOp::is_not) {
    return identity(op == ast::CompareOp::is, left, right, range);
  }
  // x == None is x is None (Numba's none_equality overload), whatever x is.
  if ((op == ast::CompareOp::eq || op == ast::CompareOp::ne) &&
      (left.type.is(TypeKind::none) || right.type.is(TypeKind::none)))
    return identity(op == ast::CompareOp::eq, left, right, range);
  left = unwrap_optional(left, range);
  right = unwrap_optional(right, range);
  bool text_container = right.type.is(TypeKind::list) || right.type.is(TypeKind::dict);  // "w" in words / counts
  if ((is_text(left) || is_text(right)) && !text_container) return text_compare(*this, op, left, right, range);
  if (op == ast::CompareOp::in || op == ast::CompareOp::not_in)
    return membership(op == ast::CompareOp::in, left, right, range);
  if (on_array_path(left, right)) return array_compare(op, left, right, range);
  if (left.type.is(TypeKind::list) || right.type.is(TypeKind::list)) return list_compare(*this, op, left, right, range);
  if (!left.type.is_numeric() || !right.type.is_numeric()) {
    error(DiagKind::type_mismatch, range,
          fmt::format("cannot compare '{}' and '{}'", to_string(left.type), to_string(right.type)));
    return Value::error();
  }
  Type type = promote(left.type, right.type);
  if (type.is(TypeKind::complex) && op != ast::CompareOp::eq && op != ast::CompareOp::ne) {
    error(DiagKind::type_mismatch, range, "complex numbers cannot be ordered");
    return Value::error();
  }
  ir::Expr e;
  e.kind = ir::ExprKind::binary;
  e.op = cxx_operator(op);
  e.type = Type::boolean();
  e.range = range;
  e.args = {cast_expr(left.expr, type), cast_expr(right.expr, type)};
  return value_of(add(std::move(e)));
}

// x in (a, b, c): x == a or x == b or x == c, as Numba's tuple __contains__ compares item by
// item (an empty tuple holds nothing); x is evaluated once. `not in` is its negation.
Value FunctionChecker::membership(bool in, Value item, Value container, SourceRange range) {
  item = as_runtime(item, range);
  container = as_runtime(container, range);
  if (!item.ok() || !container.ok()) return Value::error();
  if (container.type.is(TypeKind::dict)) {  // key in d (sema/dictionaries.cpp)
    Value found = dict_membership(*this, item, container, range);
    return in || !found.ok() ? found : unary_not(found, range);
  }
  if (container.type.is(TypeKind::list)) return list_membership(*this, in, item, container, range);
  if (!container.type.is(TypeKind::tuple)) {
    error(DiagKind::unsupported_operation, range,
          "'in' tests the items of a tuple in " + refusal_place() + "; this container is " + to_string(container.type),
          "loop over the array and compare, or test against a tuple of values");
    return Value::error();
  }
  item = store_in_temporary(item, range);
  Value found = make_constant({false}, Type::boolean(), range);
  for (size_t k = 0; k < container.type.elements.size(); ++k) {
    Value equal = compare(ast::CompareOp::eq, item, element_of_tuple(container, k, range), range);
    if (!equal.ok()) return Value::error();
    if (k == 0) {
      found = equal;
      continue;
    }
    ir::Expr either;
    either.kind = ir::ExprKind::logical;
    either.op = ir::Op::logical_or;
    either.type = Type::boolean();
    either.range = range;
    either.args = {found.expr, equal.expr};
    found = value_of(add(std::move(either)));
  }
  return in ? found : unary_not(found, range);
}

// Lists and Python's random module live on the host: in a @jit function (called on the host, or
// by the one-thread kernel of a host call), never in a user's kernel.
bool FunctionChecker::is_user_kernel() const {
  return is_kernel_ && module_function_.origin != frontend::Origin::host_call;
}

bool FunctionChecker::allow_host_only(SourceRange range, const std::string& what, const std::string& hint) {
  if (is_user_kernel()) {
    bool makes_array = what.rfind("np.", 0) == 0 || what == "array.copy()";
    error(DiagKind::unsupported_operation, range, what + " is not supported in kernels",
          !hint.empty() ? hint
          : what == "a list" ? "use a tuple, or a cuda.local.array for storage; lists work in @jit functions called "
                             "on the host"
          : makes_array    ? "a kernel cannot allocate arrays, as in Numba-CUDA: pass the array in, or use "
                             "cuda.local.array or cuda.shared.array; " + what + " works in @jit functions called on the host"
                           : "kernels draw with numba.cuda.random (xoroshiro128p); random works in @jit functions "
                             "called on the host");
    return false;
  }
  function_.host_only = true;
  return true;
}

Value FunctionChecker::unary_not(const Value& condition, SourceRange range) {
  ir::Expr n;
  n.kind = ir::ExprKind::unary;
  n.op = ir::Op::logical_not;
  n.type = Type::boolean();
  n.args = {condition.expr};
  n.range = range;
  return value_of(add(std::move(n)));
}

// `x is y` as Numba lowers it: None is None; values of different types are never the same
// object; two booleans, or two numbers of one type (immutable: ints, floats, enum members,
// which are ints here) compare with ==; two arrays of one type are the same when they view
// the same memory the same way.
Value FunctionChecker::identity(bool is, const Value& left, const Value& right, SourceRange range) {
  auto known = [&](bool same) { return make_constant({is ? same : !same}, Type::boolean(), range); };
  bool left_none = left.type.is(TypeKind::none), right_none = right.type.is(TypeKind::none);
  if (left_none != right_none) {  // an Optional against None: known only at run time
    const Value& other = left_none ? right : left;
    if (other.type.is(TypeKind::optional)) {
      Value none = make_call(ir::Op::is_none, {other.expr}, Type::boolean(), range);
      return is ? none : unary_not(none, range);
    }
  }
  if (left_none || right_none) return known(left_none && right_none);
  bool both_bool = left.type.is(TypeKind::boolean) && right.type.is(TypeKind::boolean);
  if (!both_bool && left.type != right.type) return known(false);
  Value same;
  if (left.type.is_numeric() && !left.type.is(TypeKind::record)) {
    same = compare(ast::CompareOp::eq, left, right, range);
  } else if (left.type.is(TypeKind::array)) {
    same = make_call(ir::Op::same_array, {left.expr, right.expr}, Type::boolean(), range);
  } else {
    error(DiagKind::unsupported_operation, range,
          "'is' between two values of type '" + to_string(left.type) + "' has no meaning in " + refusal_place(),
          "compare with == where the values, not their identity, matter");
    return Value::error();
  }
  if (!same.ok() || is) return same;
  return unary_not(same, range);
}

// a < b < c is (a < b) and (b < c); b is evaluated twice, which only matters for calls with
// side effects, which comparison chains in kernels do not have in practice.
Value FunctionChecker::check_compare(const ast::Expr& e) {
  std::vector<Value> operands;
  for (ast::ExprId operand : e.operands) {
    Value value = as_runtime(check_expr(operand), module().ast()[operand].range);
    if (!value.ok()) return Value::error();
    operands.push_back(value);
  }
  Value result;
  for (size_t i = 0; i < e.compare_ops.size(); ++i) {
    Value link = compare(e.compare_ops[i], operands[i], operands[i + 1], e.range);
    if (!link.ok()) return link;
    if (i == 0) {
      result = link;
      continue;
    }
    ir::Expr both;
    both.kind = ir::ExprKind::logical;
    both.op = ir::Op::logical_and;
    both.type = Type::boolean();
    both.range = e.range;
    both.args = {result.expr, link.expr};
    result = value_of(add(std::move(both)));
  }
  return result;
}

Value FunctionChecker::check_bool_op(const ast::Expr& e) {
  Value left = as_runtime(check_expr(e.operands[0]), e.range);
  Value right = as_runtime(check_expr(e.operands[1]), e.range);
  if (!left.ok() || !right.ok()) return Value::error();
  bool is_and = e.bool_op == ast::BoolOp::and_;
  if (left.type.is(TypeKind::boolean) && right.type.is(TypeKind::boolean)) {
    ir::Expr both;
    both.kind = ir::ExprKind::logical;
    both.op = is_and ? ir::Op::logical_and : ir::Op::logical_or;
    both.type = Type::boolean();
    both.range = e.range;
    both.args = {left.expr, right.expr};
    return value_of(add(std::move(both)));
  }
  // Python's `a and b` yields one of its operands: unify their types, pick by a's truth.
  auto type = unify(left.type, right.type);
  if (!type || !type->is_numeric()) {
    error(DiagKind::type_mismatch, e.range,
          fmt::format("cannot combine '{}' and '{}' with '{}'", to_string(left.type),
                      to_string(right.type), is_and ? "and" : "or"));
    return Value::error();
  }
  return make_call(is_and ? ir::Op::py_and : ir::Op::py_or,
                   {cast_expr(left.expr, *type), cast_expr(right.expr, *type)}, *type, e.range);
}

Value FunctionChecker::check_if_else(const ast::Expr& e) {
  Value condition = truth(check_expr(e.operands[0]), e.range);
  Value then = as_runtime(check_expr(e.operands[1]), e.range);
  Value otherwise = as_runtime(check_expr(e.operands[2]), e.range);
  if (!condition.ok() || !then.ok() || !otherwise.ok()) return Value::error();
  auto type = unify(then.type, otherwise.type);
  if (!type) {
    error(DiagKind::type_mismatch, e.range,
          fmt::format("the branches give '{}' and '{}', which do not unify", to_string(then.type),
                      to_string(otherwise.type)));
    return Value::error();
  }
  ir::Expr select;
  select.kind = ir::ExprKind::select;
  select.type = *type;
  select.range = e.range;
  select.args = {condition.expr, cast_expr(then.expr, *type), cast_expr(otherwise.expr, *type)};
  return value_of(add(std::move(select)));
}

Value FunctionChecker::attribute_of(const Value& base, const std::string& attr, SourceRange range) {
  if (auto known = module_value_attribute(*this, base, attr, range)) return *known;  // np.finfo(...).eps, a.dtype.type
  if (base.kind == Value::Kind::qualified) {
    // cuda.gird, np.cumsum
    if (auto unknown = unknown_module_attribute(file(), base.name, attr, range, is_jit_function(module_function_))) {
      diagnostics().add(std::move(*unknown));
      return Value::error();
    }
    return resolve_qualified(*this, base.name + "." + attr, range);
  }
  if (base.kind != Value::Kind::expr) {
    error(DiagKind::unknown_attribute, range, "'" + attr + "' is not an attribute pykern knows here");
    return Value::error();
  }
  const Type& type = base.type;
  auto member = [&](std::string name, Type result) {
    ir::Expr e;
    e.kind = ir::ExprKind::member;
    e.name = std::move(name);
    e.type = std::move(result);
    e.range = range;
    e.args = {base.expr};
    return value_of(add(std::move(e)));
  };
  if (type.is(TypeKind::vector)) {
    static const char* const names[] = {"x", "y", "z", "w"};
    for (int i = 0; i < type.ndim; ++i)
      if (attr == names[i]) return member(attr, type.elements[0]);
    error(DiagKind::unknown_attribute, range,
          fmt::format("a {} has lanes {}, not '{}'", to_string(type), std::string("xyzw").substr(0, type.ndim), attr));
    return Value::error();
  }
  if (type.is(TypeKind::array)) {
    if (attr == "shape" || attr == "strides") {
      ir::Expr tuple;
      tuple.kind = ir::ExprKind::make_tuple;
      tuple.type = Type::uni_tuple(Type::i64(), type.ndim);
      tuple.range = range;
      for (int axis = 0; axis < type.ndim; ++axis)
        tuple.args.push_back(member(fmt::format("{}[{}]", attr, axis), Type::i64()).expr);
      return value_of(add(std::move(tuple)));
    }
    if (attr == "size") return make_call(ir::Op::size, {base.expr}, Type::i64(), range);
    if (attr == "dtype") {  // a type value: a.view(b.dtype), cuda.local.array(n, a.dtype)
      Value dtype;
      dtype.kind = Value::Kind::type;
      dtype.type = type.dtype();
      dtype.name = "dtype";
      return dtype;
    }
    if (attr == "ndim") return make_constant({int64_t(type.ndim)}, Type::i64(), range);
    if (attr == "itemsize") return make_constant({int64_t(type.dtype().itemsize())}, Type::i64(), range);
    if (attr == "T") {
      Layout layout = type.layout == Layout::C ? Layout::F : type.layout == Layout::F ? Layout::C : Layout::A;
      return make_call(ir::Op::transpose, {base.expr}, Type::array(type.dtype(), type.ndim, layout), range);
    }
  }
  if (type.is(TypeKind::array) && (attr == "real" || attr == "imag")) {
    // A complex array's parts are strided views of its memory; a real array is its own .real.
    if (type.dtype().is(TypeKind::complex)) {
      Type part = Type::array(Type::float_(type.dtype().bits / 2), type.ndim, Layout::A);
      part.readonly = type.readonly;
      return make_call(attr == "real" ? ir::Op::real_part : ir::Op::imag_part, {base.expr}, part, range);
    }
    if (attr == "real") return base;
    error(DiagKind::unknown_attribute, range, "'.imag' of a real array would be a new array of zeros",
          "kernels cannot allocate arrays; use 0 where the imaginary part is needed");
    return Value::error();
  }
  if (type.is(TypeKind::complex) && (attr == "real" || attr == "imag"))
    return make_call(attr == "real" ? ir::Op::real : ir::Op::imag, {base.expr}, Type::float_(type.bits / 2), range);
  if (type.is_numeric() && !type.is(TypeKind::complex) && (attr == "real" || attr == "imag"))
    return attr == "real" ? base : cast(make_constant({int64_t(0)}, Type::i64(), range), type, range);
  if (type.is(TypeKind::record)) {
    for (size_t i = 0; i < type.field_names.size(); ++i) {
      if (type.field_names[i] != attr) continue;
      const std::vector<int64_t>& shape = type.field_shapes[i];
      if (shape.empty()) return member(attr, type.elements[i]);
      // A subarray field is a C-ordered array view of the record's bytes (Numba's nestedarray).
      Type view = Type::array(type.elements[i], static_cast<int>(shape.size()), Layout::C);
      std::vector<ir::ExprId> args = {member(attr, view).expr};
      for (int64_t extent : shape) args.push_back(make_constant({extent}, Type::i64(), range).expr);
      return make_call(ir::Op::subarray, std::move(args), view, range, static_cast<int>(shape.size()));
    }
  }
  error(DiagKind::unknown_attribute, range,
        "a value of type '" + to_string(type) + "' has no attribute '" + attr + "'");
  return Value::error();
}

Value FunctionChecker::subscript(const Value& base, const std::vector<ast::ExprId>& indices, SourceRange range,
                                 PendingStore* store) {
  if (auto member = indices.size() == 1 ? enum_subscript(*this, base, indices[0], range) : std::nullopt) return *member;
  if (base.kind == Value::Kind::expr && base.type.is(TypeKind::dict)) return dict_subscript(*this, base, indices, range);
  std::vector<IndexItem> items;
  for (ast::ExprId index : indices) {
    const ast::Expr& e = module().ast()[index];
    IndexItem item;
    item.range = e.range;
    if (e.kind == ExprKind::ellipsis) {  // a[..., i]: sema/fancy_index.cpp expands it
      item.is_ellipsis = true;
      items.push_back(item);
      continue;
    }
    if (e.kind == ExprKind::slice) {
      item.is_slice = true;
      ir::ExprId* parts[] = {&item.start, &item.stop, &item.step};
      for (int i = 0; i < 3; ++i) {
        if (!e.operands[i].valid()) continue;
        Value part = as_runtime(check_expr(e.operands[i]), module().ast()[e.operands[i]].range);
        if (!part.ok()) return Value::error();
        if (!part.type.is_integer_like() && !part.type.is(TypeKind::none)) {
          error(DiagKind::bad_index, module().ast()[e.operands[i]].range,
                "slice bounds must be integers, not '" + to_string(part.type) + "'");
          return Value::error();
        }
        if (!part.type.is(TypeKind::none)) *parts[i] = cast_expr(part.expr, Type::i64());
      }
      items.push_back(item);
      continue;
    }
    if (e.kind == ExprKind::string && base.type.is(TypeKind::record)) {
      return attribute_of(base, e.text, range);
    }
    item.value = as_runtime(check_expr(index), e.range);
    if (!item.value.ok()) return Value::error();
    items.push_back(item);
  }
  return index_into(base, std::move(items), range, store);
}

Value FunctionChecker::element_of_tuple(const Value& tuple, size_t i, SourceRange range) {
  const ir::Expr& e = expr(tuple.expr);
  if (e.kind == ir::ExprKind::make_tuple) return value_of(e.args[i]);
  return make_call(ir::Op::get, {tuple.expr}, tuple.type.elements[i], range, static_cast<int>(i));
}

Value FunctionChecker::subscript_value(const Value& base, std::vector<Value> indices, SourceRange range) {
  std::vector<IndexItem> items;
  for (Value& index : indices) {
    IndexItem item;
    item.value = index;
    item.range = range;
    items.push_back(item);
  }
  return index_into(base, std::move(items), range);
}

Value FunctionChecker::index_into(const Value& input, std::vector<IndexItem> given, SourceRange range,
                                  PendingStore* store) {
  Value base = as_runtime(input, range);
  if (!base.ok()) return base;
  const Type& type = base.type;
  // a[idx] with a tuple idx indexes several axes (a[i, j], cuda.atomic.add(a, (i, j), v)).
  std::vector<IndexItem> items;
  for (IndexItem& item : given) {
    if (item.is_slice || !item.value.ok() || !item.value.type.is(TypeKind::tuple) || !type.is(TypeKind::array)) {
      items.push_back(std::move(item));
      continue;
    }
    for (size_t i = 0; i < item.value.type.elements.size(); ++i) {
      IndexItem part;
      part.value = element_of_tuple(item.value, i, range);
      part.range = item.range;
      items.push_back(part);
    }
  }
  if (type.is(TypeKind::string)) return text_index(*this, base, items, range, store != nullptr);
  if (!expand_ellipsis(*this, type, items, range, store)) return Value::error();
  if (type.is(TypeKind::list)) {
    if (items.size() != 1 || items[0].is_ellipsis) {
      error(DiagKind::bad_index, range, "a list takes one index or slice");
      return Value::error();
    }
    return list_subscript(*this, base, items[0], range, store);
  }
  if (type.is(TypeKind::tuple)) {
    if (items.size() != 1 || items[0].is_slice) {
      error(DiagKind::bad_index, range, "a tuple takes one integer index");
      return Value::error();
    }
    auto position = fold(items[0].value.expr);
    int64_t count = static_cast<int64_t>(type.elements.size());
    if (!items[0].value.type.is_integer_like()) {
      error(DiagKind::bad_index, range, "tuple indices must be integers, not '" + to_string(items[0].value.type) + "'");
      return Value::error();
    }
    bool uniform = std::all_of(type.elements.begin(), type.elements.end(),
                               [&](const Type& e) { return e == type.elements[0]; });
    if (!position && uniform && count > 0)  // a homogeneous tuple may be indexed at run time
      return make_call(ir::Op::tuple_at, {base.expr, cast_expr(items[0].value.expr, Type::i64())}, type.elements[0], range);
    if (!position) {
      error(DiagKind::not_constant, range, "an index into a tuple of mixed types must be a constant integer");
      return Value::error();
    }
    int64_t i = position->as_int() < 0 ? position->as_int() + count : position->as_int();
    if (i < 0 || i >= count) {
      error(DiagKind::bad_index, range,
            fmt::format("tuple index {} is out of range for a tuple of {}", position->as_int(), count));
      return Value::error();
    }
    return element_of_tuple(base, static_cast<size_t>(i), range);
  }
  if (!type.is(TypeKind::array)) {
    error(DiagKind::bad_index, range, "a value of type '" + to_string(type) + "' cannot be indexed");
    return Value::error();
  }
  if (static_cast<int>(items.size()) > type.ndim) {
    bool new_axis = std::any_of(items.begin(), items.end(), [](const IndexItem& i) {
      return !i.is_slice && i.value.type.is(TypeKind::none);
    });
    error(DiagKind::bad_index, range,
          fmt::format("too many indices: the array has {} dimension{} but {} were given", type.ndim,
                      type.ndim == 1 ? "" : "s", items.size()),
          new_axis ? "a new axis in an index (None, np.newaxis) is not supported yet: use np.expand_dims(a, axis)" : "");
    return Value::error();
  }
  // An array among the indices (a mask, positions): sema/fancy_index.cpp.
  if (auto picked = advanced_index(*this, base, items, range, store)) return *picked;
  for (IndexItem& item : items) {
    if (item.is_slice) continue;
    if (item.value.type.is(TypeKind::optional)) {
      // Numba's getitem/setitem typing takes no Optional index ("Unsupported array index type").
      error(DiagKind::bad_index, expr(item.value.expr).range,
            "an array index cannot be '" + to_string(item.value.type) +
                "', a value that may be None (Numba refuses it as an index too)",
            "convert it once it is known not to be None: a[int(j)], or return -1 instead of None");
      return Value::error();
    }
    if (!item.value.type.is_integer_like()) {
      error(DiagKind::bad_index, expr(item.value.expr).range,
            "array indices must be integers, not '" + to_string(item.value.type) + "'",
            item.value.type.is(TypeKind::floating) ? "convert with int(...)"
            : item.value.type.is(TypeKind::none)
                ? "a new axis in an index (None, np.newaxis) is not supported yet: use np.expand_dims(a, axis)"
                : "");
      return Value::error();
    }
    item.value = value_of(cast_expr(item.value.expr, Type::i64()));
  }
  bool all_integers = static_cast<int>(items.size()) == type.ndim &&
                      std::none_of(items.begin(), items.end(), [](const IndexItem& i) { return i.is_slice; });
  if (all_integers) {
    ir::Expr element;
    element.kind = ir::ExprKind::element;
    element.type = type.dtype();
    element.range = range;
    element.args.push_back(base.expr);
    for (const IndexItem& item : items) element.args.push_back(item.value.expr);
    return value_of(add(std::move(element)));
  }
  // A view: the items apply left to right (their indices evaluate in Python's order), each to
  // the axis it names in the view made so far: a fixed axis is dropped, a sliced one kept.
  // Fixing the leading axis of a C array keeps it C-contiguous (a[y, x] of a C image is a C
  // pixel, as in Numba); any other fixed axis, or a slice, makes the view any-layout, as the
  // runtime's index_axis and slice_axis type it.
  Value view = base;
  int ndim = type.ndim;
  Layout layout = type.layout;
  int axis = 0;  // the item's axis in the view so far
  for (const IndexItem& item : items) {
    if (item.is_slice) {
      auto none = [&] { return make_constant({INT64_MIN}, Type::i64(), range).expr; };
      layout = Layout::A;
      view = make_call(ir::Op::slice_axis,
                       {view.expr, item.start.valid() ? item.start : none(),
                        item.stop.valid() ? item.stop : none(), item.step.valid() ? item.step : none()},
                       Type::array(type.dtype(), ndim, layout), range, axis);
      ++axis;
    } else {
      --ndim;
      if (!(layout == Layout::C && axis == 0)) layout = Layout::A;
      ir::ExprId axis_number = make_constant({int64_t(axis)}, Type::i64(), range).expr;
      view = make_call(ir::Op::index_axis, {axis_number, view.expr, item.value.expr},
                       Type::array(type.dtype(), ndim, layout), range);
    }
  }
  if (type.readonly) {  // a view of a frozen module array is frozen too
    view.type.readonly = true;
    function_.exprs[view.expr].type.readonly = true;
  }
  return view;
}

// What refusals call the function being typed: "kernels", or "@jit functions" (frontend/module.h).
std::string FunctionChecker::refusal_place() const { return frontend::refusal_place(module_function_); }

}  // namespace pykern::sema
