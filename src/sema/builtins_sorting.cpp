// NumPy's sorting, searching and counting in @jit functions on the host: np.sort, a.sort(),
// np.argsort and a.argsort(), np.searchsorted, np.digitize, np.unique, np.bincount,
// np.histogram, np.nonzero and a.nonzero(), np.flatnonzero, np.argwhere, typed as Numba 0.68
// types them (numba/np/arraymath.py, arrayobj.py, core/typing/arraydecl.py) and computed by
// runtime/pykern/sorting.cuh. One row per Python name: its parameters and its rule. Kernels
// refuse them, as numba-cuda does. Their string arguments (kind=, side=) are literals known at
// compile time, as Numba requires.
#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

namespace {

// A call's arguments bound to the parameters by name, as Python binds them (a method's array
// is args[0] and not a parameter).
struct Bound {
  std::vector<std::optional<Value>> values;
  const std::optional<Value>& operator[](size_t k) const { return values[k]; }
};

struct Parameters {
  const char* name;  // as shown: "np.sort", "a.sort"
  std::vector<const char*> parameters;
  size_t required;
};

std::optional<Bound> bind(FunctionChecker& c, const CallSite& call, const Parameters& s, bool method) {
  Bound bound{std::vector<std::optional<Value>>(s.parameters.size())};
  size_t first = method ? 1 : 0;
  size_t positional = call.args.size() - first;
  if (positional > s.parameters.size()) {
    c.error(DiagKind::wrong_arity, call.range,
            fmt::format("{}() takes at most {} positional argument{} ({} given)", s.name, s.parameters.size(),
                        s.parameters.size() == 1 ? "" : "s", positional));
    return std::nullopt;
  }
  for (size_t i = 0; i < positional; ++i) bound.values[i] = call.args[first + i];
  for (const auto& [name, value] : call.keywords) {
    size_t k = 0;
    while (k < s.parameters.size() && name != s.parameters[k]) ++k;
    if (k == s.parameters.size() || bound.values[k]) {
      c.error(DiagKind::wrong_arity, call.range,
              k == s.parameters.size()
                  ? fmt::format("{}() got an unexpected keyword argument '{}' (Numba takes no such argument)", s.name, name)
                  : fmt::format("{}() got multiple values for argument '{}'", s.name, name));
      return std::nullopt;
    }
    bound.values[k] = value;
  }
  for (size_t k = 0; k < s.required; ++k) {
    if (bound.values[k]) continue;
    c.error(DiagKind::wrong_arity, call.range, fmt::format("{}() missing required argument '{}'", s.name, s.parameters[k]));
    return std::nullopt;
  }
  return bound;
}

bool is_none(const Value& v) { return v.kind == Value::Kind::expr && v.type.is(TypeKind::none); }

// The value as a run-time expression; a string literal where a value belongs is an error.
std::optional<Value> runtime(FunctionChecker& c, const Value& v, SourceRange range) {
  if (v.is_string_literal()) {
    c.error(DiagKind::type_mismatch, range, "a string is not a number or an array here");
    return std::nullopt;
  }
  Value r = c.as_runtime(v, range);
  if (!r.ok()) return std::nullopt;
  return r;
}

// Element types these functions order: booleans, integers, float32 and float64.
bool orderable(const Type& dtype) {
  return dtype.is(TypeKind::boolean) || dtype.is(TypeKind::integer) || (dtype.is(TypeKind::floating) && dtype.bits >= 32);
}

// An array argument of an orderable dtype with at least `min_ndim` (and at most `max_ndim`)
// dimensions; a located error naming the function otherwise.
std::optional<Value> array_argument(FunctionChecker& c, const std::optional<Value>& given, const CallSite& call,
                                    const char* function, const char* parameter, int max_ndim = 32,
                                    bool complex_ok = false) {
  auto v = runtime(c, *given, call.range);
  if (!v) return std::nullopt;
  if (!v->type.is(TypeKind::array) || v->type.ndim == 0) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}() takes an array as '{}', not '{}'", function, parameter, to_string(v->type)),
            "pass a NumPy array (lists and tuples are not supported here yet)");
    return std::nullopt;
  }
  // The sorts order complex numbers as NumPy does (Numba's lt_complex); searches do not take them.
  if (!orderable(v->type.dtype()) && !(complex_ok && v->type.dtype().is(TypeKind::complex))) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}() of a '{}' is not supported", function, to_string(v->type)),
            complex_ok ? "sorts take arrays of booleans, integers, float32, float64 or complex numbers"
                       : "sorting and searching take arrays of booleans, integers, float32 or float64");
    return std::nullopt;
  }
  if (v->type.ndim > max_ndim) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}() takes a 1-d array as '{}', not '{}', as in Numba", function, parameter, to_string(v->type)),
            "pass one row (a[i]) or a flattened copy (a.ravel())");
    return std::nullopt;
  }
  return v;
}

