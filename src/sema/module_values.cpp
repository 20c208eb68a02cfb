#include "sema/module_values.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

namespace {

constexpr const char* finfo_name = "numpy.finfo";
constexpr const char* iinfo_name = "numpy.iinfo";

// The one type argument of np.finfo / np.iinfo, as np.dtype() reads it; nullopt after reporting.
std::optional<Type> info_type(FunctionChecker& c, const CallSite& call, const char* function) {
  if (!want_args(c, call, 1, 1)) return std::nullopt;
  std::optional<Type> type = import_time_dtype(call.args[0]);
  if (!type && call.args[0].kind == Value::Kind::expr && call.args[0].type.is_numeric())
    type = call.args[0].type;  // np.finfo(x): the type of a scalar value
  if (!type) {
    c.error(DiagKind::type_mismatch, call.range, fmt::format("{}() takes a NumPy scalar type or its name", function),
            fmt::format("e.g. {}(np.float32) or {}(\"float64\")", function, function));
    return std::nullopt;
  }
  return type;
}

Value info_value(const char* name, Type type) {
  Value info;
  info.kind = Value::Kind::type;
  info.type = std::move(type);
  info.name = name;
  return info;
}

// NumPy's finfo fields for an IEEE binary format with `mantissa` stored bits and `exponent`
// bits; `type` is the float type the float fields have (np.finfo(np.float32).eps is a float32).
std::optional<Value> finfo_field(FunctionChecker& c, const Type& type, const std::string& attr, SourceRange range) {
  int bits = type.bits, mantissa = bits == 16 ? 10 : bits == 32 ? 23 : 52, exponent = bits - 1 - mantissa;
  int max_exponent = 1 << (exponent - 1);   // maxexp: 16, 128, 1024
  int min_exponent = 2 - max_exponent;      // minexp: -14, -126, -1022
  int precision = bits == 16 ? 3 : bits == 32 ? 6 : 15;
  auto real = [&](double v) { return c.make_constant({v}, type, range); };
  auto integer = [&](int64_t v) { return c.make_constant({v}, Type::i64(), range); };
  double largest = std::ldexp(2.0 - std::ldexp(1.0, -mantissa), max_exponent - 1);
  if (attr == "eps") return real(std::ldexp(1.0, -mantissa));
  if (attr == "epsneg") return real(std::ldexp(1.0, -mantissa - 1));
  if (attr == "max") return real(largest);
  if (attr == "min") return real(-largest);
  if (attr == "tiny" || attr == "smallest_normal") return real(std::ldexp(1.0, min_exponent));
  if (attr == "smallest_subnormal") return real(std::ldexp(1.0, min_exponent - mantissa));
  if (attr == "resolution") return c.cast(c.make_constant({std::pow(10.0, -precision)}, Type::f64(), range), type, range);
  if (attr == "bits") return integer(bits);
  if (attr == "precision") return integer(precision);
  if (attr == "maxexp") return integer(max_exponent);
  if (attr == "minexp") return integer(min_exponent);
  if (attr == "nmant") return integer(mantissa);
  if (attr == "nexp" || attr == "iexp") return integer(exponent);
  if (attr == "machep") return integer(-mantissa);
  if (attr == "negep") return integer(-mantissa - 1);
  if (attr == "dtype") return Value::dtype(type);
  return std::nullopt;
}

std::optional<Value> iinfo_field(FunctionChecker& c, const Type& type, const std::string& attr, SourceRange range) {
  // iinfo's min and max are Python ints: Numba types them int64, or uint64 above int64's range.
  if (attr == "bits") return c.make_constant({int64_t(type.bits)}, Type::i64(), range);
  if (attr == "dtype") return Value::dtype(type);
  if (attr == "min") {
    int64_t least = type.is_signed ? (type.bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (type.bits - 1))) : 0;
    return c.make_constant({least}, Type::i64(), range);
  }
  if (attr == "max") {
    if (!type.is_signed && type.bits == 64) return c.make_constant({std::numeric_limits<uint64_t>::max()}, Type::u64(), range);
    int64_t most = type.bits == 64 ? std::numeric_limits<int64_t>::max()
                                   : (int64_t(1) << (type.bits - (type.is_signed ? 1 : 0))) - 1;
    return c.make_constant({most}, Type::i64(), range);
  }
  return std::nullopt;
}

