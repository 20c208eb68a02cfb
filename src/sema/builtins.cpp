// The Python names kernels and @jit functions call without defining them: one table from
// qualified name to typing rule, filled by one file per family (sema/builtin_rules.h). Each rule
// makes calls of the runtime operations of sema/calls.def, whose flags the later passes read.
#include "sema/builtins.h"

#include <cmath>
#include <numbers>
#include <set>

#include <fmt/format.h>

#include "sema/builtin_rules.h"
#include "sema/dictionaries.h"
#include "sema/lists.h"
#include "sema/module_values.h"
#include "sema/zero_d.h"

namespace pykern::sema {

std::string short_name(const std::string& qualified) { return qualified.substr(qualified.rfind('.') + 1); }

bool want_args(FunctionChecker& c, const CallSite& call, size_t min, size_t max) {
  if (call.args.size() >= min && call.args.size() <= max && call.keywords.empty()) return true;
  std::string expected = min == max ? std::to_string(min) : fmt::format("{} to {}", min, max);
  c.error(DiagKind::wrong_arity, call.range,
          fmt::format("{}() takes {} argument{} ({} given)", short_name(call.name), expected, max == 1 ? "" : "s",
                      call.args.size() + call.keywords.size()));
  return false;
}

bool want_numeric(FunctionChecker& c, const CallSite& call, const Value& v) {
  if (v.type.is_numeric()) return true;
  c.error(DiagKind::type_mismatch, call.range,
          fmt::format("{}() needs a number, not '{}'", short_name(call.name), to_string(v.type)));
  return false;
}

Handler nullary(ir::Op op, Type type) {
  return [op, type](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 0, 0)) return Value::error();
    return c.make_call(op, {}, type, call.range);
  };
}

Handler fixed(ir::Op op, std::vector<Type> parameters, Type result) {
  return [op, parameters, result](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, parameters.size(), parameters.size())) return Value::error();
    std::vector<ir::ExprId> args;
    for (size_t i = 0; i < parameters.size(); ++i) {
      if (!call.args[i].type.is_numeric()) {
        c.error(DiagKind::type_mismatch, call.range,
                fmt::format("argument {} of {}() must be a number", i + 1, short_name(call.name)));
        return Value::error();
      }
      args.push_back(c.cast_expr(call.args[i].expr, parameters[i]));
    }
    return c.make_call(op, args, result, call.range);
  };
}

namespace {

const HandlerTable& handlers() {
  static const HandlerTable table = [] {
    HandlerTable t;
    add_math_builtins(t);
    add_python_builtins(t);
    add_numpy_builtins(t);
    add_cuda_builtins(t);
    add_atomic_and_warp_builtins(t);
    add_random_builtins(t);
    add_host_builtins(t);
    add_dict_builtins(t);
    add_array_builtins(t);
    add_reduction_builtins(t);
    add_iterable_builtins(t);
    add_linalg_builtins(t);
    add_shape_builtins(t);
    add_sorting_builtins(t);
    add_list_builtins(t);  // after the array methods of the same names (copy, sort)
    add_ufunc_builtins(t);  // wraps the NumPy scalar rules above
    add_text_builtins(t);   // wraps len()
    add_numba_builtins(t);
    add_numpy_misc_builtins(t);  // wraps the ufuncs' rules
    add_text_method_builtins(t);  // wraps list.count, float()
    add_heapq_builtins(t);
    add_diag_window_builtins(t);
    return t;
  }();
  return table;
}

const std::map<std::string, double>& float_constants() {
  static const std::map<std::string, double> constants = {
      {"math.pi", std::numbers::pi},   {"math.e", std::numbers::e},   {"math.tau", 2 * std::numbers::pi},
      {"math.inf", INFINITY},          {"math.nan", NAN},             {"numpy.pi", std::numbers::pi},
      {"numpy.e", std::numbers::e},    {"numpy.inf", INFINITY},       {"numpy.nan", NAN},
      {"numpy.NaN", NAN},              {"numpy.Inf", INFINITY},       {"numpy.euler_gamma", 0.5772156649015329},
      {"cmath.pi", std::numbers::pi},  {"cmath.e", std::numbers::e},  {"cmath.tau", 2 * std::numbers::pi},
      {"cmath.inf", INFINITY},         {"cmath.nan", NAN}};
  return constants;
}

std::optional<double> float_constant(const std::string& name) {
  auto found = float_constants().find(name);
  if (found == float_constants().end()) return std::nullopt;
  return found->second;
}

// Where Numba's type objects live: today's numba-cuda exports them from numba.cuda and
// numba.cuda.types too (from numba.cuda import void, float32, double).
constexpr const char* type_modules[] = {"numba.types.", "numba.", "numpy.", "numba.core.types.", "numba.cuda.types.",
                                        "numba.cuda."};

// The names type_value() accepts: every type module with every scalar name it takes, and
// void/none/bool spellings, kept where type_value() says they are types.
std::vector<std::string> type_names() {
  std::vector<std::string> names = {"numba.cuda.random.xoroshiro128p_type"};
  for (std::string prefix : type_modules) {
    std::vector<std::string> rests = prefix == "numpy." ? numpy_scalar_type_names() : scalar_type_names();
    for (const char* spelling : {"void", "none", "bool_", "bool", "boolean", "b1"}) rests.push_back(spelling);
    for (const std::string& rest : rests)
      if (type_value(prefix + rest)) names.push_back(prefix + rest);
  }
  return names;
}

}  // namespace