// A sort's kind=: 0 for 'quicksort' (the default), 1 for 'mergesort' and 'stable'.
std::optional<int64_t> sort_kind(FunctionChecker& c, const std::optional<Value>& given, const CallSite& call,
                                 const char* function) {
  if (!given) return 0;
  if (!given->is_string_literal()) {
    c.error(DiagKind::not_constant, call.range, fmt::format("{}()'s 'kind' must be a string literal, as in Numba", function),
            "write kind=\"quicksort\" or kind=\"mergesort\"");
    return std::nullopt;
  }
  const std::string& kind = given->name;
  if (kind == "quicksort") return 0;
  if (kind == "mergesort" || kind == "stable") return 1;
  c.error(DiagKind::bad_argument, call.range, fmt::format("{}() has no kind '{}' in Numba", function, kind),
          "Numba sorts with 'quicksort' (the default), 'mergesort' or 'stable'");
  return std::nullopt;
}

Value int64_constant(FunctionChecker& c, int64_t v, SourceRange range) {
  return c.make_constant({v}, Type::i64(), range);
}

bool refuse_in_kernels(FunctionChecker& c, const CallSite& call, const std::string& what) {
  return c.allow_host_only(call.range, what,
                           "numba-cuda has no NumPy sorting or searching in kernels: call a @jit function on the host");
}

bool method_on_array(FunctionChecker& c, const CallSite& call, const char* attribute) {
  if (call.args[0].type.is(TypeKind::array)) return true;
  c.error(DiagKind::unknown_attribute, call.range,
          fmt::format("a value of type '{}' has no attribute '{}'", to_string(call.args[0].type), attribute));
  return false;
}

// np.sort(a): a sorted C-ordered copy, along the last axis. Numba's np.sort takes no kind.
Value np_sort(FunctionChecker& c, const CallSite& call) {
  if (!refuse_in_kernels(c, call, "np.sort()")) return Value::error();
  auto bound = bind(c, call, {"np.sort", {"a"}, 1}, false);
  if (!bound) return Value::error();
  auto a = array_argument(c, (*bound)[0], call, "np.sort", "a", 32, true);
  if (!a) return Value::error();
  return c.make_call(Op::array_sorted, {a->expr}, Type::array(a->type.dtype(), a->type.ndim, Layout::C), call.range);
}

// a.sort(kind='quicksort'): in place along the last axis; None.
Value method_sort(FunctionChecker& c, const CallSite& call) {
  if (!method_on_array(c, call, "sort") || !refuse_in_kernels(c, call, "a.sort()")) return Value::error();
  auto bound = bind(c, call, {"a.sort", {"kind"}, 0}, true);
  if (!bound) return Value::error();
  auto a = array_argument(c, call.args[0], call, "a.sort", "a", 32, true);
  auto kind = a ? sort_kind(c, (*bound)[0], call, "a.sort") : std::nullopt;
  if (!kind) return Value::error();
  if (a->type.readonly) {  // Numba fails to lower it
    c.error(DiagKind::bad_assignment, call.range, "a.sort() cannot sort a read-only (module-level) array in place",
            "sort a copy: np.sort(a)");
    return Value::error();
  }
  return c.make_call(Op::array_sort_in_place, {a->expr, int64_constant(c, *kind, call.range).expr}, Type::void_(),
                     call.range);
}