// The NumPy scalar type a dtype's `.type` is, as a callable type value (np.float32).
Value scalar_type_value(const Type& type) {
  Value value;
  value.kind = Value::Kind::type;
  value.type = type;
  value.name = "numpy." + (type.is(TypeKind::boolean) ? std::string("bool_") : to_string(type));
  return value;
}

bool is_dtype_value(const Value& value) {
  return value.kind == Value::Kind::type && (value.name == "numpy.dtype" || value.name == "dtype");
}

}  // namespace

std::optional<Type> import_time_dtype(const Value& value) {
  if (value.kind == Value::Kind::qualified) {
    if (value.name == "builtins.float") return Type::f64();
    if (value.name == "builtins.int") return Type::i64();
    if (value.name == "builtins.bool") return Type::boolean();
    if (value.name == "builtins.complex") return Type::complex(128);
    return std::nullopt;
  }
  return dtype_of(value);
}

Value numpy_finfo(FunctionChecker& c, const CallSite& call) {
  auto type = info_type(c, call, "np.finfo");
  if (!type) return Value::error();
  if (type->is(TypeKind::complex)) type = Type::float_(type->bits / 2);  // a complex's parts
  if (!type->is(TypeKind::floating)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("np.finfo() takes a floating-point type, not '{}' (NumPy raises ValueError)", to_string(*type)),
            "use np.iinfo for integer types");
    return Value::error();
  }
  return info_value(finfo_name, *type);
}

Value numpy_iinfo(FunctionChecker& c, const CallSite& call) {
  auto type = info_type(c, call, "np.iinfo");
  if (!type) return Value::error();
  if (!type->is(TypeKind::integer)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("np.iinfo() takes an integer type, not '{}' (NumPy raises ValueError)", to_string(*type)),
            "use np.finfo for floating-point types");
    return Value::error();
  }
  return info_value(iinfo_name, *type);
}

std::optional<Value> module_value_attribute(FunctionChecker& c, const Value& base, const std::string& attr,
                                            SourceRange range) {
  auto unknown = [&](const char* what) -> std::optional<Value> {
    c.error(DiagKind::unknown_attribute, range, fmt::format("{} has no attribute '{}' pykern knows", what, attr));
    return Value::error();
  };
  if (base.kind == Value::Kind::type && base.name == finfo_name) {
    if (auto field = finfo_field(c, base.type, attr, range)) return field;
    return unknown("np.finfo(...)");
  }
  if (base.kind == Value::Kind::type && base.name == iinfo_name) {
    if (auto field = iinfo_field(c, base.type, attr, range)) return field;
    return unknown("np.iinfo(...)");
  }
  if (is_dtype_value(base)) {
    if (attr == "type") return scalar_type_value(base.type);  // a.dtype.type(x): a conversion
    if (attr == "itemsize") return c.make_constant({int64_t(base.type.itemsize())}, Type::i64(), range);
    return std::nullopt;
  }
  if (base.kind == Value::Kind::expr && !base.type.enum_class.empty()) {
    if (attr == "value") {
      Value value = base;
      value.type.enum_class.clear();
      return value;
    }
    if (attr == "name")
      return unknown("an enum member in a kernel (its name is a string, which kernels only print)");
    return unknown("an enum member");
  }
  return std::nullopt;
}

Value enum_class_value(const std::string& name) {
  Value value;
  value.kind = Value::Kind::qualified;
  value.name = enum_class_prefix + name;
  return value;
}

