// Compile-time evaluation: module globals (TPB = 16, SQRT_2PI = np.float32((2*math.pi)**0.5))
// are folded to constants where a kernel uses them, as Numba freezes globals at compile time.
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <set>
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

// How many module globals are being frozen (nested: one global defined by another): their
// operations are Python's at import, not Numba's in a function. One checker per thread.
thread_local int import_time_folds = 0;

// a / b under Python's error model (a @jit function's host division), on real operands already
// converted to the result type: the plain quotient, rounded once to that type (a double quotient
// of two float32 values rounds to the float32 one); a zero divisor raises at run time, unfolded.
std::optional<ir::Constant> fold_checked_true_division(const std::vector<ir::Constant>& values, const Type& type) {
  if (values.size() != 2 || !type.is(TypeKind::floating) || type.bits == 16) return std::nullopt;
  if (would_raise(ir::Op::checked_truediv, values[0], values[1])) return std::nullopt;
  return convert(ir::Constant{values[0].as_double() / values[1].as_double()}, type);
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
  // A module global's x ** n is Python's at import (C's pow), which Numba freezes; in a function
  // Numba multiplies repeatedly, and the two may differ in the last bit.
  // (float64: a Python float; NumPy's float32 scalars keep the function's rule.)
  if (type.is(TypeKind::floating) && type.bits == 64 && op == ir::Op::pow && right_type.is_integer_like() &&
      import_time_folds > 0)
    return ir::Constant{std::pow(a.as_double(), double(b.as_int()))};
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
      if (e.op == ir::Op::checked_truediv) return fold_checked_true_division(values, type);
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

// NumPy's dtype for literal numbers: bool, else int64, else float64, else complex128.
Type literal_dtype(const std::vector<Type>& types) {
  if (types.empty()) return Type::f64();  // np.array([]) is float64
  bool all_bool = true, any_float = false, any_complex = false;
  for (const Type& t : types) {
    all_bool = all_bool && t.is(TypeKind::boolean);
    any_float = any_float || t.is(TypeKind::floating);
    any_complex = any_complex || t.is(TypeKind::complex);
  }
  return all_bool ? Type::boolean() : any_complex ? Type::complex(128) : any_float ? Type::f64() : Type::i64();
}

}  // namespace

namespace {

// A module-level array as Python builds it at import: NumPy's dtype, shape and values (C order).
struct ArrayValue {
  Type dtype;
  std::vector<int64_t> shape;
  std::vector<ir::Constant> values;
  std::vector<uint8_t> bytes;  // a record array: its elements' bytes instead of values
};

// A scalar's bytes in memory (little-endian, as NumPy stores it on the machines pykern runs on).
void append_bytes(const ir::Constant& value, const Type& type, std::vector<uint8_t>& out) {
  uint8_t bytes[16] = {};
  if (type.is(TypeKind::complex)) {  // the real part, then the imaginary part, as NumPy stores them
    std::complex<double> z = std::holds_alternative<std::complex<double>>(value.value)
                                 ? std::get<std::complex<double>>(value.value)
                                 : std::complex<double>(value.as_double(), 0);
    Type part = Type::float_(type.bits / 2);
    std::vector<uint8_t> parts;
    append_bytes(ir::Constant{z.real()}, part, parts);
    append_bytes(ir::Constant{z.imag()}, part, parts);
    out.insert(out.end(), parts.begin(), parts.end());
    return;
  }
  if (type.is(TypeKind::floating) && type.bits == 16) {
    uint16_t half = pk::f16(value.as_double()).bits;
    std::memcpy(bytes, &half, 2);
  } else if (type.is(TypeKind::floating) && type.bits == 32) {
    float f = static_cast<float>(value.as_double());
    std::memcpy(bytes, &f, 4);
  } else if (type.is(TypeKind::floating)) {
    double d = value.as_double();
    std::memcpy(bytes, &d, 8);
  } else {
    int64_t i = value.as_int();
    std::memcpy(bytes, &i, 8);
  }
  out.insert(out.end(), bytes, bytes + type.itemsize());
}

// The product of the extents; INT64_MAX where it overflows (or an extent is negative), so that a
// size check refuses it rather than seeing a wrapped product.
int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t extent : shape)
    if (extent < 0 || __builtin_mul_overflow(n, extent, &n)) return std::numeric_limits<int64_t>::max();
  return n;
}

// The NumPy functions and methods whose results a kernel may read as a frozen module array.
// Each evaluates at import time as NumPy would; anything else is not an array expression
// (nullopt from eval) or is reported (failed()).
class ArrayEvaluator {
 public:
  ArrayEvaluator(FunctionChecker& c, const std::string& name, SourceRange range) : c_(c), name_(name), range_(range) {}
  bool failed() const { return failed_; }
  std::optional<ArrayValue> eval(ast::ExprId id, int depth = 0);
  // A.sum(), A.mean(), A.max(), A.min() (and np.sum(A), ...) of an array evaluated at import,
  // as NumPy reduces it: nullopt when `id` is no such call.
  std::optional<std::pair<ir::Constant, Type>> reduction(ast::ExprId id);

