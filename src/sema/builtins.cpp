#include "sema/builtins.h"

#include <cmath>
#include <functional>
#include <map>
#include <numbers>
#include <set>

#include <fmt/format.h>

namespace pykern::sema {

namespace {

using Handler = std::function<Value(FunctionChecker&, const CallSite&)>;

std::string short_name(const std::string& qualified) {
  return qualified.substr(qualified.rfind('.') + 1);
}

bool want_args(FunctionChecker& c, const CallSite& call, size_t min, size_t max) {
  if (call.args.size() >= min && call.args.size() <= max && call.keywords.empty()) return true;
  std::string expected = min == max ? std::to_string(min) : fmt::format("{} to {}", min, max);
  c.error(DiagKind::wrong_arity, call.range,
          fmt::format("{}() takes {} argument{} ({} given)", short_name(call.name), expected,
                      max == 1 ? "" : "s", call.args.size() + call.keywords.size()));
  return false;
}

bool want_numeric(FunctionChecker& c, const CallSite& call, const Value& v) {
  if (v.type.is_numeric()) return true;
  c.error(DiagKind::type_mismatch, call.range,
          fmt::format("{}() needs a number, not '{}'", short_name(call.name), to_string(v.type)));
  return false;
}

// The math functions numba-cuda types float16 -> float16 (cudamath's Math_unary_with_fp16).
bool keeps_float16(const std::string& name) {
  static const std::set<std::string> names = {"math.sin",  "math.cos",  "math.ceil", "math.floor", "math.sqrt",
                                              "math.log",  "math.log2", "math.log10", "math.exp", "math.fabs",
                                              "math.trunc", "math.exp2"};
  return names.count(name) > 0;
}

// math.sin and friends: float32 stays float32; integers and float64 compute in float64. A
// float16 computes in float32, and rounds back to float16 where numba-cuda types it so.
Handler unary_math(std::string runtime) {
  return [runtime](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
    if (call.args[0].type.is(TypeKind::complex)) {
      c.error(DiagKind::type_mismatch, call.range, short_name(call.name) + "() of a complex number is not supported");
      return Value::error();
    }
    Type type = c.float_type_for(call.args[0].type);
    Value result = c.make_call(runtime, {c.cast_expr(call.args[0].expr, type)}, type, call.range);
    if (call.args[0].type == Type::float_(16) && keeps_float16(call.name)) return c.cast(result, call.args[0].type, call.range);
    return result;
  };
}

// numba.cuda.fp16.hadd and friends: float16 arguments (others convert), a float16 result, or
// a bool for the comparisons.
Handler fp16_intrinsic(std::string runtime, size_t arity, bool is_comparison) {
  return [runtime, arity, is_comparison](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, arity, arity)) return Value::error();
    std::vector<ir::ExprId> args;
    for (const Value& arg : call.args) {
      if (!want_numeric(c, call, arg) || arg.type.is(TypeKind::complex)) return Value::error();
      args.push_back(c.cast_expr(arg.expr, Type::float_(16)));
    }
    return c.make_call(runtime, std::move(args), is_comparison ? Type::boolean() : Type::float_(16), call.range);
  };
}

Handler binary_math(std::string runtime) {
  return [runtime](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 2, 2) || !want_numeric(c, call, call.args[0]) ||
        !want_numeric(c, call, call.args[1]))
      return Value::error();
    Type type = c.float_type_for(promote(c.float_type_for(call.args[0].type), c.float_type_for(call.args[1].type)));
    return c.make_call(runtime, {c.cast_expr(call.args[0].expr, type), c.cast_expr(call.args[1].expr, type)},
                       type, call.range);
  };
}

Handler predicate_math(std::string runtime) {
  return [runtime](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
    if (call.args[0].type.is_integer_like())  // an integer is never nan or inf
      return c.make_constant({runtime == "pk::isfinite"}, Type::boolean(), call.range);
    return c.make_call(runtime, {call.args[0].expr}, Type::boolean(), call.range);
  };
}