Value enum_member(FunctionChecker& c, const std::string& qualified, SourceRange range) {
  std::string path = qualified.substr(std::string(enum_class_prefix).size());
  size_t dot = path.find('.');
  std::string class_name = path.substr(0, dot);
  const frontend::ModuleEnum* enumeration = c.module().enum_class(class_name);
  if (dot == std::string::npos || !enumeration) return enum_class_value(class_name);
  std::string member_name = path.substr(dot + 1);
  // Numba types the class from all its members' values (typeof: an int is int64, a float
  // float64), and refuses an enum without members or with values of several types. Python's
  // auto() counts on from the previous value (from 1); in a Flag or IntFlag it takes the next
  // power of two.
  std::vector<ir::Constant> values;
  std::optional<Type> member_type;
  for (const frontend::ModuleEnum::Member& member : enumeration->members) {
    std::optional<ir::Constant> value;
    Type type = Type::i64();
    if (member.automatic) {
      int64_t last = values.empty() ? 0 : values.back().as_int();
      int64_t next = last + 1;
      if (enumeration->is_flag)
        for (next = 1; next <= last && next > 0;) next <<= 1;
      value = ir::Constant{values.empty() ? int64_t(1) : next};
    } else if (member.value.valid() && c.module().ast()[member.value].kind == ast::ExprKind::string) {
      c.error(DiagKind::type_mismatch, range,
              fmt::format("the enum '{}' has string values ('{}.{}'), which kernels cannot hold", class_name,
                          class_name, member.name),
              "give its members integer values, or compare the members themselves");
      return Value::error();
    } else if (member.value.valid()) {
      Value checked = c.check_global_expr(member.value);
      if (!checked.ok()) return Value::error();
      if (checked.kind == Value::Kind::expr) value = c.fold(checked.expr);
      type = checked.type;
    }
    if (!value || !(type.is_integer_like() || type.is(TypeKind::floating))) {
      c.error(DiagKind::not_constant, range,
              fmt::format("the member '{}.{}' is not a number pykern can fold", class_name, member.name),
              "kernels read enum members whose values are integer or float constants");
      return Value::error();
    }
    if (type.is(TypeKind::integer)) type = Type::i64();  // a Python int
    if (type.is(TypeKind::floating)) type = Type::f64();  // a Python float
    if (member_type && *member_type != type) {
      c.error(DiagKind::type_mismatch, range,
              fmt::format("cannot type heterogeneous enum '{}': its values are {} and {} (Numba's ValueError)",
                          class_name, to_string(*member_type), to_string(type)),
              "give every member a value of one type");
      return Value::error();
    }
    member_type = type;
    values.push_back(*value);
  }
  for (size_t i = 0; i < enumeration->members.size(); ++i) {
    if (enumeration->members[i].name != member_name) continue;
    ir::Expr constant;
    constant.kind = ir::ExprKind::constant;
    constant.constant = values[i];
    constant.type = *member_type;
    constant.type.enum_class = class_name;
    constant.range = range;
    return c.value_of(c.add(std::move(constant)));
  }
  c.error(DiagKind::unknown_attribute, range, fmt::format("the enum '{}' has no member '{}'", class_name, member_name));
  return Value::error();
}

std::optional<Value> enum_subscript(FunctionChecker& c, const Value& base, ast::ExprId index, SourceRange range) {
  if (base.kind != Value::Kind::qualified || base.name.rfind(enum_class_prefix, 0) != 0) return std::nullopt;
  const ast::Expr& key = c.module().ast()[index];
  if (key.kind != ast::ExprKind::string) {
    c.error(DiagKind::bad_index, range, "an enum class is indexed by a member's name, a string literal",
            "e.g. Color[\"red\"]");
    return Value::error();
  }
  return enum_member(c, base.name + "." + key.text, range);
}

}  // namespace pykern::sema
