// Compile-time evaluation: module globals (TPB = 16, SQRT_2PI = np.float32((2*math.pi)**0.5))
// are folded to constants where a kernel uses them, as Numba freezes globals at compile time.
#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "pykern/runtime.cuh"
#include "pykern/scalar.h"
#include "sema/checker.h"
#include "sema/module_values.h"

namespace pykern::ir {

int64_t Constant::as_int() const {
  if (auto* b = std::get_if<bool>(&value)) return *b;
  if (auto* i = std::get_if<int64_t>(&value)) return *i;
  if (auto* u = std::get_if<uint64_t>(&value)) return static_cast<int64_t>(*u);
  if (auto* d = std::get_if<double>(&value)) return Scalar::saturate(*d);  // C's conversion is undefined past int64
  if (auto* c = std::get_if<std::complex<double>>(&value)) return Scalar::saturate(c->real());
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
      int64_t v = c.as_int();
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
      if (type.bits == 16) d = static_cast<float>(pk::f16(d));
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

// Applies a runtime function to one or two operands of type T, if it takes them.
template <class T, class F> std::optional<T> apply_runtime(F function, T x, T y, size_t arity) {
  if constexpr (std::is_invocable_v<F, T>)
    if (arity == 1) return static_cast<T>(function(x));
  if constexpr (std::is_invocable_v<F, T, T>)
    if (arity == 2) return static_cast<T>(function(x, y));
  return std::nullopt;
}

// Python's operators and math functions fold by calling the runtime header's own functions
// (this file is compiled with -fwrapv, as simulator builds are): the registry's PK_FOLDABLE rows
// name them, and say for which operand types (folds_float, folds_integer) they fold.
template <class T> std::optional<T> fold_runtime_function(ir::Op op, T x, T y, size_t arity) {
  using namespace ir::call_flag;
  constexpr uint32_t domain = std::is_floating_point_v<T> ? folds_float : folds_integer;
  switch (op) {
#define PK_CALL(id, spelling, flags)
#define PK_FOLDABLE(id, function, flags)                                                                   \
  case ir::Op::id:                                                                                       \
    if constexpr (((flags) & domain) != 0)                                                               \
      return apply_runtime<T>([](auto... v) -> decltype(function(v...)) { return function(v...); }, x, y, \
                              arity);                                                                    \
    return std::nullopt;
#include "sema/calls.def"
#undef PK_FOLDABLE
#undef PK_CALL
    default: return std::nullopt;
  }
}

// A checked operation's unchecked one (itself for any other).
ir::Op unchecked_operation(ir::Op op) {
  if (op == ir::Op::checked_mod) return ir::Op::mod;
  if (op == ir::Op::checked_floordiv) return ir::Op::floordiv;
  if (op == ir::Op::checked_pow) return ir::Op::pow;
  return op;
}

// Whether a checked operation raises ZeroDivisionError for these operands.
bool would_raise(ir::Op op, const ir::Constant& a, const ir::Constant& b) {
  if (op == ir::Op::checked_pow) return a.as_double() == 0 && b.as_double() < 0;
  return b.as_double() == 0;
}

// Python's operators and math functions fold by calling the runtime header's own functions
// (this file is compiled with -fwrapv, as simulator builds are), in the kernel's own precision,
// so a folded value is exactly the value the kernel would compute: one rule, in one place.
std::optional<ir::Constant> fold_runtime_call(ir::Op op, const Type& type, const Type& right_type,
                                              const std::vector<ir::Constant>& values) {
  if (values.empty() || values.size() > 2 || !ir::call_has(op, ir::call_flag::foldable)) return std::nullopt;
  const ir::Constant& a = values[0];
  const ir::Constant& b = values.size() == 2 ? values[1] : values[0];
  auto wrap = [](auto v) -> std::optional<ir::Constant> {
    if (!v) return std::nullopt;
    return ir::Constant{*v};
  };
  if (type.is(TypeKind::floating) && type.bits == 16) return std::nullopt;  // float16 runs as the kernel does
  if (type.is(TypeKind::floating) && op == ir::Op::pow && right_type.is_integer_like()) {  // repeated multiplication
    if (type.bits == 32) return ir::Constant{double(pk::pow(float(a.as_double()), b.as_int()))};
    return ir::Constant{pk::pow(a.as_double(), b.as_int())};
  }
  if (type.is(TypeKind::floating) && op == ir::Op::pow)
    return type.bits == 32 ? ir::Constant{double(pk::fpow(float(a.as_double()), float(b.as_double())))}
                           : ir::Constant{pk::fpow(a.as_double(), b.as_double())};
  if (type.is(TypeKind::floating) && type.bits == 32) {
    auto v = fold_runtime_function<float>(op, float(a.as_double()), float(b.as_double()), values.size());
    return v ? std::optional<ir::Constant>(ir::Constant{double(*v)}) : std::nullopt;
  }
  if (type.is(TypeKind::floating)) return wrap(fold_runtime_function<double>(op, a.as_double(), b.as_double(), values.size()));
  if (type.is(TypeKind::integer) && !type.is_signed)
    return wrap(fold_runtime_function<uint64_t>(op, uint64_t(a.as_int()), uint64_t(b.as_int()), values.size()));
  if (type.is(TypeKind::integer)) return wrap(fold_runtime_function<int64_t>(op, a.as_int(), b.as_int(), values.size()));
  return std::nullopt;
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
      if (e.op == ir::Op::logical_not) return ir::Constant{value->as_int() == 0};
      if (type.is(TypeKind::floating))
        return ir::Constant{e.op == ir::Op::negate ? -value->as_double() : value->as_double()};
      if (type.is(TypeKind::complex)) return ir::Constant{e.op == ir::Op::negate ? -as_complex(*value) : as_complex(*value)};
      int64_t v = value->as_int();
      return convert(ir::Constant{e.op == ir::Op::negate ? int64_t(0 - static_cast<uint64_t>(v)) : e.op == ir::Op::invert ? ~v : v}, type);
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
      const ir::Op op = e.op;  // binary, logical: the operator
      if (values.size() == 2 && (e.kind == ir::ExprKind::binary || e.kind == ir::ExprKind::logical)) {
        const ir::Constant& a = values[0];
        const ir::Constant& b = values[1];
        if (op == ir::Op::logical_and) return ir::Constant{a.as_int() && b.as_int()};
        if (op == ir::Op::logical_or) return ir::Constant{a.as_int() || b.as_int()};
        bool is_float = operand_type.is(TypeKind::floating);
        if (operand_type.is(TypeKind::complex)) {
          // The runtime's complex arithmetic, not std::complex's (whose * and / treat
          // infinities and scaling differently from Numba's).
          std::complex<double> x = as_complex(a), y = as_complex(b);
          pk::complex<double> px(x.real(), x.imag()), py(y.real(), y.imag());
          auto folded = [](pk::complex<double> z) { return ir::Constant{std::complex<double>(z.re, z.im)}; };
          if (op == ir::Op::add) return folded(px + py);
          if (op == ir::Op::sub) return folded(px - py);
          if (op == ir::Op::mul) return folded(px * py);
          if (op == ir::Op::truediv) return folded(px / py);
          if (op == ir::Op::eq) return ir::Constant{px == py};
          if (op == ir::Op::ne) return ir::Constant{px != py};
          return std::nullopt;
        }
        bool is_unsigned = operand_type.is(TypeKind::integer) && !operand_type.is_signed;
        auto compare = [&](auto less, auto equal) -> std::optional<ir::Constant> {
          if (is_float) return ir::Constant{less(a.as_double(), b.as_double()) || equal(a.as_double(), b.as_double())};
          if (is_unsigned) return ir::Constant{less(uint64_t(a.as_int()), uint64_t(b.as_int())) ||
                                               equal(uint64_t(a.as_int()), uint64_t(b.as_int()))};
          return ir::Constant{less(a.as_int(), b.as_int()) || equal(a.as_int(), b.as_int())};
        };
        auto never = [](auto, auto) { return false; };
        auto lt = [](auto x, auto y) { return x < y; };
        auto gt = [](auto x, auto y) { return x > y; };
        auto eq = [](auto x, auto y) { return x == y; };
        auto ne = [](auto x, auto y) { return x != y; };
        if (op == ir::Op::lt) return compare(lt, never);
        if (op == ir::Op::le) return compare(lt, eq);
        if (op == ir::Op::gt) return compare(gt, never);
        if (op == ir::Op::ge) return compare(gt, eq);
        if (op == ir::Op::eq) return compare(never, eq);
        if (op == ir::Op::ne) return compare(never, ne);
        if (is_float) {
          double x = a.as_double(), y = b.as_double(), r;
          if (op == ir::Op::add) r = x + y;
          else if (op == ir::Op::sub) r = x - y;
          else if (op == ir::Op::mul) r = x * y;
          else if (op == ir::Op::truediv) r = x / y;
          else return std::nullopt;
          return convert(ir::Constant{r}, type);
        }
        uint64_t x = static_cast<uint64_t>(a.as_int()), y = static_cast<uint64_t>(b.as_int());
        if (op == ir::Op::add) return convert(ir::Constant{int64_t(x + y)}, type);
        if (op == ir::Op::sub) return convert(ir::Constant{int64_t(x - y)}, type);
        if (op == ir::Op::mul) return convert(ir::Constant{int64_t(x * y)}, type);
        if (op == ir::Op::bit_and) return convert(ir::Constant{int64_t(x & y)}, type);
        if (op == ir::Op::bit_or) return convert(ir::Constant{int64_t(x | y)}, type);
        if (op == ir::Op::bit_xor) return convert(ir::Constant{int64_t(x ^ y)}, type);
        if (op == ir::Op::shift_left && y < 64) return convert(ir::Constant{int64_t(x << y)}, type);
        if (op == ir::Op::shift_right && y < 64) return convert(ir::Constant{a.as_int() >> y}, type);
        return std::nullopt;
      }
      if (e.kind != ir::ExprKind::call) return std::nullopt;
      // Python's error model checks divisors and zero powers at run time (ZeroDivisionError):
      // an operation that would raise is not folded, the others fold as the unchecked one.
      ir::Op runtime = unchecked_operation(e.op);
      if (runtime != e.op && (values.size() != 2 || would_raise(e.op, values[0], values[1]))) return std::nullopt;
      const Type& right_type = e.args.size() == 2 ? expr(e.args[1]).type : type;
      auto folded = fold_runtime_call(runtime, type, right_type, values);
      return folded ? convert(*folded, type) : std::nullopt;
    }
    case ir::ExprKind::select: {
      auto condition = operand(0);
      if (!condition) return std::nullopt;
      auto chosen = operand(condition->as_int() != 0 ? 1 : 2);
      return chosen ? convert(*chosen, type) : std::nullopt;
    }
    default: return std::nullopt;
  }
}