// np.argsort(a, kind='quicksort'), a.argsort(kind=...): int64 indices; 1-d arrays only, as Numba
// types them.
Value argsort(FunctionChecker& c, const CallSite& call, bool method) {
  const char* name = method ? "a.argsort" : "np.argsort";
  if (method && !method_on_array(c, call, "argsort")) return Value::error();
  if (!refuse_in_kernels(c, call, std::string(name) + "()")) return Value::error();
  auto bound = method ? bind(c, call, {name, {"kind"}, 0}, true) : bind(c, call, {name, {"a", "kind"}, 1}, false);
  if (!bound) return Value::error();
  auto a = array_argument(c, method ? std::optional<Value>(call.args[0]) : (*bound)[0], call, name, "a", 1, true);
  auto kind = a ? sort_kind(c, (*bound)[method ? 0 : 1], call, name) : std::nullopt;
  if (!kind) return Value::error();
  return c.make_call(Op::array_argsort, {a->expr, int64_constant(c, *kind, call.range).expr},
                     Type::array(Type::i64(), 1, Layout::C), call.range);
}

// A number or an array of numbers to search for (searchsorted's v, digitize's x).
std::optional<Value> keys_argument(FunctionChecker& c, const std::optional<Value>& given, const CallSite& call,
                                   const char* function, const char* parameter) {
  auto v = runtime(c, *given, call.range);
  if (!v) return std::nullopt;
  const Type& element = v->type.is(TypeKind::array) ? v->type.dtype() : v->type;
  if ((v->type.is(TypeKind::array) && v->type.ndim == 0) || !orderable(element)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}() takes a number or an array of numbers as '{}', not '{}'", function, parameter,
                        to_string(v->type)),
            "booleans, integers, float32 and float64 are supported");
    return std::nullopt;
  }
  return v;
}

// The int64 result of a search: a number for a number, an array of the keys' shape for an array.
Type search_result(const Value& keys) {
  return keys.type.is(TypeKind::array) ? Type::array(Type::i64(), keys.type.ndim, Layout::C) : Type::i64();
}

// np.searchsorted(a, v, side='left'): the side a string literal, as Numba requires.
Value searchsorted(FunctionChecker& c, const CallSite& call) {
  if (!refuse_in_kernels(c, call, "np.searchsorted()")) return Value::error();
  auto bound = bind(c, call, {"np.searchsorted", {"a", "v", "side"}, 2}, false);
  if (!bound) return Value::error();
  auto a = array_argument(c, (*bound)[0], call, "np.searchsorted", "a", 1);
  if (!a) return Value::error();
  auto keys = keys_argument(c, (*bound)[1], call, "np.searchsorted", "v");
  if (!keys) return Value::error();
  Op op = Op::array_searchsorted_left;
  if (const auto& side = (*bound)[2]) {
    if (!side->is_string_literal() || (side->name != "left" && side->name != "right")) {
      c.error(DiagKind::bad_argument, call.range,
              side->is_string_literal() ? fmt::format("np.searchsorted() has no side '{}'", side->name)
                                        : "np.searchsorted()'s 'side' must be a string literal, as in Numba",
              "write side=\"left\" or side=\"right\"");
      return Value::error();
    }
    if (side->name == "right") op = Op::array_searchsorted_right;
  }
  return c.make_call(op, {a->expr, keys->expr}, search_result(*keys), call.range);
}

// np.digitize(x, bins, right=False): bins a 1-d array, right a bool known at run time.
Value digitize(FunctionChecker& c, const CallSite& call) {
  if (!refuse_in_kernels(c, call, "np.digitize()")) return Value::error();
  auto bound = bind(c, call, {"np.digitize", {"x", "bins", "right"}, 2}, false);
  if (!bound) return Value::error();
  auto x = keys_argument(c, (*bound)[0], call, "np.digitize", "x");
  if (!x) return Value::error();
  auto bins = array_argument(c, (*bound)[1], call, "np.digitize", "bins", 1);
  if (!bins) return Value::error();
  Value right = c.make_constant({false}, Type::boolean(), call.range);
  if ((*bound)[2]) {
    auto given = runtime(c, *(*bound)[2], call.range);
    if (!given) return Value::error();
    right = c.truth(*given, call.range);
  }
  return c.make_call(Op::array_digitize, {x->expr, bins->expr, right.expr}, search_result(*x), call.range);
}

