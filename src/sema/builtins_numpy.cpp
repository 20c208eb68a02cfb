// NumPy's scalar functions (np.sin, np.arctan2, np.minimum, ...) and the array methods
// kernels use (a.reshape, a.view).
#include <fmt/format.h>

#include "sema/builtin_rules.h"
#include "sema/module_values.h"

namespace pykern::sema {

using ir::Op;

namespace {

// The array a method is called on (args[0]), or an error naming the method.
bool want_array_method(FunctionChecker& c, const CallSite& call, const char* method) {
  if (call.args[0].type.is(TypeKind::array)) return true;
  c.error(DiagKind::unknown_attribute, call.range,
          fmt::format("a value of type '{}' has no attribute '{}'", to_string(call.args[0].type), method));
  return false;
}

// a.reshape(3, 2) or a.reshape((3, 2)) or a.reshape(n): a view of a contiguous array in its own
// order (Numba's rule), one extent may be -1; a size that does not match is a ValueError.
Value reshape(FunctionChecker& c, const CallSite& call) {
  if (!want_array_method(c, call, "reshape")) return Value::error();
  const Type& array = call.args[0].type;
  if (array.layout == Layout::A) {
    c.error(DiagKind::type_mismatch, call.range, "reshape() supports contiguous array only",
            "the array's layout is not known to be C or F; pass it C-contiguous (float32[:, ::1])");
    return Value::error();
  }
  std::vector<Value> extents;
  for (size_t i = 1; i < call.args.size(); ++i) {
    Value arg = c.as_runtime(call.args[i], call.range);
    if (!arg.ok()) return Value::error();
    if (arg.type.is(TypeKind::tuple) && call.args.size() == 2) {
      for (size_t k = 0; k < arg.type.elements.size(); ++k) extents.push_back(c.element_of_tuple(arg, k, call.range));
    } else {
      extents.push_back(arg);
    }
  }
  // a.reshape(()): the 0-d view of a 1-element array (Numba's; a ValueError for another size), in
  // @jit functions on the host; kernels and their device functions have no 0-d arrays yet.
  bool to_zero_d = extents.empty() && call.args.size() == 2 && call.keywords.empty();
  if (to_zero_d && !c.on_host()) {
    c.error(DiagKind::unsupported_operation, call.range, "reshape() to shape (): 0-d arrays are not supported yet",
            "keep the one item as a scalar: a[0]");
    return Value::error();
  }
  if ((extents.empty() && !to_zero_d) || extents.size() > 32 || !call.keywords.empty()) {
    c.error(DiagKind::wrong_arity, call.range, "reshape() takes the new shape: a.reshape(3, 2) or a.reshape((3, 2))");
    return Value::error();
  }
  std::vector<ir::ExprId> args = {c.make_constant({int64_t(extents.size())}, Type::i64(), call.range).expr,
                                  call.args[0].expr};
  for (const Value& extent : extents) {
    if (!extent.type.is_integer_like()) {
      c.error(DiagKind::type_mismatch, call.range, "reshape() needs integer extents, not '" + to_string(extent.type) + "'");
      return Value::error();
    }
    args.push_back(c.cast_expr(extent.expr, Type::i64()));
  }
  Type result = Type::array(array.dtype(), static_cast<int>(extents.size()), to_zero_d ? Layout::C : array.layout);
  result.readonly = array.readonly;
  return c.make_call(Op::reshape, std::move(args), result, call.range);
}

// a.view(np.int32): the same bytes as another dtype. A different itemsize changes the last
// axis, which must be contiguous (NumPy's rule).
Value view(FunctionChecker& c, const CallSite& call) {
  if (!want_array_method(c, call, "view")) return Value::error();
  if (call.args.size() != 2 || !call.keywords.empty() || call.args[1].kind != Value::Kind::type ||
      !call.args[1].type.is_numeric() || call.args[1].type.is(TypeKind::record)) {
    c.error(DiagKind::wrong_arity, call.range, "view() takes one NumPy scalar type, e.g. a.view(np.int32)");
    return Value::error();
  }
  const Type& array = call.args[0].type;
  const Type& dtype = call.args[1].type;
  Layout layout = dtype.itemsize() == array.dtype().itemsize() || array.layout == Layout::C ? array.layout : Layout::A;
  Type result = Type::array(dtype, array.ndim, layout);
  result.readonly = array.readonly;
  ir::ExprId like = c.make_constant({int64_t(0)}, dtype, call.range).expr;  // names the element type for C++
  return c.make_call(Op::view, {call.args[0].expr, like}, result, call.range);
}

// np.dtype(np.float32), np.dtype("f8"), np.dtype(a.dtype): the dtype as a value, for a later
// dtype= argument or a.view(...).
Value dtype_value(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1)) return Value::error();
  std::optional<Type> dtype = dtype_of(call.args[0]);
  if (!dtype) {
    c.error(DiagKind::type_mismatch, call.range, "np.dtype() takes a NumPy scalar type or its name",
            "e.g. np.dtype(np.float32) or np.dtype(\"float64\")");
    return Value::error();
  }
  return Value::dtype(*dtype);
}