Value min_max(FunctionChecker& c, const CallSite& call, const char* runtime) {
  if (call.args.size() < 2 || !call.keywords.empty()) {
    c.error(DiagKind::wrong_arity, call.range,
            short_name(call.name) + "() takes two or more numbers in a kernel");
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
    result = c.make_call(runtime, {result.expr, c.cast_expr(call.args[i].expr, type)}, type, call.range);
  return result;
}

// Random draws of Numba's CPU target beyond random(): uniform, gauss/normal and randrange/
// randint, from Python's (which 0) or NumPy's (which 1) state (runtime/pykern/host_random.cuh).
// Scalars only: a size= argument would make an array, which these functions cannot.
// "random.uniform()", "np.random.randint()": a draw's name as the file wrote it, for messages.
std::string draw_name(const CallSite& call) {
  return (call.name.rfind("numpy.", 0) == 0 ? "np." + call.name.substr(6) : call.name) + "()";
}

Value host_draw(FunctionChecker& c, const CallSite& call, int64_t which, const char* runtime, size_t min, size_t max) {
  const double defaults[2] = {0.0, 1.0};  // low/high, loc/scale, mu/sigma
  if (!want_args(c, call, min, max) || !c.allow_host_only(call.range, draw_name(call))) return Value::error();
  std::vector<ir::ExprId> args = {c.make_constant({which}, Type::i32(), call.range).expr};
  for (size_t i = 0; i < 2; ++i) {
    if (i < call.args.size()) {
      if (!want_numeric(c, call, call.args[i]) || call.args[i].type.is(TypeKind::complex)) return Value::error();
      args.push_back(c.cast_expr(call.args[i].expr, Type::f64()));
    } else {
      args.push_back(c.make_constant({defaults[i]}, Type::f64(), call.range).expr);
    }
  }
  return c.make_call(runtime, std::move(args), Type::f64(), call.range);
}

// randrange(stop) / (start, stop) / (start, stop, step), randint(a, b) (Python's, b included)
// and np.random.randint(high) / (low, high): in the widest of the arguments' integer types,
// signed if any is, as Numba types them.
Value host_randrange(FunctionChecker& c, const CallSite& call, int64_t which, bool inclusive) {
  size_t max = which == 0 && !inclusive ? 3 : 2;
  size_t min = which == 0 && inclusive ? 2 : 1;
  if (!want_args(c, call, min, max) || !c.allow_host_only(call.range, draw_name(call))) return Value::error();
  int bits = 0;
  bool is_signed = false;
  for (const Value& v : call.args) {
    if (!v.type.is(TypeKind::integer)) {
      c.error(DiagKind::type_mismatch, call.range, short_name(call.name) + "() takes integers");
      return Value::error();
    }
    bits = std::max(bits, v.type.bits);
    is_signed = is_signed || v.type.is_signed;
  }
  Type type = Type::int_(bits, is_signed);
  auto constant = [&](int64_t v) { return c.make_constant({v}, type, call.range).expr; };
  ir::ExprId start = call.args.size() >= 2 ? c.cast_expr(call.args[0].expr, type) : constant(0);
  ir::ExprId stop = c.cast_expr(call.args[call.args.size() >= 2 ? 1 : 0].expr, type);
  ir::ExprId step = call.args.size() == 3 ? c.cast_expr(call.args[2].expr, type) : constant(1);
  return c.make_call(inclusive ? "PK_HOST_RANDINT" : "PK_HOST_RANDRANGE",
                     {c.make_constant({which}, Type::i32(), call.range).expr, start, stop, step}, type, call.range);
}

void add_host_distributions(std::map<std::string, Handler>& t) {
  auto draw = [](int64_t which, const char* runtime, size_t min, size_t max) {
    return [=](FunctionChecker& c, const CallSite& call) { return host_draw(c, call, which, runtime, min, max); };
  };
  t["random.uniform"] = draw(0, "pk::host_uniform", 2, 2);
  t["random.gauss"] = draw(0, "pk::host_gauss", 2, 2);
  t["random.normalvariate"] = draw(0, "pk::host_gauss", 2, 2);
  t["numpy.random.uniform"] = draw(1, "pk::host_uniform", 0, 2);
  t["numpy.random.normal"] = draw(1, "pk::host_gauss", 0, 2);
  t["numpy.random.standard_normal"] = draw(1, "pk::host_gauss", 0, 0);
  t["random.randrange"] = [](FunctionChecker& c, const CallSite& call) { return host_randrange(c, call, 0, false); };
  t["random.randint"] = [](FunctionChecker& c, const CallSite& call) { return host_randrange(c, call, 0, true); };
  t["numpy.random.randint"] = [](FunctionChecker& c, const CallSite& call) { return host_randrange(c, call, 1, false); };
}

Value array_operand(FunctionChecker& c, const CallSite& call, size_t i) {
  if (i < call.args.size() && call.args[i].type.is(TypeKind::array)) return call.args[i];
  c.error(DiagKind::type_mismatch, call.range,
          fmt::format("argument {} of {}() must be an array", i + 1, short_name(call.name)));
  return Value::error();
}

// cuda.atomic.add(array, index, value): returns the old value; the index is an integer, or a
// tuple of them for an array of more dimensions. `indexed` is false for compare_and_swap(array,
// old, value), which works on array[0].
// The element types numba-cuda's cudadecl.py types each atomic for: what NVRTC cannot update
// atomically (8- and 16-bit values, bool, complex) is refused here rather than by the GPU compiler.
enum class AtomicTypes { arithmetic, integer, unsigned_integer };

bool atomic_takes(AtomicTypes accepted, const Type& element) {
  bool wide = element.bits == 32 || element.bits == 64;
  if (element.is(TypeKind::floating)) return wide && accepted == AtomicTypes::arithmetic;
  if (!element.is(TypeKind::integer) || !wide) return false;
  return accepted != AtomicTypes::unsigned_integer || !element.is_signed;
}

const char* atomic_type_list(AtomicTypes accepted) {
  switch (accepted) {
    case AtomicTypes::arithmetic: return "int32, uint32, int64, uint64, float32 and float64";
    case AtomicTypes::integer: return "int32, uint32, int64 and uint64";
    case AtomicTypes::unsigned_integer: return "uint32 and uint64";
  }
  return "";
}

const char* atomic_type_example(AtomicTypes accepted) {
  switch (accepted) {
    case AtomicTypes::arithmetic: return "int32 or float32";
    case AtomicTypes::integer: return "int32 or int64";
    case AtomicTypes::unsigned_integer: return "uint32";
  }
  return "";
}

// The name as the program spells it: cuda.atomic.and_ for numba.cuda.atomic.and_.
std::string atomic_name(const CallSite& call) {
  const std::string prefix = "numba.";
  return call.name.rfind(prefix, 0) == 0 ? call.name.substr(prefix.size()) : call.name;
}

bool want_atomic_element(FunctionChecker& c, const CallSite& call, AtomicTypes accepted, const Type& element) {
  if (atomic_takes(accepted, element)) return true;
  c.error(DiagKind::type_mismatch, call.range,
          fmt::format("{} does not take {} arrays: numba-cuda types it for {} only", atomic_name(call),
                      to_string(element), atomic_type_list(accepted)),
          fmt::format("keep the values in an array of one of those types, e.g. {}", atomic_type_example(accepted)));
  return false;
}

Handler atomic(std::string runtime, size_t values, AtomicTypes accepted, bool indexed = true) {
  return [runtime, values, accepted, indexed](FunctionChecker& c, const CallSite& call) -> Value {
    size_t first_value = indexed ? 2 : 1;
    if (!want_args(c, call, first_value + values, first_value + values)) return Value::error();
    Value array = array_operand(c, call, 0);
    if (!array.ok()) return array;
    if (array.type.readonly) {
      c.error(DiagKind::bad_assignment, call.range, "an atomic operation cannot update a read-only (module-level) array");
      return Value::error();
    }
    if (!want_atomic_element(c, call, accepted, array.type.dtype())) return Value::error();
    if (!indexed && array.type.ndim != 1) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("{} takes a 1-d array, not one of {} dimensions", atomic_name(call), array.type.ndim),
              "use cuda.atomic.cas(array, index, old, value) for an array of more dimensions");
      return Value::error();
    }
    Value index = indexed ? call.args[1] : c.make_constant({int64_t(0)}, Type::i64(), call.range);
    Value element = c.subscript_value(array, {index}, call.range);
    if (!element.ok()) return element;
    if (c.expr(element.expr).kind != ir::ExprKind::element) {
      c.error(DiagKind::bad_index, call.range, "an atomic operation needs one element: give an index per dimension");
      return Value::error();
    }
    std::vector<ir::ExprId> args = {element.expr};
    for (size_t i = 0; i < values; ++i) args.push_back(c.cast_expr(call.args[first_value + i].expr, element.type));
    return c.make_call(runtime, args, element.type, call.range);
  };
}