// np.unique(a): the sorted distinct elements, flattened, of a's dtype.
Value unique(FunctionChecker& c, const CallSite& call) {
  if (!refuse_in_kernels(c, call, "np.unique()")) return Value::error();
  auto bound = bind(c, call, {"np.unique", {"ar"}, 1}, false);
  if (!bound) return Value::error();
  auto a = array_argument(c, (*bound)[0], call, "np.unique", "ar");
  if (!a) return Value::error();
  return c.make_call(Op::array_unique, {a->expr}, Type::array(a->type.dtype(), 1, Layout::C), call.range);
}

// np.bincount(x, weights=None, minlength=0): x a 1-d array of integers (not uint64, whose
// maximum Numba cannot compare with -1); int64 counts, or float64 sums with weights.
Value bincount(FunctionChecker& c, const CallSite& call) {
  if (!refuse_in_kernels(c, call, "np.bincount()")) return Value::error();
  auto bound = bind(c, call, {"np.bincount", {"x", "weights", "minlength"}, 1}, false);
  if (!bound) return Value::error();
  auto x = array_argument(c, (*bound)[0], call, "np.bincount", "x", 1);
  if (!x) return Value::error();
  const Type& dtype = x->type.dtype();
  if (!dtype.is(TypeKind::integer) || (!dtype.is_signed && dtype.bits == 64)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("np.bincount() counts integers, not the elements of a '{}'", to_string(x->type)),
            dtype.is(TypeKind::integer) ? "Numba refuses uint64: convert with x.astype(np.int64)"
                                        : "convert the values to integers first");
    return Value::error();
  }
  Value minlength = int64_constant(c, 0, call.range);
  if ((*bound)[2]) {
    auto given = runtime(c, *(*bound)[2], call.range);
    if (!given) return Value::error();
    if (!given->type.is(TypeKind::integer)) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("np.bincount()'s 'minlength' must be an integer, not '{}'", to_string(given->type)));
      return Value::error();
    }
    minlength = c.cast(*given, Type::i64(), call.range);
  }
  if (!(*bound)[1] || is_none(*(*bound)[1]))
    return c.make_call(Op::array_bincount, {x->expr, minlength.expr}, Type::array(Type::i64(), 1, Layout::C), call.range);
  auto weights = array_argument(c, (*bound)[1], call, "np.bincount", "weights", 1);
  if (!weights) return Value::error();
  return c.make_call(Op::array_bincount, {x->expr, weights->expr, minlength.expr},
                     Type::array(Type::f64(), 1, Layout::C), call.range);
}

// np.histogram(a, bins=10, range=None): (int64 counts, edges). An integer count of bins gives
// float64 edges over the range (the elements' own without one); an array of edges is returned
// as the edges, and range is then unused, as in Numba.
Value histogram(FunctionChecker& c, const CallSite& call) {
  if (!refuse_in_kernels(c, call, "np.histogram()")) return Value::error();
  auto bound = bind(c, call, {"np.histogram", {"a", "bins", "range"}, 1}, false);
  if (!bound) return Value::error();
  auto a = array_argument(c, (*bound)[0], call, "np.histogram", "a");
  if (!a) return Value::error();
  Type counts = Type::array(Type::i64(), 1, Layout::C);
  Value bins = int64_constant(c, 10, call.range);
  if ((*bound)[1]) {
    auto given = runtime(c, *(*bound)[1], call.range);
    if (!given) return Value::error();
    if (given->type.is(TypeKind::array)) {
      auto edges = array_argument(c, given, call, "np.histogram", "bins", 1);
      if (!edges) return Value::error();
      return c.make_call(Op::array_histogram, {a->expr, edges->expr}, Type::tuple({counts, edges->type}), call.range);
    }
    if (!given->type.is(TypeKind::integer)) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("np.histogram()'s 'bins' must be an integer or an array of edges, not '{}'",
                          to_string(given->type)));
      return Value::error();
    }
    bins = c.cast(*given, Type::i64(), call.range);
  }
  Type result = Type::tuple({counts, Type::array(Type::f64(), 1, Layout::C)});
  if (!(*bound)[2] || is_none(*(*bound)[2]))
    return c.make_call(Op::array_histogram, {a->expr, bins.expr}, result, call.range);
  auto range = runtime(c, *(*bound)[2], call.range);
  if (!range) return Value::error();
  bool pair = range->type.is(TypeKind::tuple) && range->type.elements.size() == 2;
  for (size_t k = 0; pair && k < 2; ++k) {
    const Type& bound_type = range->type.elements[k];
    pair = bound_type.is(TypeKind::integer) || (bound_type.is(TypeKind::floating) && bound_type.bits >= 32);
  }
  if (!pair) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("np.histogram()'s 'range' must be a pair of numbers (lo, hi), not '{}'", to_string(range->type)));
    return Value::error();
  }
  Value lo = c.element_of_tuple(*range, 0, call.range), hi = c.element_of_tuple(*range, 1, call.range);
  return c.make_call(Op::array_histogram, {a->expr, bins.expr, lo.expr, hi.expr}, result, call.range);
}

