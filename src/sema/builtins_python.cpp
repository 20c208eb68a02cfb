// Python's builtins (abs, min, max, round, int, float, bool, complex, range, len, pow, tuple)
// and the operator module, as Numba types them.
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "sema/builtin_rules.h"
#include "sema/dictionaries.h"

namespace pykern::sema {

using ir::Op;

namespace {

Value round_value(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 2) || !want_numeric(c, call, call.args[0])) return Value::error();
  const Type& type = call.args[0].type;
  if (call.args.size() == 1) {
    if (type.is_integer_like()) return c.value_of(c.cast_expr(call.args[0].expr, Type::i64()));
    return c.make_call(Op::round_to_int, {call.args[0].expr}, Type::i64(), call.range);
  }
  Type result = type.is(TypeKind::floating) ? type : Type::f64();
  return c.make_call(Op::round_digits,
                     {c.cast_expr(call.args[0].expr, result), c.cast_expr(call.args[1].expr, Type::i64())}, result,
                     call.range);
}

// complex(re[, im]): complex64 when every argument is a float32, else complex128 (Numba's
// typing/builtins.py Complex), so complex(f32, f32) * z is computed in single precision.
Value complex_value(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 2)) return Value::error();
  bool single = true;
  for (const Value& v : call.args) {
    if (!want_numeric(c, call, v) || v.type.is(TypeKind::complex)) return Value::error();
    single = single && v.type == Type::f32();
  }
  Type part = single ? Type::f32() : Type::f64();
  std::vector<ir::ExprId> args;
  for (const Value& v : call.args) args.push_back(c.cast_expr(v.expr, part));
  if (args.size() == 1) args.push_back(c.make_constant({0.0}, part, call.range).expr);
  return c.make_call(Op::make_complex, args, Type::complex(part.bits * 2), call.range);
}

// int(x) keeps an integer's own type (int(uint64) stays uint64, int(int8) int8) and gives
// int64 for a float or a bool; float(x) keeps a float32 a float32 and gives float64 for the
// others (Numba's typing/builtins.py Int, Float).
Value int_value(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
  const Type& type = call.args[0].type;
  return c.value_of(c.cast_expr(call.args[0].expr, type.is(TypeKind::integer) ? type : Type::i64()));
}

Value float_value(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
  const Type& type = call.args[0].type;
  return c.value_of(c.cast_expr(call.args[0].expr, type == Type::f32() ? type : Type::f64()));
}

// divmod(a, b): (a // b, a % b), each typed and computed as the operators are (Python's floor
// rules, the error model's zero check); the operands are evaluated once.
Value divmod_value(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 2, 2)) return Value::error();
  for (const Value& v : call.args)
    if (!want_numeric(c, call, v)) return Value::error();
  Value a = c.store_in_temporary(call.args[0], call.range), b = c.store_in_temporary(call.args[1], call.range);
  Value quotient = c.binary(ast::BinaryOp::floordiv, a, b, call.range);
  Value remainder = c.binary(ast::BinaryOp::mod, a, b, call.range);
  if (!quotient.ok() || !remainder.ok()) return Value::error();
  ir::Expr pair;
  pair.kind = ir::ExprKind::make_tuple;
  pair.type = Type::tuple({quotient.type, remainder.type});
  pair.range = call.range;
  pair.args = {quotient.expr, remainder.expr};
  return c.value_of(c.add(std::move(pair)));
}

