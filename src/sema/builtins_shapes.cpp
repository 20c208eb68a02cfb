// NumPy's functions that build arrays from values and other arrays, and reshape them, in @jit
// functions on the host, typed as Numba 0.68 types them (numba/np/arrayobj.py, arraymath.py):
// np.array / np.asarray of literals, tuples and lists, np.ascontiguousarray, np.linspace,
// np.eye, np.identity, a.fill, a.ravel / np.ravel, a.flatten, np.reshape, np.transpose,
// a.astype, np.expand_dims, np.atleast_1d/2d, np.concatenate and the stacks, np.append,
// np.repeat, np.flip / fliplr / flipud, np.roll (runtime/pykern/array_shapes.cuh). Forms Numba
// refuses (np.tile, axis= where it takes none) are located errors saying so.
#include <fmt/format.h>

#include "sema/builtin_rules.h"
#include "sema/zero_d.h"

namespace pykern::sema {

using ir::Op;

namespace {

Value refuse(FunctionChecker& c, const CallSite& call, DiagKind kind, const std::string& message,
             const std::string& hint = {}) {
  c.error(kind, call.range, message, hint);
  return Value::error();
}

// Host functions only; a method's refusal in a kernel says why, as np.*'s do.
bool on_host(FunctionChecker& c, SourceRange range, const std::string& what) {
  if (what.rfind("array.", 0) != 0) return c.allow_host_only(range, what);
  std::string hint = what == "array.fill()"
                         ? "numba-cuda has no array.fill(): set the items in a loop"
                         : "a kernel cannot allocate arrays, as in Numba-CUDA: " + what +
                               " works in @jit functions called on the host";
  return c.allow_host_only(range, what, hint);
}

// The value as an array, or an error naming the function and what it got.
bool want_array(FunctionChecker& c, const CallSite& call, const Value& value, const std::string& name) {
  if (value.type.is(TypeKind::array)) return true;
  c.error(DiagKind::type_mismatch, call.range, fmt::format("{}() takes an array, not '{}'", name, to_string(value.type)),
          value.type.is_numeric() ? "0-d arrays (from a scalar) are not supported yet" : "");
  return false;
}

std::optional<ir::ExprId> integer_argument(FunctionChecker& c, const CallSite& call, const Value& given,
                                           const std::string& what) {
  Value v = c.as_runtime(given, call.range);
  if (!v.ok()) return std::nullopt;
  if (!v.type.is(TypeKind::integer)) {
    c.error(DiagKind::type_mismatch, call.range, fmt::format("{} must be an integer, not '{}'", what, to_string(v.type)));
    return std::nullopt;
  }
  return c.cast_expr(v.expr, Type::i64());
}

ir::ExprId like(FunctionChecker& c, const Type& dtype, SourceRange range) {
  return c.make_constant({int64_t(0)}, dtype, range).expr;
}
ir::ExprId int_constant(FunctionChecker& c, int64_t v, SourceRange range) {
  return c.make_constant({v}, Type::i64(), range).expr;
}

// NumPy's promotion of several dtypes (np.result_type of arrays): one dtype stays itself.
Type promoted(const std::vector<Type>& dtypes) {
  Type result = dtypes[0];
  for (const Type& t : dtypes)
    if (!(t == result)) result = arithmetic_result(result, t);
  return result;
}

// ---------------------------------------------------------------- np.array of literals

// A nested sequence's numbers in C order, and its shape (one extent per level).
struct Literal {
  std::vector<Value> items;
  std::vector<int64_t> shape;
  std::optional<size_t> leaf_depth;  // where the numbers are: every one at the same depth
  bool ok = true;
};

bool mixed(FunctionChecker& c, SourceRange range) {
  c.error(DiagKind::type_mismatch, range, "np.array() of a sequence that mixes numbers and sequences",
          "every item of a level must be a number, or every one a sequence of as many items");
  return false;
}

// One level of the sequence at `depth`: its extent, equal for every sequence at that depth.
bool note_extent(FunctionChecker& c, Literal& out, size_t depth, size_t extent, SourceRange range) {
  if (out.leaf_depth && depth >= *out.leaf_depth) return mixed(c, range);
  if (out.shape.size() == depth) out.shape.push_back(static_cast<int64_t>(extent));
  if (out.shape[depth] == static_cast<int64_t>(extent)) return true;
  c.error(DiagKind::type_mismatch, range, "np.array() of sequences of different lengths (a ragged array)",
          "every row of a nested list must have as many items");
  return false;
}

void gather_value(FunctionChecker& c, const Value& value, size_t depth, Literal& out, SourceRange range);

// A list or tuple display (np.array([[1, 2], [3, 4]])): each item, at the next depth.
void gather_display(FunctionChecker& c, ast::ExprId id, size_t depth, Literal& out) {
  const ast::Expr& e = c.module().ast()[id];
  if (e.kind != ast::ExprKind::list && e.kind != ast::ExprKind::tuple) {
    Value v = c.as_runtime(c.check_expr(id), e.range);
    if (!v.ok()) {
      out.ok = false;
      return;
    }
    gather_value(c, v, depth, out, e.range);
    return;
  }
  if (!note_extent(c, out, depth, e.operands.size(), e.range)) {
    out.ok = false;
    return;
  }
  for (ast::ExprId operand : e.operands) {
    if (!out.ok) return;
    gather_display(c, operand, depth + 1, out);
  }
}

// A value inside the sequence: a number (a leaf at the deepest level) or a tuple of them.
void gather_value(FunctionChecker& c, const Value& value, size_t depth, Literal& out, SourceRange range) {
  if (value.type.is(TypeKind::tuple)) {
    if (!note_extent(c, out, depth, value.type.elements.size(), range)) {
      out.ok = false;
      return;
    }
    for (size_t k = 0; k < value.type.elements.size() && out.ok; ++k)
      gather_value(c, c.element_of_tuple(value, k, range), depth + 1, out, range);
    return;
  }
  if (!value.type.is_numeric() || value.type.is(TypeKind::record)) {
    c.error(DiagKind::unsupported_operation, range,
            fmt::format("np.array() builds arrays of numbers, not of '{}'", to_string(value.type)),
            value.type.is(TypeKind::array) ? "np.array() of arrays is not supported; use np.stack((a, b))" : "");
    out.ok = false;
    return;
  }
  if (!out.leaf_depth) out.leaf_depth = depth;
  if (*out.leaf_depth != depth || out.shape.size() != depth) {
    out.ok = mixed(c, range);
    return;
  }
  out.items.push_back(value);
}

// The literal as a new C array of `dtype` (its items' common type where none is given).
Value array_of_literal(FunctionChecker& c, Literal& literal, std::optional<Type> dtype, const CallSite& call) {
  if (literal.items.empty()) {
    return refuse(c, call, DiagKind::type_mismatch, "np.array() of an empty sequence: Numba cannot type its items",
                  "make it with np.empty(0) or np.zeros(0, dtype)");
  }
  if (literal.shape.size() > 32) return refuse(c, call, DiagKind::unsupported_operation, "np.array() makes at most 32 dimensions");
  if (!dtype) {
    Type common = literal.items[0].type;
    for (const Value& item : literal.items) {
      auto unified = unify(common, item.type);
      if (!unified) {
        return refuse(c, call, DiagKind::type_mismatch,
                      fmt::format("np.array() of items of types '{}' and '{}', which Numba cannot unify",
                                  to_string(common), to_string(item.type)));
      }
      common = *unified;
    }
    dtype = common;
  }
  if (dtype->is(TypeKind::record)) return refuse(c, call, DiagKind::unsupported_operation, "np.array() of a record dtype is not supported");
  int ndim = static_cast<int>(literal.shape.size());
  Type type = Type::array(*dtype, ndim, Layout::C);
  std::vector<ir::ExprId> made_args = {like(c, *dtype, call.range)};
  for (int64_t extent : literal.shape) made_args.push_back(int_constant(c, extent, call.range));
  Value made = c.make_call(Op::empty_array, std::move(made_args), type, call.range);
  std::vector<ir::ExprId> args = {made.expr};
  for (const Value& item : literal.items) args.push_back(c.cast_expr(item.expr, *dtype));
  return c.make_call(Op::array_items, std::move(args), type, call.range);
}

// np.array(l) of a list built at run time: a 1-d array of its items.
Value array_of_list(FunctionChecker& c, const Value& list, std::optional<Type> dtype, const CallSite& call) {
  Type item = list.type.elements[0];
  // A list of tuples of numbers, or of lists of numbers: a 2-d array, a row per item
  // (runtime/pykern/list.cuh). Numba's np.array takes no list of arrays.
  auto row_element = [](const Type& row) -> std::optional<Type> {
    if (row.is(TypeKind::list) && row.elements[0].is_numeric() && !row.elements[0].is(TypeKind::record))
      return row.elements[0];
    if (!row.is(TypeKind::tuple) || row.elements.empty()) return std::nullopt;
    Type element = row.elements[0];
    for (const Type& e : row.elements) {
      if (!e.is_numeric() || e.is(TypeKind::record)) return std::nullopt;
      element = promote(element, e);
    }
    return element;
  };
  if (auto element = row_element(item)) {
    Type made = dtype ? *dtype : *element;
    return c.make_call(Op::array_from_rows, {like(c, made, call.range), list.expr}, Type::array(made, 2, Layout::C),
                       call.range);
  }
  if (item.is(TypeKind::array)) {
    return refuse(c, call, DiagKind::type_mismatch, "np.array() of a list of arrays is refused by Numba",
                  "make the array first (np.empty((len(l), n))) and copy each item into its row");
  }
  if (!item.known() || !item.is_numeric()) {
    return refuse(c, call, DiagKind::type_mismatch, "np.array() of a list whose items' type is not known",
                  "append numbers to the list first, or give it a first item");
  }
  Type element = dtype ? *dtype : item;
  return c.make_call(Op::array_from_list, {like(c, element, call.range), list.expr}, Type::array(element, 1, Layout::C),
                     call.range);
}

// np.array(object, dtype=None) and np.asarray(a, dtype=None) of a value: a tuple (nested),
// a list, or (np.asarray only) an array, which is itself where its dtype is kept.
Value array_of_value(FunctionChecker& c, const CallSite& call) {
  bool asarray = short_name(call.name) == "asarray";
  std::string name = shown(call);
  if (!c.allow_host_only(call.range, name)) return Value::error();
  auto bound = bind(c, call, {asarray ? "a" : "object", "dtype"}, 1, name);
  if (!bound) return Value::error();
  std::optional<Type> dtype;
  if ((*bound)[1]) {
    dtype = dtype_argument(c, *(*bound)[1], call, false);
    if (!dtype) return Value::error();
  }
  Value object = c.as_runtime(*(*bound)[0], call.range);
  if (!object.ok()) return Value::error();
  if (object.type.is(TypeKind::array)) {
    if (!asarray) {
      return refuse(c, call, DiagKind::type_mismatch, "np.array() of an array is refused by Numba",
                    "use a.copy() for a copy, or np.asarray(a)");
    }
    if (!dtype || *dtype == object.type.dtype()) return object;
    CallSite astype{"method.astype", {object, Value::dtype(*dtype)}, {}, call.range};
    return call_builtin(c, astype);
  }
  if (object.type.is(TypeKind::list)) return array_of_list(c, object, dtype, call);
  if (object.type.is_numeric() && !object.type.is(TypeKind::record))
    return zero_d_of_number(c, object, dtype, call.range);  // np.array(3.0): a 0-d array (sema/zero_d.cpp)
  if (!object.type.is(TypeKind::tuple)) {
    return refuse(c, call, DiagKind::unsupported_operation,
                  fmt::format("{}() of a '{}': 0-d arrays are not supported yet", name, to_string(object.type)),
                  "make a 1-element array: np.array([x])");
  }
  Literal literal;
  gather_value(c, object, 0, literal, call.range);
  if (!literal.ok) return Value::error();
  return array_of_literal(c, literal, dtype, call);
}

// ---------------------------------------------------------------- simple makers and views

// np.ascontiguousarray(a): a itself where it is C-contiguous, else a C copy.
Value ascontiguousarray(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "np.ascontiguousarray")) return Value::error();
  auto bound = bind(c, call, {"a"}, 1, "np.ascontiguousarray");
  if (!bound) return Value::error();
  const Value& a = *(*bound)[0];
  if (!want_array(c, call, a, "np.ascontiguousarray")) return Value::error();
  if (a.type.layout == Layout::C) return a;
  return c.make_call(Op::copy_array, {a.expr}, Type::array(a.type.dtype(), a.type.ndim, Layout::C), call.range);
}