 private:
  static constexpr int64_t max_elements = 1 << 16;  // 64 KiB of constant memory holds fewer
  const ast::Ast& ast() { return c_.module().ast(); }
  std::optional<ArrayValue> refuse(const std::string& why, const std::string& hint = {}) {
    if (!failed_) c_.error(DiagKind::not_constant, range_, "module global '" + name_ + "': " + why, hint);
    failed_ = true;
    return std::nullopt;
  }
  std::optional<std::pair<ir::Constant, Type>> scalar(ast::ExprId id) {
    if (auto reduced = reduction(id)) return reduced;
    if (failed_) return std::nullopt;
    Value value = c_.check_global_expr(id);
    if (!value.ok()) {
      failed_ = true;
      return std::nullopt;
    }
    auto folded = value.kind == Value::Kind::expr && value.type.is_numeric() ? c_.fold(value.expr) : std::nullopt;
    if (!folded) return std::nullopt;
    return std::make_pair(*folded, value.type);
  }
  std::optional<int64_t> integer(ast::ExprId id, const char* what) {
    auto value = scalar(id);
    if (!value || !value->second.is_integer_like()) {
      refuse(fmt::format("{} must be an integer known at import", what));
      return std::nullopt;
    }
    return value->first.as_int();
  }
  std::optional<std::vector<int64_t>> shape_of(ast::ExprId id) {
    const ast::Expr& e = ast()[id];
    std::vector<int64_t> shape;
    if (e.kind == ast::ExprKind::tuple || e.kind == ast::ExprKind::list) {
      for (ast::ExprId item : e.operands) {
        auto extent = integer(item, "a shape");
        if (!extent) return std::nullopt;
        shape.push_back(*extent);
      }
    } else {
      auto extent = integer(id, "a shape");
      if (!extent) return std::nullopt;
      shape.push_back(*extent);
    }
    for (int64_t extent : shape)
      if (extent < 0) return refuse("negative dimensions are not allowed (NumPy's ValueError)"), std::nullopt;
    if (shape.size() > 32 || element_count(shape) > max_elements) return refuse("the array is too large to freeze into a kernel"), std::nullopt;
    return shape;
  }
  // dtype=: a NumPy type or its name; nullopt when absent, failed() when not a dtype.
  std::optional<Type> dtype_keyword(const ast::Expr& call) {
    for (const ast::Keyword& keyword : call.keywords) {
      if (keyword.name != "dtype") continue;
      Value dtype = c_.check_type_argument(keyword.value);
      auto type = dtype.ok() ? import_time_dtype(dtype) : std::nullopt;
      if (!type || !type->is_numeric()) return refuse("dtype= must be a NumPy scalar type"), std::nullopt;
      return type;
    }
    return std::nullopt;
  }
  // The positional argument `index`, or the keyword `keyword`; invalid when neither is given.
  ast::ExprId argument(const ast::Expr& call, size_t index, const char* keyword) {
    if (call.operands.size() > index + 1) return call.operands[index + 1];
    for (const ast::Keyword& k : call.keywords)
      if (k.name == keyword) return k.value;
    return {};
  }
  bool only_keywords(const ast::Expr& call, std::initializer_list<const char*> allowed, const char* function) {
    for (const ast::Keyword& keyword : call.keywords) {
      bool known = false;
      for (const char* name : allowed) known = known || keyword.name == name;
      if (!known) return refuse(fmt::format("{}() takes no '{}=' here", function, keyword.name)), false;
    }
    return true;
  }
  ArrayValue converted(ArrayValue array, const Type& dtype) {
    for (ir::Constant& value : array.values) value = *convert(value, dtype);
    array.dtype = dtype;
    return array;
  }
  std::optional<ArrayValue> literal(const ast::Expr& call);
  std::optional<Type> record_dtype(ast::ExprId id, bool align, int depth = 0);
  std::optional<ArrayValue> record_literal(ast::ExprId source, const Type& record);
  std::optional<ArrayValue> arange(const ast::Expr& call);
  std::optional<ArrayValue> filled(const ast::Expr& call, const std::string& function);
  std::optional<ArrayValue> linspace(const ast::Expr& call);
  std::optional<ArrayValue> eye(const ast::Expr& call, bool identity);
  std::optional<ArrayValue> method(const ast::Expr& call, const ast::Expr& callee, int depth);
  std::optional<ArrayValue> arithmetic(const ast::Expr& e, int depth);
  std::optional<ArrayValue> ufunc(const std::string& function, const ast::Expr& call, int depth);
  std::optional<ArrayValue> global(const std::string& name, int depth);

  FunctionChecker& c_;
  const std::string& name_;
  SourceRange range_;
  bool failed_ = false;
  std::set<std::string> in_progress_;
};

std::optional<ArrayValue> ArrayEvaluator::eval(ast::ExprId id, int depth) {
  if (!id.valid() || depth > 32) return std::nullopt;
  const ast::Expr& e = ast()[id];
  if (e.kind == ast::ExprKind::name) {
    if (c_.module().function(e.text) || c_.module().imported(e.text) || !c_.module().has_global(e.text)) return std::nullopt;
    return global(e.text, depth);
  }
  if (e.kind == ast::ExprKind::binary || e.kind == ast::ExprKind::unary) return arithmetic(e, depth);
  if (e.kind == ast::ExprKind::attribute && e.text == "T") {
    auto base = eval(e.operands[0], depth + 1);
    if (!base) return std::nullopt;
    if (base->dtype.is(TypeKind::record)) return refuse("a module record array is read as its np.array(...) literal");
    if (base->shape.size() != 2) return base;  // a 1-d array is its own transpose; higher: not handled
    ArrayValue t = *base;
    int64_t rows = base->shape[0], cols = base->shape[1];
    t.shape = {cols, rows};
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) t.values[j * rows + i] = base->values[i * cols + j];
    return t;
  }
  if (e.kind != ast::ExprKind::call) return std::nullopt;
  const ast::Expr& callee = ast()[e.operands[0]];
  auto qualified = c_.module().qualified_name(e.operands[0]);
  if (!qualified) {
    if (callee.kind == ast::ExprKind::attribute) return method(e, callee, depth);
    return std::nullopt;
  }
  const std::string& f = *qualified;
  // np.asfortranarray: the same values by index; pykern lays every frozen array out in C order.
  if (f == "numpy.array" || f == "numpy.asarray" || f == "numpy.ascontiguousarray" || f == "numpy.asfortranarray" ||
      f == "numpy.copy")
    return literal(e);
  if (f == "numba.cuda.to_device") {
    // numba-cuda captures a module-level device array by pointer; pykern freezes its values,
    // read-only, as for a NumPy array: the same values, since nothing else can change them.
    if (!only_keywords(e, {"stream", "copy", "to"}, "cuda.to_device")) return std::nullopt;
    if (e.operands.size() != 2) return refuse("cuda.to_device(...) takes the host array here");
    auto host = eval(e.operands[1], depth + 1);
    if (!host && !failed_) return refuse("cuda.to_device(...) needs an array pykern can evaluate at import",
                                         "build it with np.array([...]), np.arange, np.zeros, ... at module level");
    return host;
  }
  if (f == "numba.cuda.device_array" || f == "numba.cuda.device_array_like" || f == "numba.cuda.pinned_array" ||
      f == "numba.cuda.mapped_array" || f == "numba.cuda.managed_array")
    return refuse("a module-level device array made by " + f.substr(6) +
                      "() is state kernels share through its pointer in numba-cuda; pykern freezes module arrays "
                      "and has no such shared buffer",
                  "allocate it in the host program and pass it to the kernels as an argument");
  if (f == "numpy.arange") return arange(e);
  if (f == "numpy.zeros" || f == "numpy.ones" || f == "numpy.full" || f == "numpy.empty") return filled(e, f.substr(6));
  if (f == "numpy.zeros_like" || f == "numpy.ones_like" || f == "numpy.full_like" || f == "numpy.empty_like") {
    if (e.operands.size() < 2) return refuse(f.substr(6) + "() takes an array");
    auto like = eval(e.operands[1], depth + 1);
    if (!like) return failed_ ? std::nullopt : refuse(f.substr(6) + "() needs an array pykern can evaluate at import");
    if (f == "numpy.empty_like") return refuse("np.empty_like leaves its values uninitialised", "use np.zeros_like");
    ir::Constant fill{int64_t(f == "numpy.ones_like" ? 1 : 0)};
    if (f == "numpy.full_like") {
      ast::ExprId value = argument(e, 1, "fill_value");
      auto v = value.valid() ? scalar(value) : std::nullopt;
      if (!v) return refuse("full_like's fill value must be a number known at import");
      fill = v->first;
    }
    Type dtype = like->dtype;
    if (auto given = dtype_keyword(e)) dtype = *given;
    if (failed_) return std::nullopt;
    ArrayValue result{dtype, like->shape, std::vector<ir::Constant>(like->values.size(), *convert(fill, dtype)), {}};
    return result;
  }
  if (f == "numpy.linspace") return linspace(e);
  if (f == "numpy.eye" || f == "numpy.identity") return eye(e, f == "numpy.identity");
  if (e.operands.size() == 2 && e.keywords.empty() && f.rfind("numpy.", 0) == 0) return ufunc(f.substr(6), e, depth);
  return std::nullopt;
}