// cuda.grid(ndim) / cuda.gridsize(ndim): int64, a tuple for 2 and 3 dimensions.
Handler grid(const char* runtime) {
  return [runtime](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 1, 1)) return Value::error();
    auto ndim = c.fold(call.args[0].expr);
    if (!ndim || ndim->as_int() < 1 || ndim->as_int() > 3) {
      c.error(DiagKind::not_constant, call.range,
              short_name(call.name) + "() takes a constant 1, 2 or 3");
      return Value::error();
    }
    int n = static_cast<int>(ndim->as_int());
    Type type = n == 1 ? Type::i64() : Type::uni_tuple(Type::i64(), n);
    return c.make_call(fmt::format("{}{}", runtime, n), {}, type, call.range);
  };
}

// value.method() with nothing in the parentheses (args[0] is the value itself).
bool want_no_method_args(FunctionChecker& c, const CallSite& call, const char* method) {
  if (call.args.size() == 1 && call.keywords.empty()) return true;
  c.error(DiagKind::wrong_arity, call.range,
          fmt::format("{}() takes no arguments ({} given)", method, call.args.size() - 1 + call.keywords.size()));
  return false;
}

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
  if (extents.empty() || extents.size() > 32 || !call.keywords.empty()) {
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
  Type result = Type::array(array.dtype(), static_cast<int>(extents.size()), array.layout);
  result.readonly = array.readonly;
  return c.make_call("PK_RESHAPE", std::move(args), result, call.range);
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
  return c.make_call("PK_VIEW", {call.args[0].expr, like}, result, call.range);
}

// cmath: Numba's signatures are complex64 -> complex64 and complex128 -> complex128; a real
// argument converts to the first that holds it safely (float32 to complex64, the rest to
// complex128). The functions numba-cuda defines by @overload take complex arguments only.
Handler cmath_function(std::string runtime, bool complex_only, int result_kind) {
  return [runtime, complex_only, result_kind](FunctionChecker& c, const CallSite& call) -> Value {
    size_t most = runtime == "pk::cmath_log" ? 2 : 1;
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
    std::string name = args.size() == 2 ? "pk::cmath_log_base" : runtime;
    Type part = Type::float_(type.bits / 2);
    Type result = result_kind == 0 ? type : result_kind == 1 ? Type::boolean() : result_kind == 2 ? part
                                                                                  : Type::uni_tuple(part, 2);
    return c.make_call(name, std::move(args), result, call.range);
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
  return c.make_call("pk::cmath_rect", {c.cast_expr(call.args[0].expr, part), c.cast_expr(call.args[1].expr, part)},
                     Type::complex(part.bits * 2), call.range);
}

Handler nullary(std::string runtime, Type type) {
  return [runtime, type](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 0, 0)) return Value::error();
    return c.make_call(runtime, {}, type, call.range);
  };
}

// A call whose arguments convert to fixed types.
Handler fixed(std::string runtime, std::vector<Type> parameters, Type result) {
  return [runtime, parameters, result](FunctionChecker& c, const CallSite& call) -> Value {
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
    return c.make_call(runtime, args, result, call.range);
  };
}

// cuda.shfl_*_sync(mask, value, lane_or_delta): the value keeps its type.
Handler shuffle(std::string runtime) {
  return [runtime](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 3, 3)) return Value::error();
    const Type& type = call.args[1].type;
    // numba-cuda's shfl_sync_intrinsic takes int32, int64, float32 and float64 only.
    bool takes = (type.is(TypeKind::integer) && type.is_signed) || type.is(TypeKind::floating);
    if (!takes || (type.bits != 32 && type.bits != 64)) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("cuda.{} does not move {} values: numba-cuda shuffles int32, int64, float32 and float64 only",
                          short_name(call.name), to_string(type)),
              "convert the value first, e.g. float32(x) or int32(x)");
      return Value::error();
    }
    return c.make_call(runtime,
                       {c.cast_expr(call.args[0].expr, Type::int_(32, false)), call.args[1].expr,
                        c.cast_expr(call.args[2].expr, Type::i32())},
                       type, call.range);
  };
}

// cuda.popc/clz/ffs/brev typed and lowered as numba-cuda's (cudadecl.py, cudaimpl.py): popc and
// clz count at the argument's own width and keep its type (a bool is an int8); ffs answers uint32
// and is lowered for 32- and 64-bit integers only; brev takes uint32 or uint64, and every other
// integer converts to uint32 first (an int64 loses its high half, as in numba-cuda).
Handler bit_operation(std::string runtime) {
  return [runtime](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 1, 1)) return Value::error();
    const Value& arg = call.args[0];
    std::string name = "cuda." + short_name(call.name);
    if (!arg.type.is_integer_like()) {
      c.error(DiagKind::type_mismatch, call.range, name + " needs an integer, not '" + to_string(arg.type) + "'");
      return Value::error();
    }
    Type type = arg.type.is(TypeKind::boolean) ? Type::int_(8) : arg.type;
    if (runtime == "pk::ffs") {
      if (type.bits < 32) {
        c.error(DiagKind::type_mismatch, call.range,
                name + " does not take " + to_string(arg.type) + " values: numba-cuda lowers it for 32- and 64-bit "
                "integers only",
                "widen the value first, e.g. cuda.ffs(int32(x))");
        return Value::error();
      }
      return c.make_call(runtime, {arg.expr}, Type::int_(32, false), call.range);
    }
    if (runtime == "pk::brev") type = type == Type::u64() ? type : Type::int_(32, false);
    return c.make_call(runtime, {c.cast_expr(arg.expr, type)}, type, call.range);
  };
}

// The type numba-cuda's match_any_sync/match_all_sync cases (int32, int64, float32, float64)
// convert a value to, by Numba's overload choice: the narrow integers and bool to int32, uint32
// to int64, uint64 to float64, float16 to float32 (read off numba-cuda's PTX); none for complex.
std::optional<Type> warp_match_operand(const Type& type) {
  if (type.is(TypeKind::boolean)) return Type::i32();
  if (type.is(TypeKind::floating)) return type.bits == 64 ? Type::f64() : Type::f32();
  if (!type.is(TypeKind::integer)) return std::nullopt;
  if (type.bits < 32 || (type.bits == 32 && type.is_signed)) return Type::i32();
  if (type.bits == 64 && !type.is_signed) return Type::f64();
  return Type::i64();
}