// np.linspace(start, stop, num=50): float64 (Numba takes neither endpoint= nor dtype=).
Value linspace(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "np.linspace")) return Value::error();
  auto bound = bind(c, call, {"start", "stop", "num"}, 2, "np.linspace");
  if (!bound) return Value::error();
  std::vector<ir::ExprId> args;
  for (size_t k = 0; k < 2; ++k) {
    const Value& v = *(*bound)[k];
    if (v.type.is(TypeKind::complex))
      return refuse(c, call, DiagKind::unsupported_operation, "np.linspace() of complex bounds is not supported yet");
    if (!v.type.is(TypeKind::integer) && !v.type.is(TypeKind::floating))
      return refuse(c, call, DiagKind::type_mismatch,
                    fmt::format("np.linspace() takes numbers as its bounds, not '{}'", to_string(v.type)));
    args.push_back(c.cast_expr(v.expr, Type::f64()));
  }
  if ((*bound)[2]) {
    if (!(*bound)[2]->type.is(TypeKind::integer))
      return refuse(c, call, DiagKind::type_mismatch, "np.linspace(): the argument \"num\" must be an integer");
    args.push_back(c.cast_expr((*bound)[2]->expr, Type::i64()));
  } else {
    args.push_back(int_constant(c, 50, call.range));
  }
  return c.make_call(Op::linspace, std::move(args), Type::array(Type::f64(), 1, Layout::C), call.range);
}