std::optional<ArrayValue> ArrayEvaluator::global(const std::string& name, int depth) {
  frontend::Module& module = c_.module();
  if (module.opaque_binding(name)) return std::nullopt;  // the kernel's own read reports it
  if (in_progress_.count(name)) return refuse("'" + name + "' is defined in terms of itself");
  ast::ExprId definition = module.global_value(name, c_.diagnostics());
  if (!definition.valid()) return std::nullopt;
  in_progress_.insert(name);
  auto value = eval(definition, depth + 1);
  in_progress_.erase(name);
  if (auto changed = module.mutation(name); value && changed)
    return refuse(fmt::format("'{}' is changed at module level (line {}) by code pykern does not run, so the array "
                              "Numba would freeze is not the one computed",
                              name, module.file().position(changed->begin).line),
                  "compute the table in the one assignment that defines it");
  return value;
}

// np.array(LITERAL or ARRAY, dtype=...): nested lists or tuples of numbers, or another array.
std::optional<ArrayValue> ArrayEvaluator::literal(const ast::Expr& call) {
  if (!only_keywords(call, {"dtype", "copy", "order"}, "np.array")) return std::nullopt;
  if (call.operands.size() != 2) return refuse("np.array(...) takes one literal here");
  for (const ast::Keyword& keyword : call.keywords) {
    if (keyword.name != "dtype") continue;
    if (auto record = record_dtype(keyword.value, false)) return record_literal(call.operands[1], *record);
    if (failed_) return std::nullopt;
  }
  std::optional<Type> dtype = dtype_keyword(call);
  if (failed_) return std::nullopt;
  const ast::Expr& source = ast()[call.operands[1]];
  if (source.kind != ast::ExprKind::list && source.kind != ast::ExprKind::tuple) {
    auto array = eval(call.operands[1], 1);
    if (!array) return failed_ ? std::nullopt : refuse("its elements must be numbers known at compile time");
    return dtype ? converted(*array, *dtype) : array;
  }
  ArrayValue array;
  std::vector<ast::ExprId> leaves;
  if (!literal_elements(c_, call.operands[1], 0, array.shape, leaves)) {
    failed_ = true;
    return std::nullopt;
  }
  std::vector<Type> leaf_types;
  for (ast::ExprId leaf : leaves) {
    auto value = scalar(leaf);
    if (!value) return failed_ ? std::nullopt : refuse("its elements must be numbers known at compile time");
    array.values.push_back(value->first);
    leaf_types.push_back(value->second);
  }
  return converted(std::move(array), dtype ? *dtype : literal_dtype(leaf_types));
}

// A structured dtype: [("x", np.float64), ("n", "i4")], np.dtype([...], align=True), or a module
// name bound to one; NumPy's offsets (packed, or aligned with align=True). nullopt without
// reporting when `id` is not a structured dtype; pykern's records need C-struct layouts.
std::optional<Type> ArrayEvaluator::record_dtype(ast::ExprId id, bool align, int depth) {
  if (!id.valid() || depth > 16) return std::nullopt;
  const ast::Expr& e = ast()[id];
  if (e.kind == ast::ExprKind::name && c_.module().has_global(e.text) && !c_.module().opaque_binding(e.text)) {
    ast::ExprId definition = c_.module().global_value(e.text, c_.diagnostics());
    return record_dtype(definition, align, depth + 1);
  }
  if (e.kind == ast::ExprKind::call && c_.module().qualified_name(e.operands[0]) == "numpy.dtype" &&
      e.operands.size() == 2) {
    bool aligned = false;
    for (const ast::Keyword& keyword : e.keywords) {
      auto value = keyword.name == "align" ? scalar(keyword.value) : std::nullopt;
      if (!value) return std::nullopt;
      aligned = value->first.as_int() != 0;
    }
    return record_dtype(e.operands[1], aligned, depth + 1);
  }
  if (e.kind != ast::ExprKind::list || e.operands.empty()) return std::nullopt;
  std::vector<std::string> names;
  std::vector<Type> fields;
  std::vector<int64_t> offsets;
  int64_t at = 0, alignment = 1;
  for (ast::ExprId field_id : e.operands) {
    const ast::Expr& field = ast()[field_id];
    if (field.kind != ast::ExprKind::tuple || field.operands.size() < 2 ||
        ast()[field.operands[0]].kind != ast::ExprKind::string)
      return std::nullopt;
    if (field.operands.size() != 2)
      return refuse("record fields with a subarray shape are not supported in module arrays yet"), std::nullopt;
    // Python's float, int and bool name NumPy's float64, int64 (on the platforms pykern runs on) and bool.
    const ast::Expr& spelled = ast()[field.operands[1]];
    std::optional<Type> type;
    if (spelled.kind == ast::ExprKind::name && !c_.module().has_global(spelled.text) && !c_.module().imported(spelled.text))
      type = dtype_named(spelled.text);
    if (!type) {
      Value type_value = c_.check_type_argument(field.operands[1]);
      type = type_value.ok() ? import_time_dtype(type_value) : std::nullopt;
    }
    if (!type || !type->is_numeric() || type->is(TypeKind::complex) ||
        (type->is(TypeKind::floating) && type->bits == 16))
      return refuse("a module record array's fields must be booleans, integers, float32 or float64"), std::nullopt;
    int64_t field_alignment = align ? type->alignment() : 1;
    at = (at + field_alignment - 1) / field_alignment * field_alignment;
    if (at % type->alignment() != 0)
      return refuse(fmt::format("field '{}' at offset {} is not where a C struct would put it", ast()[field.operands[0]].text, at),
                    "make the dtype with align=True, e.g. np.dtype([...], align=True)"), std::nullopt;
    names.push_back(ast()[field.operands[0]].text);
    fields.push_back(*type);
    offsets.push_back(at);
    at += type->itemsize();
    alignment = std::max<int64_t>(alignment, type->alignment());
  }
  int64_t size = align ? (at + alignment - 1) / alignment * alignment : at;
  if (size % alignment != 0)
    return refuse(fmt::format("a record of {} bytes is not a C struct's size (a multiple of {})", size, alignment),
                  "make the dtype with align=True, e.g. np.dtype([...], align=True)"), std::nullopt;
  return Type::record(std::move(names), std::move(fields), std::move(offsets),
                      std::vector<std::vector<int64_t>>(fields.size()), size);
}