std::optional<Type> type_value(const std::string& name) {
  for (const char* prefix : type_modules) {
    std::string p(prefix);
    if (name.rfind(p, 0) != 0) continue;
    std::string rest = name.substr(p.size());
    if (rest == "void" || rest == "none") return Type::void_();
    if (p == "numpy." && (rest == "bool_" || rest == "bool")) return Type::boolean();
    if (p != "numpy." && (rest == "boolean" || rest == "b1")) return Type::boolean();
    if (auto scalar = p == "numpy." ? numpy_scalar_type_named(rest) : scalar_type_named(rest)) return scalar;
  }
  if (name == "numba.cuda.random.xoroshiro128p_type") return Type::xoroshiro128p_record();
  return std::nullopt;
}

namespace {
const std::set<std::string>& builtin_statement_forms() {
  static const std::set<std::string> forms = {"print", "enumerate", "zip", "ord"};
  return forms;
}
}  // namespace

// A builtin is one the handler table types (builtins.NAME), or one read by a statement form
// (print, and enumerate/zip in for loops) or of a string literal (ord; float is in the table).
bool is_python_builtin(const std::string& name) {
  return builtin_statement_forms().count(name) > 0 || handlers().count("builtins." + name) > 0;
}

std::vector<std::string> python_builtin_names() {
  std::vector<std::string> names(builtin_statement_forms().begin(), builtin_statement_forms().end());
  for (const auto& [name, builtin] : handlers())
    if (name.rfind("builtins.", 0) == 0) names.push_back(name.substr(9));
  return names;
}

const std::set<std::string>& known_qualified_names() {
  static const std::set<std::string> names = [] {
    std::set<std::string> all = {prange_name, shared_array_name, local_array_name, newaxis_name};
    for (const auto& [name, builtin] : handlers())
      if (name.rfind("method.", 0) != 0) all.insert(name);
    for (const std::string& name : cuda_intrinsic_names()) all.insert(name);
    for (const auto& [name, value] : float_constants()) all.insert(name);
    for (const std::string& name : type_names()) all.insert(name);
    return all;
  }();
  return names;
}

Value resolve_qualified(FunctionChecker& checker, const std::string& name, SourceRange range) {
  if (name.rfind(enum_class_prefix, 0) == 0) return enum_member(checker, name, range);  // Color.RED
  if (auto intrinsic = cuda_intrinsic_value(name)) return checker.make_call(*intrinsic, {}, Type::i32(), range);
  if (checker.on_host() && (name == "numpy.NaN" || name == "numpy.Inf")) {
    // Kernels follow numba-cuda with Debian's NumPy 1, which has them; NumPy 2 (Numba 0.68's)
    // removed them, so a @jit function on the host reading one does not compile there.
    std::string attr = name.substr(6);
    checker.error(DiagKind::unknown_attribute, range,
                  fmt::format("np.{} was removed in NumPy 2.0, the NumPy Numba 0.68 runs with", attr),
                  attr == "NaN" ? "use np.nan" : "use np.inf");
    return Value::error();
  }
  if (auto constant = float_constant(name)) return checker.make_constant({*constant}, Type::f64(), range);
  if (name == newaxis_name) return checker.make_constant({int64_t(0)}, Type::none(), range);  // np.newaxis is None
  if (auto type = type_value(name)) {
    Value value;
    value.kind = Value::Kind::type;
    value.type = *type;
    value.name = name;
    return value;
  }
  Value value;
  value.kind = Value::Kind::qualified;
  value.name = name;
  return value;
}

