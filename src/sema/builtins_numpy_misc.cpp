// NumPy in @jit functions on the host, the forms Numba 0.68 has beside the families of
// builtins_shapes.cpp and builtins_ufuncs.cpp: np.transpose / a.transpose with any axes,
// np.swapaxes, np.moveaxis (views, numba/np/arrayobj.py), a.item(), np.round / np.around with decimals
// and an out array (numba/np/arraymath.py impl_np_round), and a ufunc's positional output
// array (np.add(a, b, out_array), np.sqrt(a, a)), which Numba's ufuncs take and write in place;
// `out=` as a keyword and `where=` are Numba's "unsupported keyword arguments". Runtime:
// runtime/pykern/numpy_misc.cuh.
#include <fmt/format.h>

#include "sema/array_exprs.h"
#include "sema/builtin_rules.h"
#include "sema/checker.h"

namespace pykern::sema {

using ir::Op;

namespace {

Value refuse(FunctionChecker& c, SourceRange range, DiagKind kind, const std::string& message,
             const std::string& hint = {}) {
  c.error(kind, range, message, hint);
  return Value::error();
}

const Type& element_type(const Type& t) { return t.is(TypeKind::array) ? t.dtype() : t; }

// An integer argument as int64 (Numba's axis arguments), or nullopt after reporting.
std::optional<ir::ExprId> axis_argument(FunctionChecker& c, const Value& given, SourceRange range,
                                        const std::string& what) {
  Value v = c.as_runtime(given, range);
  if (!v.ok()) return std::nullopt;
  if (!v.type.is(TypeKind::integer)) {
    c.error(DiagKind::type_mismatch, range, fmt::format("{} must be an integer, not '{}'", what, to_string(v.type)));
    return std::nullopt;
  }
  return c.cast_expr(v.expr, Type::i64());
}

// The integers of an int or a tuple of ints (np.moveaxis's source and destination).
std::optional<std::vector<ir::ExprId>> axes_of(FunctionChecker& c, const Value& given, SourceRange range,
                                                const std::string& what) {
  Value v = c.as_runtime(given, range);
  if (!v.ok()) return std::nullopt;
  std::vector<ir::ExprId> axes;
  if (!v.type.is(TypeKind::tuple)) {
    auto one = axis_argument(c, v, range, what);
    if (!one) return std::nullopt;
    axes.push_back(*one);
    return axes;
  }
  for (size_t k = 0; k < v.type.elements.size(); ++k) {
    auto one = axis_argument(c, c.element_of_tuple(v, k, range), range, what + " (each item)");
    if (!one) return std::nullopt;
    axes.push_back(*one);
  }
  return axes;
}

// A view type of `a`'s dtype and dimensions, layout A (Numba types every permutation so).
Type view_type(const Type& a) {
  Type type = Type::array(a.dtype(), a.ndim, Layout::A);
  type.readonly = a.readonly;
  return type;
}

bool want_array_with_axes(FunctionChecker& c, const Value& a, SourceRange range, const std::string& name) {
  if (a.type.is(TypeKind::array) && a.type.ndim > 0) return true;
  c.error(DiagKind::type_mismatch, range,
          fmt::format("{}() takes an array with axes, not '{}'", name, to_string(a.type)),
          "The first argument \"a\" must be an array (Numba's rule)");
  return false;
}

// ---------------------------------------------------------------- axis permutations

// np.transpose(a, axes) and a.transpose(axes) / a.transpose(*axes): a view of layout A, the
// axes checked at run time as Numba's permute_arrays checks them. Without axes, `plain`.
Value transpose_axes(FunctionChecker& c, const CallSite& call, const Handler& plain) {
  bool method = call.name == "method.transpose";
  if (method && !call.args[0].type.is(TypeKind::array)) return plain(c, call);
  std::vector<Value> axes;
  Value a;
  if (method) {
    a = call.args[0];
    if (!call.keywords.empty()) return plain(c, call);
    axes.assign(call.args.begin() + 1, call.args.end());
    if (axes.size() == 1) {
      Value only = c.as_runtime(axes[0], call.range);
      if (!only.ok()) return Value::error();
      if (only.type.is(TypeKind::none)) return plain(c, call);
      axes = {only};
    }
  } else {
    auto bound = bind(c, call, {"a", "axes"}, 1, "np.transpose");
    if (!bound) return Value::error();
    if (!(*bound)[1] || (*bound)[1]->type.is(TypeKind::none)) return plain(c, call);
    a = *(*bound)[0];
    axes = {*(*bound)[1]};
  }
  if (axes.empty()) return plain(c, call);
  if (!c.allow_host_only(call.range, "np.transpose() with axes")) return Value::error();
  if (!a.type.is(TypeKind::array))
    return refuse(c, call.range, DiagKind::type_mismatch,
                  fmt::format("np.transpose() takes an array, not '{}'", to_string(a.type)),
                  a.type.is(TypeKind::tuple) ? "np.transpose does not accept tuples (Numba's rule)" : "");
  std::vector<ir::ExprId> args = {a.expr};
  if (axes.size() == 1) {
    Value tuple = c.as_runtime(axes[0], call.range);
    if (!tuple.ok()) return Value::error();
    if (tuple.type.is(TypeKind::tuple)) {
      axes.clear();
      for (size_t k = 0; k < tuple.type.elements.size(); ++k) axes.push_back(c.element_of_tuple(tuple, k, call.range));
    } else if (tuple.type.is(TypeKind::list)) {
      return refuse(c, call.range, DiagKind::type_mismatch, "np.transpose() takes its axes as a tuple, not a list",
                    "Numba refuses a list here: write (2, 0, 1)");
    }
  }
  if (static_cast<int>(axes.size()) != a.type.ndim || a.type.ndim == 0)
    return refuse(c, call.range, DiagKind::type_mismatch,
                  fmt::format("np.transpose(): {} axes given for an array of {} dimensions", axes.size(), a.type.ndim),
                  "give one axis per dimension, each once: a.transpose(2, 0, 1)");
  for (const Value& axis : axes) {
    auto id = axis_argument(c, axis, call.range, "np.transpose()'s axes");
    if (!id) return Value::error();
    args.push_back(*id);
  }
  return c.make_call(Op::transpose_axes, std::move(args), view_type(a.type), call.range);
}

// np.swapaxes(a, axis1, axis2) (Numba has no a.swapaxes method).
Value swapaxes(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "np.swapaxes")) return Value::error();
  auto bound = bind(c, call, {"a", "axis1", "axis2"}, 3, "np.swapaxes");
  if (!bound) return Value::error();
  const Value& a = *(*bound)[0];
  if (!want_array_with_axes(c, a, call.range, "np.swapaxes")) return Value::error();
  auto axis1 = axis_argument(c, *(*bound)[1], call.range, "np.swapaxes()'s axis1");
  if (!axis1) return Value::error();
  auto axis2 = axis_argument(c, *(*bound)[2], call.range, "np.swapaxes()'s axis2");
  if (!axis2) return Value::error();
  return c.make_call(Op::swapaxes, {a.expr, *axis1, *axis2}, view_type(a.type), call.range);
}