// np.array([(1.0, 2), (3.0, 4)], dtype=RECORD): lists down to tuples, one value per field.
std::optional<ArrayValue> ArrayEvaluator::record_literal(ast::ExprId source, const Type& record) {
  ArrayValue array{record, {}, {}, {}};
  std::vector<ast::ExprId> level = {source};
  while (!level.empty() && ast()[level[0]].kind == ast::ExprKind::list) {
    size_t extent = ast()[level[0]].operands.size();
    std::vector<ast::ExprId> next;
    for (ast::ExprId id : level) {
      const ast::Expr& list = ast()[id];
      if (list.kind != ast::ExprKind::list || list.operands.size() != extent)
        return refuse("a module record array must be a rectangular list of tuples");
      next.insert(next.end(), list.operands.begin(), list.operands.end());
    }
    array.shape.push_back(static_cast<int64_t>(extent));
    level = std::move(next);
    if (array.shape.size() > 32 || level.size() > size_t(max_elements)) return refuse("the array is too large to freeze into a kernel");
  }
  if (array.shape.empty()) return refuse("a module record array is a list of tuples, one value per field");
  for (ast::ExprId id : level) {
    const ast::Expr& element = ast()[id];
    if (element.kind != ast::ExprKind::tuple || element.operands.size() != record.elements.size())
      return refuse(fmt::format("each element of a record array is a tuple of its {} fields", record.elements.size()));
    size_t start = array.bytes.size();
    array.bytes.resize(start + record.record_size, 0);
    for (size_t f = 0; f < record.elements.size(); ++f) {
      auto value = scalar(element.operands[f]);
      if (!value) return failed_ ? std::nullopt : refuse("its elements must be numbers known at compile time");
      const Type& type = record.elements[f];
      ir::Constant converted = *convert(type.is(TypeKind::integer) && std::holds_alternative<double>(value->first.value)
                                            ? ir::Constant{int64_t(std::trunc(value->first.as_double()))}
                                            : value->first,
                                        type);
      std::vector<uint8_t> field;
      append_bytes(converted, type, field);
      std::copy(field.begin(), field.end(), array.bytes.begin() + start + record.offsets[f]);
    }
  }
  return array;
}

// np.arange(stop), (start, stop), (start, stop, step): int64 for integers, else float64, filled
// as NumPy fills it: start, start + delta, then start + i * delta with delta the difference of
// the first two (computed in the result dtype).
std::optional<ArrayValue> ArrayEvaluator::arange(const ast::Expr& call) {
  if (!only_keywords(call, {"dtype", "start", "stop", "step"}, "np.arange")) return std::nullopt;
  std::vector<std::pair<ir::Constant, Type>> bounds;
  for (size_t i = 1; i < call.operands.size(); ++i) {
    auto value = scalar(call.operands[i]);
    if (!value || value->second.is(TypeKind::complex)) return refuse("np.arange's bounds must be numbers known at import");
    bounds.push_back(*value);
  }
  if (bounds.empty() || bounds.size() > 3) return refuse("np.arange takes one to three bounds here");
  std::optional<Type> dtype = dtype_keyword(call);
  if (failed_) return std::nullopt;
  bool floating = false;
  for (auto& bound : bounds) floating = floating || bound.second.is(TypeKind::floating);
  ir::Constant start{int64_t(0)}, stop = bounds[0].first, step{int64_t(1)};
  if (bounds.size() >= 2) start = bounds[0].first, stop = bounds[1].first;
  if (bounds.size() == 3) step = bounds[2].first;
  if (step.as_double() == 0) return refuse("np.arange's step is zero (NumPy's ZeroDivisionError)");
  ArrayValue array;
  array.dtype = dtype ? *dtype : floating ? Type::f64() : Type::i64();
  double extent = std::ceil((stop.as_double() - start.as_double()) / step.as_double());
  if (!(extent <= double(max_elements))) {  // also NaN
    if (extent != extent) return refuse("np.arange's bounds give no length (NaN)");
    return refuse("the array is too large to freeze into a kernel");
  }
  int64_t n = floating ? static_cast<int64_t>(std::max(extent, 0.0))
                       : std::max<int64_t>(0, (stop.as_int() - start.as_int() + step.as_int() - (step.as_int() > 0 ? 1 : -1)) /
                                                  step.as_int());
  if (n > max_elements) return refuse("the array is too large to freeze into a kernel");
  array.shape = {n};
  if (array.dtype.is(TypeKind::floating)) {
    bool single = array.dtype.bits == 32;
    auto round = [&](double v) { return single ? double(float(v)) : v; };
    double first = round(start.as_double()), second = round(start.as_double() + step.as_double());
    double delta = round(second - first);
    for (int64_t i = 0; i < n; ++i) {
      double v = i == 0 ? first : i == 1 ? second : round(first + round(double(i) * delta));
      array.values.push_back(ir::Constant{v});
    }
    return converted(std::move(array), array.dtype);
  }
  if (floating) return refuse("np.arange with float bounds and an integer dtype is not supported", "give integer bounds");
  for (int64_t i = 0; i < n; ++i) array.values.push_back(ir::Constant{int64_t(start.as_int() + i * step.as_int())});
  return converted(std::move(array), array.dtype);
}

// np.zeros / np.ones / np.full(shape, value): float64 unless dtype= says (np.full: the value's).
std::optional<ArrayValue> ArrayEvaluator::filled(const ast::Expr& call, const std::string& function) {
  if (!only_keywords(call, {"dtype", "order", "shape", "fill_value"}, ("np." + function).c_str())) return std::nullopt;
  if (function == "empty") return refuse("np.empty leaves its values uninitialised", "use np.zeros");
  ast::ExprId shape_id = argument(call, 0, "shape");
  if (!shape_id.valid()) return refuse("np." + function + "() takes a shape");
  auto shape = shape_of(shape_id);
  if (!shape) return std::nullopt;
  ir::Constant fill{int64_t(function == "ones" ? 1 : 0)};
  Type dtype = Type::f64();
  if (function == "full") {
    ast::ExprId value = argument(call, 1, "fill_value");
    auto v = value.valid() ? scalar(value) : std::nullopt;
    if (!v) return refuse("np.full's fill value must be a number known at import");
    fill = v->first;
    dtype = literal_dtype({v->second});
    if (v->second.bits < 64 && !v->second.is(TypeKind::boolean)) dtype = v->second;  // a NumPy scalar keeps its type
  }
  if (auto given = dtype_keyword(call)) dtype = *given;
  if (failed_) return std::nullopt;
  if (dtype.is(TypeKind::integer) && std::holds_alternative<double>(fill.value) && function == "full")
    fill = ir::Constant{int64_t(std::trunc(fill.as_double()))};
  return ArrayValue{dtype, *shape, std::vector<ir::Constant>(element_count(*shape), *convert(fill, dtype)), {}};
}