namespace {

// The nested list or tuple literal of np.array([...]): its shape and its leaves in C order;
// false (after reporting) when it is ragged or not a literal.
bool literal_elements(FunctionChecker& c, ast::ExprId id, size_t depth, std::vector<int64_t>& shape,
                      std::vector<ast::ExprId>& leaves) {
  const ast::Expr& e = c.module().ast()[id];
  bool nested = e.kind == ast::ExprKind::list || e.kind == ast::ExprKind::tuple;
  if (!nested) {
    if (depth == shape.size()) {
      leaves.push_back(id);
      return true;
    }
  } else if (depth == shape.size() && leaves.empty()) {
    shape.push_back(static_cast<int64_t>(e.operands.size()));  // the first path down sets the shape
  }
  if (!nested || depth >= shape.size() || shape[depth] != static_cast<int64_t>(e.operands.size()) || shape.size() > 32) {
    c.error(DiagKind::not_constant, e.range, "a module-level array must be a rectangular literal",
            "write np.array([...]) with nested lists of numbers of equal lengths");
    return false;
  }
  for (ast::ExprId operand : e.operands)
    if (!literal_elements(c, operand, depth + 1, shape, leaves)) return false;
  return true;
}

// NumPy's dtype for literal numbers: bool, else int64, else float64.
Type literal_dtype(const std::vector<Type>& types) {
  if (types.empty()) return Type::f64();  // np.array([]) is float64
  bool all_bool = true, any_float = false;
  for (const Type& t : types) {
    all_bool = all_bool && t.is(TypeKind::boolean);
    any_float = any_float || t.is(TypeKind::floating);
  }
  return all_bool ? Type::boolean() : any_float ? Type::f64() : Type::i64();
}

}  // namespace