// np.moveaxis(a, source, destination): ints or tuples of ints.
Value moveaxis(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "np.moveaxis")) return Value::error();
  auto bound = bind(c, call, {"a", "source", "destination"}, 3, "np.moveaxis");
  if (!bound) return Value::error();
  const Value& a = *(*bound)[0];
  if (!want_array_with_axes(c, a, call.range, "np.moveaxis")) return Value::error();
  auto sources = axes_of(c, *(*bound)[1], call.range, "np.moveaxis()'s source");
  if (!sources) return Value::error();
  auto destinations = axes_of(c, *(*bound)[2], call.range, "np.moveaxis()'s destination");
  if (!destinations) return Value::error();
  if (sources->size() > static_cast<size_t>(a.type.ndim) || destinations->size() > static_cast<size_t>(a.type.ndim))
    return refuse(c, call.range, DiagKind::type_mismatch, "np.moveaxis(): more axes than the array has",
                  "each axis may move once");
  std::vector<ir::ExprId> args = {a.expr, c.make_constant({static_cast<int64_t>(sources->size())}, Type::i64(), call.range).expr};
  args.insert(args.end(), sources->begin(), sources->end());
  args.insert(args.end(), destinations->begin(), destinations->end());
  return c.make_call(Op::moveaxis, std::move(args), view_type(a.type), call.range);
}

