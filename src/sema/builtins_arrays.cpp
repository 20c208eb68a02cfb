// NumPy's array creation in @jit functions on the host: np.empty, np.zeros, np.ones, np.full,
// their _like forms, np.arange, np.copy and a.copy(), typed as Numba types them
// (numba/np/arrayobj.py). The arrays own their storage (runtime/pykern/owned_array.cuh);
// a kernel cannot allocate, so these are refused there, as numba-cuda refuses them.
#include <fmt/format.h>

#include "sema/builtin_rules.h"
#include "sema/zero_d.h"

namespace pykern::sema {

using ir::Op;

// "numpy.zeros" -> "np.zeros", "method.astype" -> "array.astype", as the user most likely wrote it.
std::string shown(const CallSite& call) {
  if (call.name.rfind("method.", 0) == 0) return "array." + call.name.substr(7);  // a.astype(...)
  return "np." + short_name(call.name);
}

// The call's arguments by parameter name, positional first, as Python binds them; `required`
// leading ones must be given. An error (and nullopt) for too many, unknown or repeated ones.
std::optional<Bound> bind(FunctionChecker& c, const CallSite& call, const std::vector<const char*>& names,
                          size_t required, const std::string& function) {
  Bound bound(names.size());
  size_t positional = call.args.size();
  if (call.name.rfind("method.", 0) == 0) --positional;  // a.copy(): args[0] is the array
  size_t first = call.args.size() - positional;
  if (positional > names.size()) {
    c.error(DiagKind::wrong_arity, call.range,
            fmt::format("{}() takes at most {} positional arguments ({} given)", function, names.size(), positional));
    return std::nullopt;
  }
  for (size_t i = 0; i < positional; ++i) bound[i] = call.args[first + i];
  for (const auto& [name, value] : call.keywords) {
    size_t k = 0;
    while (k < names.size() && name != names[k]) ++k;
    if (k == names.size() || bound[k]) {
      c.error(DiagKind::wrong_arity, call.range,
              k == names.size() ? fmt::format("{}() got an unexpected keyword argument '{}'", function, name)
                                : fmt::format("{}() got multiple values for argument '{}'", function, name));
      return std::nullopt;
    }
    bound[k] = value;
  }
  for (size_t k = 0; k < required; ++k) {
    if (bound[k]) continue;
    c.error(DiagKind::wrong_arity, call.range, fmt::format("{}() missing required argument '{}'", function, names[k]));
    return std::nullopt;
  }
  return bound;
}

// A dtype argument as Numba's parse_dtype reads it: a NumPy scalar type (np.float32, np.intp),
// np.dtype(...), a.dtype or a string naming one, all known at compile time. np.empty, np.zeros
// and np.ones also take Python's float (Numba's special case); nothing takes int or bool.
std::optional<Type> dtype_argument(FunctionChecker& c, const Value& value, const CallSite& call, bool takes_float,
                                   bool takes_string) {
  if (takes_float && value.kind == Value::Kind::qualified && value.name == "builtins.float") return Type::f64();
  if (!takes_string && value.kind == Value::Kind::type && value.name == string_dtype_name) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}() takes its dtype as a NumPy type, not a string, as Numba does", shown(call)),
            "pass np.float64 (or np.dtype(\"float64\"))");
    return std::nullopt;
  }
  std::optional<Type> dtype = dtype_of(value);
  if (dtype && dtype->is_numeric()) return dtype;
  std::string what = value.kind == Value::Kind::expr        ? fmt::format("a value of type '{}'", to_string(value.type))
                     : value.kind == Value::Kind::qualified ? "'" + value.name.substr(value.name.rfind('.') + 1) + "'"
                                                            : "this";
  c.error(DiagKind::not_constant, call.range,
          fmt::format("{}() takes its dtype as a NumPy type known at compile time, not {}", shown(call), what),
          "pass np.float32, np.int64, np.intp, a string such as \"float64\", or a.dtype");
  return std::nullopt;
}