Value call_builtin(FunctionChecker& checker, const CallSite& call) {
  auto found = handlers().find(call.name);
  if (found == handlers().end()) {
    std::string shown = call.name.rfind("builtins.", 0) == 0 ? call.name.substr(9) : call.name;
    std::string hint;
    if (call.name == "builtins.enumerate" || call.name == "builtins.zip")
      hint = "use it directly as the iterable of a for loop";
    else if (call.name.rfind("numpy.", 0) == 0)
      hint = "kernels support NumPy's scalar math functions and types, not array functions";
    checker.error(DiagKind::unknown_function, call.range, "'" + shown + "' is not supported in " + checker.refusal_place(),
                  hint);
    return Value::error();
  }
  for (const Value& arg : call.args)
    if (!arg.ok()) return Value::error();
  auto taken = zero_d_call(checker, call);  // a 0-d array argument: as the rule takes it (sema/zero_d.cpp)
  if (!taken) return Value::error();
  return found->second.rule(checker, *taken);
}

bool builtin_takes_types(const std::string& name) {
  auto found = handlers().find(name);
  return found != handlers().end() && found->second.takes_types;
}

bool builtin_takes_strings(const std::string& name) {
  auto found = handlers().find(name);
  return found != handlers().end() && found->second.takes_strings;
}

std::optional<Type> dtype_named(const std::string& text) {
  // NumPy's byte-order marks: little-endian and native are this machine's order; '|' means
  // not applicable. A big-endian dtype is not one pykern has.
  std::string name = text;
  if (!name.empty() && (name[0] == '<' || name[0] == '=' || name[0] == '|')) name = name.substr(1);
  static const std::pair<const char*, Type> numpy_names[] = {
      {"bool", Type::boolean()},      {"?", Type::boolean()},          {"b1", Type::boolean()},
      {"int8", Type::int_(8)},        {"i1", Type::int_(8)},           {"b", Type::int_(8)},
      {"int16", Type::int_(16)},      {"i2", Type::int_(16)},          {"h", Type::int_(16)},
      {"int32", Type::int_(32)},      {"i4", Type::int_(32)},          {"i", Type::int_(32)},
      {"int64", Type::int_(64)},      {"i8", Type::int_(64)},          {"l", Type::int_(64)},
      {"q", Type::int_(64)},          {"int", Type::int_(64)},         {"intp", Type::int_(64)},
      {"uint8", Type::int_(8, false)}, {"u1", Type::int_(8, false)},   {"B", Type::int_(8, false)},
      {"uint16", Type::int_(16, false)}, {"u2", Type::int_(16, false)}, {"H", Type::int_(16, false)},
      {"uint32", Type::int_(32, false)}, {"u4", Type::int_(32, false)}, {"I", Type::int_(32, false)},
      {"uint64", Type::int_(64, false)}, {"u8", Type::int_(64, false)}, {"L", Type::int_(64, false)},
      {"Q", Type::int_(64, false)},   {"uint", Type::int_(64, false)}, {"uintp", Type::int_(64, false)},
      {"float16", Type::float_(16)},  {"f2", Type::float_(16)},        {"e", Type::float_(16)},
      {"float32", Type::f32()},       {"f4", Type::f32()},             {"f", Type::f32()},
      {"float64", Type::f64()},       {"f8", Type::f64()},             {"d", Type::f64()},
      {"float", Type::f64()},         {"double", Type::f64()},         {"complex64", Type::complex(64)},
      {"c8", Type::complex(64)},      {"F", Type::complex(64)},        {"complex128", Type::complex(128)},
      {"c16", Type::complex(128)},    {"D", Type::complex(128)},       {"complex", Type::complex(128)}};
  for (const auto& [known, type] : numpy_names)
    if (name == known) return type;
  return std::nullopt;
}

std::optional<Type> dtype_of(const Value& value) {
  if (value.kind != Value::Kind::type || !value.type.is_scalar()) return std::nullopt;
  return value.type;
}

// An argument where Python passes a type or a dtype: a string literal names a NumPy dtype
// ("float64", as np.dtype() reads it); anything else is checked as usual.
Value FunctionChecker::check_type_argument(ast::ExprId id) {
  const ast::Expr& e = module().ast()[id];
  if (e.kind != ast::ExprKind::string) return check_expr(id);
  std::optional<Type> dtype = dtype_named(e.text);
  if (!dtype) {
    error(DiagKind::bad_argument, e.range, "this string names no NumPy dtype",
          "name one such as \"float32\" or \"f8\", or pass the type: np.float32");
    return Value::error();
  }
  Value value = Value::dtype(*dtype);
  value.name = string_dtype_name;  // some rules take no string (np.arange's dtype)
  return value;
}