// cuda.match_any_sync(mask, value) -> uint32; match_all_sync -> (uint32, bool). (numba-cuda types
// the lanes as int32: lane 31 reads negative there.)
Handler warp_match(std::string runtime, Type result) {
  return [runtime, result](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 2, 2)) return Value::error();
    std::optional<Type> operand = warp_match_operand(call.args[1].type);
    if (!operand) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("cuda.{} does not compare {} values: numba-cuda takes integers and floats",
                          short_name(call.name), to_string(call.args[1].type)),
              "match the real and imaginary parts one at a time");
      return Value::error();
    }
    return c.make_call(runtime, {c.cast_expr(call.args[0].expr, Type::int_(32, false)),
                                 c.cast_expr(call.args[1].expr, *operand)}, result, call.range);
  };
}

Handler xoroshiro(std::string runtime, Type result) {
  return [runtime, result](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 2, 2)) return Value::error();
    const Type& states = call.args[0].type;
    if (!states.is(TypeKind::array) || states.ndim != 1 || states.dtype() != Type::xoroshiro128p_record()) {
      c.error(DiagKind::type_mismatch, call.range,
              "the first argument must be a 1-d array of xoroshiro128p states, not '" + to_string(states) + "'",
              "make the states with create_xoroshiro128p_states(n, seed)");
      return Value::error();
    }
    if (!call.args[1].type.is_integer_like()) {
      c.error(DiagKind::type_mismatch, call.range, "the state index must be an integer");
      return Value::error();
    }
    return c.make_call(runtime, {call.args[0].expr, c.cast_expr(call.args[1].expr, Type::i64())}, result,
                       call.range);
  };
}

// The runtime's name for a lane type ("pk::f32").
std::string cxx_lane_type(const Type& lane) {
  if (lane.is(TypeKind::floating)) return fmt::format("pk::f{}", lane.bits);
  return fmt::format("pk::{}{}", lane.is_signed ? "i" : "u", lane.bits);
}

// numba.cuda's vector types: float32x4(...) and its CUDA alias float4(...) take scalars and
// vectors of the same lane type whose lanes add up to the type's (float32x4(v2, 1.0, 2.0)).
Handler vector_constructor(Type lane, int lanes) {
  return [lane, lanes](FunctionChecker& c, const CallSite& call) -> Value {
    Type type = Type::vector(lane, lanes);
    std::vector<ir::ExprId> parts;
    for (const Value& arg : call.args) {
      if (arg.type.is(TypeKind::vector) && arg.type.elements[0] == lane) {
        static const char* const names[] = {"x", "y", "z", "w"};
        for (int i = 0; i < arg.type.ndim; ++i) parts.push_back(c.attribute_of(arg, names[i], call.range).expr);
      } else if (arg.type.is_numeric() && !arg.type.is(TypeKind::complex)) {
        parts.push_back(c.cast_expr(arg.expr, lane));
      } else {
        c.error(DiagKind::type_mismatch, call.range,
                fmt::format("{}() takes numbers and {} vectors, not '{}'", to_string(type), to_string(lane),
                            to_string(arg.type)));
        return Value::error();
      }
    }
    if (static_cast<int>(parts.size()) != lanes || !call.keywords.empty()) {
      c.error(DiagKind::wrong_arity, call.range,
              fmt::format("{}() needs {} lanes, {} given", to_string(type), lanes, parts.size()));
      return Value::error();
    }
    return c.make_call(fmt::format("pk::make_vec<{}, {}>", cxx_lane_type(lane), lanes), parts, type, call.range);
  };
}

void add_vector_constructors(std::map<std::string, Handler>& t) {
  static const std::pair<const char*, Type> lane_types[] = {
      {"int8", Type::int_(8)},           {"int16", Type::int_(16)},          {"int32", Type::int_(32)},
      {"int64", Type::int_(64)},         {"uint8", Type::int_(8, false)},    {"uint16", Type::int_(16, false)},
      {"uint32", Type::int_(32, false)}, {"uint64", Type::int_(64, false)},  {"float32", Type::f32()},
      {"float64", Type::f64()}};
  // CUDA's names, as numba-cuda maps them on a 64-bit Linux (long is 64 bits).
  static const std::pair<const char*, const char*> aliases[] = {
      {"char", "int8"},    {"short", "int16"},    {"int", "int32"},      {"long", "int64"},
      {"longlong", "int64"}, {"uchar", "uint8"},  {"ushort", "uint16"},  {"uint", "uint32"},
      {"ulong", "uint64"}, {"ulonglong", "uint64"}, {"float", "float32"}, {"double", "float64"}};
  for (const auto& [name, lane] : lane_types)
    for (int lanes = 1; lanes <= 4; ++lanes) {
      t[fmt::format("numba.cuda.{}x{}", name, lanes)] = vector_constructor(lane, lanes);
      for (const auto& [alias, base] : aliases)
        if (std::string(base) == name) t[fmt::format("numba.cuda.{}{}", alias, lanes)] = vector_constructor(lane, lanes);
    }
}

