// NumPy's reductions in @jit functions on the host: np.sum, np.mean, np.argmin, np.all,
// np.median, np.cumsum, np.percentile, ... and the methods a.sum(), a.mean(), a.cumsum(), ...
// One row per Python name: its runtime operation (sema/calls.def, runtime/pykern/
// reductions.cuh, reductions_axis.cuh, statistics.cuh), how the result is typed (Numba's
// numba/np/arraymath.py), which element types it takes and which arguments beside the array
// (axis=, dtype=, ddof=, n, q) Numba's overload has. An argument Numba's overload lacks
// (np.mean(a, axis=0)) is a located error saying so. Kernels refuse them, as numba-cuda does.
#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

namespace {

// How a reduction's result is typed from the array's dtype.
enum class Result {
  accumulator,  // sum, prod, nansum, nanprod: NumPy's accumulator (int64/uint64 for narrower integers and bool)
  mean,         // mean: float64 for integers and bool, else the dtype
  nanmean,      // nanmean: float64, complex128 for complex
  variance,     // var, std: float64 (the runtime is told the mean's type)
  nanvariance,  // nanvar, nanstd: float64
  element,      // min, max, nanmin, nanmax: the dtype
  index,        // argmin, argmax, count_nonzero: int64
  truth,        // all, any: bool
  median,       // median, nanmedian: float64
  range,        // ptp: float64 for floats, int64 for signed integers (Numba's max - min)
  cumulative,   // cumsum, cumprod, nancumsum, nancumprod: a 1-D array of the accumulator
  differences,  // diff: an array of the dtype and the array's dimensions
  percentile,   // percentile, quantile and NaN forms: float64, or a 1-D float64 array for an array of q
};

// The arguments Numba's overload takes beside the array, in its order.
enum class Extra {
  none,        // (a): axis=, dtype=, out=, ... are Numba's TypingError
  axis_dtype,  // sum(a, axis=None, dtype=None)
  axis,        // argmin/argmax/count_nonzero(a, axis=None)
  cumulative,  // cumsum(a, axis=None, dtype=None)
  ddof,        // nanvar/nanstd(a, axis=None, dtype=None, out=None, ddof=0): only ddof is taken
  order,       // diff(a, n=1)
  q,           // percentile(a, q)
  weights,     // average(a, axis=None, weights=None): axis= raises in Numba
};

struct Reduction {
  const char* name;  // NumPy's name: numpy.NAME, and the method a.NAME() where `method`
  Op op;
  Result result;
  bool method;
  bool takes_complex;  // Numba refuses argmin/argmax/median of complex; pykern has no complex min/max/var yet
  bool takes_scalar;   // np.NAME(x) of a number, as Numba's overloads take one
  Extra extra = Extra::none;
  Op axis_op = Op::array_sum;  // the operation with an axis, where Numba takes one
};

constexpr Reduction reductions[] = {
    {"sum", Op::array_sum, Result::accumulator, true, true, true, Extra::axis_dtype, Op::array_sum_axis},
    {"prod", Op::array_prod, Result::accumulator, true, true, true},
    {"nansum", Op::array_nansum, Result::accumulator, false, true, false},
    {"nanprod", Op::array_nanprod, Result::accumulator, false, true, false},
    {"mean", Op::array_mean, Result::mean, true, true, true},
    {"nanmean", Op::array_nanmean, Result::nanmean, false, true, false},
    {"var", Op::array_var, Result::variance, true, false, false},
    {"std", Op::array_std, Result::variance, true, false, false},
    {"nanvar", Op::array_nanvar, Result::nanvariance, false, true, false, Extra::ddof},
    {"nanstd", Op::array_nanstd, Result::nanvariance, false, true, false, Extra::ddof},
    {"min", Op::array_min, Result::element, true, false, true},
    {"amin", Op::array_min, Result::element, false, false, true},
    {"max", Op::array_max, Result::element, true, false, true},
    {"amax", Op::array_max, Result::element, false, false, true},
    {"nanmin", Op::array_nanmin, Result::element, false, false, false},
    {"nanmax", Op::array_nanmax, Result::element, false, false, false},
    {"ptp", Op::array_ptp, Result::range, false, true, false},
    {"argmin", Op::array_argmin, Result::index, true, false, false, Extra::axis, Op::array_argmin_axis},
    {"argmax", Op::array_argmax, Result::index, true, false, false, Extra::axis, Op::array_argmax_axis},
    {"all", Op::array_all, Result::truth, true, true, true},
    {"any", Op::array_any, Result::truth, true, true, true},
    {"count_nonzero", Op::array_count_nonzero, Result::index, false, true, false, Extra::axis,
     Op::array_count_nonzero_axis},
    {"average", Op::array_mean, Result::mean, false, false, false, Extra::weights},
    {"median", Op::array_median, Result::median, false, false, false},
    {"nanmedian", Op::array_nanmedian, Result::median, false, false, false},
    {"cumsum", Op::array_cumsum, Result::cumulative, true, true, false, Extra::cumulative, Op::array_cumsum_axis},
    {"cumprod", Op::array_cumprod, Result::cumulative, true, true, false},
    {"nancumsum", Op::array_nancumsum, Result::cumulative, false, true, false},
    {"nancumprod", Op::array_nancumprod, Result::cumulative, false, true, false},
    {"diff", Op::array_diff, Result::differences, false, true, false, Extra::order},
    {"percentile", Op::array_percentile, Result::percentile, false, false, false, Extra::q},
    {"nanpercentile", Op::array_nanpercentile, Result::percentile, false, false, false, Extra::q},
    {"quantile", Op::array_quantile, Result::percentile, false, false, false, Extra::q},
    {"nanquantile", Op::array_nanquantile, Result::percentile, false, false, false, Extra::q},
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

// The result's scalar type (the element type of an array result).
Type result_of(Result result, const Type& dtype) {
  switch (result) {
    case Result::accumulator:
    case Result::cumulative: return accumulator_of(dtype);
    case Result::mean: return mean_of(dtype);
    case Result::nanmean: return dtype.is(TypeKind::complex) ? Type::complex(128) : Type::f64();
    case Result::variance:
    case Result::nanvariance:
    case Result::median:
    case Result::percentile: return Type::f64();
    case Result::range:  // complex: max - min widened to complex128, as Numba unifies it with nan+0j
      return dtype.is(TypeKind::floating) ? Type::f64() : dtype.is(TypeKind::complex) ? Type::complex(128) : Type::i64();
    case Result::element:
    case Result::differences: return dtype;
    case Result::index: return Type::i64();
    case Result::truth: return Type::boolean();
  }
  return dtype;
}

// The type the runtime is told beside the array (`like`), where the result is not the element:
// the accumulator, the mean's type for var and std, ptp's result.
std::optional<Type> like_of(Result result, const Type& dtype) {
  switch (result) {
    case Result::accumulator:
    case Result::cumulative:
    case Result::mean:
    case Result::range:
    case Result::nanmean: return result_of(result, dtype);
    case Result::variance: return mean_of(dtype);
    default: return std::nullopt;
  }
}

// "np.sum()" or "a.sum()", as the call was written.
std::string shown(const Reduction& r, bool as_method) {
  return as_method ? fmt::format("a.{}()", r.name) : fmt::format("np.{}()", r.name);
}

// The parameters Numba's overload has beside the array, by name.
std::vector<const char*> parameters_of(Extra extra) {
  switch (extra) {
    case Extra::none: return {};
    case Extra::axis_dtype:
    case Extra::cumulative: return {"axis", "dtype"};
    case Extra::axis: return {"axis"};
    case Extra::ddof: return {"axis", "dtype", "out", "ddof"};
    case Extra::order: return {"n"};
    case Extra::q: return {"q"};
    case Extra::weights: return {"axis", "weights"};
  }
  return {};
}

// Whether a given argument is None (as good as not given).
bool is_none(const Value& v) { return v.kind == Value::Kind::expr && v.type.is(TypeKind::none); }

// The arguments beside the array, by parameter (positional first, as Python binds them); None
// counts as not given. An error naming the argument for one Numba's overload lacks.
using Bound = std::vector<std::optional<Value>>;
std::optional<Bound> bind(FunctionChecker& c, const CallSite& call, const Reduction& r, bool as_method) {
  std::string what = shown(r, as_method);
  std::vector<const char*> names = parameters_of(r.extra);
  Bound bound(names.size());
  auto refuse = [&](const std::string& argument) {
    if (argument == "ddof" && (r.op == Op::array_var || r.op == Op::array_std)) {
      c.error(DiagKind::bad_argument, call.range, fmt::format("{} takes no 'ddof' argument in Numba", what),
              "Numba's np.var and np.std divide by n (ddof=0); for ddof=1 scale by n / (n - 1), or use np.nanvar");
      return;
    }
    c.error(DiagKind::bad_argument, call.range, fmt::format("{} takes no '{}' argument in Numba", what, argument),
            argument == "axis" ? fmt::format("Numba's {} reduces the whole array: loop over the other axes and reduce "
                                             "each slice ({})",
                                             what, as_method ? fmt::format("a[i].{}()", r.name)
                                                             : fmt::format("np.{}(a[i])", r.name))
                               : "");
  };
  for (size_t i = 1; i < call.args.size(); ++i) {
    if (i - 1 >= names.size()) {
      refuse(r.extra == Extra::none ? "axis" : "out");
      return std::nullopt;
    }
    bound[i - 1] = call.args[i];
  }
  for (const auto& [name, value] : call.keywords) {
    size_t k = 0;
    while (k < names.size() && name != names[k]) ++k;
    if (k == names.size()) {
      refuse(name);
      return std::nullopt;
    }
    if (bound[k]) {
      c.error(DiagKind::wrong_arity, call.range, fmt::format("{} got multiple values for argument '{}'", what, name));
      return std::nullopt;
    }
    bound[k] = value;
  }
  for (size_t k = 0; k < names.size(); ++k) {
    if (bound[k] && is_none(*bound[k])) bound[k].reset();
    if (!bound[k]) continue;
    // nanvar and nanstd take ddof only (Numba: "Numba does not support nanvar with axis."), and
    // average no axis (Numba's raises "Numba does not support average with axis." when called).
    if ((r.extra == Extra::ddof && k < 3) || (r.extra == Extra::weights && k == 0)) {
      refuse(names[k]);
      return std::nullopt;
    }
  }
  if (r.extra == Extra::q && !bound[0]) {
    c.error(DiagKind::wrong_arity, call.range, fmt::format("{} missing required argument 'q'", what));
    return std::nullopt;
  }
  return bound;
}

// An integer argument (axis, ddof, n) as an int64 run-time value; an error for anything else.
std::optional<ir::ExprId> integer_argument(FunctionChecker& c, const CallSite& call, const Value& given,
                                           const std::string& what, const char* parameter) {
  Value v = c.as_runtime(given, call.range);
  if (!v.ok()) return std::nullopt;
  if (!v.type.is(TypeKind::integer)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{} takes '{}' as an integer, not '{}'", what, parameter, to_string(v.type)),
            v.type.is(TypeKind::tuple) && std::string(parameter) == "axis"
                ? "pykern reduces along one axis so far: reduce the result again for a second one"
                : "");
    return std::nullopt;
  }
  return c.cast_expr(v.expr, Type::i64());
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

// Element types Numba refuses for one function beyond the common rule (ptp of booleans), and
// those pykern has not built (ptp of unsigned integers, whose Numba result is a float64).
bool want_element_type(FunctionChecker& c, const CallSite& call, const Reduction& r, const std::string& what,
                       const Type& dtype) {
  if (r.result != Result::range || dtype.is(TypeKind::floating) || dtype.is(TypeKind::complex) ||
      (dtype.is(TypeKind::integer) && dtype.is_signed))
    return true;
  c.error(DiagKind::type_mismatch, call.range, fmt::format("{} of '{}' elements is not supported", what, to_string(dtype)),
          dtype.is(TypeKind::boolean) ? "Numba refuses booleans here, as NumPy does" : "convert to int64 or float64 first");
  return false;
}

// The dtype= argument of sum and cumsum: a NumPy scalar type known at compile time.
std::optional<Type> dtype_argument(FunctionChecker& c, const CallSite& call, const Value& given, const std::string& what) {
  std::optional<Type> dtype = dtype_of(given);
  if (dtype && dtype->is_numeric() && !dtype->is(TypeKind::record) &&
      !(dtype->is(TypeKind::floating) && dtype->bits == 16))
    return dtype;
  c.error(DiagKind::not_constant, call.range,
          fmt::format("{} takes its dtype as a NumPy type known at compile time", what),
          "pass np.float64, np.int64, np.float32, ... or a.dtype");
  return std::nullopt;
}

// np.average(a) is the mean; np.average(a, weights=w) is np.sum(np.multiply(a, w)) / np.sum(w),
// typed as Numba types those: the product in NumPy's promotion of the dtypes, the sums in
// their accumulators, the quotient by true division.
Value average(FunctionChecker& c, const CallSite& call, const std::string& what, const Value& array,
              const std::optional<Value>& weights_given) {
  const Type& dtype = array.type.dtype();
  auto like = [&](const Type& t) { return c.make_constant({int64_t(0)}, t, call.range).expr; };
  if (!weights_given)
    return c.make_call(Op::array_mean, {like(mean_of(dtype)), array.expr}, mean_of(dtype), call.range);
  Value weights = c.as_runtime(*weights_given, call.range);
  if (!weights.ok()) return Value::error();
  const Type* wtype = weights.type.is(TypeKind::array) ? &weights.type.elements[0] : nullptr;
  if (!wtype || weights.type.ndim == 0 || !wtype->is_numeric() || wtype->is(TypeKind::record) ||
      wtype->is(TypeKind::complex) || (wtype->is(TypeKind::floating) && wtype->bits == 16)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{} takes weights as an array of booleans, integers or floats, not '{}'", what,
                        to_string(weights.type)));
    return Value::error();
  }
  Type product = promote(dtype, *wtype);
  Type product_total = accumulator_of(product), weight_total = accumulator_of(*wtype);
  Type result = true_divide_result(product_total, weight_total);
  return c.make_call(Op::array_average,
                     {like(result), like(product), like(product_total), like(weight_total), array.expr, weights.expr},
                     result, call.range);
}

