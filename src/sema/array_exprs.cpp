// Whole-array expressions in @jit functions on the host: a + b * c, np.sqrt(a), a > 0,
// np.where(m, a, 0.0), a += b, a[1:-1] = b[2:] - b[:-2]. Each element-wise operation is an
// array_map (sema/ir.h) whose body is the scalar rule applied to its operands' elements; an
// operand that is itself an element-wise result enters as its map, not as an array, so a whole
// expression is one tree that runtime/pykern/array_expr.cuh computes in one loop with no
// temporaries (Numba's array-expression rewrite). Every map is wrapped in Op::materialize,
// which makes the array wherever the value is used as one (assigned, returned, passed,
// reduced, indexed); a map that becomes an operand of another drops its wrapper.
#include <fmt/format.h>

#include "sema/checker.h"
#include "sema/zero_d.h"

namespace pykern::sema {

namespace {

// An operand of a new map: a materialised map is taken as its map (fused), anything else as is.
ir::ExprId lazy_operand(const FunctionChecker& c, ir::ExprId id) {
  const ir::Expr& e = c.expr(id);
  if (e.kind == ir::ExprKind::call && e.op == ir::Op::materialize) return e.args[0];
  return id;
}

// The element type of an operand: an array's dtype, or the number's type.
const Type& element_type(const Type& operand) { return operand.is(TypeKind::array) ? operand.dtype() : operand; }

// Python's error model does not reach into ufunc loops: NumPy divides integers by zero to 0
// and floats to inf or nan without raising (Numba's ufuncs do the same), so element rules are
// typed without the division checks.
class UncheckedDivision {
 public:
  explicit UncheckedDivision(bool& flag) : flag_(flag), saved_(flag) { flag_ = false; }
  ~UncheckedDivision() { flag_ = saved_; }
  UncheckedDivision(const UncheckedDivision&) = delete;
  UncheckedDivision& operator=(const UncheckedDivision&) = delete;

 private:
  bool& flag_;
  bool saved_;
};

// The operator's ufunc (Numba types a + b on arrays as np.add).
const char* ufunc_of(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::add: return "add";
    case ast::BinaryOp::sub: return "subtract";
    case ast::BinaryOp::mul: return "multiply";
    case ast::BinaryOp::div: return "true_divide";
    case ast::BinaryOp::floordiv: return "floor_divide";
    case ast::BinaryOp::mod: return "remainder";
    case ast::BinaryOp::pow: return "power";
    case ast::BinaryOp::lshift: return "left_shift";
    case ast::BinaryOp::rshift: return "right_shift";
    case ast::BinaryOp::bitand_: return "bitwise_and";
    case ast::BinaryOp::bitor_: return "bitwise_or";
    case ast::BinaryOp::bitxor: return "bitwise_xor";
    default: return nullptr;
  }
}

constexpr const char* array_hint =
    "numba-cuda has no whole-array operations in kernels: index the arrays, e.g. a[i], or call a @jit function on "
    "the host";

// array_map's op_arg: a map whose element is Numba's scalar expression, not yet converted to
// the array's type (fused into the expression that takes it), or the conversion of one.
constexpr int fusible_map = 1;
constexpr int conversion_map = 2;

// An operand of a new ufunc map: a materialised ufunc expression enters unconverted (fused).
ir::ExprId fused_operand(const FunctionChecker& c, ir::ExprId id) {
  ir::ExprId lazy = lazy_operand(c, id);
  const ir::Expr& e = c.expr(lazy);
  if (e.kind == ir::ExprKind::array_map && e.op_arg == conversion_map && c.expr(e.args[0]).op_arg == fusible_map)
    return e.args[0];
  return lazy;
}

// Inside a map's body: the element of operand k.
Value element_of(FunctionChecker& c, int k, const Type& type, SourceRange range) {
  ir::Expr param;
  param.kind = ir::ExprKind::map_element;
  param.op_arg = k;
  param.type = type;
  param.range = range;
  return c.value_of(c.add(std::move(param)));
}

// The map `id` with its elements converted to `dtype`.
ir::ExprId converted(FunctionChecker& c, ir::ExprId id, const Type& dtype, SourceRange range) {
  ir::Expr map;
  map.kind = ir::ExprKind::array_map;
  map.op_arg = conversion_map;
  map.range = range;
  map.args = {id};
  map.body = c.cast_expr(element_of(c, 0, c.expr(id).type.dtype(), range).expr, dtype);
  map.type = Type::array(dtype, c.expr(id).type.ndim, Layout::C);
  return c.add(std::move(map));
}

// Whether every operand is a number or an array of numbers (no records, float16, 0-d arrays).
bool takes_elements(FunctionChecker& c, const std::vector<Value>& operands, const std::string& what,
                    SourceRange range) {
  for (const Value& v : operands) {
    const Type& t = element_type(v.type);
    bool half = t.is(TypeKind::floating) && t.bits == 16;
    if (!t.is_numeric() || t.is(TypeKind::record) || half || (v.type.is(TypeKind::array) && v.type.ndim == 0)) {
      c.error(DiagKind::type_mismatch, range, fmt::format("{} does not take a '{}'", what, to_string(v.type)),
              "whole-array operations take numbers and arrays of booleans, integers, float32, float64 and complex "
              "numbers");
      return false;
    }
  }
  return true;
}

std::string shown_types(const std::vector<Value>& operands) {
  std::string text;
  for (const Value& v : operands) text += (text.empty() ? "" : ", ") + to_string(v.type);
  return text;
}

}  // namespace