// ---------------------------------------------------------------- calls

// An argument of a builtin that takes string literals (np.searchsorted's side="left"): the
// literal as a compile-time value; anything else is checked as usual.
Value FunctionChecker::check_string_or_expr(ast::ExprId id) {
  const ast::Expr& e = module().ast()[id];
  if (e.kind == ast::ExprKind::string) return Value::string_literal(e.text);
  return check_expr(id);
}

Value FunctionChecker::check_call(ast::ExprId id) {
  const ast::Expr& e = module().ast()[id];
  const ast::Expr& callee_ast = module().ast()[e.operands[0]];
  Value callee;
  if (callee_ast.kind == ast::ExprKind::attribute &&
      (handlers().count("method." + callee_ast.text) || is_dict_method(callee_ast.text))) {
    // value.method(...): the value is the method's first argument; an Optional's value, as
    // Numba's OptionalAttribute resolves it on the type inside (TypeError for a None).
    Value base = unwrap_optional(check_expr(callee_ast.operands[0]), module().ast()[callee_ast.operands[0]].range);
    if (base.kind == Value::Kind::expr) {
      // Arguments may be types (a.view(np.int32)): each method checks what it takes.
      CallSite call{method_handler_name(base.type, callee_ast.text), {base}, {}, e.range};  // a dict's: "dict.get"
      if (!handlers().count(call.name)) {
        error(DiagKind::unknown_attribute, callee_ast.range,
              "a value of type '" + to_string(base.type) + "' has no attribute '" + callee_ast.text + "'");
        return Value::error();
      }
      if (callee_ast.text == "__delitem__" && base.type.is(TypeKind::list) && e.operands.size() == 2 &&
          module().ast()[e.operands[1]].kind == ast::ExprKind::slice)  // del l[a:b:c] (sema/list_slices.cpp)
        return delete_list_slice(*this, base, e.operands[1], e.range);
      bool method_takes_types = builtin_takes_types(call.name);  // a.astype("float32")
      bool strings = builtin_takes_strings(call.name);            // a.sort(kind="mergesort")
      auto argument = [&](ast::ExprId id) {
        return method_takes_types ? check_type_argument(id) : strings ? check_string_or_expr(id) : check_expr(id);
      };
      for (size_t i = 1; i < e.operands.size(); ++i) {
        call.args.push_back(argument(e.operands[i]));
        if (!call.args.back().ok()) return Value::error();
      }
      for (const ast::Keyword& keyword : e.keywords) {
        call.keywords.push_back({keyword.name, argument(keyword.value)});
        if (!call.keywords.back().second.ok()) return Value::error();
      }
      return call_builtin(*this, call);
    }
    callee = base.ok() ? attribute_of(base, callee_ast.text, callee_ast.range) : base;
  } else if (callee_ast.kind == ast::ExprKind::attribute) {
    Value base = check_expr(callee_ast.operands[0]);
    if (base.ok())  // f.reduce(a) of a @vectorize function; np.add.reduce, which Numba refuses
      if (auto method = call_ufunc_method(base, callee_ast.text, e)) return *method;
    callee = base.ok() ? attribute_of(base, callee_ast.text, callee_ast.range) : base;
  } else {
    callee = check_expr(e.operands[0]);
  }
  if (!callee.ok()) return callee;
  if (callee.kind == Value::Kind::qualified)  // Dict.empty(key_type=types.int64, ...) reads its arguments as types
    if (auto made = dict_constructor(*this, e, callee.name)) return *made;
  // float("inf"), float("-nan"), float(" 1e-3 "): Python parses the literal, so the compile does.
  // ord("A") likewise.
  if (callee.kind == Value::Kind::qualified && (callee.name == "builtins.float" || callee.name == "builtins.ord") &&
      e.operands.size() == 2 && e.keywords.empty() && module().ast()[e.operands[1]].kind == ast::ExprKind::string)
    return callee.name == "builtins.ord" ? ord_of_literal(*this, module().ast()[e.operands[1]])
                                         : float_of_literal(*this, module().ast()[e.operands[1]]);
  // np.array([[1, 2], [3, 4]]): a nested list display is read as the array's items.
  if (callee.kind == Value::Kind::qualified && (callee.name == "numpy.array" || callee.name == "numpy.asarray") &&
      e.operands.size() >= 2) {
    ast::ExprKind first = module().ast()[e.operands[1]].kind;
    if (first == ast::ExprKind::list || first == ast::ExprKind::tuple) return array_of_display(*this, e, callee.name);
  }
  // Device functions also take compile-time arguments (types, functions, literals), and so do
  // the builtins that take types (np.dtype(np.float32)); every other callee takes run-time values.
  bool takes_types = callee.kind == Value::Kind::qualified && builtin_takes_types(callee.name);
  bool takes_static = callee.kind == Value::Kind::function || takes_types;
  bool takes_strings = callee.kind == Value::Kind::qualified && builtin_takes_strings(callee.name);
  // Numba converts Optional(T) to T for the arguments of most builtins (math.sqrt(r), abs, min,
  // int, range, an atomic's value and 1-d index, which it types intp), not for float(), bool(),
  // a type's conversion (np.float32(r)) or print; a device function is specialised on the
  // Optional itself.
  bool unwraps = callee.kind == Value::Kind::qualified && !takes_types && callee.name != "builtins.print" &&
                 callee.name != "builtins.float" && callee.name != "builtins.bool" &&
                 callee.name != "numba.cuda.__pk_export_value";  // a host call's Optional result, None included
  std::vector<Value> args;
  for (size_t i = 1; i < e.operands.size(); ++i) {
    const ast::Expr& operand = module().ast()[e.operands[i]];
    if (operand.kind == ast::ExprKind::starred) {
      // f(*args): the tuple's items, each a positional argument.
      Value tuple = as_runtime(check_expr(operand.operands[0]), operand.range);
      if (!tuple.ok()) return Value::error();
      if (!tuple.type.is(TypeKind::tuple)) {
        error(DiagKind::type_mismatch, operand.range, "*" + to_string(tuple.type) + " is not a tuple",
              "unpack a tuple, such as a function's *args");
        return Value::error();
      }
      for (size_t k = 0; k < tuple.type.elements.size(); ++k) args.push_back(element_of_tuple(tuple, k, operand.range));
      continue;
    }
    if (takes_strings && operand.kind == ast::ExprKind::string) {
      args.push_back(Value::string_literal(operand.text));
      continue;
    }
    Value arg = takes_types ? check_type_argument(e.operands[i]) : check_expr(e.operands[i]);
    if (!takes_static) arg = as_runtime(arg, module().ast()[e.operands[i]].range);
    if (unwraps) arg = unwrap_optional(arg, module().ast()[e.operands[i]].range);
    if (!arg.ok()) return Value::error();
    args.push_back(arg);
  }
  std::vector<std::pair<std::string, Value>> keywords;
  for (const ast::Keyword& keyword : e.keywords) {
    if (takes_strings && module().ast()[keyword.value].kind == ast::ExprKind::string) {
      keywords.push_back({keyword.name, Value::string_literal(module().ast()[keyword.value].text)});
      continue;
    }
    Value arg = takes_types ? check_type_argument(keyword.value) : check_expr(keyword.value);
    bool sort_key = keyword.name == "key" && callee.kind == Value::Kind::qualified && callee.name == "builtins.sorted";
    if (!takes_static && !sort_key) arg = as_runtime(arg, keyword.range);  // sorted(key=f) takes a function
    if (unwraps) arg = unwrap_optional(arg, keyword.range);
    if (!arg.ok()) return Value::error();
    keywords.push_back({keyword.name, arg});
  }
  switch (callee.kind) {
    case Value::Kind::type: {
      // float32(x), np.int32(x): a conversion.
      if (args.size() > 1 || !keywords.empty()) {
        error(DiagKind::wrong_arity, e.range, "a type conversion takes one value");
        return Value::error();
      }
      if (args.empty()) return cast(make_constant({int64_t(0)}, Type::i64(), e.range), callee.type, e.range);
      if (!args[0].type.is_numeric() || !callee.type.is_numeric()) {
        error(DiagKind::type_mismatch, e.range,
              fmt::format("cannot convert '{}' to '{}'", to_string(args[0].type), to_string(callee.type)));
        return Value::error();
      }
      if (callee.type.is(TypeKind::boolean)) return truth(args[0], e.range);
      return cast(args[0], callee.type, e.range);
    }
    case Value::Kind::qualified:
      return call_builtin(*this, {callee.name, std::move(args), std::move(keywords), e.range});
    case Value::Kind::function: return call_device_function(callee.name, std::move(args), std::move(keywords), e);
    case Value::Kind::expr:
      error(DiagKind::unsupported_operation, e.range, "a value of type '" + to_string(callee.type) + "' is not callable");
      return Value::error();
    case Value::Kind::error: return callee;
  }
  return Value::error();
}

}  // namespace pykern::sema