namespace {

// The value as a run-time expression (a type where a number belongs is an error).
std::optional<Value> runtime_value(FunctionChecker& c, const Value& value, SourceRange range) {
  Value v = c.as_runtime(value, range);
  if (!v.ok()) return std::nullopt;
  return v;
}

// The shape: an integer or a tuple of integers, each an int64 extent.
std::optional<std::vector<ir::ExprId>> extents_of(FunctionChecker& c, const Value& given, const CallSite& call) {
  auto shape = runtime_value(c, given, call.range);
  if (!shape) return std::nullopt;
  std::vector<Value> parts;
  if (shape->type.is(TypeKind::tuple)) {
    for (size_t k = 0; k < shape->type.elements.size(); ++k) parts.push_back(c.element_of_tuple(*shape, k, call.range));
  } else {
    parts.push_back(*shape);
  }
  for (const Value& part : parts) {
    if (part.type.is(TypeKind::integer)) continue;
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}() takes its shape as an integer or a tuple of integers, not '{}'", shown(call),
                        to_string(shape->type)));
    return std::nullopt;
  }
  if (parts.size() > 32) {  // none: a 0-d array (runtime/pykern/zero_d.cuh)
    c.error(DiagKind::unsupported_operation, call.range, fmt::format("{}() makes at most 32 dimensions", shown(call)));
    return std::nullopt;
  }
  std::vector<ir::ExprId> extents;
  for (const Value& part : parts) extents.push_back(c.cast_expr(part.expr, Type::i64()));
  return extents;
}

// A constant of `dtype` that names the element type for C++.
ir::ExprId like(FunctionChecker& c, const Type& dtype, SourceRange range) {
  return c.make_constant({int64_t(0)}, dtype, range).expr;
}

// A number converted to the elements' type; an error for anything else.
std::optional<ir::ExprId> fill_value(FunctionChecker& c, const Value& given, const Type& dtype, const CallSite& call) {
  auto value = runtime_value(c, given, call.range);
  if (!value) return std::nullopt;
  if (!value->type.is_numeric() || value->type.is(TypeKind::record)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}() fills the array with a number, not '{}'", shown(call), to_string(value->type)));
    return std::nullopt;
  }
  return c.cast_expr(value->expr, dtype);
}

bool want_scalar_dtype(FunctionChecker& c, const Type& dtype, const CallSite& call) {
  if (!dtype.is(TypeKind::record)) return true;
  c.error(DiagKind::unsupported_operation, call.range,
          fmt::format("{}() of a record dtype is not supported", shown(call)));
  return false;
}

// np.empty(shape, dtype=float), np.zeros(...), np.ones(...), np.full(shape, value, dtype=None).
Value filled(FunctionChecker& c, const CallSite& call, Op op) {
  bool full = op == Op::full_array;
  std::string name = shown(call);
  if (!c.allow_host_only(call.range, name)) return Value::error();
  auto bound =
      full ? bind(c, call, {"shape", "fill_value", "dtype"}, 2, name) : bind(c, call, {"shape", "dtype"}, 1, name);
  if (!bound) return Value::error();
  const std::optional<Value>& dtype_given = (*bound)[full ? 2 : 1];
  std::optional<Value> value;
  if (full && !(value = runtime_value(c, *(*bound)[1], call.range))) return Value::error();
  Type dtype = full ? value->type : Type::f64();
  if (dtype_given) {
    auto parsed = dtype_argument(c, *dtype_given, call, !full);
    if (!parsed) return Value::error();
    dtype = *parsed;
  }
  if (!want_scalar_dtype(c, dtype, call)) return Value::error();
  auto extents = extents_of(c, *(*bound)[0], call);
  if (!extents) return Value::error();
  std::vector<ir::ExprId> args;
  if (full) {
    auto converted = fill_value(c, *value, dtype, call);
    if (!converted) return Value::error();
    args.push_back(*converted);
  } else if (short_name(call.name) == "ones") {
    op = Op::full_array;
    args.push_back(c.make_constant({int64_t(1)}, dtype, call.range).expr);
  } else {
    args.push_back(like(c, dtype, call.range));
  }
  args.insert(args.end(), extents->begin(), extents->end());
  return c.make_call(op, std::move(args), Type::array(dtype, static_cast<int>(extents->size()), Layout::C), call.range);
}