// np.eye(N, M=None, k=0, dtype=float) and np.identity(n, dtype=float).
Value eye(FunctionChecker& c, const CallSite& call) {
  bool identity = short_name(call.name) == "identity";
  std::string name = shown(call);
  if (!c.allow_host_only(call.range, name)) return Value::error();
  auto bound = identity ? bind(c, call, {"n", "dtype"}, 1, name) : bind(c, call, {"N", "M", "k", "dtype"}, 1, name);
  if (!bound) return Value::error();
  const std::optional<Value>& dtype_given = (*bound)[identity ? 1 : 3];
  Type dtype = Type::f64();
  if (dtype_given) {
    auto parsed = dtype_argument(c, *dtype_given, call, true);
    if (!parsed) return Value::error();
    dtype = *parsed;
  }
  if (dtype.is(TypeKind::record)) return refuse(c, call, DiagKind::unsupported_operation, name + "() of a record dtype is not supported");
  auto n = integer_argument(c, call, *(*bound)[0], name + "()'s size");
  if (!n) return Value::error();
  ir::ExprId m = *n, k = int_constant(c, 0, call.range);
  if (!identity && (*bound)[1] && !(*bound)[1]->type.is(TypeKind::none)) {
    auto given = integer_argument(c, call, *(*bound)[1], "np.eye()'s M");
    if (!given) return Value::error();
    m = *given;
  }
  if (!identity && (*bound)[2]) {
    auto given = integer_argument(c, call, *(*bound)[2], "np.eye()'s k");
    if (!given) return Value::error();
    k = *given;
  }
  return c.make_call(Op::eye, {like(c, dtype, call.range), *n, m, k}, Type::array(dtype, 2, Layout::C), call.range);
}