// np.linspace(start, stop, num=50, endpoint=True): NumPy's steps, the last value exactly stop.
std::optional<ArrayValue> ArrayEvaluator::linspace(const ast::Expr& call) {
  if (!only_keywords(call, {"num", "endpoint", "dtype", "start", "stop"}, "np.linspace")) return std::nullopt;
  ast::ExprId start_id = argument(call, 0, "start"), stop_id = argument(call, 1, "stop");
  ast::ExprId num_id = argument(call, 2, "num"), endpoint_id = argument(call, 3, "endpoint");
  auto start = start_id.valid() ? scalar(start_id) : std::nullopt;
  auto stop = stop_id.valid() ? scalar(stop_id) : std::nullopt;
  if (!start || !stop) return refuse("np.linspace's bounds must be numbers known at import");
  int64_t num = 50;
  if (num_id.valid()) {
    auto n = integer(num_id, "np.linspace's num");
    if (!n) return std::nullopt;
    num = *n;
  }
  bool endpoint = true;
  if (endpoint_id.valid()) {
    auto e = scalar(endpoint_id);
    if (!e) return refuse("np.linspace's endpoint must be known at import");
    endpoint = e->first.as_int() != 0;
  }
  if (num < 0) return refuse("np.linspace's num must be non-negative (NumPy's ValueError)");
  if (num > max_elements) return refuse("the array is too large to freeze into a kernel");
  std::optional<Type> dtype = dtype_keyword(call);
  if (failed_) return std::nullopt;
  if (dtype && !dtype->is(TypeKind::floating))
    return refuse("np.linspace with an integer dtype rounds differently across NumPy versions",
                  "make it float and convert in the kernel");
  double a = start->first.as_double(), b = stop->first.as_double();
  int64_t div = endpoint ? num - 1 : num;
  double delta = b - a, step = div > 0 ? delta / double(div) : 0;
  ArrayValue array{Type::f64(), {num}, {}, {}};
  for (int64_t i = 0; i < num; ++i) {
    double y = double(i);
    if (div > 0) y = step == 0 ? (y / double(div)) * delta : y * step;
    else y = y * delta;
    y += a;
    if (endpoint && num > 1 && i == num - 1) y = b;
    array.values.push_back(ir::Constant{y});
  }
  return converted(std::move(array), dtype ? *dtype : Type::f64());
}

// np.eye(N, M=None, k=0) and np.identity(n): float64 unless dtype= says.
std::optional<ArrayValue> ArrayEvaluator::eye(const ast::Expr& call, bool identity) {
  if (!only_keywords(call, {"dtype", "M", "k", "n", "N"}, identity ? "np.identity" : "np.eye")) return std::nullopt;
  ast::ExprId n_id = argument(call, 0, identity ? "n" : "N");
  auto rows = n_id.valid() ? integer(n_id, "the size") : std::nullopt;
  if (!rows) return failed_ ? std::nullopt : refuse("np.eye takes a size");
  int64_t cols = *rows, diagonal = 0;
  if (!identity) {
    ast::ExprId m_id = argument(call, 1, "M"), k_id = argument(call, 2, "k");
    if (m_id.valid() && ast()[m_id].kind != ast::ExprKind::none) {
      auto m = integer(m_id, "M");
      if (!m) return std::nullopt;
      cols = *m;
    }
    if (k_id.valid()) {
      auto k = integer(k_id, "k");
      if (!k) return std::nullopt;
      diagonal = *k;
    }
  }
  if (element_count({*rows, cols}) > max_elements) return refuse("np.eye's size is out of range here");
  Type dtype = Type::f64();
  if (auto given = dtype_keyword(call)) dtype = *given;
  if (failed_) return std::nullopt;
  ArrayValue array{dtype, {*rows, cols}, {}, {}};
  for (int64_t i = 0; i < *rows; ++i)
    for (int64_t j = 0; j < cols; ++j) array.values.push_back(*convert(ir::Constant{int64_t(j - i == diagonal)}, dtype));
  return array;
}

namespace {
// NumPy's pairwise summation (loops_utils.h: blocks of 128, eight accumulators), in T.
template <class T> T pairwise_sum(const T* a, int64_t n) {
  if (n < 8) {
    T sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += a[i];
    return sum;
  }
  if (n <= 128) {
    T r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    int64_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    T sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) sum += a[i];
    return sum;
  }
  int64_t half = n / 2;
  half -= half % 8;
  return pairwise_sum(a, half) + pairwise_sum(a + half, n - half);
}

// add.reduce over every element: the identity plus the pairwise sum, in the array's float type.
template <class T> T numpy_sum(const std::vector<ir::Constant>& values) {
  std::vector<T> items;
  items.reserve(values.size());
  for (const ir::Constant& v : values) items.push_back(static_cast<T>(v.as_double()));
  return T(0) + pairwise_sum(items.data(), static_cast<int64_t>(items.size()));
}
}  // namespace