// np.empty_like(a, dtype=None) and friends: a's shape, in a's order (C where a's is A).
Value filled_like(FunctionChecker& c, const CallSite& call, Op op) {
  bool full = op == Op::full_like;
  std::string name = shown(call);
  if (!c.allow_host_only(call.range, name)) return Value::error();
  auto bound = full ? bind(c, call, {"a", "fill_value", "dtype"}, 2, name) : bind(c, call, {"a", "dtype"}, 1, name);
  if (!bound) return Value::error();
  auto array = runtime_value(c, *(*bound)[0], call.range);
  if (!array) return Value::error();
  if (array->type.is_numeric() && !array->type.is(TypeKind::record))  // np.zeros_like(3.0): 0-d, as Numba's
    array = zero_d_of_number(c, *array, std::nullopt, call.range);
  if (!array->type.is(TypeKind::array)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}() takes an array or a number, not '{}'", name, to_string(array->type)));
    return Value::error();
  }
  Type dtype = array->type.dtype();
  if (const std::optional<Value>& given = (*bound)[full ? 2 : 1]) {
    auto parsed = dtype_argument(c, *given, call, false);
    if (!parsed) return Value::error();
    dtype = *parsed;
  }
  if (!want_scalar_dtype(c, dtype, call)) return Value::error();
  ir::ExprId first;
  if (full) {
    auto converted = fill_value(c, *(*bound)[1], dtype, call);
    if (!converted) return Value::error();
    first = *converted;
  } else if (short_name(call.name) == "ones_like") {
    op = Op::full_like;
    first = c.make_constant({int64_t(1)}, dtype, call.range).expr;
  } else {
    first = like(c, dtype, call.range);
  }
  Layout layout = array->type.layout == Layout::F ? Layout::F : Layout::C;
  return c.make_call(op, {first, array->expr}, Type::array(dtype, array->type.ndim, layout), call.range);
}

// np.copy(a), a.copy(): a new C-ordered array (writable, whatever a is).
Value copy(FunctionChecker& c, const CallSite& call) {
  bool method = call.name == "method.copy";
  std::string name = method ? "array.copy()" : "np.copy";
  if (method && !call.args[0].type.is(TypeKind::array)) {
    c.error(DiagKind::unknown_attribute, call.range,
            fmt::format("a value of type '{}' has no attribute 'copy'", to_string(call.args[0].type)));
    return Value::error();
  }
  if (!c.allow_host_only(call.range, name)) return Value::error();
  if (!want_args(c, call, 1, 1)) return Value::error();
  Value array = call.args[0];
  if (!method && array.type.is_numeric() && !array.type.is(TypeKind::record)) {  // np.copy(3.0): 0-d, as Numba's
    Value number = c.as_runtime(array, call.range);
    if (!number.ok()) return Value::error();
    return zero_d_of_number(c, number, std::nullopt, call.range);
  }
  if (!array.type.is(TypeKind::array)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("np.copy() takes an array or a number, not '{}'", to_string(array.type)));
    return Value::error();
  }
  return c.make_call(Op::copy_array, {array.expr}, Type::array(array.type.dtype(), array.type.ndim, Layout::C),
                     call.range);
}