// LUT = np.array([...], dtype=...): frozen into the program as a read-only constant array.
std::optional<Value> ProgramBuilder::constant_array(FunctionChecker& caller, const std::string& name,
                                                    ast::ExprId definition, SourceRange range) {
  const ast::Expr& call = module_.ast()[definition];
  if (call.kind != ast::ExprKind::call) return std::nullopt;
  auto callee = module_.qualified_name(call.operands[0]);
  if (!callee || (*callee != "numpy.array" && *callee != "numpy.asarray")) return std::nullopt;
  for (size_t i = 0; i < program_.constant_arrays.size(); ++i)
    if (program_.constant_arrays[i].global == name) return array_view(caller, static_cast<int>(i), range);
  auto refuse = [&](const std::string& why, const std::string& hint = {}) -> std::optional<Value> {
    caller.error(DiagKind::not_constant, range, "module global '" + name + "': " + why, hint);
    return Value::error();
  };
  if (call.operands.size() != 2) return refuse("np.array(...) takes one literal here");
  if (auto changed = module_.mutation(name))
    return refuse(fmt::format("it is changed at module level (line {}) by code pykern does not run, so the array "
                              "Numba would freeze is not the literal", module_.file().position(changed->begin).line),
                  "compute the table in its np.array(...) literal");
  ir::ConstantArray array;
  array.global = name;
  std::vector<ast::ExprId> leaves;
  if (!literal_elements(caller, call.operands[1], 0, array.shape, leaves)) return Value::error();
  std::vector<Type> leaf_types;
  for (ast::ExprId leaf : leaves) {
    Value value = caller.check_global_expr(leaf);
    auto folded = value.ok() && value.kind == Value::Kind::expr ? caller.fold(value.expr) : std::nullopt;
    if (!folded) return refuse("its elements must be numbers known at compile time");
    array.values.push_back(*folded);
    leaf_types.push_back(value.type);
  }
  array.dtype = literal_dtype(leaf_types);
  for (const ast::Keyword& keyword : call.keywords) {
    Value dtype = keyword.name == "dtype" ? caller.check_global_expr(keyword.value) : Value::error();
    if (keyword.name != "dtype" || dtype.kind != Value::Kind::type || !dtype.type.is_numeric())
      return refuse("np.array(...) takes only dtype= here, a NumPy scalar type");
    array.dtype = dtype.type;
  }
  if (array.dtype.is(TypeKind::complex) || (array.dtype.is(TypeKind::floating) && array.dtype.bits == 16))
    return refuse("complex and float16 module-level arrays are not supported yet");
  for (ir::Constant& value : array.values) value = *convert(value, array.dtype);
  uint64_t bytes = array.values.size() * static_cast<uint64_t>(array.dtype.itemsize());
  for (const ir::ConstantArray& other : program_.constant_arrays)
    bytes += other.values.size() * static_cast<uint64_t>(other.dtype.itemsize());
  if (bytes > 64 * 1024)
    return refuse(fmt::format("the module-level arrays kernels read need {} bytes of constant memory; CUDA has 64 KiB",
                              bytes),
                  "pass large tables as array arguments");
  program_.constant_arrays.push_back(std::move(array));
  return array_view(caller, static_cast<int>(program_.constant_arrays.size() - 1), range);
}

Value ProgramBuilder::array_view(FunctionChecker& caller, int index, SourceRange range) {
  const ir::ConstantArray& array = program_.constant_arrays[index];
  ir::Expr view;
  view.kind = ir::ExprKind::constant_array;
  view.callee = index;
  view.type = Type::array(array.dtype, static_cast<int>(array.shape.size()), Layout::C);
  view.type.readonly = true;
  view.range = range;
  return caller.value_of(caller.add(std::move(view)));
}

Value ProgramBuilder::global_constant(FunctionChecker& caller, const std::string& name, SourceRange range) {
  if (globals_in_progress_.count(name)) {
    caller.error(DiagKind::not_constant, range, "module global '" + name + "' is defined in terms of itself");
    return Value::error();
  }
  if (module_.enum_class(name)) return enum_class_value(name);
  ast::ExprId definition = module_.global_value(name, diagnostics_);
  if (!definition.valid()) return Value::error();
  if (auto array = constant_array(caller, name, definition, range)) return *array;
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