std::optional<std::pair<ir::Constant, Type>> ArrayEvaluator::reduction(ast::ExprId id) {
  const ast::Expr& e = ast()[id];
  if (e.kind != ast::ExprKind::call || !e.keywords.empty()) return std::nullopt;
  const ast::Expr& callee = ast()[e.operands[0]];
  std::string name;
  ast::ExprId array_id;
  auto qualified = c_.module().qualified_name(e.operands[0]);
  if (qualified && qualified->rfind("numpy.", 0) == 0 && e.operands.size() == 2) {
    name = qualified->substr(6);
    array_id = e.operands[1];
  } else if (!qualified && callee.kind == ast::ExprKind::attribute && e.operands.size() == 1) {
    name = callee.text;
    array_id = callee.operands[0];
  } else {
    return std::nullopt;
  }
  if (name != "sum" && name != "mean" && name != "max" && name != "min" && name != "amax" && name != "amin")
    return std::nullopt;
  auto array = eval(array_id, 1);
  if (!array) return std::nullopt;
  const Type& dtype = array->dtype;
  if (!dtype.is_numeric() || dtype.is(TypeKind::complex) || dtype.is(TypeKind::record) || dtype.bits == 16) {
    refuse("." + name + "() of a " + to_string(dtype) + " module array is not evaluated at import yet");
    return std::nullopt;
  }
  const std::vector<ir::Constant>& values = array->values;
  if (values.empty() && name != "sum") {
    refuse("." + name + "() of an empty array (NumPy's ValueError)");
    return std::nullopt;
  }
  bool single = dtype == Type::f32();
  if (name == "sum") {
    if (dtype.is(TypeKind::floating))
      return std::make_pair(single ? ir::Constant{double(numpy_sum<float>(values))} : ir::Constant{numpy_sum<double>(values)}, dtype);
    uint64_t total = 0;  // integers and bools: wrapping sums in 64 bits, as NumPy's add does
    for (const ir::Constant& v : values) total += uint64_t(v.as_int());
    Type type = dtype.is(TypeKind::integer) && !dtype.is_signed ? Type::u64() : Type::i64();
    return std::make_pair(*convert(ir::Constant{int64_t(total)}, type), type);
  }
  if (name == "mean") {  // float32 stays float32; integers are summed as float64
    double n = double(values.size());
    if (single) return std::make_pair(ir::Constant{double(numpy_sum<float>(values) / float(n))}, dtype);
    return std::make_pair(ir::Constant{numpy_sum<double>(values) / n}, Type::f64());
  }
  bool want_max = name == "max" || name == "amax";
  ir::Constant best = values.front();
  for (const ir::Constant& v : values) {
    if (dtype.is(TypeKind::floating)) {
      double x = v.as_double(), b = best.as_double();
      if (std::isnan(b)) break;  // NaN propagates, as np.max's does
      if (std::isnan(x) || (want_max ? x > b : x < b)) best = v;
    } else if (dtype.is_signed || dtype.is(TypeKind::boolean) ? (want_max ? v.as_int() > best.as_int() : v.as_int() < best.as_int())
                                                               : (want_max ? uint64_t(v.as_int()) > uint64_t(best.as_int())
                                                                           : uint64_t(v.as_int()) < uint64_t(best.as_int()))) {
      best = v;
    }
  }
  return std::make_pair(best, dtype);
}

// A.reshape(...), A.astype(dtype), A.copy(), A.flatten(), A.ravel() on an array pykern evaluates.
std::optional<ArrayValue> ArrayEvaluator::method(const ast::Expr& call, const ast::Expr& callee, int depth) {
  static const char* const methods[] = {"reshape", "astype", "copy", "flatten", "ravel"};
  bool is_method = false;
  for (const char* m : methods) is_method = is_method || callee.text == m;
  if (!is_method) return std::nullopt;
  auto base = eval(callee.operands[0], depth + 1);
  if (!base) return std::nullopt;
  if (callee.text == "copy") return base;
  if (base->dtype.is(TypeKind::record)) return refuse("a module record array is read as its np.array(...) literal");
  if (callee.text == "flatten" || callee.text == "ravel") {
    base->shape = {static_cast<int64_t>(base->values.size())};
    return base;
  }
  if (callee.text == "astype") {
    if (call.operands.size() != 2) return refuse("astype() takes a dtype");
    Value dtype = c_.check_type_argument(call.operands[1]);
    auto type = dtype.ok() ? import_time_dtype(dtype) : std::nullopt;
    if (!type || !type->is_numeric()) return refuse("astype() takes a NumPy scalar type");
    ArrayValue result = *base;
    for (ir::Constant& value : result.values)
      if (type->is(TypeKind::integer) && std::holds_alternative<double>(value.value))
        value = ir::Constant{int64_t(std::trunc(value.as_double()))};  // NumPy truncates toward zero
    return converted(std::move(result), *type);
  }
  // reshape(3, 2) or reshape((3, 2)), one extent may be -1; C order keeps the values' order.
  std::vector<ast::ExprId> extents(call.operands.begin() + 1, call.operands.end());
  if (extents.size() == 1 && (ast()[extents[0]].kind == ast::ExprKind::tuple || ast()[extents[0]].kind == ast::ExprKind::list))
    extents = ast()[extents[0]].operands;
  if (extents.empty() || extents.size() > 32 || !call.keywords.empty()) return refuse("reshape() takes the new shape");
  std::vector<int64_t> shape;
  int64_t unknown = -1;
  for (ast::ExprId id : extents) {
    auto extent = integer(id, "a shape");
    if (!extent) return std::nullopt;
    if (*extent == -1 && unknown < 0) unknown = static_cast<int64_t>(shape.size());
    else if (*extent < 0) return refuse("reshape() takes at most one -1 and no other negative extent");
    shape.push_back(*extent);
  }
  int64_t count = static_cast<int64_t>(base->values.size());
  if (unknown >= 0) {
    std::vector<int64_t> others = shape;
    others.erase(others.begin() + unknown);
    int64_t known = element_count(others);
    if (known > 0 && count % known == 0) shape[unknown] = count / known;
  }
  if (element_count(shape) != count)
    return refuse(fmt::format("cannot reshape an array of size {} into that shape (NumPy's ValueError)", count));
  base->shape = std::move(shape);
  return base;
}

// np.cos(2 * np.pi * np.arange(N) / N): NumPy's one-argument math ufuncs element-wise; float32
// stays float32 (computed in float), integers and float64 give float64, np.abs keeps the dtype.
std::optional<ArrayValue> ArrayEvaluator::ufunc(const std::string& function, const ast::Expr& call, int depth) {
  using Real = double (*)(double);
  using Single = float (*)(float);
  static const std::map<std::string, std::pair<Real, Single>> functions = {
      {"sin", {std::sin, std::sin}},       {"cos", {std::cos, std::cos}},       {"tan", {std::tan, std::tan}},
      {"arcsin", {std::asin, std::asin}},  {"arccos", {std::acos, std::acos}},  {"arctan", {std::atan, std::atan}},
      {"sinh", {std::sinh, std::sinh}},    {"cosh", {std::cosh, std::cosh}},    {"tanh", {std::tanh, std::tanh}},
      {"exp", {std::exp, std::exp}},       {"exp2", {std::exp2, std::exp2}},    {"expm1", {std::expm1, std::expm1}},
      {"log", {std::log, std::log}},       {"log2", {std::log2, std::log2}},    {"log10", {std::log10, std::log10}},
      {"log1p", {std::log1p, std::log1p}}, {"sqrt", {std::sqrt, std::sqrt}},    {"floor", {std::floor, std::floor}},
      {"ceil", {std::ceil, std::ceil}},    {"trunc", {std::trunc, std::trunc}}, {"rint", {std::nearbyint, std::nearbyint}}};
  bool absolute = function == "abs" || function == "absolute";
  auto found = functions.find(function);
  if (!absolute && found == functions.end()) return std::nullopt;
  auto operand = eval(call.operands[1], depth + 1);
  if (!operand) return std::nullopt;
  if (operand->dtype.is(TypeKind::complex) || operand->dtype.is(TypeKind::record))
    return refuse("NumPy's math functions apply to numeric module arrays only here");
  if (absolute) {
    for (ir::Constant& value : operand->values)
      value = operand->dtype.is(TypeKind::floating) ? ir::Constant{std::fabs(value.as_double())}
              : operand->dtype.is_signed && value.as_int() < 0
                  ? *convert(ir::Constant{int64_t(0 - uint64_t(value.as_int()))}, operand->dtype)
                  : value;
    return operand;
  }
  bool single = operand->dtype.is(TypeKind::floating) && operand->dtype.bits == 32;
  ArrayValue result{single ? Type::f32() : Type::f64(), operand->shape, {}, {}};
  for (const ir::Constant& value : operand->values) {
    double x = value.as_double();
    result.values.push_back(ir::Constant{single ? double(found->second.second(float(x))) : found->second.first(x)});
  }
  return result;
}