// np.arange([start, ]stop[, step], dtype=None): Numba's _arange_dtype when no dtype is given
// (complex128 if a bound is complex, float64 if one is a float, else the widest signed integer,
// at least int64), and its arithmetic (owned_array.cuh's arange).
Value arange(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "np.arange")) return Value::error();
  auto bound = bind(c, call, {"start", "stop", "step", "dtype"}, 1, "np.arange");
  if (!bound) return Value::error();
  std::vector<Value> bounds;  // start, stop, step as given
  for (size_t k = 0; k < 3; ++k) {
    if (!(*bound)[k]) continue;
    auto v = runtime_value(c, *(*bound)[k], call.range);
    if (!v) return Value::error();
    bool number = v->type.is(TypeKind::integer) || v->type.is(TypeKind::floating);
    if (!number || (v->type.is(TypeKind::floating) && v->type.bits == 16)) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("np.arange() takes integer or float bounds, not '{}'", to_string(v->type)),
              v->type.is(TypeKind::complex) ? "complex ranges are not supported yet" : "");
      return Value::error();
    }
    bounds.push_back(*v);
  }
  bool any_float = false, any_unsigned = false;
  for (const Value& v : bounds) {
    any_float |= v.type.is(TypeKind::floating);
    any_unsigned |= v.type.is(TypeKind::integer) && !v.type.is_signed;
  }
  Type dtype = any_float ? Type::f64() : Type::i64();
  if (const std::optional<Value>& given = (*bound)[3]) {
    auto parsed = dtype_argument(c, *given, call, false, false);
    if (!parsed) return Value::error();
    dtype = *parsed;
  } else if (any_unsigned && !any_float) {
    // Numba's _arange_dtype takes max() of the bounds' types and int64, which it cannot order
    // for an unsigned type (a TypeError when it compiles).
    c.error(DiagKind::type_mismatch, call.range, "np.arange() of unsigned integer bounds is refused by Numba",
            "convert them to int64, or pass dtype=");
    return Value::error();
  }
  if (!want_scalar_dtype(c, dtype, call)) return Value::error();
  // arange(stop) counts from 0; the step is 1 when not given (both int64, as Numba's literals).
  bool has_stop = (*bound)[1].has_value();
  Value zero = c.make_constant({int64_t(0)}, Type::i64(), call.range);
  Value one = c.make_constant({int64_t(1)}, Type::i64(), call.range);
  size_t next = 0;
  Value start = has_stop ? bounds[next++] : zero;
  Value stop = bounds[next++];
  Value step = (*bound)[2] ? bounds[next++] : one;
  Type difference = arithmetic_result(start.type, stop.type);
  Type quotient = true_divide_result(difference, step.type);
  Type element = arithmetic_result(start.type, arithmetic_result(Type::i64(), step.type));
  auto widened = [&](const Value& v) {  // integers as int64, floats as they are
    return v.type.is(TypeKind::integer) ? c.cast_expr(v.expr, Type::i64()) : v.expr;
  };
  std::vector<ir::ExprId> args = {like(c, dtype, call.range),
                                  like(c, difference, call.range),
                                  like(c, quotient, call.range),
                                  like(c, element, call.range),
                                  widened(start),
                                  widened(stop),
                                  widened(step)};
  return c.make_call(Op::arange, std::move(args), Type::array(dtype, 1, Layout::C), call.range);
}

// The host-call wrapper's hand-over of a returned array (compiler/generated_source.cpp):
// __pk_export_array(slot, a). No function the user wrote may call it.
Value export_array(FunctionChecker& c, const CallSite& call) {
  if (c.origin() != frontend::Origin::host_call) {
    c.error(DiagKind::unknown_function, call.range, "numba.cuda has no function '__pk_export_array'");
    return Value::error();
  }
  if (!want_args(c, call, 2, 2) || !call.args[1].type.is(TypeKind::array)) return Value::error();
  auto slot = c.fold(call.args[0].expr);
  if (!slot) return Value::error();
  return c.make_call(Op::export_array, {call.args[1].expr}, Type::void_(), call.range,
                     static_cast<int>(slot->as_int()));
}

}  // namespace

void add_array_builtins(HandlerTable& t) {
  for (const char* name : {"empty", "zeros", "ones"}) {
    Op op = std::string(name) == "zeros" ? Op::zeros_array : Op::empty_array;
    t[std::string("numpy.") + name] =
        Builtin::with_types([op](FunctionChecker& c, const CallSite& call) { return filled(c, call, op); });
  }
  t["numpy.full"] =
      Builtin::with_types([](FunctionChecker& c, const CallSite& call) { return filled(c, call, Op::full_array); });
  for (const char* name : {"empty_like", "zeros_like", "ones_like"}) {
    Op op = std::string(name) == "zeros_like" ? Op::zeros_like : Op::empty_like;
    t[std::string("numpy.") + name] =
        Builtin::with_types([op](FunctionChecker& c, const CallSite& call) { return filled_like(c, call, op); });
  }
  t["numpy.full_like"] =
      Builtin::with_types([](FunctionChecker& c, const CallSite& call) { return filled_like(c, call, Op::full_like); });
  t["numpy.arange"] = Builtin::with_types(arange);
  t["numpy.copy"] = copy;
  t["method.copy"] = copy;
  t["numba.cuda.__pk_export_array"] = export_array;
}

}  // namespace pykern::sema