bool FunctionChecker::on_array_path(const Value& left, const Value& right) const {
  bool arrays = (left.kind == Value::Kind::expr && left.type.is(TypeKind::array)) ||
                (right.kind == Value::Kind::expr && right.type.is(TypeKind::array));
  return arrays && !is_user_kernel();
}

Value FunctionChecker::array_binary(ast::BinaryOp op, const Value& left, const Value& right, SourceRange range) {
  const char* name = ufunc_of(op);
  if (!name) {
    error(DiagKind::unsupported_operation, range,
          fmt::format("the '{}' operator on arrays is not supported yet", ast::to_string(op)),
          "multiply matrices with loops for now");
    return Value::error();
  }
  return apply_ufunc(*ufunc_named(name), {left, right}, range, true);
}

Value FunctionChecker::array_unary(ast::UnaryOp op, const Value& operand, SourceRange range) {
  const char* name = op == ast::UnaryOp::neg ? "negative" : op == ast::UnaryOp::pos ? "positive" : "invert";
  return apply_ufunc(*ufunc_named(name), {operand}, range, true);
}

Value FunctionChecker::array_compare(ast::CompareOp op, const Value& left, const Value& right, SourceRange range) {
  const char* name = nullptr;
  switch (op) {
    case ast::CompareOp::lt: name = "less"; break;
    case ast::CompareOp::le: name = "less_equal"; break;
    case ast::CompareOp::gt: name = "greater"; break;
    case ast::CompareOp::ge: name = "greater_equal"; break;
    case ast::CompareOp::eq: name = "equal"; break;
    case ast::CompareOp::ne: name = "not_equal"; break;
    default: break;
  }
  if (!name) {
    error(DiagKind::unsupported_operation, range,
          fmt::format("'{}' with an array is not supported", ast::to_string(op)));
    return Value::error();
  }
  return apply_ufunc(*ufunc_named(name), {left, right}, range, true);
}