// a.fill(value): every element set to the value, converted to the array's type.
Value fill(FunctionChecker& c, const CallSite& call) {
  const Value& a = call.args[0];
  if (!a.type.is(TypeKind::array))
    return refuse(c, call, DiagKind::unknown_attribute, fmt::format("a value of type '{}' has no attribute 'fill'", to_string(a.type)));
  if (!on_host(c, call.range, "array.fill()")) return Value::error();
  if (!want_args(c, call, 2, 2)) return Value::error();
  if (a.type.readonly) return refuse(c, call, DiagKind::type_mismatch, "array.fill() of a read-only array");
  Value value = c.as_runtime(call.args[1], call.range);
  if (!value.ok()) return Value::error();
  if (!value.type.is_numeric() || value.type.is(TypeKind::record))
    return refuse(c, call, DiagKind::type_mismatch, fmt::format("array.fill() takes a number, not '{}'", to_string(value.type)));
  return c.make_call(Op::fill_view, {a.expr, c.cast_expr(value.expr, a.type.dtype())}, Type::void_(), call.range);
}

// a.ravel(), np.ravel(a): a C array's view, else a copy; a.flatten(): always a copy.
Value ravel(FunctionChecker& c, const CallSite& call) {
  bool method = call.name.rfind("method.", 0) == 0;
  std::string what = short_name(call.name);
  std::string name = method ? "array." + what : "np." + what;
  if (method && !call.args[0].type.is(TypeKind::array))
    return refuse(c, call, DiagKind::unknown_attribute,
                  fmt::format("a value of type '{}' has no attribute '{}'", to_string(call.args[0].type), what));
  if (!on_host(c, call.range, name + "()")) return Value::error();
  if (!want_args(c, call, 1, 1)) return Value::error();
  const Value& a = call.args[0];
  if (!want_array(c, call, a, name)) return Value::error();
  Op op = what == "flatten" ? Op::flatten : Op::ravel;
  return c.make_call(op, {a.expr}, Type::array(a.type.dtype(), 1, Layout::C), call.range);
}

// np.reshape(a, newshape): a.reshape(newshape).
Value np_reshape(FunctionChecker& c, const CallSite& call) {
  auto bound = bind(c, call, {"a", "newshape"}, 2, "np.reshape");
  if (!bound) return Value::error();
  if (!want_array(c, call, *(*bound)[0], "np.reshape")) return Value::error();
  return call_builtin(c, {"method.reshape", {*(*bound)[0], *(*bound)[1]}, {}, call.range});
}