namespace {
// Where the first nonzero digit of a decimal number ("0.00123e-5", "1200") sits: its power of
// ten plus one (positive for numbers of magnitude 1 and up).
long decimal_exponent(const std::string& number) {
  size_t e = number.find('e');
  std::string mantissa = number.substr(0, e);
  long exponent = e == std::string::npos ? 0 : std::strtol(number.c_str() + e + 1, nullptr, 10);
  size_t point = mantissa.find('.');
  std::string whole = mantissa.substr(0, point), fraction = point == std::string::npos ? "" : mantissa.substr(point + 1);
  size_t first = whole.find_first_not_of('0');
  if (first != std::string::npos) return exponent + static_cast<long>(whole.size() - first);
  size_t zeros = fraction.find_first_not_of('0');
  return zeros == std::string::npos ? -1000000 : exponent - static_cast<long>(zeros);
}

// Python's float() of a string: optional whitespace and sign, then inf/infinity/nan (any case)
// or a decimal number (underscores between digits allowed). nullopt: Python's ValueError.
std::optional<double> parse_python_float(std::string text) {
  auto space = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v'; };
  while (!text.empty() && space(text.back())) text.pop_back();
  size_t start = 0;
  while (start < text.size() && space(text[start])) ++start;
  text = text.substr(start);
  std::string lower;
  for (char ch : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  double sign = 1;
  std::string body = lower;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    sign = body[0] == '-' ? -1 : 1;
    body = body.substr(1);
  }
  if (body == "inf" || body == "infinity") return sign * std::numeric_limits<double>::infinity();
  if (body == "nan") return std::copysign(std::numeric_limits<double>::quiet_NaN(), sign);
  // Digits, one '.', an exponent; an underscore only between two digits.
  std::string plain;
  for (size_t i = 0; i < body.size(); ++i) {
    char ch = body[i];
    if (ch == '_') {
      bool between = i > 0 && i + 1 < body.size() && std::isdigit(static_cast<unsigned char>(body[i - 1])) &&
                     std::isdigit(static_cast<unsigned char>(body[i + 1]));
      if (!between) return std::nullopt;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(ch)) && std::string("+-.e").find(ch) == std::string::npos)
      return std::nullopt;
    plain += ch;
  }
  if (plain.empty() || plain.size() > 4096 || plain[0] == '+' || plain[0] == '-') return std::nullopt;
  double value = 0;  // from_chars: the C locale's '.', whatever locale the host program set
  auto [end, error] = std::from_chars(plain.data(), plain.data() + plain.size(), value);
  if (error != std::errc() || end != plain.data() + plain.size()) {
    // Past double's range Python gives inf, below it 0.0; from_chars reports either as out of
    // range, and which it is follows from the decimal exponent of the first nonzero digit.
    if (error != std::errc::result_out_of_range) return std::nullopt;
    value = decimal_exponent(plain) > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  }
  return sign * value;
}
}  // namespace

// range(...) as a value (r = range(2, n, 3)): a for loop over it or len(r) use it.
Value range_value(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 3)) return Value::error();
  auto bounds = c.range_bounds(call.args);
  if (!bounds) return Value::error();
  return c.make_call(Op::make_range, {bounds->start, bounds->stop, bounds->step}, Type::range_of(bounds->type),
                     call.range);
}

Value length(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1)) return Value::error();
  const Type& type = call.args[0].type;
  if (type.is(TypeKind::range)) return c.make_call(Op::range_len, {call.args[0].expr}, Type::i64(), call.range);
  if (type.is(TypeKind::list)) return c.make_call(Op::list_len, {call.args[0].expr}, Type::i64(), call.range);
  if (type.is(TypeKind::dict)) return dict_length(c, call.args[0], call.range);
  if (type.is(TypeKind::tuple)) return c.make_constant({int64_t(type.elements.size())}, Type::i64(), call.range);
  if (!type.is(TypeKind::array)) {
    c.error(DiagKind::type_mismatch, call.range, "len() of a value of type '" + to_string(type) + "'");
    return Value::error();
  }
  return c.attribute_of(call.args[0], "shape", call.range).ok()
             ? c.value_of(c.expr(c.attribute_of(call.args[0], "shape", call.range).expr).args[0])
             : Value::error();
}

// tuple(t) of a tuple is the tuple itself.
Value tuple_value(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1)) return Value::error();
  if (!call.args[0].type.is(TypeKind::tuple)) {
    c.error(DiagKind::type_mismatch, call.range,
            "tuple() in a kernel takes a tuple, not '" + to_string(call.args[0].type) + "'",
            "kernels cannot build a tuple from an array at run time; write the tuple out");
    return Value::error();
  }
  return call.args[0];
}

}  // namespace

// ord("A"): the code point of a one-character literal, an int64 (Python computes it at import,
// and Numba freezes the int).
Value ord_of_literal(FunctionChecker& c, const ast::Expr& literal) {
  const std::string& text = literal.text;  // UTF-8
  size_t characters = 0;
  for (unsigned char byte : text) characters += (byte & 0xc0) != 0x80;
  if (characters != 1) {
    c.error(DiagKind::bad_argument, literal.range,
            fmt::format("ord() expected a character, but string of length {} found", characters));
    return Value::error();
  }
  auto lead = static_cast<unsigned char>(text[0]);
  int extra = lead < 0x80 ? 0 : lead < 0xe0 ? 1 : lead < 0xf0 ? 2 : 3;
  uint32_t code = extra == 0 ? lead : lead & (0x3f >> extra);
  for (int i = 1; i <= extra && i < static_cast<int>(text.size()); ++i)
    code = (code << 6) | (static_cast<unsigned char>(text[i]) & 0x3f);
  return c.make_constant({int64_t(code)}, Type::i64(), literal.range);
}