const std::map<std::string, Handler>& handlers() {
  static const std::map<std::string, Handler> table = [] {
    std::map<std::string, Handler> t;
    for (const char* name : {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
                             "asinh", "acosh", "atanh", "exp", "expm1", "log", "log2", "log10",
                             "log1p", "sqrt", "fabs", "erf", "erfc", "gamma", "lgamma", "floor",
                             "ceil", "trunc", "degrees", "radians"})
      t[std::string("math.") + name] = unary_math(std::string("pk::") + name);
    for (const char* name : {"hadd", "hsub", "hmul", "hdiv", "hmax", "hmin"})
      t[std::string("numba.cuda.fp16.") + name] = fp16_intrinsic(std::string("pk::fp16::") + name, 2, false);
    for (const char* name : {"heq", "hne", "hgt", "hge", "hlt", "hle"})
      t[std::string("numba.cuda.fp16.") + name] = fp16_intrinsic(std::string("pk::fp16::") + name, 2, true);
    for (const char* name : {"hneg", "habs", "hsin", "hcos", "hlog", "hlog2", "hlog10", "hexp", "hexp2", "hexp10",
                             "hsqrt", "hrsqrt", "hrcp", "hceil", "hfloor", "htrunc", "hrint"})
      t[std::string("numba.cuda.fp16.") + name] = fp16_intrinsic(std::string("pk::fp16::") + name, 1, false);
    t["numba.cuda.fp16.hfma"] = fp16_intrinsic("pk::fp16::hfma", 3, false);
    for (const char* name : {"atan2", "hypot", "copysign", "fmod", "pow"})
      t[std::string("math.") + name] = binary_math(std::string("pk::") + (std::string(name) == "pow" ? "fpow" : name));
    for (const char* name : {"isnan", "isinf", "isfinite"})
      t[std::string("math.") + name] = predicate_math(std::string("pk::") + name);
    for (const char* name : {"sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
                             "tanh", "arcsinh", "arccosh", "arctanh", "exp", "expm1", "log", "log2",
                             "log10", "log1p", "sqrt", "floor", "ceil", "trunc", "rint", "fabs",
                             "degrees", "radians"}) {
      std::string runtime = name;
      if (runtime.rfind("arc", 0) == 0) runtime = "a" + runtime.substr(3);
      t[std::string("numpy.") + name] = unary_math("pk::" + runtime);
    }
    for (const char* name : {"arctan2", "hypot", "copysign", "fmod"})
      t[std::string("numpy.") + name] =
          binary_math(std::string("pk::") + (std::string(name) == "arctan2" ? "atan2" : name));
    for (const char* name : {"isnan", "isinf", "isfinite"})
      t[std::string("numpy.") + name] = predicate_math(std::string("pk::") + name);
    t["math.ldexp"] = fixed("pk::ldexp", {Type::f64(), Type::i32()}, Type::f64());
    t["math.exp2"] = unary_math("pk::exp2");
    t["math.remainder"] = binary_math("pk::remainder");
    t["math.nextafter"] = binary_math("pk::nextafter");
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
    // cuda.const.array_like(A): A's values in constant memory. A module-level array is frozen
    // into the kernel as a read-only constant array already, so it is that array.
    t["numba.cuda.const.array_like"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 1)) return Value::error();
      if (c.expr(call.args[0].expr).kind != ir::ExprKind::constant_array) {
        c.error(DiagKind::not_constant, call.range, "cuda.const.array_like needs a module-level NumPy array",
                "bind the array once at module level, e.g. TABLE = np.array([...], dtype=np.float32)");
        return Value::error();
      }
      return call.args[0];
    };
    // x.bit_count() on an integer: its population count, as numba-cuda's cuda.popc.
    t["method.bit_count"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_no_method_args(c, call, "bit_count")) return Value::error();
      return call_builtin(c, {"numba.cuda.popc", call.args, call.keywords, call.range});
    };
    for (const char* name : {"sqrt", "exp", "log", "cos", "sin", "tan", "acos", "asin", "asinh", "atan", "atanh"})
      t[std::string("cmath.") + name] = cmath_function(std::string("pk::cmath_") + name, false, 0);
    for (const char* name : {"cosh", "sinh", "tanh", "acosh", "log10"})
      t[std::string("cmath.") + name] = cmath_function(std::string("pk::cmath_") + name, true, 0);
    for (const char* name : {"isnan", "isinf", "isfinite"})
      t[std::string("cmath.") + name] = cmath_function(std::string("pk::cmath_") + name, false, 1);
    t["cmath.phase"] = cmath_function("pk::cmath_phase", true, 2);
    t["cmath.polar"] = cmath_function("pk::cmath_polar", true, 3);
    t["cmath.rect"] = [](FunctionChecker& c, const CallSite& call) { return cmath_rect(c, call); };
    // tuple(t) of a tuple is the tuple itself.
    t["builtins.tuple"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 1)) return Value::error();
      if (!call.args[0].type.is(TypeKind::tuple)) {
        c.error(DiagKind::type_mismatch, call.range,
                "tuple() in a kernel takes a tuple, not '" + to_string(call.args[0].type) + "'",
                "kernels cannot build a tuple from an array at run time; write the tuple out");
        return Value::error();
      }
      return call.args[0];
    };
    // l.append(x): the list's items' type is learnt from what is appended, as Numba's is.
    t["method.append"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      const Type& type = call.args[0].type;
      if (!type.is(TypeKind::list)) {
        c.error(DiagKind::unknown_attribute, call.range,
                "a value of type '" + to_string(type) + "' has no attribute 'append'");
        return Value::error();
      }
      if (call.args.size() != 2 || !call.keywords.empty()) {
        c.error(DiagKind::wrong_arity, call.range, "append() takes one argument");
        return Value::error();
      }
      Value item = c.as_runtime(call.args[1], call.range);
      if (!item.ok()) return Value::error();
      auto unified = unify(type.elements[0], item.type);
      if (!unified || !item.type.is_numeric() || item.type.is(TypeKind::record) ||
          (type.elements[0].known() && *unified != type.elements[0])) {
        if (unified && type.elements[0].known() && item.type.is_numeric()) {
          // A value of another number type converts to the list's items' type, as Numba's does.
          return c.make_call("pk::list_append", {call.args[0].expr, c.cast_expr(item.expr, type.elements[0])},
                             Type::void_(), call.range);
        }
        c.error(DiagKind::type_mismatch, call.range,
                fmt::format("cannot append a '{}' to a {}", to_string(item.type), to_string(type)));
        return Value::error();
      }
      c.learn_list_type(call.args[0], Type::list_of(*unified));
      return c.make_call("pk::list_append", {call.args[0].expr, c.cast_expr(item.expr, *unified)}, Type::void_(),
                         call.range);
    };
    // The host-call wrapper's hand-over of a returned list (api/generated_source.cpp).
    t["numba.cuda.__pk_export_list"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 1) || !call.args[0].type.is(TypeKind::list)) return Value::error();
      return c.make_call("pk::export_list", {call.args[0].expr}, Type::void_(), call.range);
    };
    // numba.set_num_threads(n): the threads later prange loops of this OS thread use
    // (runtime/pykern/parallel.cuh); get_num_threads() reads it, get_thread_id() names the pool
    // thread running the current part. A kernel's threads run no prange loops in parallel.
    t["numba.set_num_threads"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 1)) return Value::error();
      if (!call.args[0].type.is_integer_like()) {
        c.error(DiagKind::type_mismatch, call.range, "The number of threads specified must be an integer",
                "set_num_threads() takes an integer from 1 to NUMBA_NUM_THREADS");
        return Value::error();
      }
      return c.make_call("PK_SET_NUM_THREADS", {c.cast_expr(call.args[0].expr, Type::i64())}, Type::none(),
                         call.range);
    };
    t["numba.get_num_threads"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 0, 0)) return Value::error();
      return c.make_call("pk::get_num_threads", {}, Type::i64(), call.range);
    };
    t["numba.get_thread_id"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 0, 0)) return Value::error();
      return c.make_call("pk::get_thread_id", {}, Type::i64(), call.range);
    };
    // random.random() and np.random.random() draw as Numba's CPU target does; seed(n) seeds.
    // Host only: a kernel cannot use Python's random module (numba.cuda.random is its API).
    for (const auto& [module, which] : {std::pair<std::string, int64_t>{"random", 0}, {"numpy.random", 1}}) {
      t[module + ".random"] = [which = which](FunctionChecker& c, const CallSite& call) -> Value {
        if (!want_args(c, call, 0, 0) || !c.allow_host_only(call.range, "random.random()")) return Value::error();
        return c.make_call("pk::host_random", {c.make_constant({which}, Type::i32(), call.range).expr}, Type::f64(),
                           call.range);
      };
      t[module + ".seed"] = [which = which](FunctionChecker& c, const CallSite& call) -> Value {
        if (!want_args(c, call, 1, 1) || !c.allow_host_only(call.range, "random.seed()")) return Value::error();
        if (!call.args[0].type.is_integer_like()) {
          c.error(DiagKind::type_mismatch, call.range, "seed() takes an integer");
          return Value::error();
        }
        return c.make_call("pk::host_random_seed",
                           {c.make_constant({which}, Type::i32(), call.range).expr,
                            c.cast_expr(call.args[0].expr, Type::int_(32, false))},
                           Type::void_(), call.range);
      };
    }
    add_host_distributions(t);
    t["method.reshape"] = [](FunctionChecker& c, const CallSite& call) { return reshape(c, call); };
    t["method.view"] = [](FunctionChecker& c, const CallSite& call) { return view(c, call); };
    // Cooperative groups: cuda.cg.this_grid() is the grid; its sync() is a barrier of every
    // thread of the grid, and returns int32 as in numba-cuda. A kernel that syncs the grid is
    // launched cooperatively (all its blocks resident at once).
    t["numba.cuda.cg.this_grid"] = nullary("pk::this_grid", Type::grid_group());
    t["method.sync"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      const Type& type = call.args[0].type;  // args[0] is the value itself
      if (!type.is(TypeKind::grid_group)) {
        c.error(DiagKind::unknown_attribute, call.range,
                "a value of type '" + to_string(type) + "' has no attribute 'sync'",
                "sync() is a method of the grid group: g = cuda.cg.this_grid(); g.sync()");
        return Value::error();
      }
      if (!want_no_method_args(c, call, "sync")) return Value::error();
      return c.make_call("pk::grid_sync", {call.args[0].expr}, Type::i32(), call.range);
    };
    // math.frexp(x) -> (mantissa, int32 exponent); math.modf(x) -> (fraction, whole part).
    t["math.frexp"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
      Type type = c.float_type_for(call.args[0].type);
      return c.make_call("pk::frexp", {c.cast_expr(call.args[0].expr, type)}, Type::tuple({type, Type::i32()}),
                         call.range);
    };
    t["math.modf"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
      Type type = c.float_type_for(call.args[0].type);
      return c.make_call("pk::modf", {c.cast_expr(call.args[0].expr, type)}, Type::uni_tuple(type, 2), call.range);
    };
    t["builtins.min"] = [](FunctionChecker& c, const CallSite& call) { return min_max(c, call, "pk::min"); };
    t["builtins.max"] = [](FunctionChecker& c, const CallSite& call) { return min_max(c, call, "pk::max"); };
    t["numpy.minimum"] = t["builtins.min"];
    t["numpy.maximum"] = t["builtins.max"];
    auto absolute = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
      Type type = call.args[0].type;
      if (type.is(TypeKind::complex)) return c.make_call("pk::abs", {call.args[0].expr}, Type::float_(type.bits / 2), call.range);
      if (type.is(TypeKind::boolean)) type = Type::i64();
      return c.make_call("pk::abs", {c.cast_expr(call.args[0].expr, type)}, type, call.range);
    };
    t["builtins.abs"] = absolute;
    t["numpy.abs"] = absolute;
    t["numpy.absolute"] = absolute;
    t["builtins.round"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 2) || !want_numeric(c, call, call.args[0])) return Value::error();
      const Type& type = call.args[0].type;
      if (call.args.size() == 1) {
        if (type.is_integer_like()) return c.value_of(c.cast_expr(call.args[0].expr, Type::i64()));
        return c.make_call("pk::round_to_int", {call.args[0].expr}, Type::i64(), call.range);
      }
      Type result = type.is(TypeKind::floating) ? type : Type::f64();
      return c.make_call("pk::round_digits",
                         {c.cast_expr(call.args[0].expr, result), c.cast_expr(call.args[1].expr, Type::i64())},
                         result, call.range);
    };
    t["builtins.int"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
      return c.value_of(c.cast_expr(call.args[0].expr, Type::i64()));
    };
    t["builtins.float"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 1) || !want_numeric(c, call, call.args[0])) return Value::error();
      return c.value_of(c.cast_expr(call.args[0].expr, Type::f64()));
    };
    t["builtins.bool"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 1)) return Value::error();
      return c.truth(call.args[0], call.range);
    };
    t["builtins.complex"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 2)) return Value::error();
      Type part = Type::f64();
      std::vector<ir::ExprId> args;
      for (const Value& v : call.args) {
        if (!want_numeric(c, call, v) || v.type.is(TypeKind::complex)) return Value::error();
        args.push_back(c.cast_expr(v.expr, part));
      }
      if (args.size() == 1) args.push_back(c.make_constant({0.0}, part, call.range).expr);
      return c.make_call("pk::make_complex", args, Type::complex(128), call.range);
    };
    // range(...) as a value (r = range(2, n, 3)): a for loop over it or len(r) use it.
    t["builtins.range"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 3)) return Value::error();
      auto bounds = c.range_bounds(call.args);
      if (!bounds) return Value::error();
      return c.make_call("pk::make_range", {bounds->start, bounds->stop, bounds->step}, Type::range_of(bounds->type),
                         call.range);
    };
    t["builtins.len"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 1, 1)) return Value::error();
      const Type& type = call.args[0].type;
      if (type.is(TypeKind::range)) return c.make_call("pk::range_len", {call.args[0].expr}, Type::i64(), call.range);
      if (type.is(TypeKind::list)) return c.make_call("pk::list_len", {call.args[0].expr}, Type::i64(), call.range);
      if (type.is(TypeKind::tuple))
        return c.make_constant({int64_t(type.elements.size())}, Type::i64(), call.range);
      if (!type.is(TypeKind::array)) {
        c.error(DiagKind::type_mismatch, call.range, "len() of a value of type '" + to_string(type) + "'");
        return Value::error();
      }
      return c.attribute_of(call.args[0], "shape", call.range).ok()
                 ? c.value_of(c.expr(c.attribute_of(call.args[0], "shape", call.range).expr).args[0])
                 : Value::error();
    };
    t["builtins.pow"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 2, 2)) return Value::error();
      return c.binary(ast::BinaryOp::pow, call.args[0], call.args[1], call.range);
    };
    t["numpy.power"] = t["builtins.pow"];
    // numba.cuda
    t["numba.cuda.grid"] = grid("pk::grid");
    t["numba.cuda.gridsize"] = grid("pk::gridsize");
    t["numba.cuda.syncthreads"] = nullary("pk::syncthreads", Type::void_());
    t["numba.cuda.syncwarp"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 0, 1)) return Value::error();
      ir::ExprId mask = call.args.empty() ? c.make_constant({int64_t(0xffffffff)}, Type::i64(), call.range).expr
                                          : call.args[0].expr;
      return c.make_call("pk::syncwarp", {c.cast_expr(mask, Type::int_(32, false))}, Type::void_(), call.range);
    };
    for (const char* name : {"syncthreads_count", "syncthreads_and", "syncthreads_or"})
      t[std::string("numba.cuda.") + name] = fixed(std::string("pk::") + name, {Type::i32()}, Type::i32());
    t["numba.cuda.threadfence"] = nullary("pk::threadfence", Type::void_());
    t["numba.cuda.threadfence_block"] = nullary("pk::threadfence_block", Type::void_());
    t["numba.cuda.threadfence_system"] = nullary("pk::threadfence_system", Type::void_());
    t["numba.cuda.activemask"] = nullary("pk::activemask", Type::int_(32, false));
    t["numba.cuda.lanemask_lt"] = nullary("pk::lanemask_lt", Type::int_(32, false));
    const std::pair<const char*, AtomicTypes> atomics[] = {
        {"add", AtomicTypes::arithmetic},  {"sub", AtomicTypes::arithmetic},    {"max", AtomicTypes::arithmetic},
        {"min", AtomicTypes::arithmetic},  {"nanmax", AtomicTypes::arithmetic}, {"nanmin", AtomicTypes::arithmetic},
        {"exch", AtomicTypes::integer},    {"and_", AtomicTypes::integer},      {"or_", AtomicTypes::integer},
        {"xor", AtomicTypes::integer},     {"inc", AtomicTypes::unsigned_integer},
        {"dec", AtomicTypes::unsigned_integer}};
    for (const auto& [name, accepted] : atomics) {
      std::string runtime = std::string("pk::atomic_") + name;
      if (runtime.back() == '_') runtime.pop_back();
      t[std::string("numba.cuda.atomic.") + name] = atomic(runtime, 1, accepted);
    }
    t["numba.cuda.atomic.cas"] = atomic("pk::atomic_cas", 2, AtomicTypes::integer);
    t["numba.cuda.atomic.compare_and_swap"] = atomic("pk::atomic_cas", 2, AtomicTypes::integer, false);
    t["numba.cuda.shfl_sync"] = shuffle("pk::shfl_sync");
    t["numba.cuda.shfl_up_sync"] = shuffle("pk::shfl_up_sync");
    t["numba.cuda.shfl_down_sync"] = shuffle("pk::shfl_down_sync");
    t["numba.cuda.shfl_xor_sync"] = shuffle("pk::shfl_xor_sync");
    t["numba.cuda.all_sync"] = fixed("pk::all_sync", {Type::int_(32, false), Type::i32()}, Type::i32());
    t["numba.cuda.any_sync"] = fixed("pk::any_sync", {Type::int_(32, false), Type::i32()}, Type::i32());
    t["numba.cuda.eq_sync"] = fixed("pk::eq_sync", {Type::int_(32, false), Type::i32()}, Type::i32());
    t["numba.cuda.ballot_sync"] = fixed("pk::ballot_sync", {Type::int_(32, false), Type::i32()}, Type::int_(32, false));
    t["numba.cuda.fma"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 3, 3)) return Value::error();
      Type type = c.float_type_for(promote(promote(call.args[0].type, call.args[1].type), call.args[2].type));
      return c.make_call("pk::fma", {c.cast_expr(call.args[0].expr, type), c.cast_expr(call.args[1].expr, type),
                                     c.cast_expr(call.args[2].expr, type)}, type, call.range);
    };
    t["numba.cuda.cbrt"] = unary_math("pk::cbrt");
    // cuda.selp(predicate, a, b): a where the predicate holds, else b (PTX's selp).
    t["numba.cuda.selp"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 3, 3) || !want_numeric(c, call, call.args[1]) || !want_numeric(c, call, call.args[2]))
        return Value::error();
      Value test = c.truth(call.args[0], call.range);
      if (!test.ok()) return test;
      Type type = promote(call.args[1].type, call.args[2].type);
      ir::Expr select;
      select.kind = ir::ExprKind::select;
      select.type = type;
      select.range = call.range;
      select.args = {test.expr, c.cast_expr(call.args[1].expr, type), c.cast_expr(call.args[2].expr, type)};
      return c.value_of(c.add(std::move(select)));
    };
    t["numba.cuda.nanosleep"] = fixed("pk::nanosleep", {Type::int_(32, false)}, Type::void_());
    t["numba.cuda.match_any_sync"] = warp_match("pk::match_any_sync", Type::int_(32, false));
    t["numba.cuda.match_all_sync"] = warp_match("pk::match_all_sync", Type::tuple({Type::int_(32, false), Type::boolean()}));
    t["numba.cuda.popc"] = bit_operation("pk::popc");
    t["numba.cuda.clz"] = bit_operation("pk::clz");
    t["numba.cuda.ffs"] = bit_operation("pk::ffs");
    t["numba.cuda.brev"] = bit_operation("pk::brev");
    add_vector_constructors(t);
    t["numba.cuda.random.xoroshiro128p_uniform_float32"] = xoroshiro("pk::xoroshiro128p_uniform_float32", Type::f32());
    t["numba.cuda.random.xoroshiro128p_uniform_float64"] = xoroshiro("pk::xoroshiro128p_uniform_float64", Type::f64());
    t["numba.cuda.random.xoroshiro128p_normal_float32"] = xoroshiro("pk::xoroshiro128p_normal_float32", Type::f32());
    t["numba.cuda.random.xoroshiro128p_normal_float64"] = xoroshiro("pk::xoroshiro128p_normal_float64", Type::f64());
    t["numba.cuda.random.init_xoroshiro128p_state"] = [](FunctionChecker& c, const CallSite& call) -> Value {
      if (!want_args(c, call, 3, 3)) return Value::error();
      const Type& states = call.args[0].type;
      if (!states.is(TypeKind::array) || states.ndim != 1 || states.dtype() != Type::xoroshiro128p_record() ||
          !call.args[1].type.is_integer_like() || !call.args[2].type.is_integer_like()) {
        c.error(DiagKind::type_mismatch, call.range, "init_xoroshiro128p_state(states, index, seed) takes the states "
                                                     "array and two integers");
        return Value::error();
      }
      return c.make_call("pk::init_xoroshiro128p_state",
                         {call.args[0].expr, c.cast_expr(call.args[1].expr, Type::i64()),
                          c.cast_expr(call.args[2].expr, Type::u64())},
                         Type::void_(), call.range);
    };
    return t;
  }();
  return table;
}