// np.transpose(a, axes=None), a.transpose(): a.T; axes only as every axis reversed (a.T) or
// kept in order (a), known at compile time.
Value transpose(FunctionChecker& c, const CallSite& call) {
  bool method = call.name == "method.transpose";
  if (method && !call.args[0].type.is(TypeKind::array))
    return refuse(c, call, DiagKind::unknown_attribute,
                  fmt::format("a value of type '{}' has no attribute 'transpose'", to_string(call.args[0].type)));
  // bind() leaves a method's array (args[0]) out: it is bound here.
  auto bound = method ? bind(c, call, {"axes"}, 0, "array.transpose") : bind(c, call, {"a", "axes"}, 1, "np.transpose");
  if (!bound) return Value::error();
  if (method) bound->insert(bound->begin(), call.args[0]);
  const Value& a = *(*bound)[0];
  if (!want_array(c, call, a, "np.transpose")) return Value::error();
  if ((*bound)[1] && !(*bound)[1]->type.is(TypeKind::none)) {
    Value axes = c.as_runtime(*(*bound)[1], call.range);
    if (!axes.ok()) return Value::error();
    bool reversed = axes.type.is(TypeKind::tuple) && static_cast<int>(axes.type.elements.size()) == a.type.ndim;
    bool kept = reversed;
    for (int k = 0; reversed && k < a.type.ndim; ++k) {
      auto axis = c.fold(c.element_of_tuple(axes, k, call.range).expr);
      int64_t given = axis ? axis->as_int() : -1;
      reversed &= axis && given == a.type.ndim - 1 - k;
      kept &= axis && given == k;
    }
    if (kept) return a;
    if (!reversed) {
      return refuse(c, call, DiagKind::unsupported_operation,
                    "np.transpose() with axes other than all reversed is not supported yet",
                    "use a.T, or pass the axes as a constant tuple such as (1, 0)");
    }
  }
  return c.attribute_of(a, "T", call.range);
}

// a.astype(dtype): a new array of the dtype (a NumPy type, np.dtype or a string; not Python's
// float or int, which Numba refuses), in a's order (C for an A array).
Value astype(FunctionChecker& c, const CallSite& call) {
  const Value& a = call.args[0];
  if (!a.type.is(TypeKind::array))
    return refuse(c, call, DiagKind::unknown_attribute, fmt::format("a value of type '{}' has no attribute 'astype'", to_string(a.type)));
  if (!on_host(c, call.range, "array.astype()")) return Value::error();
  if (!want_args(c, call, 2, 2)) return Value::error();
  auto dtype = dtype_argument(c, call.args[1], call, false);
  if (!dtype) return Value::error();
  if (dtype->is(TypeKind::record)) return refuse(c, call, DiagKind::unsupported_operation, "array.astype() to a record dtype is not supported");
  Layout layout = a.type.layout == Layout::F ? Layout::F : Layout::C;
  return c.make_call(Op::astype, {a.expr, like(c, *dtype, call.range)}, Type::array(*dtype, a.type.ndim, layout),
                     call.range);
}

// The array with an axis of extent 1 at `axis` (of the result): Numba's layout rule.
Value expanded(FunctionChecker& c, const Value& a, ir::ExprId axis, SourceRange range) {
  Layout layout = a.type.ndim <= 1 ? a.type.layout : Layout::A;
  Type type = Type::array(a.type.dtype(), a.type.ndim + 1, layout);
  type.readonly = a.type.readonly;
  return c.make_call(Op::expand_dims, {a.expr, axis}, type, range);
}

// np.expand_dims(a, axis).
Value expand_dims(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "np.expand_dims")) return Value::error();
  auto bound = bind(c, call, {"a", "axis"}, 2, "np.expand_dims");
  if (!bound) return Value::error();
  const Value& a = *(*bound)[0];
  if (!want_array(c, call, a, "np.expand_dims")) return Value::error();
  if (a.type.ndim >= 32) return refuse(c, call, DiagKind::unsupported_operation, "np.expand_dims() makes at most 32 dimensions");
  auto axis = integer_argument(c, call, *(*bound)[1], "np.expand_dims()'s axis");
  if (!axis) return Value::error();
  return expanded(c, a, *axis, call.range);
}

// np.atleast_1d(a), np.atleast_2d(a): a itself, or a view with an axis in front; of several
// arrays, a tuple of them.
Value atleast(FunctionChecker& c, const CallSite& call) {
  int minimum = short_name(call.name) == "atleast_1d" ? 1 : 2;
  std::string name = shown(call);
  if (!c.allow_host_only(call.range, name)) return Value::error();
  if (call.args.empty() || !call.keywords.empty())
    return refuse(c, call, DiagKind::wrong_arity, name + "() takes arrays as positional arguments");
  std::vector<Value> results;
  for (const Value& a : call.args) {
    if (!want_array(c, call, a, name)) return Value::error();
    results.push_back(a.type.ndim >= minimum ? a : expanded(c, a, int_constant(c, 0, call.range), call.range));
  }
  if (results.size() == 1) return results[0];
  ir::Expr tuple;
  tuple.kind = ir::ExprKind::make_tuple;
  tuple.range = call.range;
  std::vector<Type> types;
  for (const Value& r : results) {
    tuple.args.push_back(r.expr);
    types.push_back(r.type);
  }
  tuple.type = Type::tuple(std::move(types));
  return c.value_of(c.add(std::move(tuple)));
}