// z.conjugate(), np.conj(z), np.conjugate(z): the complex conjugate; a real number (and a
// bool) is its own, of its own type, as Numba gives it.
Value conjugate(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
  const Value& z = call.args[0];
  if (!z.type.is(TypeKind::complex)) return z;
  return c.make_call(Op::conj, {z.expr}, z.type, call.range);
}

}  // namespace

void add_numpy_builtins(HandlerTable& t) {
  static const std::pair<const char*, Op> unary[] = {
      {"sin", Op::sin},         {"cos", Op::cos},         {"tan", Op::tan},         {"arcsin", Op::asin},
      {"arccos", Op::acos},     {"arctan", Op::atan},     {"sinh", Op::sinh},       {"cosh", Op::cosh},
      {"tanh", Op::tanh},       {"arcsinh", Op::asinh},   {"arccosh", Op::acosh},   {"arctanh", Op::atanh},
      {"exp", Op::exp},         {"expm1", Op::expm1},     {"log", Op::log},         {"log2", Op::log2},
      {"log10", Op::log10},     {"log1p", Op::log1p},     {"sqrt", Op::sqrt},       {"floor", Op::floor},
      {"ceil", Op::ceil},       {"trunc", Op::trunc},     {"rint", Op::rint},       {"fabs", Op::fabs},
      {"degrees", Op::degrees}, {"radians", Op::radians}};
  for (const auto& [name, op] : unary) t[std::string("numpy.") + name] = unary_math(op);
  static const std::pair<const char*, Op> binary[] = {
      {"arctan2", Op::atan2}, {"hypot", Op::hypot}, {"copysign", Op::copysign}, {"fmod", Op::fmod}};
  for (const auto& [name, op] : binary) t[std::string("numpy.") + name] = binary_math(op);
  t["numpy.isnan"] = predicate_math(Op::isnan);
  t["numpy.isinf"] = predicate_math(Op::isinf);
  t["numpy.isfinite"] = predicate_math(Op::isfinite);
  t["numpy.minimum"] = [](FunctionChecker& c, const CallSite& call) { return min_max(c, call, Op::min); };
  t["numpy.maximum"] = [](FunctionChecker& c, const CallSite& call) { return min_max(c, call, Op::max); };
  t["numpy.fmax"] = [](FunctionChecker& c, const CallSite& call) { return min_max(c, call, Op::fmax); };
  t["numpy.fmin"] = [](FunctionChecker& c, const CallSite& call) { return min_max(c, call, Op::fmin); };
  t["numpy.abs"] = absolute;
  t["numpy.absolute"] = absolute;
  t["numpy.conj"] = conjugate;
  t["numpy.conjugate"] = conjugate;
  t["method.conjugate"] = conjugate;
  t["numpy.power"] = [](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 2, 2)) return Value::error();
    return c.binary(ast::BinaryOp::pow, call.args[0], call.args[1], call.range);
  };
  t["numpy.dtype"] = Builtin::with_types(dtype_value);
  t["numpy.finfo"] = Builtin::with_types(numpy_finfo);
  t["numpy.iinfo"] = Builtin::with_types(numpy_iinfo);
  t["method.reshape"] = reshape;
  t["method.view"] = view;
}

}  // namespace pykern::sema
