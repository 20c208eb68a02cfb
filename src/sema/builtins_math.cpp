// Python's math and cmath modules (NumPy's scalar math shares these rules: builtins_numpy.cpp).
#include <fmt/format.h>

#include <set>

#include "sema/builtin_rules.h"
#include "sema/infer.h"

namespace pykern::sema {

using ir::Op;

namespace {

// The math functions numba-cuda types float16 -> float16 (cudamath's Math_unary_with_fp16).
bool keeps_float16(const std::string& name) {
  static const std::set<std::string> names = {"math.sin",  "math.cos",  "math.ceil", "math.floor", "math.sqrt",
                                              "math.log",  "math.log2", "math.log10", "math.exp", "math.fabs",
                                              "math.trunc", "math.exp2"};
  return names.count(name) > 0;
}

// cmath: Numba's signatures are complex64 -> complex64 and complex128 -> complex128; a real
// argument converts to the first that holds it safely (float32 to complex64, the rest to
// complex128). The functions numba-cuda defines by @overload take complex arguments only.
// cmath.log(z, base) is its own operation.
enum class CmathResult { same, boolean, part, part_pair };

Handler cmath_function(Op op, bool complex_only, CmathResult result_kind) {
  return [op, complex_only, result_kind](FunctionChecker& c, const CallSite& call) -> Value {
    size_t most = op == Op::cmath_log ? 2 : 1;
    if (!want_args(c, call, 1, most)) return Value::error();
    std::vector<ir::ExprId> args;
    Type type = Type::complex(64);
    for (const Value& arg : call.args) {
      if (!want_numeric(c, call, arg)) return Value::error();
      if (complex_only && !arg.type.is(TypeKind::complex)) {
        c.error(DiagKind::type_mismatch, call.range,
                fmt::format("{}() takes a complex number, not '{}'", call.name, to_string(arg.type)),
                "convert it: complex(x, 0)");
        return Value::error();
      }
      bool narrow = arg.type == Type::complex(64) || arg.type == Type::f32();
      if (!narrow) type = Type::complex(128);
    }
    for (const Value& arg : call.args) args.push_back(c.cast_expr(arg.expr, type));
    Type part = Type::float_(type.bits / 2);
    Type result = result_kind == CmathResult::same      ? type
                  : result_kind == CmathResult::boolean ? Type::boolean()
                  : result_kind == CmathResult::part    ? part
                                                        : Type::uni_tuple(part, 2);
    Op chosen = args.size() == 2 ? Op::cmath_log_base : op;
    return c.make_call(chosen, std::move(args), result, call.range);
  };
}

// cmath.rect(r, phi) on floats: complex64 when both are float32.
Value cmath_rect(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 2, 2)) return Value::error();
  for (const Value& arg : call.args) {
    if (!arg.type.is(TypeKind::floating) || arg.type.bits == 16) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("cmath.rect() takes two floats, not '{}'", to_string(arg.type)), "convert it: float(x)");
      return Value::error();
    }
  }
  Type part = call.args[0].type == Type::f32() && call.args[1].type == Type::f32() ? Type::f32() : Type::f64();
  return c.make_call(Op::cmath_rect, {c.cast_expr(call.args[0].expr, part), c.cast_expr(call.args[1].expr, part)},
                     Type::complex(part.bits * 2), call.range);
}

// math.frexp(x) -> (mantissa, int32 exponent); math.modf(x) -> (fraction, whole part).
Value frexp(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
  Type type = c.float_type_for(call.args[0].type);
  return c.make_call(Op::frexp, {c.cast_expr(call.args[0].expr, type)}, Type::tuple({type, Type::i32()}), call.range);
}

Value modf(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
  Type type = c.float_type_for(call.args[0].type);
  return c.make_call(Op::modf, {c.cast_expr(call.args[0].expr, type)}, Type::uni_tuple(type, 2), call.range);
}

// math.pow(x, y) by the cases of its typing template, chosen as Numba's overload resolution
// chooses. numba-cuda (cudamath.py): (f32, f32), (f64, f64), (f32, i32), (f64, i32), the integer
// exponent cases by libdevice's powif/powi (repeated squaring, 1/x**-n for negatives): so
// math.pow(float32, int32) stays float32, while an int64 exponent converts better to (f64, f64).
// Numba's CPU target (mathdecl.py): (f64, i64), (f64, u64), (f32, f32), (f64, f64), the integer
// ones as float64 ** int (repeated squaring): math.pow(float32, int32) is float64 there.
Value math_pow(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 2, 2) || !want_numeric(c, call, call.args[0]) || !want_numeric(c, call, call.args[1]))
    return Value::error();
  static const std::vector<std::vector<Type>> cuda_cases = {
      {Type::f32(), Type::f32()}, {Type::f64(), Type::f64()}, {Type::f32(), Type::i32()}, {Type::f64(), Type::i32()}};
  static const std::vector<std::vector<Type>> cpu_cases = {
      {Type::f64(), Type::i64()}, {Type::f64(), Type::int_(64, false)}, {Type::f32(), Type::f32()},
      {Type::f64(), Type::f64()}};
  const auto& cases = c.on_host() ? cpu_cases : cuda_cases;
  auto chosen = best_case({call.args[0].type, call.args[1].type}, cases);
  if (!chosen) return binary_math(Op::fpow)(c, call);  // complex arguments: refused there as before
  const Type& base = cases[*chosen][0];
  const Type& exponent = cases[*chosen][1];
  if (exponent.is(TypeKind::floating))
    return c.make_call(Op::fpow, {c.cast_expr(call.args[0].expr, base), c.cast_expr(call.args[1].expr, exponent)},
                       base, call.range);
  // On the host, float64 ** int itself (Python's error model raises for 0.0 ** -1 there too).
  if (c.on_host())
    return c.binary(ast::BinaryOp::pow, c.cast(call.args[0], base, call.range), c.cast(call.args[1], exponent, call.range),
                    call.range);
  // The runtime's float ** integer takes an int64 exponent; an int32 one widens exactly.
  ir::ExprId n = c.cast_expr(c.cast_expr(call.args[1].expr, exponent), Type::i64());
  return c.make_call(Op::pow, {c.cast_expr(call.args[0].expr, base), n}, base, call.range);
}

}  // namespace