// ---------------------------------------------------------------- joining arrays

// The arrays of a tuple argument (np.concatenate((a, b))), all of one dimension count.
std::optional<std::vector<Value>> arrays_of(FunctionChecker& c, const CallSite& call, const Value& given,
                                            const std::string& name) {
  Value tuple = c.as_runtime(given, call.range);
  if (!tuple.ok()) return std::nullopt;
  if (!tuple.type.is(TypeKind::tuple) || tuple.type.elements.empty()) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}() takes a tuple of arrays, not '{}'", name, to_string(tuple.type)),
            tuple.type.is(TypeKind::list) ? "Numba takes a tuple here: (a, b), not [a, b]" : "");
    return std::nullopt;
  }
  std::vector<Value> arrays;
  for (size_t k = 0; k < tuple.type.elements.size(); ++k) {
    Value item = c.element_of_tuple(tuple, k, call.range);
    if (!item.type.is(TypeKind::array)) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("{}() takes a tuple of arrays; item {} is a '{}'", name, k, to_string(item.type)));
      return std::nullopt;
    }
    if (!arrays.empty() && item.type.ndim != arrays[0].type.ndim) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("{}() of arrays of different dimension counts ({} and {})", name, arrays[0].type.ndim,
                          item.type.ndim),
              "Numba joins arrays of one dimension count");
      return std::nullopt;
    }
    arrays.push_back(item);
  }
  return arrays;
}

// The arrays joined along `axis` in a new array of their promoted dtype; `stack` asks for
// np.stack's check (the arrays already expanded).
Value joined(FunctionChecker& c, const std::vector<Value>& arrays, ir::ExprId axis, bool stack, SourceRange range) {
  std::vector<Type> dtypes;
  bool all_f = true;
  for (const Value& a : arrays) {
    dtypes.push_back(a.type.dtype());
    all_f &= a.type.layout == Layout::F;
  }
  Type dtype = promoted(dtypes);
  std::vector<ir::ExprId> args = {like(c, dtype, range), axis, c.make_constant({stack}, Type::boolean(), range).expr};
  for (const Value& a : arrays) args.push_back(a.expr);
  return c.make_call(Op::concatenate, std::move(args),
                     Type::array(dtype, arrays[0].type.ndim, all_f ? Layout::F : Layout::C), range);
}

// np.concatenate((a, b, ...), axis=0).
Value concatenate(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "np.concatenate")) return Value::error();
  auto bound = bind(c, call, {"arrays", "axis"}, 1, "np.concatenate");
  if (!bound) return Value::error();
  auto arrays = arrays_of(c, call, *(*bound)[0], "np.concatenate");
  if (!arrays) return Value::error();
  ir::ExprId axis = int_constant(c, 0, call.range);
  if ((*bound)[1]) {
    auto given = integer_argument(c, call, *(*bound)[1], "np.concatenate()'s axis");
    if (!given) return Value::error();
    axis = *given;
  }
  return joined(c, *arrays, axis, false, call.range);
}

// np.stack((a, b), axis=0): the arrays, each with a new axis there, joined along it.
Value stack_along(FunctionChecker& c, const std::vector<Value>& arrays, ir::ExprId axis, SourceRange range) {
  std::vector<Value> expanded_arrays;
  for (const Value& a : arrays) expanded_arrays.push_back(expanded(c, a, axis, range));
  return joined(c, expanded_arrays, axis, true, range);
}

Value stack(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "np.stack")) return Value::error();
  auto bound = bind(c, call, {"arrays", "axis"}, 1, "np.stack");
  if (!bound) return Value::error();
  auto arrays = arrays_of(c, call, *(*bound)[0], "np.stack");
  if (!arrays) return Value::error();
  ir::ExprId axis = int_constant(c, 0, call.range);
  if ((*bound)[1]) {
    auto given = integer_argument(c, call, *(*bound)[1], "np.stack()'s axis");
    if (!given) return Value::error();
    axis = *given;
  }
  return stack_along(c, *arrays, axis, call.range);
}