Value float_of_literal(FunctionChecker& c, const ast::Expr& literal) {
  auto value = parse_python_float(literal.text);
  if (!value) {
    c.error(DiagKind::bad_argument, literal.range, "could not convert string to float: '" + literal.text + "'",
            "float() takes a number's digits, or inf, infinity or nan");
    return Value::error();
  }
  return c.make_constant({*value}, Type::f64(), literal.range);
}

Value min_max(FunctionChecker& c, const CallSite& call, Op op) {
  if (call.args.size() < 2 || !call.keywords.empty()) {
    c.error(DiagKind::wrong_arity, call.range, short_name(call.name) + "() takes two or more numbers in a kernel");
    return Value::error();
  }
  Type type = call.args[0].type;
  for (const Value& v : call.args) {
    if (!want_numeric(c, call, v)) return Value::error();
    if (v.type.is(TypeKind::complex)) {
      c.error(DiagKind::unsupported_operation, call.range,
              short_name(call.name) + "() of complex numbers: complex numbers have no order",
              "compare abs(z), z.real or z.imag");
      return Value::error();
    }
    type = promote(type, v.type);
  }
  Value result = c.value_of(c.cast_expr(call.args[0].expr, type));
  for (size_t i = 1; i < call.args.size(); ++i)
    result = c.make_call(op, {result.expr, c.cast_expr(call.args[i].expr, type)}, type, call.range);
  return result;
}

Value absolute(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
  Type type = call.args[0].type;
  if (type.is(TypeKind::complex)) return c.make_call(Op::abs, {call.args[0].expr}, Type::float_(type.bits / 2), call.range);
  if (type.is(TypeKind::boolean)) type = Type::i64();
  return c.make_call(Op::abs, {c.cast_expr(call.args[0].expr, type)}, type, call.range);
}

void add_python_builtins(HandlerTable& t) {
  // One argument: the items of an iterable (builtins_iterables.cpp); more: the numbers given.
  t["builtins.min"] = [](FunctionChecker& c, const CallSite& call) {
    bool iterable = call.args.size() == 1 && !call.args[0].type.is_numeric();
    return iterable ? iterable_extreme(c, call, Op::min) : min_max(c, call, Op::min);
  };
  t["builtins.max"] = [](FunctionChecker& c, const CallSite& call) {
    bool iterable = call.args.size() == 1 && !call.args[0].type.is_numeric();
    return iterable ? iterable_extreme(c, call, Op::max) : min_max(c, call, Op::max);
  };
  t["builtins.abs"] = absolute;
  t["builtins.round"] = round_value;
  t["builtins.int"] = int_value;
  t["builtins.float"] = float_value;
  t["builtins.bool"] = [](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 1, 1)) return Value::error();
    return c.truth(call.args[0], call.range);
  };
  t["builtins.complex"] = complex_value;
  t["builtins.divmod"] = divmod_value;
  t["builtins.range"] = range_value;
  t["builtins.len"] = length;
  t["builtins.pow"] = [](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 2, 2)) return Value::error();
    return c.binary(ast::BinaryOp::pow, call.args[0], call.args[1], call.range);
  };
  t["builtins.tuple"] = tuple_value;
  // The operator module's functions are the operators themselves.
  static const std::pair<const char*, ast::BinaryOp> operators[] = {
      {"add", ast::BinaryOp::add},         {"sub", ast::BinaryOp::sub},        {"mul", ast::BinaryOp::mul},
      {"truediv", ast::BinaryOp::div},     {"floordiv", ast::BinaryOp::floordiv}, {"mod", ast::BinaryOp::mod},
      {"pow", ast::BinaryOp::pow},         {"lshift", ast::BinaryOp::lshift},  {"rshift", ast::BinaryOp::rshift},
      {"and_", ast::BinaryOp::bitand_},    {"or_", ast::BinaryOp::bitor_},     {"xor", ast::BinaryOp::bitxor}};
  for (const auto& [name, op] : operators)
    t[std::string("operator.") + name] = [op = op](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 2, 2)) return Value::error();
      return c.binary(op, call.args[0], call.args[1], call.range);
    };
}

}  // namespace pykern::sema