// ---------------------------------------------------------------- np.round with decimals

// One number rounded as Numba's impl_np_round does: float64 for a float, int64 for an
// integer, complex128 for a complex.
Type rounded_type(const Type& t) {
  if (t.is(TypeKind::complex)) return Type::complex(128);
  if (t.is(TypeKind::floating)) return Type::f64();
  return Type::i64();
}

// np.round(a, decimals=0, out=None) / np.around: a number's own rule; an array's elements
// rounded into a new array of its dtype (C order), or into `out`.
Value np_round(FunctionChecker& c, const CallSite& call, const Handler& ufunc_rule) {
  bool any_array = false;
  for (const Value& v : call.args) any_array |= v.type.is(TypeKind::array);
  // Numbers in programs a kernel runs keep the ufunc's rule (the device runtime has no
  // round_number): numba-cuda's np.round of a number.
  if (!c.on_host() && !any_array && ufunc_rule) return ufunc_rule(c, call);
  std::string name = shown(call);
  auto bound = bind(c, call, {"a", "decimals", "out"}, 1, name);
  if (!bound) return Value::error();
  Value a = c.as_runtime(*(*bound)[0], call.range);
  if (!a.ok()) return Value::error();
  const Type& dtype = element_type(a.type);
  if (!dtype.is_numeric() || dtype.is(TypeKind::boolean) || dtype.is(TypeKind::record) ||
      (dtype.is(TypeKind::floating) && dtype.bits == 16))
    return refuse(c, call.range, DiagKind::type_mismatch, fmt::format("{}() does not take a '{}'", name, to_string(a.type)),
                  "Numba rounds integers, floats and complex numbers, and arrays of them (not booleans)");
  ir::ExprId decimals = c.make_constant({int64_t(0)}, Type::i64(), call.range).expr;
  if ((*bound)[1]) {
    Value d = c.as_runtime(*(*bound)[1], call.range);
    if (!d.ok()) return Value::error();
    if (!d.type.is(TypeKind::integer))
      return refuse(c, call.range, DiagKind::type_mismatch,
                    fmt::format("{}(): decimals must be an integer, not '{}'", name, to_string(d.type)));
    decimals = c.cast_expr(d.expr, Type::i64());
  }
  std::optional<Value> out;
  if ((*bound)[2] && !(*bound)[2]->type.is(TypeKind::none)) {
    out = c.as_runtime(*(*bound)[2], call.range);
    if (!out->ok()) return Value::error();
    if (!out->type.is(TypeKind::array))
      return refuse(c, call.range, DiagKind::type_mismatch, "The argument \"out\" must be an array if it is provided");
  }
  bool array = a.type.is(TypeKind::array);
  if (!array && !out) {
    if (!c.allow_host_only(call.range, name)) return Value::error();
    return c.make_call(Op::np_round, {a.expr, decimals}, rounded_type(dtype), call.range);
  }
  if (!array)
    return refuse(c, call.range, DiagKind::unsupported_operation, name + "() of a number into an out array is not supported",
                  "round into a variable: x = np.round(x, 2)");
  if (!(*bound)[1] && !out && ufunc_rule) return ufunc_rule(c, call);  // decimals 0: the fused ufunc
  if (!c.allow_host_only(call.range, name + " on arrays")) return Value::error();
  Type target = out ? out->type.dtype() : dtype;
  std::vector<Value> operands = {a};
  std::vector<Type> types = {dtype};
  if (out) {
    if (out->type.ndim != a.type.ndim)
      return refuse(c, call.range, DiagKind::type_mismatch,
                    fmt::format("{}(): invalid output shape ({} dimensions for an array of {})", name, out->type.ndim,
                                a.type.ndim),
                    "Numba's out array has the shape of the array rounded");
    if (out->type.readonly)
      return refuse(c, call.range, DiagKind::bad_assignment, "cannot write into a module-level array: it is read-only");
    operands.insert(operands.begin(), *out);
    types.insert(types.begin(), target);
  }
  // The count of decimals enters the loop as an operand (a number broadcast), not from outside.
  operands.push_back(c.value_of(decimals));
  types.push_back(Type::i64());
  bool has_out = out.has_value();
  ElementRule rule = [has_out](FunctionChecker& f, const std::vector<Value>& x, SourceRange at) {
    const Value& v = x[has_out ? 1 : 0];
    return f.make_call(Op::np_round, {v.expr, x.back().expr}, rounded_type(v.type), at);
  };
  Value map = c.elementwise(name, operands, types, target, rule, call.range);
  if (!map.ok() || !out) return map;
  ir::Stmt write;
  write.kind = ir::StmtKind::expr;
  write.range = call.range;
  write.value = c.make_call(Op::assign_expr, {out->expr, c.expr(map.expr).args[0]}, Type::void_(), call.range).expr;
  c.emit_stmt(std::move(write));
  return *out;
}