// The forms with arguments beside the array: axis= (sum, argmin, argmax, cumsum), dtype= (sum,
// cumsum), ddof (nanvar, nanstd), n (diff), q (percentile and friends).
Value reduce_with(FunctionChecker& c, const CallSite& call, const Reduction& r, const std::string& what,
                  const Value& array, const Bound& bound) {
  const Type& dtype = array.type.dtype();
  int ndim = array.type.ndim;
  std::vector<ir::ExprId> args;
  switch (r.extra) {
    case Extra::axis_dtype:
    case Extra::cumulative: {
      Type result = result_of(r.result, dtype);
      if (bound[1]) {
        auto given = dtype_argument(c, call, *bound[1], what);
        if (!given) return Value::error();
        result = *given;
      }
      args.push_back(c.make_constant({int64_t(0)}, result, call.range).expr);
      args.push_back(array.expr);
      bool cumulative = r.extra == Extra::cumulative;
      if (!bound[0]) {
        Op op = cumulative ? r.op : Op::array_sum_as;
        return c.make_call(op, std::move(args), cumulative ? Type::array(result, 1, Layout::C) : result, call.range);
      }
      auto axis = integer_argument(c, call, *bound[0], what, "axis");
      if (!axis) return Value::error();
      args.push_back(*axis);
      // A sum along the one axis of a 1-D array is a number; a cumulative sum keeps the dimensions.
      Type type = cumulative   ? Type::array(result, ndim, Layout::C)
                  : ndim == 1 ? result
                              : Type::array(result, ndim - 1, Layout::C);
      return c.make_call(r.axis_op, std::move(args), type, call.range);
    }
    case Extra::axis: {
      args.push_back(array.expr);
      if (!bound[0]) return c.make_call(r.op, std::move(args), Type::i64(), call.range);
      auto axis = integer_argument(c, call, *bound[0], what, "axis");
      if (!axis) return Value::error();
      args.push_back(*axis);
      Type type = ndim == 1 ? Type::i64() : Type::array(Type::i64(), ndim - 1, Layout::C);
      return c.make_call(r.axis_op, std::move(args), type, call.range);
    }
    case Extra::ddof:
    case Extra::order: {
      std::optional<ir::ExprId> count = c.make_constant({int64_t(r.extra == Extra::order ? 1 : 0)}, Type::i64(), call.range).expr;
      const std::optional<Value>& given = bound[r.extra == Extra::order ? 0 : 3];
      if (given && !(count = integer_argument(c, call, *given, what, r.extra == Extra::order ? "n" : "ddof")))
        return Value::error();
      Type type = r.extra == Extra::order ? Type::array(dtype, ndim, Layout::C) : Type::f64();
      return c.make_call(r.op, {array.expr, *count}, type, call.range);
    }
    case Extra::q: {
      Value q = c.as_runtime(*bound[0], call.range);
      if (!q.ok()) return Value::error();
      bool real = q.type.is(TypeKind::integer) || q.type.is(TypeKind::floating) || q.type.is(TypeKind::boolean);
      if (real) return c.make_call(r.op, {array.expr, c.cast_expr(q.expr, Type::f64())}, Type::f64(), call.range);
      const Type* element = q.type.is(TypeKind::array) ? &q.type.elements[0] : nullptr;
      if (element && q.type.ndim > 0 && element->is_integer_like() != element->is(TypeKind::floating) &&
          !(element->is(TypeKind::floating) && element->bits == 16))
        return c.make_call(r.op, {array.expr, q.expr}, Type::array(Type::f64(), 1, Layout::C), call.range);
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("{} with q of type '{}' is not supported", what, to_string(q.type)),
              "pykern takes q as a number or an array of numbers so far: fill an array with np.empty for several q");
      return Value::error();
    }
    case Extra::weights: return average(c, call, what, array, bound[1]);
    case Extra::none: break;
  }
  return Value::error();
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
  auto bound = bind(c, call, r, as_method);
  if (!bound) return Value::error();
  Value array = c.as_runtime(call.args[0], call.range);
  if (!array.ok()) return Value::error();
  bool given_extra = false;
  for (const auto& b : *bound) given_extra |= b.has_value();
  if (r.takes_scalar && !as_method && !given_extra && array.type.is_numeric() && !array.type.is(TypeKind::record) &&
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
            "sum, prod, mean, nansum, nanprod, nanmean, nanvar, nanstd, ptp, all, any, count_nonzero, cumsum, cumprod and diff, complex "
            "numbers");
    return Value::error();
  }
  if (!want_element_type(c, call, r, what, dtype)) return Value::error();
  if (r.extra != Extra::none) return reduce_with(c, call, r, what, array, *bound);
  std::vector<ir::ExprId> args;
  if (auto like = like_of(r.result, dtype)) args.push_back(c.make_constant({int64_t(0)}, *like, call.range).expr);
  args.push_back(array.expr);
  Type type = result_of(r.result, dtype);
  if (r.result == Result::cumulative) type = Type::array(type, 1, Layout::C);
  return c.make_call(r.op, std::move(args), type, call.range);
}

}  // namespace

void add_reduction_builtins(HandlerTable& t) {
  for (const Reduction& r : reductions) {
    // sum and cumsum take dtype=, a type: their rules see types as they are.
    bool takes_dtype = r.extra == Extra::axis_dtype || r.extra == Extra::cumulative;
    Handler function = [&r](FunctionChecker& c, const CallSite& call) {
      if (call.args.empty()) {
        c.error(DiagKind::wrong_arity, call.range, fmt::format("np.{}() takes the array to reduce", r.name));
        return Value::error();
      }
      return reduce_array(c, call, r, false);
    };
    Handler method = [&r](FunctionChecker& c, const CallSite& call) { return reduce_array(c, call, r, true); };
    t[std::string("numpy.") + r.name] = takes_dtype ? Builtin::with_types(function) : Builtin(function);
    if (r.method) t[std::string("method.") + r.name] = takes_dtype ? Builtin::with_types(method) : Builtin(method);
  }
}

}  // namespace pykern::sema