Value FunctionChecker::apply_ufunc(const Ufunc& u, std::vector<Value> operands, SourceRange range, bool as_operator) {
  std::vector<Type> base;
  int ndim = 0;
  for (Value& v : operands) {
    v = unwrap_optional(as_runtime(v, range), range);
    if (!v.ok() || !v.type.known()) return Value::error();
    base.push_back(element_type(v.type));
    if (v.type.is(TypeKind::array)) ndim = std::max(ndim, v.type.ndim);
  }
  std::optional<UfuncLoop> loop = find_ufunc_loop(u.loops, base);
  // A 0-d array chose the loop as an array does; it computes as its element (sema/zero_d.h).
  for (Value& v : operands) v = zero_d_as_operand(*this, v, range);
  if (!loop || (ndim > 0 && !takes_elements(*this, operands, fmt::format("np.{}()", u.name), range))) {
    if (!loop)
      error(DiagKind::type_mismatch, range,
            fmt::format("np.{}() is not supported for operands of type ({})", u.name, shown_types(operands)),
            "NumPy's ufuncs take numbers and arrays of booleans, integers, float32, float64 and complex numbers, "
            "where a loop of the ufunc takes them");
    return Value::error();
  }
  if (ndim == 0)  // numbers only: the ufunc's loop on them, as Numba types np.add(x, y)
    return elementwise(fmt::format("np.{}()", u.name), std::move(operands), loop->inputs, loop->output, u.element,
                       range);
  if (!allow_host_only(range, fmt::format("np.{}() on arrays", u.name), array_hint)) return Value::error();
  UncheckedDivision unchecked(function_.options.checks_division);
  // Numba's array-expression rewrite computes a whole expression as one scalar function of the
  // arrays' elements: the operators by the scalar rules, ufuncs by their loops on those
  // scalars, and converts only the result to the array's type (so (a + b) / 9.0 on uint8
  // arrays does not wrap at 255). An operand that is such an expression enters unconverted.
  ir::Expr map;
  map.kind = ir::ExprKind::array_map;
  map.op_arg = fusible_map;
  map.range = range;
  std::vector<Value> elements;
  std::vector<Type> element_types;
  for (size_t k = 0; k < operands.size(); ++k) {
    ir::ExprId operand = fused_operand(*this, operands[k].expr);
    map.args.push_back(operand);
    element_types.push_back(element_type(expr(operand).type));
    elements.push_back(element_of(*this, static_cast<int>(k), element_types.back(), range));
  }
  Value raw;
  if (as_operator) {
    raw = u.element(*this, elements, range);
  } else {
    std::optional<UfuncLoop> scalar_loop = find_ufunc_loop(u.loops, element_types);
    const UfuncLoop& chosen = scalar_loop ? *scalar_loop : *loop;
    for (size_t k = 0; k < elements.size(); ++k) elements[k] = cast(elements[k], chosen.inputs[k], range);
    raw = u.element(*this, elements, range);
    if (raw.ok()) raw = cast(raw, chosen.output, range);
  }
  if (!raw.ok() || !raw.type.is_numeric()) return Value::error();
  map.body = raw.expr;
  map.type = Type::array(raw.type, ndim, Layout::C);
  ir::ExprId made = add(std::move(map));
  if (raw.type != loop->output) made = converted(*this, made, loop->output, range);
  Type type = expr(made).type;
  return make_call(ir::Op::materialize, {made}, type, range);
}

Value FunctionChecker::elementwise(const std::string& what, std::vector<Value> operands,
                                   const std::vector<Type>& element_types, const Type& result,
                                   const ElementRule& element, SourceRange range) {
  int ndim = 0;
  for (Value& v : operands) {
    v = zero_d_as_operand(*this, unwrap_optional(as_runtime(v, range), range), range);
    if (!v.ok() || !v.type.known()) return Value::error();
    if (v.type.is(TypeKind::array)) ndim = std::max(ndim, v.type.ndim);
  }
  if (!takes_elements(*this, operands, what, range)) return Value::error();
  UncheckedDivision unchecked(function_.options.checks_division);
  if (ndim == 0) {  // numbers only: the element is the value
    std::vector<Value> elements;
    for (size_t k = 0; k < operands.size(); ++k) elements.push_back(cast(operands[k], element_types[k], range));
    Value value = element(*this, elements, range);
    return value.ok() ? cast(value, result, range) : Value::error();
  }
  if (!allow_host_only(range, what + " on arrays", array_hint)) return Value::error();
  // The operands as arrays hold them: an expression's elements converted to its array's type.
  ir::Expr map;
  map.kind = ir::ExprKind::array_map;
  map.range = range;
  std::vector<Value> elements;
  for (size_t k = 0; k < operands.size(); ++k) {
    map.args.push_back(lazy_operand(*this, operands[k].expr));
    Value param = element_of(*this, static_cast<int>(k), element_type(operands[k].type), range);
    elements.push_back(cast(param, element_types[k], range));
  }
  Value body = element(*this, elements, range);
  if (!body.ok()) return Value::error();
  map.body = cast_expr(body.expr, result);
  map.type = Type::array(result, ndim, Layout::C);
  Type type = map.type;
  return make_call(ir::Op::materialize, {add(std::move(map))}, type, range);
}