// A + B, A * 2.0, -A, 2 * np.pi * A / N: element-wise at import, in the dtype NumPy gives: an
// array with a Python number keeps its kind's dtype (float32 * 0.5 is float32), two arrays
// promote, and true division of integers is float64.
std::optional<ArrayValue> ArrayEvaluator::arithmetic(const ast::Expr& e, int depth) {
  if (e.kind == ast::ExprKind::unary) {
    auto operand = eval(e.operands[0], depth + 1);
    if (!operand || e.unary_op == ast::UnaryOp::pos) return operand;
    if (operand->dtype.is(TypeKind::record)) return refuse("arithmetic on module record arrays is not supported");
    if (e.unary_op != ast::UnaryOp::neg) return refuse("only + and - apply to module arrays here");
    for (ir::Constant& value : operand->values)
      value = operand->dtype.is(TypeKind::floating) ? ir::Constant{-value.as_double()}
                                                    : *convert(ir::Constant{int64_t(0 - uint64_t(value.as_int()))}, operand->dtype);
    return operand;
  }
  using ast::BinaryOp;
  BinaryOp op = e.binary_op;
  if (op != BinaryOp::add && op != BinaryOp::sub && op != BinaryOp::mul && op != BinaryOp::div && op != BinaryOp::pow)
    return std::nullopt;
  auto left = eval(e.operands[0], depth + 1);
  if (failed_) return std::nullopt;
  auto right = eval(e.operands[1], depth + 1);
  if (failed_ || (!left && !right)) return std::nullopt;
  if ((left && left->dtype.is(TypeKind::record)) || (right && right->dtype.is(TypeKind::record)))
    return refuse("arithmetic on module record arrays is not supported");
  // The scalar side: a number known at import (a Python number is "weak": it takes the array's
  // kind's dtype; a NumPy scalar of a narrower type, such as np.float32(2), is typed).
  std::optional<std::pair<ir::Constant, Type>> number;
  if (!left || !right) {
    number = scalar(e.operands[left ? 1 : 0]);
    if (!number) return failed_ ? std::nullopt : refuse("an operand of its arithmetic is not known at import");
  }
  auto kind_rank = [](const Type& t) { return t.is(TypeKind::boolean) ? 0 : t.is(TypeKind::integer) ? 1 : t.is(TypeKind::floating) ? 2 : 3; };
  Type dtype;
  if (left && right) {
    if (left->shape != right->shape) return refuse("arithmetic on module arrays of different shapes is not supported");
    dtype = promote(left->dtype, right->dtype);
  } else {
    const Type& array_type = left ? left->dtype : right->dtype;
    const Type& number_type = number->second;
    bool weak = number_type.bits >= 64 || number_type.is(TypeKind::boolean);
    if (kind_rank(number_type) > kind_rank(array_type)) dtype = weak ? Type::f64() : promote(array_type, number_type);
    else dtype = weak ? array_type : promote(array_type, number_type);
    if (kind_rank(number_type) > kind_rank(array_type) && weak && number_type.is(TypeKind::floating) &&
        array_type.is(TypeKind::floating))
      dtype = array_type;
  }
  if (dtype.is(TypeKind::boolean) && op != BinaryOp::div) dtype = Type::i64();
  if (op == BinaryOp::div && !dtype.is(TypeKind::floating)) dtype = dtype.is(TypeKind::complex) ? dtype : Type::f64();
  if (dtype.is(TypeKind::complex) || (dtype.is(TypeKind::floating) && dtype.bits == 16))
    return refuse("arithmetic on complex and float16 module arrays is not supported yet",
                  "write the values in the np.array(...) literal");
  const ArrayValue& shaped = left ? *left : *right;
  ArrayValue result{dtype, shaped.shape, {}, {}};
  for (size_t i = 0; i < shaped.values.size(); ++i) {
    ir::Constant a = *convert(left ? left->values[i] : number->first, dtype);
    ir::Constant b = *convert(right ? right->values[i] : number->first, dtype);
    if (dtype.is(TypeKind::floating)) {
      double x = a.as_double(), y = b.as_double();
      double r = op == BinaryOp::add ? x + y : op == BinaryOp::sub ? x - y : op == BinaryOp::mul ? x * y : x / y;
      if (op == BinaryOp::pow) r = dtype.bits == 32 ? double(std::pow(float(x), float(y))) : std::pow(x, y);
      result.values.push_back(*convert(ir::Constant{r}, dtype));
    } else {
      uint64_t x = uint64_t(a.as_int()), y = uint64_t(b.as_int());
      uint64_t r = op == BinaryOp::add ? x + y : op == BinaryOp::sub ? x - y : x * y;
      if (op == BinaryOp::pow) {
        if (dtype.is_signed && b.as_int() < 0)
          return refuse("integers to negative integer powers are not allowed (NumPy's ValueError)");
        r = 1;
        for (uint64_t base = x, e = y; e; e >>= 1, base *= base)  // wraps as NumPy's C arithmetic does
          if (e & 1) r *= base;
      }
      result.values.push_back(*convert(ir::Constant{int64_t(r)}, dtype));
    }
  }
  return result;
}

}  // namespace