// Intrinsic values: cuda.threadIdx.x and friends, all int32 as in Numba.
std::optional<std::string> intrinsic_value(const std::string& name) {
  static const std::map<std::string, std::string> values = [] {
    std::map<std::string, std::string> v;
    for (const char* group : {"threadIdx", "blockIdx", "blockDim", "gridDim"})
      for (const char* axis : {"x", "y", "z"})
        v[fmt::format("numba.cuda.{}.{}", group, axis)] = fmt::format("pk::{}_{}", group, axis);
    v["numba.cuda.laneid"] = "pk::laneid";
    v["numba.cuda.warpsize"] = "pk::warpsize";
    return v;
  }();
  auto found = values.find(name);
  if (found == values.end()) return std::nullopt;
  return found->second;
}

std::optional<double> float_constant(const std::string& name) {
  static const std::map<std::string, double> constants = {
      {"math.pi", std::numbers::pi},   {"math.e", std::numbers::e},   {"math.tau", 2 * std::numbers::pi},
      {"math.inf", INFINITY},          {"math.nan", NAN},             {"numpy.pi", std::numbers::pi},
      {"numpy.e", std::numbers::e},    {"numpy.inf", INFINITY},       {"numpy.nan", NAN},
      {"numpy.NaN", NAN},              {"numpy.Inf", INFINITY},       {"numpy.euler_gamma", 0.5772156649015329},
      {"cmath.pi", std::numbers::pi},  {"cmath.e", std::numbers::e},  {"cmath.tau", 2 * std::numbers::pi},
      {"cmath.inf", INFINITY},         {"cmath.nan", NAN}};
  auto found = constants.find(name);
  if (found == constants.end()) return std::nullopt;
  return found->second;
}

}  // namespace

