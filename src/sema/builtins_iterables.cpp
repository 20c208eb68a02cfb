// Python's sum(iterable, start=0), and min(iterable) / max(iterable) of one iterable, in @jit
// functions on the host: over a list, a 1-D array or a range object, as Numba's overloads take
// them (numba/cpython/builtins.py: ol_sum, iterable_min, iterable_max). The total's type is that
// of start + item by Numba's arithmetic rule (int64 for integers and booleans, float64 when
// either side is a float); min and max give the item's type. The loops are the runtime's
// (runtime/pykern/iterables.cuh). min and max of two or more numbers stay in min_max.
#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

namespace {

// The item type of an iterable these builtins take, or nullopt after reporting why not.
std::optional<Type> item_type(FunctionChecker& c, const CallSite& call, const Value& iterable) {
  const Type& type = iterable.type;
  std::optional<Type> item;
  if (type.is(TypeKind::list)) item = type.elements.at(0);
  if (type.is(TypeKind::range)) item = type.elements.at(0);
  if (type.is(TypeKind::array) && type.ndim == 1) item = type.dtype();
  std::string what = short_name(call.name) + "()";
  if (!item) {
    c.error(DiagKind::type_mismatch, call.range,
            type.is(TypeKind::array)
                ? fmt::format("{} of a {}-d array would iterate over its rows", what, type.ndim)
                : fmt::format("{} of one argument takes a list, a 1-d array or a range, not '{}'", what,
                              to_string(type)),
            type.is(TypeKind::array) ? "use np." + short_name(call.name) + "(a) for every element" : "");
    return std::nullopt;
  }
  if (!item->is_numeric() || item->is(TypeKind::record) ||
      (item->is(TypeKind::complex) && short_name(call.name) != "sum")) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{} of items of type '{}' is not supported", what, to_string(*item)),
            item->is(TypeKind::complex) ? "complex numbers have no order" : "");
    return std::nullopt;
  }
  return item;
}

bool on_host(FunctionChecker& c, const CallSite& call) {
  return c.allow_host_only(call.range, short_name(call.name) + "() of an iterable",
                           "a kernel cannot hold a list: loop over the array and accumulate");
}

Value sum_of(FunctionChecker& c, const CallSite& call) {
  if (call.args.empty() || call.args.size() > 2) {
    c.error(DiagKind::wrong_arity, call.range, "sum() takes an iterable and an optional start value");
    return Value::error();
  }
  std::optional<Value> start = call.args.size() == 2 ? std::optional<Value>(call.args[1]) : std::nullopt;
  for (const auto& [name, value] : call.keywords) {
    if (name != "start" || start) {
      c.error(DiagKind::wrong_arity, call.range,
              name == "start" ? "sum() got multiple values for argument 'start'"
                              : fmt::format("sum() got an unexpected keyword argument '{}'", name));
      return Value::error();
    }
    start = value;
  }
  if (!start) start = c.make_constant({int64_t(0)}, Type::i64(), call.range);
  if (!on_host(c, call)) return Value::error();
  auto item = item_type(c, call, call.args[0]);
  if (!item || !want_numeric(c, call, *start)) return Value::error();
  Type total = arithmetic_result(start->type, *item);
  return c.make_call(Op::py_sum, {c.cast_expr(start->expr, total), call.args[0].expr}, total, call.range);
}

}  // namespace

Value iterable_extreme(FunctionChecker& c, const CallSite& call, Op op) {
  if (!call.keywords.empty()) {
    c.error(DiagKind::wrong_arity, call.range,
            fmt::format("{}() takes no keyword arguments in Numba", short_name(call.name)));
    return Value::error();
  }
  const Value& iterable = call.args.at(0);
  if (iterable.type.is(TypeKind::tuple)) {  // min((a, b, c)): the numbers it holds, in kernels too
    CallSite parts{call.name, {}, {}, call.range};
    for (size_t k = 0; k < iterable.type.elements.size(); ++k)
      parts.args.push_back(c.element_of_tuple(iterable, k, call.range));
    if (parts.args.empty()) {
      c.error(DiagKind::wrong_arity, call.range, short_name(call.name) + "() argument is an empty tuple");
      return Value::error();
    }
    if (parts.args.size() == 1) return want_numeric(c, call, parts.args[0]) ? parts.args[0] : Value::error();
    return min_max(c, parts, op);
  }
  if (!on_host(c, call)) return Value::error();
  auto item = item_type(c, call, iterable);
  if (!item) return Value::error();
  return c.make_call(op == Op::min ? Op::py_min : Op::py_max, {call.args[0].expr}, *item, call.range);
}

void add_iterable_builtins(HandlerTable& t) { t["builtins.sum"] = sum_of; }

}  // namespace pykern::sema