void FunctionChecker::assign_in_place(ast::BinaryOp op, const Value& target, const Value& operand, SourceRange range) {
  const char* name = ufunc_of(op);
  const Ufunc* u = name ? ufunc_named(name) : nullptr;
  Value source = unwrap_optional(as_runtime(operand, range), range);
  if (!source.ok() || !target.type.known() || !source.type.known()) return;
  if (!u) {
    error(DiagKind::unsupported_operation, range,
          fmt::format("'{}=' is not supported on arrays", ast::to_string(op)),
          "compute the product with np.dot and assign it");
    return;
  }
  if (target.type.readonly) {
    error(DiagKind::bad_assignment, range, "cannot update a module-level array: it is frozen, read-only (as in Numba)");
    return;
  }
  const Type& dtype = target.type.dtype();
  std::vector<Type> base = {dtype, element_type(source.type)};
  std::optional<UfuncLoop> loop = find_ufunc_loop(u->loops, base, dtype);
  if (!loop) {
    std::optional<UfuncLoop> computed = find_ufunc_loop(u->loops, base);
    error(DiagKind::type_mismatch, range,
          computed ? fmt::format("cannot compute '{}=' in place: the result, '{}', does not convert to the array's "
                                 "type '{}' (Numba refuses it, as NumPy's same-kind rule does)",
                                 ast::to_string(op), to_string(computed->output), to_string(dtype))
                   : fmt::format("np.{}() is not supported for operands of type ({}, {})", u->name,
                                 to_string(target.type), to_string(source.type)),
          computed ? "assign a new array instead: a = a " + std::string(ast::to_string(op)) + " b" : "");
    return;
  }
  if (source.type.is(TypeKind::array) && source.type.ndim > target.type.ndim) {
    error(DiagKind::type_mismatch, range,
          fmt::format("cannot compute '{}=' in place: the operand has {} dimensions, the array {}", ast::to_string(op),
                      source.type.ndim, target.type.ndim),
          "an in-place operation cannot grow the array; assign a new one instead");
    return;
  }
  Type computed = loop->output;
  ElementRule rule = [u, computed](FunctionChecker& c, const std::vector<Value>& x, SourceRange at) {
    Value v = u->element(c, x, at);
    return v.ok() ? c.cast(v, computed, at) : v;
  };
  Value map = elementwise(fmt::format("'{}='", ast::to_string(op)), {target, source}, loop->inputs, dtype, rule, range);
  if (!map.ok()) return;
  if (is_zero_d(target)) return store_zero_d(*this, target, map, range);  // z += 1: its element updated
  ir::Stmt out;
  out.kind = ir::StmtKind::expr;
  out.range = range;
  out.value = make_call(ir::Op::assign_expr, {target.expr, lazy_operand(*this, map.expr)}, Type::void_(), range).expr;
  emit_stmt(std::move(out));
}

bool FunctionChecker::assign_expression_to_view(const Value& view, const Value& source, SourceRange range) {
  ir::ExprId map = lazy_operand(*this, source.expr);
  if (map == source.expr || source.type.ndim > view.type.ndim) return false;
  const Type& dtype = view.type.dtype();
  if (source.type.dtype() != dtype) {  // converted to the view's type, as NumPy's setitem casts
    Value converted = elementwise(
        "an assignment", {value_of(map)}, {source.type.dtype()}, dtype,
        [](FunctionChecker&, const std::vector<Value>& x, SourceRange) { return x[0]; }, range);
    if (!converted.ok()) return true;
    map = lazy_operand(*this, converted.expr);
  }
  ir::Stmt out;
  out.kind = ir::StmtKind::expr;
  out.range = range;
  out.value = make_call(ir::Op::assign_expr, {view.expr, map}, Type::void_(), range).expr;
  emit_stmt(std::move(out));
  return true;
}

}  // namespace pykern::sema