std::optional<Type> type_value(const std::string& name) {
  // Where Numba's type objects live: today's numba-cuda exports them from numba.cuda and
  // numba.cuda.types too (from numba.cuda import void, float32, double).
  for (const char* prefix : {"numba.types.", "numba.", "numpy.", "numba.core.types.", "numba.cuda.types.", "numba.cuda."}) {
    std::string p(prefix);
    if (name.rfind(p, 0) != 0) continue;
    std::string rest = name.substr(p.size());
    if (rest == "void" || rest == "none") return Type::void_();
    if (p == "numpy." && (rest == "bool_" || rest == "bool")) return Type::boolean();
    if (p != "numpy." && (rest == "boolean" || rest == "b1")) return Type::boolean();
    if (auto scalar = scalar_type_named(rest)) return scalar;
  }
  if (name == "numba.cuda.random.xoroshiro128p_type") return Type::xoroshiro128p_record();
  return std::nullopt;
}

bool is_python_builtin(const std::string& name) {
  static const std::set<std::string> names = {"range", "len", "abs", "min", "max", "round", "int",
                                              "float", "bool", "complex", "print", "enumerate",
                                              "zip", "pow", "tuple"};
  return names.count(name) > 0;
}

Value resolve_qualified(FunctionChecker& checker, const std::string& name, SourceRange range) {
  if (auto intrinsic = intrinsic_value(name)) return checker.make_call(*intrinsic, {}, Type::i32(), range);
  if (auto constant = float_constant(name)) return checker.make_constant({*constant}, Type::f64(), range);
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
    checker.error(DiagKind::unknown_function, call.range, "'" + shown + "' is not supported in kernels", hint);
    return Value::error();
  }
  for (const Value& arg : call.args)
    if (!arg.ok()) return Value::error();
  return found->second(checker, call);
}