// a.item(): the element of an array of one element, as a number of its dtype.
Value item(FunctionChecker& c, const CallSite& call) {
  const Value& a = call.args[0];
  if (!a.type.is(TypeKind::array))
    return refuse(c, call.range, DiagKind::unknown_attribute,
                  fmt::format("a value of type '{}' has no attribute 'item'", to_string(a.type)));
  if (!c.allow_host_only(call.range, "array.item()", "index the array in a kernel: a[0]")) return Value::error();
  if (!want_args(c, call, 1, 1)) return Value::error();
  return c.make_call(Op::array_item, {a.expr}, a.type.dtype(), call.range);
}

// ---------------------------------------------------------------- a ufunc's output array

// np.add(a, b, out) / np.sqrt(a, out): the ufunc's loop for the inputs, its result converted
// to out's dtype within its kind (NumPy's same_kind casting, as Numba checks it), computed in
// one fused loop over the inputs broadcast to out's shape, written into out, which is the
// result.
Value ufunc_into(FunctionChecker& c, const CallSite& call, const Ufunc& u) {
  std::string name = "np." + u.name;
  std::vector<Value> inputs;
  for (int k = 0; k < u.inputs; ++k) {
    Value v = c.as_runtime(call.args[k], call.range);
    if (!v.ok() || !v.type.known()) return Value::error();
    inputs.push_back(v);
  }
  Value out = c.as_runtime(call.args[u.inputs], call.range);
  if (!out.ok()) return Value::error();
  if (!out.type.is(TypeKind::array))
    return refuse(c, call.range, DiagKind::type_mismatch,
                  fmt::format("{}(): the output argument must be an array, not '{}'", name, to_string(out.type)),
                  "a ufunc writes into an array given after its inputs: np.add(a, b, out)");
  if (!c.allow_host_only(call.range, name + "() into an output array")) return Value::error();
  if (out.type.readonly)
    return refuse(c, call.range, DiagKind::bad_assignment,
                  "cannot write into a module-level array: it is frozen, read-only (as in Numba)");
  std::vector<Type> base;
  for (const Value& v : inputs) {
    base.push_back(element_type(v.type));
    if (v.type.is(TypeKind::array) && v.type.ndim > out.type.ndim)
      return refuse(c, call.range, DiagKind::type_mismatch,
                    fmt::format("{}(): an input has {} dimensions, the output array {}", name, v.type.ndim,
                                out.type.ndim),
                    "the output array must hold the inputs' broadcast shape");
  }
  const Type& dtype = out.type.dtype();
  std::optional<UfuncLoop> loop = find_ufunc_loop(u.loops, base, dtype);
  if (!loop) {
    std::optional<UfuncLoop> computed = find_ufunc_loop(u.loops, base);
    std::string types;
    for (const Value& v : inputs) types += to_string(v.type) + ", ";
    return refuse(c, call.range, DiagKind::type_mismatch,
                  computed ? fmt::format("{}(): the result, '{}', does not convert to the output array's type '{}' "
                                         "(Numba refuses it, as NumPy's same-kind rule does)",
                                         name, to_string(computed->output), to_string(dtype))
                           : fmt::format("{}() is not supported for operands of type ({}{})", name, types,
                                         to_string(out.type)),
                  computed ? "give an output array of the result's kind, or convert with .astype()" : "");
  }
  std::vector<Value> operands = {out};
  operands.insert(operands.end(), inputs.begin(), inputs.end());
  std::vector<Type> types = {dtype};
  types.insert(types.end(), loop->inputs.begin(), loop->inputs.end());
  const Ufunc* ufunc = &u;
  Type output = loop->output;
  ElementRule rule = [ufunc, output](FunctionChecker& f, const std::vector<Value>& x, SourceRange at) {
    std::vector<Value> elements(x.begin() + 1, x.end());  // x[0]: out's own element, unread
    Value v = ufunc->element(f, elements, at);
    return v.ok() ? f.cast(v, output, at) : v;
  };
  Value map = c.elementwise(name + "()", operands, types, dtype, rule, call.range);
  if (!map.ok()) return Value::error();
  ir::Stmt write;
  write.kind = ir::StmtKind::expr;
  write.range = call.range;
  write.value = c.make_call(Op::assign_expr, {out.expr, c.expr(map.expr).args[0]}, Type::void_(), call.range).expr;
  c.emit_stmt(std::move(write));
  return out;
}