// A float16 computes in float32, and rounds back to float16 where numba-cuda types it so.
Handler unary_math(Op op) {
  return [op](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
    if (call.args[0].type.is(TypeKind::complex)) {
      c.error(DiagKind::type_mismatch, call.range, short_name(call.name) + "() of a complex number is not supported");
      return Value::error();
    }
    Type type = c.float_type_for(call.args[0].type);
    Value result = c.make_call(op, {c.cast_expr(call.args[0].expr, type)}, type, call.range);
    if (call.args[0].type == Type::float_(16) && keeps_float16(call.name)) return c.cast(result, call.args[0].type, call.range);
    return result;
  };
}

Handler binary_math(Op op) {
  return [op](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 2, 2) || !want_numeric(c, call, call.args[0]) ||
        !want_numeric(c, call, call.args[1]))
      return Value::error();
    Type type = c.float_type_for(promote(c.float_type_for(call.args[0].type), c.float_type_for(call.args[1].type)));
    return c.make_call(op, {c.cast_expr(call.args[0].expr, type), c.cast_expr(call.args[1].expr, type)}, type,
                       call.range);
  };
}

Handler predicate_math(Op op) {
  return [op](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
    if (call.args[0].type.is_integer_like())  // an integer is never nan or inf
      return c.make_constant({op == Op::isfinite}, Type::boolean(), call.range);
    return c.make_call(op, {call.args[0].expr}, Type::boolean(), call.range);
  };
}

void add_math_builtins(HandlerTable& t) {
  static const std::pair<const char*, Op> unary[] = {
      {"sin", Op::sin},     {"cos", Op::cos},     {"tan", Op::tan},       {"asin", Op::asin},
      {"acos", Op::acos},   {"atan", Op::atan},   {"sinh", Op::sinh},     {"cosh", Op::cosh},
      {"tanh", Op::tanh},   {"asinh", Op::asinh}, {"acosh", Op::acosh},   {"atanh", Op::atanh},
      {"exp", Op::exp},     {"expm1", Op::expm1}, {"log", Op::log},       {"log2", Op::log2},
      {"log10", Op::log10}, {"log1p", Op::log1p}, {"sqrt", Op::sqrt},     {"fabs", Op::fabs},
      {"erf", Op::erf},     {"erfc", Op::erfc},   {"gamma", Op::gamma},   {"lgamma", Op::lgamma},
      {"floor", Op::floor}, {"ceil", Op::ceil},   {"trunc", Op::trunc},   {"degrees", Op::degrees},
      {"radians", Op::radians}, {"exp2", Op::exp2}};
  for (const auto& [name, op] : unary) t[std::string("math.") + name] = unary_math(op);
  static const std::pair<const char*, Op> binary[] = {
      {"atan2", Op::atan2}, {"hypot", Op::hypot},         {"copysign", Op::copysign}, {"fmod", Op::fmod},
      {"remainder", Op::remainder}, {"nextafter", Op::nextafter}};
  for (const auto& [name, op] : binary) t[std::string("math.") + name] = binary_math(op);
  t["math.pow"] = math_pow;
  t["math.isnan"] = predicate_math(Op::isnan);
  t["math.isinf"] = predicate_math(Op::isinf);
  t["math.isfinite"] = predicate_math(Op::isfinite);
  t["math.ldexp"] = fixed(Op::ldexp, {Type::f64(), Type::i32()}, Type::f64());
  t["math.frexp"] = frexp;
  t["math.modf"] = modf;

  static const std::pair<const char*, Op> cmath_any[] = {
      {"sqrt", Op::cmath_sqrt}, {"exp", Op::cmath_exp},   {"log", Op::cmath_log},     {"cos", Op::cmath_cos},
      {"sin", Op::cmath_sin},   {"tan", Op::cmath_tan},   {"acos", Op::cmath_acos},   {"asin", Op::cmath_asin},
      {"asinh", Op::cmath_asinh}, {"atan", Op::cmath_atan}, {"atanh", Op::cmath_atanh}};
  for (const auto& [name, op] : cmath_any) t[std::string("cmath.") + name] = cmath_function(op, false, CmathResult::same);
  static const std::pair<const char*, Op> cmath_complex_only[] = {
      {"cosh", Op::cmath_cosh}, {"sinh", Op::cmath_sinh}, {"tanh", Op::cmath_tanh},
      {"acosh", Op::cmath_acosh}, {"log10", Op::cmath_log10}};
  for (const auto& [name, op] : cmath_complex_only)
    t[std::string("cmath.") + name] = cmath_function(op, true, CmathResult::same);
  t["cmath.isnan"] = cmath_function(Op::cmath_isnan, false, CmathResult::boolean);
  t["cmath.isinf"] = cmath_function(Op::cmath_isinf, false, CmathResult::boolean);
  t["cmath.isfinite"] = cmath_function(Op::cmath_isfinite, false, CmathResult::boolean);
  t["cmath.phase"] = cmath_function(Op::cmath_phase, true, CmathResult::part);
  t["cmath.polar"] = cmath_function(Op::cmath_polar, true, CmathResult::part_pair);
  t["cmath.rect"] = cmath_rect;
}

}  // namespace pykern::sema