// ---------------------------------------------------------------- calls

Value FunctionChecker::check_call(ast::ExprId id) {
  const ast::Expr& e = module().ast()[id];
  const ast::Expr& callee_ast = module().ast()[e.operands[0]];
  Value callee;
  if (callee_ast.kind == ast::ExprKind::attribute && handlers().count("method." + callee_ast.text)) {
    // value.method(...): the value is the method's first argument.
    Value base = check_expr(callee_ast.operands[0]);
    if (base.kind == Value::Kind::expr) {
      // Arguments may be types (a.view(np.int32)): each method checks what it takes.
      CallSite call{"method." + callee_ast.text, {base}, {}, e.range};
      for (size_t i = 1; i < e.operands.size(); ++i) {
        call.args.push_back(check_expr(e.operands[i]));
        if (!call.args.back().ok()) return Value::error();
      }
      for (const ast::Keyword& keyword : e.keywords) {
        call.keywords.push_back({keyword.name, check_expr(keyword.value)});
        if (!call.keywords.back().second.ok()) return Value::error();
      }
      return call_builtin(*this, call);
    }
    callee = base.ok() ? attribute_of(base, callee_ast.text, callee_ast.range) : base;
  } else {
    callee = check_expr(e.operands[0]);
  }
  if (!callee.ok()) return callee;
  // Device functions also take compile-time arguments (types, functions, literals); every
  // other callee takes run-time values.
  bool takes_static = callee.kind == Value::Kind::function;
  std::vector<Value> args;
  for (size_t i = 1; i < e.operands.size(); ++i) {
    Value arg = check_expr(e.operands[i]);
    if (!takes_static) arg = as_runtime(arg, module().ast()[e.operands[i]].range);
    if (!arg.ok()) return Value::error();
    args.push_back(arg);
  }
  std::vector<std::pair<std::string, Value>> keywords;
  for (const ast::Keyword& keyword : e.keywords) {
    Value arg = check_expr(keyword.value);
    if (!takes_static) arg = as_runtime(arg, keyword.range);
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