// Every ufunc name: its output array, or its keywords refused as Numba refuses them; other
// calls go to the rule that was there.
Handler with_output(const Ufunc* u, Handler before) {
  return [u, before](FunctionChecker& c, const CallSite& call) -> Value {
    if (!call.keywords.empty() && u->name != "round") {
      std::string names;
      for (const auto& [keyword, value] : call.keywords) names += (names.empty() ? "" : ", ") + keyword + "=";
      return refuse(c, call.range, DiagKind::wrong_arity,
                    fmt::format("np.{}() got keyword arguments ({}): Numba's ufuncs take none", u->name, names),
                    "pass the output array after the inputs: np.add(a, b, out); write a loop for where=");
    }
    if (u->name != "round" && call.args.size() == static_cast<size_t>(u->inputs) + 1) return ufunc_into(c, call, *u);
    return before(c, call);
  };
}

}  // namespace

void add_numpy_misc_builtins(HandlerTable& t) {
  for (auto& [name, builtin] : t) {
    if (name.rfind("numpy.", 0) != 0 || name.find('.', 6) != std::string::npos) continue;
    const Ufunc* u = ufunc_named(name.substr(6));
    if (u && builtin.rule) builtin.rule = with_output(u, builtin.rule);
  }
  for (const char* name : {"numpy.round", "numpy.around"}) {
    Handler ufunc_rule = t.count(name) ? t[name].rule : Handler();
    t[name] = [ufunc_rule](FunctionChecker& c, const CallSite& call) { return np_round(c, call, ufunc_rule); };
  }
  for (const char* name : {"numpy.transpose", "method.transpose"}) {
    Handler plain = t[name].rule;
    t[name] = [plain](FunctionChecker& c, const CallSite& call) { return transpose_axes(c, call, plain); };
  }
  t["numpy.swapaxes"] = swapaxes;
  t["numpy.moveaxis"] = moveaxis;
  t["method.item"] = item;
}

}  // namespace pykern::sema
