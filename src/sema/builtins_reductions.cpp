// NumPy's whole-array reductions and predicates in @jit functions on the host: np.sum, np.mean,
// np.argmin, np.all, np.median, ... and the methods a.sum(), a.mean(), ... One row per Python
// name: its runtime operation (sema/calls.def, runtime/pykern/reductions.cuh), how the result is
// typed (Numba's numba/np/arraymath.py), and which element types it takes. Kernels refuse them,
// as numba-cuda does. The axis=, dtype= and array-returning forms (cumsum) are not built yet:
// they are located errors naming the keyword.
#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

namespace {

// How a reduction's result is typed from the array's dtype.
enum class Result {
  accumulator,  // sum, prod, nansum: NumPy's accumulator (int64/uint64 for narrower integers and bool)
  mean,         // mean: float64 for integers and bool, else the dtype
  nanmean,      // nanmean: float64, complex128 for complex
  variance,     // var, std: float64 (the runtime is told the mean's type)
  element,      // min, max, nanmin, nanmax: the dtype
  index,        // argmin, argmax, count_nonzero: int64
  truth,        // all, any: bool
  median,       // median: float64
};

struct Reduction {
  const char* name;  // NumPy's name: numpy.NAME, and the method a.NAME() where `method`
  Op op;
  Result result;
  bool method;
  bool takes_complex;  // Numba refuses argmin/argmax/median of complex; pykern has no complex min/max/var yet
  bool takes_scalar;   // np.NAME(x) of a number, as Numba's overloads take one
};

constexpr Reduction reductions[] = {
    {"sum", Op::array_sum, Result::accumulator, true, true, true},
    {"prod", Op::array_prod, Result::accumulator, true, true, true},
    {"nansum", Op::array_nansum, Result::accumulator, false, true, false},
    {"mean", Op::array_mean, Result::mean, true, true, true},
    {"nanmean", Op::array_nanmean, Result::nanmean, false, true, false},
    {"var", Op::array_var, Result::variance, true, false, false},
    {"std", Op::array_std, Result::variance, true, false, false},
    {"min", Op::array_min, Result::element, true, false, true},
    {"amin", Op::array_min, Result::element, false, false, true},
    {"max", Op::array_max, Result::element, true, false, true},
    {"amax", Op::array_max, Result::element, false, false, true},
    {"nanmin", Op::array_nanmin, Result::element, false, false, false},
    {"nanmax", Op::array_nanmax, Result::element, false, false, false},
    {"argmin", Op::array_argmin, Result::index, true, false, false},
    {"argmax", Op::array_argmax, Result::index, true, false, false},
    {"all", Op::array_all, Result::truth, true, true, true},
    {"any", Op::array_any, Result::truth, true, true, true},
    {"count_nonzero", Op::array_count_nonzero, Result::index, false, true, false},
    {"median", Op::array_median, Result::median, false, false, false},
};

// NumPy's accumulator type: booleans and integers narrower than 64 bits add up in 64 bits of
// their signedness (a bool as signed), as Numba's get_accumulator_type says.
Type accumulator_of(const Type& dtype) {
  if (dtype.is(TypeKind::boolean)) return Type::i64();
  if (dtype.is(TypeKind::integer) && dtype.bits < 64) return Type::int_(64, dtype.is_signed);
  return dtype;
}

// The mean's type: float64 for integers and booleans, else the dtype.
Type mean_of(const Type& dtype) { return dtype.is_integer_like() ? Type::f64() : dtype; }

Type result_of(Result result, const Type& dtype) {
  switch (result) {
    case Result::accumulator: return accumulator_of(dtype);
    case Result::mean: return mean_of(dtype);
    case Result::nanmean: return dtype.is(TypeKind::complex) ? Type::complex(128) : Type::f64();
    case Result::variance: return Type::f64();
    case Result::element: return dtype;
    case Result::index: return Type::i64();
    case Result::truth: return Type::boolean();
    case Result::median: return Type::f64();
  }
  return dtype;
}

// The type the runtime is told beside the array (`like`), where the result is not the element:
// the accumulator, the mean's type for var and std.
std::optional<Type> like_of(Result result, const Type& dtype) {
  switch (result) {
    case Result::accumulator:
    case Result::mean:
    case Result::nanmean: return result_of(result, dtype);
    case Result::variance: return mean_of(dtype);
    default: return std::nullopt;
  }
}

// "np.sum()" or "a.sum()", as the call was written.
std::string shown(const Reduction& r, bool as_method) {
  return as_method ? fmt::format("a.{}()", r.name) : fmt::format("np.{}()", r.name);
}

// Keywords and extra positional arguments: the forms not built yet (axis=, dtype=, out=,
// keepdims=) and those Numba has not (ddof= on var and std), each named.
bool want_whole_array_call(FunctionChecker& c, const CallSite& call, const Reduction& r, bool as_method) {
  std::string what = shown(r, as_method);
  if (!call.keywords.empty()) {
    const std::string& keyword = call.keywords.front().first;
    if (keyword == "ddof" && (r.op == Op::array_var || r.op == Op::array_std)) {
      c.error(DiagKind::bad_argument, call.range, fmt::format("{} takes no 'ddof' argument in Numba", what),
              "Numba's np.var and np.std divide by n (ddof=0); for ddof=1 scale by n / (n - 1)");
      return false;
    }
    c.error(DiagKind::bad_argument, call.range, fmt::format("{} with '{}=' is not supported yet", what, keyword),
            "pykern reduces whole arrays so far: loop over the other axes and reduce each slice (a[i].sum())");
    return false;
  }
  size_t expected = 1;  // the array: np.sum(a), or a.sum()'s a
  if (call.args.size() != expected) {
    c.error(DiagKind::bad_argument, call.range,
            call.args.size() > expected ? fmt::format("{} with an axis is not supported yet", what)
                                        : fmt::format("{} takes the array to reduce", what),
            call.args.size() > expected ? "pykern reduces whole arrays so far: loop over the other axes and reduce each "
                                          "slice (a[i].sum())"
                                        : "");
    return false;
  }
  return true;
}

// np.sum(x), np.mean(x), np.min(x), np.all(x), ... of a number: the number itself, converted as
// the array form's result would be (Numba's scalar overloads).
Value reduce_scalar(FunctionChecker& c, const CallSite& call, const Reduction& r, const Value& x) {
  switch (r.result) {
    case Result::truth: return c.truth(x, call.range);
    case Result::accumulator:
    case Result::mean: return c.cast(x, result_of(r.result, x.type), call.range);
    default: return x;
  }
}

Value reduce_array(FunctionChecker& c, const CallSite& call, const Reduction& r, bool as_method) {
  std::string what = shown(r, as_method);
  if (as_method && !call.args[0].type.is(TypeKind::array)) {
    c.error(DiagKind::unknown_attribute, call.range,
            fmt::format("a value of type '{}' has no attribute '{}'", to_string(call.args[0].type), r.name));
    return Value::error();
  }
  if (!c.allow_host_only(call.range, what,
                         "numba-cuda has no NumPy array functions in kernels: reduce with a loop, or call a @jit "
                         "function on the host"))
    return Value::error();
  if (!want_whole_array_call(c, call, r, as_method)) return Value::error();
  Value array = c.as_runtime(call.args[0], call.range);
  if (!array.ok()) return Value::error();
  if (r.takes_scalar && !as_method && array.type.is_numeric() && !array.type.is(TypeKind::record) &&
      !(array.type.is(TypeKind::complex) && !r.takes_complex))
    return reduce_scalar(c, call, r, array);
  if (!array.type.is(TypeKind::array)) {
    c.error(DiagKind::type_mismatch, call.range, fmt::format("{} needs an array, not '{}'", what, to_string(array.type)),
            "pass a NumPy array; reduce a tuple or a number with a loop or Python's min/max");
    return Value::error();
  }
  const Type& dtype = array.type.dtype();
  bool half = dtype.is(TypeKind::floating) && dtype.bits == 16;
  if (!dtype.is_numeric() || dtype.is(TypeKind::record) || half || array.type.ndim == 0 ||
      (dtype.is(TypeKind::complex) && !r.takes_complex)) {
    c.error(DiagKind::type_mismatch, call.range, fmt::format("{} of a '{}' is not supported", what, to_string(array.type)),
            "reductions take arrays (of one or more dimensions) of booleans, integers, float32, float64 and, for "
            "sum, prod, mean, nansum, nanmean, all, any and count_nonzero, complex numbers");
    return Value::error();
  }
  std::vector<ir::ExprId> args;
  if (auto like = like_of(r.result, dtype)) args.push_back(c.make_constant({int64_t(0)}, *like, call.range).expr);
  args.push_back(array.expr);
  return c.make_call(r.op, std::move(args), result_of(r.result, dtype), call.range);
}

}  // namespace

void add_reduction_builtins(HandlerTable& t) {
  for (const Reduction& r : reductions) {
    t[std::string("numpy.") + r.name] = [&r](FunctionChecker& c, const CallSite& call) {
      if (call.args.empty()) {
        c.error(DiagKind::wrong_arity, call.range, fmt::format("np.{}() takes the array to reduce", r.name));
        return Value::error();
      }
      return reduce_array(c, call, r, false);
    };
    if (r.method)
      t[std::string("method.") + r.name] = [&r](FunctionChecker& c, const CallSite& call) {
        return reduce_array(c, call, r, true);
      };
  }
}

}  // namespace pykern::sema
