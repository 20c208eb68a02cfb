// Compile-time evaluation: module globals (TPB = 16, SQRT_2PI = np.float32((2*math.pi)**0.5))
// are folded to constants where a kernel uses them, as Numba freezes globals at compile time.
#include <cmath>

#include <fmt/format.h>

#include "sema/checker.h"

namespace pykern::ir {

int64_t Constant::as_int() const {
  if (auto* b = std::get_if<bool>(&value)) return *b;
  if (auto* i = std::get_if<int64_t>(&value)) return *i;
  if (auto* u = std::get_if<uint64_t>(&value)) return static_cast<int64_t>(*u);
  if (auto* d = std::get_if<double>(&value)) return static_cast<int64_t>(*d);
  if (auto* c = std::get_if<std::complex<double>>(&value)) return static_cast<int64_t>(c->real());
  return 0;
}

double Constant::as_double() const {
  if (auto* d = std::get_if<double>(&value)) return *d;
  if (auto* u = std::get_if<uint64_t>(&value)) return static_cast<double>(*u);
  if (auto* c = std::get_if<std::complex<double>>(&value)) return c->real();
  return static_cast<double>(as_int());
}

}  // namespace pykern::ir

namespace pykern::sema {

namespace {

std::complex<double> as_complex(const ir::Constant& c) {
  if (auto* z = std::get_if<std::complex<double>>(&c.value)) return *z;
  return {c.as_double(), 0};
}

// The constant `c` converted to `type`, with C's conversions (as the emitted cast would do).
std::optional<ir::Constant> convert(const ir::Constant& c, const Type& type) {
  switch (type.kind) {
    case TypeKind::boolean:
      return ir::Constant{std::holds_alternative<double>(c.value) ? c.as_double() != 0 : c.as_int() != 0};
    case TypeKind::integer: {
      int64_t v = std::holds_alternative<double>(c.value) ? static_cast<int64_t>(c.as_double()) : c.as_int();
      if (!type.is_signed) {
        uint64_t u = static_cast<uint64_t>(v);
        if (type.bits < 64) u &= (uint64_t(1) << type.bits) - 1;
        return ir::Constant{u};
      }
      if (type.bits < 64) {
        uint64_t mask = (uint64_t(1) << type.bits) - 1;
        uint64_t u = static_cast<uint64_t>(v) & mask;
        if (u >> (type.bits - 1)) u |= ~mask;  // sign-extend
        v = static_cast<int64_t>(u);
      }
      return ir::Constant{v};
    }
    case TypeKind::floating: {
      double d = c.as_double();
      if (type.bits == 32) d = static_cast<float>(d);
      return ir::Constant{d};
    }
    case TypeKind::complex: {
      std::complex<double> z = as_complex(c);
      if (type.bits == 64) z = {static_cast<float>(z.real()), static_cast<float>(z.imag())};
      return ir::Constant{z};
    }
    default: return std::nullopt;
  }
}

int64_t floordiv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t floormod(int64_t a, int64_t b) {
  if (b == 0) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

}  // namespace

std::optional<ir::Constant> FunctionChecker::fold(ir::ExprId id) {
  if (!id.valid()) return std::nullopt;
  const ir::Expr e = expr(id);  // a copy: folding adds no nodes, but keep it safe
  const Type& type = e.type;
  auto operand = [&](size_t i) { return fold(e.args[i]); };
  switch (e.kind) {
    case ir::ExprKind::constant:
      if (type.is(TypeKind::string) || type.is(TypeKind::none)) return std::nullopt;
      return e.constant;
    case ir::ExprKind::cast: {
      auto value = operand(0);
      return value ? convert(*value, type) : std::nullopt;
    }
    case ir::ExprKind::unary: {
      auto value = operand(0);
      if (!value) return std::nullopt;
      if (e.name == "!") return ir::Constant{value->as_int() == 0};
      if (type.is(TypeKind::floating))
        return ir::Constant{e.name == "-" ? -value->as_double() : value->as_double()};
      if (type.is(TypeKind::complex)) return ir::Constant{e.name == "-" ? -as_complex(*value) : as_complex(*value)};
      int64_t v = value->as_int();
      return convert(ir::Constant{e.name == "-" ? int64_t(0 - static_cast<uint64_t>(v)) : e.name == "~" ? ~v : v}, type);
    }
    case ir::ExprKind::binary:
    case ir::ExprKind::logical:
    case ir::ExprKind::call: {
      std::vector<ir::Constant> values;
      for (size_t i = 0; i < e.args.size(); ++i) {
        auto value = operand(i);
        if (!value) return std::nullopt;
        values.push_back(*value);
      }
      const Type& operand_type = e.args.empty() ? type : expr(e.args[0]).type;
      const std::string& op = e.name;
      if (values.size() == 2 && (e.kind == ir::ExprKind::binary || e.kind == ir::ExprKind::logical)) {
        const ir::Constant& a = values[0];
        const ir::Constant& b = values[1];
        if (op == "&&") return ir::Constant{a.as_int() && b.as_int()};
        if (op == "||") return ir::Constant{a.as_int() || b.as_int()};
        bool is_float = operand_type.is(TypeKind::floating);
        if (operand_type.is(TypeKind::complex)) {
          std::complex<double> x = as_complex(a), y = as_complex(b);
          if (op == "+") return ir::Constant{x + y};
          if (op == "-") return ir::Constant{x - y};
          if (op == "*") return ir::Constant{x * y};
          if (op == "/") return ir::Constant{x / y};
          if (op == "==") return ir::Constant{x == y};
          if (op == "!=") return ir::Constant{x != y};
          return std::nullopt;
        }
        if (op == "<") return ir::Constant{is_float ? a.as_double() < b.as_double() : a.as_int() < b.as_int()};
        if (op == "<=") return ir::Constant{is_float ? a.as_double() <= b.as_double() : a.as_int() <= b.as_int()};
        if (op == ">") return ir::Constant{is_float ? a.as_double() > b.as_double() : a.as_int() > b.as_int()};
        if (op == ">=") return ir::Constant{is_float ? a.as_double() >= b.as_double() : a.as_int() >= b.as_int()};
        if (op == "==") return ir::Constant{is_float ? a.as_double() == b.as_double() : a.as_int() == b.as_int()};
        if (op == "!=") return ir::Constant{is_float ? a.as_double() != b.as_double() : a.as_int() != b.as_int()};
        if (is_float) {
          double x = a.as_double(), y = b.as_double(), r;
          if (op == "+") r = x + y;
          else if (op == "-") r = x - y;
          else if (op == "*") r = x * y;
          else if (op == "/") r = x / y;
          else return std::nullopt;
          return convert(ir::Constant{r}, type);
        }
        uint64_t x = static_cast<uint64_t>(a.as_int()), y = static_cast<uint64_t>(b.as_int());
        if (op == "+") return convert(ir::Constant{int64_t(x + y)}, type);
        if (op == "-") return convert(ir::Constant{int64_t(x - y)}, type);
        if (op == "*") return convert(ir::Constant{int64_t(x * y)}, type);
        if (op == "&") return convert(ir::Constant{int64_t(x & y)}, type);
        if (op == "|") return convert(ir::Constant{int64_t(x | y)}, type);
        if (op == "^") return convert(ir::Constant{int64_t(x ^ y)}, type);
        if (op == "<<" && y < 64) return convert(ir::Constant{int64_t(x << y)}, type);
        if (op == ">>" && y < 64) return convert(ir::Constant{a.as_int() >> y}, type);
        return std::nullopt;
      }
      if (e.kind != ir::ExprKind::call) return std::nullopt;
      bool is_float = type.is(TypeKind::floating);
      auto real = [&](double r) { return convert(ir::Constant{r}, type); };
      if ((op == "pk::floordiv" || op == "PK_CHECKED_FLOORDIV") && values.size() == 2 && values[1].as_double() != 0)
        return is_float ? real(std::floor(values[0].as_double() / values[1].as_double()))
                        : ir::Constant{floordiv(values[0].as_int(), values[1].as_int())};
      if ((op == "pk::mod" || op == "PK_CHECKED_MOD") && values.size() == 2 && values[1].as_double() != 0) {
        if (!is_float) return ir::Constant{floormod(values[0].as_int(), values[1].as_int())};
        double a = values[0].as_double(), b = values[1].as_double();
        double r = std::fmod(a, b);
        if (r != 0 && ((r < 0) != (b < 0))) r += b;
        return real(r);
      }
      if (op == "pk::pow" && values.size() == 2) {
        if (is_float) return real(std::pow(values[0].as_double(), values[1].as_double()));
        if (!type.is(TypeKind::integer) || values[1].as_int() < 0) return std::nullopt;
        int64_t result = 1, base = values[0].as_int();
        for (int64_t n = values[1].as_int(); n > 0; --n) result = static_cast<int64_t>(static_cast<uint64_t>(result) * base);
        return ir::Constant{result};
      }
      if (!is_float || values.size() != 1) {
        if ((op == "pk::min" || op == "pk::max") && values.size() == 2) {
          bool first = op == "pk::min" ? (is_float ? values[0].as_double() <= values[1].as_double()
                                                   : values[0].as_int() <= values[1].as_int())
                                       : (is_float ? values[0].as_double() >= values[1].as_double()
                                                   : values[0].as_int() >= values[1].as_int());
          return first ? values[0] : values[1];
        }
        return std::nullopt;
      }
      double x = values[0].as_double();
      if (op == "pk::sqrt") return real(std::sqrt(x));
      if (op == "pk::exp") return real(std::exp(x));
      if (op == "pk::log") return real(std::log(x));
      if (op == "pk::sin") return real(std::sin(x));
      if (op == "pk::cos") return real(std::cos(x));
      if (op == "pk::tan") return real(std::tan(x));
      if (op == "pk::floor") return real(std::floor(x));
      if (op == "pk::ceil") return real(std::ceil(x));
      if (op == "pk::fabs") return real(std::fabs(x));
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

Value ProgramBuilder::global_constant(FunctionChecker& caller, const std::string& name, SourceRange range) {
  if (globals_in_progress_.count(name)) {
    caller.error(DiagKind::not_constant, range, "module global '" + name + "' is defined in terms of itself");
    return Value::error();
  }
  ast::ExprId definition = module_.global_value(name, diagnostics_);
  if (!definition.valid()) return Value::error();
  globals_in_progress_.insert(name);
  Value value = caller.check_global_expr(definition);
  globals_in_progress_.erase(name);
  if (!value.ok() || value.kind != Value::Kind::expr) return value;
  auto not_constant = [&] {
    caller.error(DiagKind::not_constant, range,
                 "module global '" + name + "' is not a compile-time constant",
                 "kernels see module globals as constants: numbers, tuples of numbers, or "
                 "expressions of them");
    return Value::error();
  };
  const ir::Expr& e = caller.expr(value.expr);
  if (e.kind == ir::ExprKind::make_tuple) {
    std::vector<ir::ExprId> parts;
    for (ir::ExprId part : std::vector<ir::ExprId>(e.args)) {
      auto folded = caller.fold(part);
      if (!folded) return not_constant();
      parts.push_back(caller.make_constant(*folded, caller.expr(part).type, range).expr);
    }
    ir::Expr tuple;
    tuple.kind = ir::ExprKind::make_tuple;
    tuple.args = std::move(parts);
    tuple.type = value.type;
    tuple.range = range;
    return caller.value_of(caller.add(std::move(tuple)));
  }
  auto folded = caller.fold(value.expr);
  if (!folded) return not_constant();
  return caller.make_constant(*folded, value.type, range);
}

Value FunctionChecker::check_global_expr(ast::ExprId id) {
  // A global's expression sees module names only, never the caller's locals.
  ++global_depth_;
  Value value = check_expr(id);
  --global_depth_;
  return value;
}

}  // namespace pykern::sema