// LUT = np.array([...]), np.arange(16).reshape(4, 4), cuda.to_device(W), B = A: frozen into
// the program as a read-only constant array, as Numba freezes a module-level array.
std::optional<Value> ProgramBuilder::constant_array(FunctionChecker& caller, const std::string& name,
                                                    ast::ExprId definition, SourceRange range) {
  for (size_t i = 0; i < program_.constant_arrays.size(); ++i)
    if (program_.constant_arrays[i].global == name) return array_view(caller, static_cast<int>(i), range);
  ArrayEvaluator evaluator(caller, name, range);
  auto refuse = [&](const std::string& why, const std::string& hint = {}) -> std::optional<Value> {
    caller.error(DiagKind::not_constant, range, "module global '" + name + "': " + why, hint);
    return Value::error();
  };
  globals_in_progress_.insert(name);
  auto array = evaluator.eval(definition);
  globals_in_progress_.erase(name);
  if (!array) return evaluator.failed() ? std::optional<Value>(Value::error()) : std::nullopt;
  const ast::Expr& top = module_.ast()[definition];
  bool device_array = top.kind == ast::ExprKind::call && module_.qualified_name(top.operands[0]) == "numba.cuda.to_device";
  if (auto changed = module_.mutation(name); changed && device_array)
    return refuse(fmt::format("it is changed at module level (line {}) by code pykern does not run; numba-cuda "
                              "captures a module-level device array by pointer and would see the change, pykern "
                              "freezes the values cuda.to_device copied",
                              module_.file().position(changed->begin).line),
                  "pass the device array to the kernel as an argument");
  if (auto changed = module_.mutation(name))
    return refuse(fmt::format("it is changed at module level (line {}) by code pykern does not run, so the array "
                              "Numba would freeze is not the literal", module_.file().position(changed->begin).line),
                  "compute the table in its np.array(...) literal");
  if (array->dtype.is(TypeKind::complex) || (array->dtype.is(TypeKind::floating) && array->dtype.bits == 16)) {
    // Frozen as their bytes, as records are: C++ has no constant initialiser for pk::c64 or pk::f16.
    for (const ir::Constant& value : array->values) append_bytes(value, array->dtype, array->bytes);
    array->values.clear();
  }
  uint64_t bytes = array->values.size() * static_cast<uint64_t>(array->dtype.itemsize()) + array->bytes.size();
  for (const ir::ConstantArray& other : program_.constant_arrays)
    bytes += other.values.size() * static_cast<uint64_t>(other.dtype.itemsize()) + other.bytes.size();
  if (bytes > 64 * 1024)
    return refuse(fmt::format("the module-level arrays kernels read need {} bytes of constant memory; CUDA has 64 KiB",
                              bytes),
                  "pass large tables as array arguments");
  ir::ConstantArray constant;
  constant.global = name;
  constant.dtype = array->dtype;
  constant.shape = std::move(array->shape);
  constant.values = std::move(array->values);
  constant.bytes = std::move(array->bytes);
  program_.constant_arrays.push_back(std::move(constant));
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

namespace {

// The call in a global's definition whose result only the running host program knows (a
// random draw, a file or clock read, user input), by its qualified name; nullopt if none.
std::optional<std::string> run_time_call(const frontend::Module& module, ast::ExprId id, int depth = 0) {
  if (!id.valid() || depth > 64) return std::nullopt;
  const ast::Expr& e = module.ast()[id];
  if (e.kind == ast::ExprKind::call) {
    const ast::Expr& callee = module.ast()[e.operands[0]];
    std::optional<std::string> name = module.qualified_name(e.operands[0]);
    if (!name && callee.kind == ast::ExprKind::name && !module.has_global(callee.text)) name = "builtins." + callee.text;
    static const char* const prefixes[] = {"numpy.random.", "random.", "numpy.load", "numpy.genfromtxt", "numpy.fromfile",
                                           "numpy.memmap", "builtins.open", "builtins.input", "time.", "os.", "sys.",
                                           "pickle.", "json.", "pandas.", "h5py.", "scipy.io.", "datetime.",
                                           "secrets.", "uuid.", "imageio.", "PIL.", "cv2.", "torch."};
    if (name)
      for (const char* prefix : prefixes)
        if (name->rfind(prefix, 0) == 0) return name->rfind("builtins.", 0) == 0 ? name->substr(9) : *name;
  }
  for (ast::ExprId operand : e.operands)
    if (auto found = run_time_call(module, operand, depth + 1)) return found;
  for (const ast::Keyword& keyword : e.keywords)
    if (auto found = run_time_call(module, keyword.value, depth + 1)) return found;
  return std::nullopt;
}

}  // namespace

Value ProgramBuilder::global_constant(FunctionChecker& caller, const std::string& name, SourceRange range) {
  if (globals_in_progress_.count(name)) {
    caller.error(DiagKind::not_constant, range, "module global '" + name + "' is defined in terms of itself");
    return Value::error();
  }
  if (module_.enum_class(name)) return enum_class_value(name);
  ast::ExprId definition = module_.global_value(name, diagnostics_);
  if (!definition.valid()) return Value::error();
  if (auto call = run_time_call(module_, definition)) {
    caller.error(DiagKind::not_constant, range,
                 fmt::format("module global '{}' is computed at import by {}(), whose result only the running host "
                             "program knows, so pykern cannot freeze it into the kernel as Numba would",
                             name, *call),
                 "pass the value (or array) to the kernel as an argument");
    return Value::error();
  }
  if (auto array = constant_array(caller, name, definition, range)) return *array;
  {  // TOTAL = WEIGHTS.sum(): a reduction of a module array, as NumPy computes it at import
    ArrayEvaluator evaluator(caller, name, range);
    globals_in_progress_.insert(name);
    auto reduced = evaluator.reduction(definition);
    globals_in_progress_.erase(name);
    if (reduced) return caller.make_constant(reduced->first, reduced->second, range);
    if (evaluator.failed()) return Value::error();
  }
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
  // A number folds to a constant; a tuple (of tuples: ((1, 2), (3, 4))) is frozen item by item;
  // a frozen array stays the array. Invalid: something in it is not a constant.
  std::function<ir::ExprId(ir::ExprId)> freeze = [&](ir::ExprId id) -> ir::ExprId {
    const ir::Expr& e = caller.expr(id);
    if (e.kind == ir::ExprKind::constant_array) return id;  // (LUT_A, LUT_B): the frozen arrays
    if (e.kind == ir::ExprKind::constant && e.type.is(TypeKind::string)) return id;  // MODE = "mean" (host)
    if (e.kind != ir::ExprKind::make_tuple) {
      auto folded = caller.fold(id);
      return folded ? caller.make_constant(*folded, e.type, range).expr : ir::ExprId();
    }
    ir::Expr tuple;
    tuple.kind = ir::ExprKind::make_tuple;
    tuple.type = e.type;
    tuple.range = range;
    for (ir::ExprId part : std::vector<ir::ExprId>(e.args)) {
      ir::ExprId frozen = freeze(part);
      if (!frozen.valid()) return ir::ExprId();
      tuple.args.push_back(frozen);
    }
    return caller.add(std::move(tuple));
  };
  ++import_time_folds;
  ir::ExprId frozen = freeze(value.expr);
  --import_time_folds;
  if (!frozen.valid()) return not_constant();
  return caller.value_of(frozen);
}

Value FunctionChecker::check_global_expr(ast::ExprId id) {
  // A global's expression sees module names only, never the caller's locals.
  ++global_depth_;
  Value value = check_expr(id);
  --global_depth_;
  return value;
}

}  // namespace pykern::sema