// np.nonzero(a), a.nonzero(), np.flatnonzero(a), np.argwhere(a): int64 indices of the true
// elements, in C order. Numba types argwhere's (count, ndim) result layout A.
Value nonzero_family(FunctionChecker& c, const CallSite& call, Op op, const char* name, bool method) {
  if (method && !method_on_array(c, call, "nonzero")) return Value::error();
  if (!refuse_in_kernels(c, call, std::string(name) + "()")) return Value::error();
  auto bound = method ? bind(c, call, {name, {}, 0}, true) : bind(c, call, {name, {"a"}, 1}, false);
  if (!bound) return Value::error();
  auto a = runtime(c, method ? call.args[0] : *(*bound)[0], call.range);
  if (!a) return Value::error();
  if (!a->type.is(TypeKind::array) || a->type.ndim == 0 || !a->type.dtype().is_numeric() ||
      a->type.dtype().is(TypeKind::record)) {
    c.error(DiagKind::type_mismatch, call.range, fmt::format("{}() of a '{}' is not supported", name, to_string(a->type)),
            "pass an array of numbers or booleans");
    return Value::error();
  }
  Type indices = Type::array(Type::i64(), 1, Layout::C);
  Type result = indices;
  if (op == Op::array_nonzero) result = Type::tuple(std::vector<Type>(static_cast<size_t>(a->type.ndim), indices));
  if (op == Op::array_argwhere) result = Type::array(Type::i64(), 2, Layout::A);
  return c.make_call(op, {a->expr}, result, call.range);
}

}  // namespace

void add_sorting_builtins(HandlerTable& t) {
  t["numpy.sort"] = Builtin::with_strings(np_sort);  // so that kind="..." is named as Numba refuses it
  t["method.sort"] = Builtin::with_strings(method_sort);
  t["numpy.argsort"] = Builtin::with_strings([](FunctionChecker& c, const CallSite& call) { return argsort(c, call, false); });
  t["method.argsort"] = Builtin::with_strings([](FunctionChecker& c, const CallSite& call) { return argsort(c, call, true); });
  t["numpy.searchsorted"] = Builtin::with_strings(searchsorted);
  t["numpy.digitize"] = digitize;
  t["numpy.unique"] = unique;
  t["numpy.bincount"] = bincount;
  t["numpy.histogram"] = histogram;
  t["numpy.nonzero"] = [](FunctionChecker& c, const CallSite& call) {
    return nonzero_family(c, call, Op::array_nonzero, "np.nonzero", false);
  };
  t["method.nonzero"] = [](FunctionChecker& c, const CallSite& call) {
    return nonzero_family(c, call, Op::array_nonzero, "a.nonzero", true);
  };
  t["numpy.flatnonzero"] = [](FunctionChecker& c, const CallSite& call) {
    return nonzero_family(c, call, Op::array_flatnonzero, "np.flatnonzero", false);
  };
  t["numpy.argwhere"] = [](FunctionChecker& c, const CallSite& call) {
    return nonzero_family(c, call, Op::array_argwhere, "np.argwhere", false);
  };
}

}  // namespace pykern::sema