// np.hstack, np.vstack, np.column_stack of a tuple of arrays, as Numba builds them: hstack
// joins 1-d arrays along axis 0 and others along 1; vstack stacks 1-d arrays as rows and
// joins others along 0; column_stack makes 1-d arrays columns and joins along 1.
Value hv_stack(FunctionChecker& c, const CallSite& call) {
  std::string name = shown(call), what = short_name(call.name);
  if (!c.allow_host_only(call.range, name)) return Value::error();
  auto bound = bind(c, call, {"tup"}, 1, name);
  if (!bound) return Value::error();
  auto arrays = arrays_of(c, call, *(*bound)[0], name);
  if (!arrays) return Value::error();
  int ndim = (*arrays)[0].type.ndim;
  if (what == "hstack") return joined(c, *arrays, int_constant(c, ndim == 1 ? 0 : 1, call.range), false, call.range);
  if (what == "vstack") {
    if (ndim == 1) return stack_along(c, *arrays, int_constant(c, 0, call.range), call.range);
    return joined(c, *arrays, int_constant(c, 0, call.range), false, call.range);
  }
  if (ndim > 2) return refuse(c, call, DiagKind::type_mismatch, "np.column_stack() takes 1-d or 2-d arrays");
  std::vector<Value> columns;
  for (const Value& a : *arrays)
    columns.push_back(ndim == 1 ? expanded(c, a, int_constant(c, 1, call.range), call.range) : a);
  return joined(c, columns, int_constant(c, 1, call.range), false, call.range);
}

// np.append(arr, values): both flattened and joined (Numba takes no axis= here yet).
Value append(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "np.append")) return Value::error();
  auto bound = bind(c, call, {"arr", "values", "axis"}, 2, "np.append");
  if (!bound) return Value::error();
  if ((*bound)[2])
    return refuse(c, call, DiagKind::unsupported_operation, "np.append() with axis= is not supported yet",
                  "use np.concatenate((a, b), axis=...)");
  std::vector<Value> flat;
  for (size_t k = 0; k < 2; ++k) {
    Value v = c.as_runtime(*(*bound)[k], call.range);
    if (!v.ok()) return Value::error();
    if (v.type.is(TypeKind::array)) {
      flat.push_back(c.make_call(Op::ravel, {v.expr}, Type::array(v.type.dtype(), 1, Layout::C), call.range));
    } else if (v.type.is_numeric() && !v.type.is(TypeKind::record)) {
      flat.push_back(c.make_call(Op::one_item, {v.expr}, Type::array(v.type, 1, Layout::C), call.range));
    } else {
      return refuse(c, call, DiagKind::type_mismatch,
                    fmt::format("np.append() takes arrays or numbers, not '{}'", to_string(v.type)),
                    "make an array of a tuple first: np.array((x, y))");
    }
  }
  return joined(c, flat, int_constant(c, 0, call.range), false, call.range);
}

// np.repeat(a, repeats), a.repeat(repeats) with an integer count: the flat items repeated.
Value repeat(FunctionChecker& c, const CallSite& call) {
  bool method = call.name == "method.repeat";
  if (method && !call.args[0].type.is(TypeKind::array))
    return refuse(c, call, DiagKind::unknown_attribute,
                  fmt::format("a value of type '{}' has no attribute 'repeat'", to_string(call.args[0].type)));
  if (!c.allow_host_only(call.range, "np.repeat")) return Value::error();
  auto bound = method ? bind(c, call, {"repeats"}, 1, "array.repeat") : bind(c, call, {"a", "repeats"}, 2, "np.repeat");
  if (!bound) return Value::error();
  if (method) bound->insert(bound->begin(), call.args[0]);
  const Value& a = *(*bound)[0];
  if (!want_array(c, call, a, "np.repeat")) return Value::error();
  const Value& repeats = *(*bound)[1];
  if (repeats.type.is(TypeKind::array))
    return refuse(c, call, DiagKind::unsupported_operation, "np.repeat() with an array of counts is not supported yet",
                  "repeat each item in a loop");
  auto count = integer_argument(c, call, repeats, "np.repeat()'s repeats");
  if (!count) return Value::error();
  return c.make_call(Op::repeat, {a.expr, *count}, Type::array(a.type.dtype(), 1, Layout::C), call.range);
}

// np.flip(m) (every axis), np.flipud (axis 0), np.fliplr (axis 1): reversed views.
Value flip(FunctionChecker& c, const CallSite& call) {
  std::string name = shown(call), what = short_name(call.name);
  if (!c.allow_host_only(call.range, name)) return Value::error();
  if (call.args.size() != 1 || !call.keywords.empty())
    return refuse(c, call, DiagKind::wrong_arity, name + "() takes one array (Numba's np.flip takes no axis)",
                  "flip one axis with a slice: a[::-1], a[:, ::-1]");
  const Value& a = call.args[0];
  if (!want_array(c, call, a, name)) return Value::error();
  int axis = what == "flip" ? -1 : what == "flipud" ? 0 : 1;
  if (a.type.ndim < (axis == 1 ? 2 : 1))
    return refuse(c, call, DiagKind::type_mismatch, name + "(): the array must be at least 2-d (Numba's rule)");
  Type type = Type::array(a.type.dtype(), a.type.ndim, Layout::A);
  type.readonly = a.type.readonly;
  return c.make_call(Op::flip, {a.expr}, type, call.range, axis);
}

// np.roll(a, shift): a new C array of a's shape, its flat items rotated (Numba takes no axis).
Value roll(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "np.roll")) return Value::error();
  auto bound = bind(c, call, {"a", "shift"}, 2, "np.roll");
  if (!bound) return Value::error();
  const Value& a = *(*bound)[0];
  if (!want_array(c, call, a, "np.roll")) return Value::error();
  auto shift = integer_argument(c, call, *(*bound)[1], "np.roll()'s shift");
  if (!shift) return Value::error();
  return c.make_call(Op::roll, {a.expr, *shift}, Type::array(a.type.dtype(), a.type.ndim, Layout::C), call.range);
}

// Functions Numba 0.68 does not have: a located error naming them.
Value not_in_numba(FunctionChecker& c, const CallSite& call) {
  return refuse(c, call, DiagKind::unknown_function, fmt::format("{}() is not supported by Numba", shown(call)),
                short_name(call.name) == "tile" ? "build the tiled array with np.empty and a loop" : "");
}

}  // namespace

// np.array([[1, 2], [3, 4]]), np.asarray((1.0, x)): a list or tuple display read item by item
// (Numba's list and tuple typing: the items' common type), nested displays as more dimensions.
Value array_of_display(FunctionChecker& c, const ast::Expr& call_expr, const std::string& name) {
  CallSite call{name, {}, {}, call_expr.range};
  std::string shown_name = shown(call);
  if (!c.allow_host_only(call.range, shown_name)) return Value::error();
  std::optional<Type> dtype;
  for (size_t i = 2; i < call_expr.operands.size(); ++i) {
    if (i > 2) return refuse(c, call, DiagKind::wrong_arity, shown_name + "() takes the sequence and a dtype");
    Value given = c.check_type_argument(call_expr.operands[i]);
    if (!given.ok()) return Value::error();
    dtype = dtype_argument(c, given, call, false);
    if (!dtype) return Value::error();
  }
  for (const ast::Keyword& keyword : call_expr.keywords) {
    if (keyword.name != "dtype" || dtype)
      return refuse(c, call, DiagKind::wrong_arity,
                    fmt::format("{}() got an unexpected keyword argument '{}'", shown_name, keyword.name));
    Value given = c.check_type_argument(keyword.value);
    if (!given.ok()) return Value::error();
    dtype = dtype_argument(c, given, call, false);
    if (!dtype) return Value::error();
  }
  Literal literal;
  gather_display(c, call_expr.operands[1], 0, literal);
  if (!literal.ok) return Value::error();
  return array_of_literal(c, literal, dtype, call);
}

void add_shape_builtins(HandlerTable& t) {
  t["numpy.array"] = Builtin::with_types(array_of_value);
  t["numpy.asarray"] = Builtin::with_types(array_of_value);
  t["numpy.ascontiguousarray"] = ascontiguousarray;
  t["numpy.linspace"] = linspace;
  t["numpy.eye"] = Builtin::with_types(eye);
  t["numpy.identity"] = Builtin::with_types(eye);
  t["method.fill"] = fill;
  t["method.ravel"] = ravel;
  t["numpy.ravel"] = ravel;
  t["method.flatten"] = ravel;
  t["numpy.reshape"] = np_reshape;
  t["numpy.transpose"] = transpose;
  t["method.transpose"] = transpose;
  t["method.astype"] = Builtin::with_types(astype);
  t["numpy.expand_dims"] = expand_dims;
  t["numpy.atleast_1d"] = atleast;
  t["numpy.atleast_2d"] = atleast;
  t["numpy.concatenate"] = concatenate;
  t["numpy.stack"] = stack;
  t["numpy.hstack"] = hv_stack;
  t["numpy.vstack"] = hv_stack;
  t["numpy.column_stack"] = hv_stack;
  t["numpy.append"] = append;
  t["numpy.repeat"] = repeat;
  t["method.repeat"] = repeat;
  t["numpy.flip"] = flip;
  t["numpy.flipud"] = flip;
  t["numpy.fliplr"] = flip;
  t["numpy.roll"] = roll;
  t["numpy.tile"] = not_in_numba;
}

}  // namespace pykern::sema
