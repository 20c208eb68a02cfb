// Typed dicts in @jit functions on the host (sema/dictionaries.h): Numba's typing of dict
// displays, Dict.empty, stores that refine {} and the dict methods; runtime/pykern/dict.cuh
// computes them.
#include "sema/dictionaries.h"

#include <fmt/format.h>

namespace pykern::sema {

using ir::Op;

namespace {

const char* const kernel_hint =
    "numba-cuda has no dicts in kernels: use arrays indexed by key; dicts work in @jit functions called on the host";

bool precise(const Type& dict) { return dict.elements.at(0).known(); }
const Type& key_type(const Type& dict) { return dict.elements.at(0); }
const Type& value_type(const Type& dict) { return dict.elements.at(1); }

// A dict whose types no store has given yet, used for something else: Numba's error.
Value imprecise(FunctionChecker& c, const Type& dict, SourceRange range) {
  c.error(DiagKind::type_mismatch, range, fmt::format("non-precise type {}", to_string(dict)),
          "store an item first (d[k] = v), or make the dict with Dict.empty(key_type=..., value_type=...)");
  return Value::error();
}

bool valid_key(const Type& t) {
  if (t.is(TypeKind::tuple)) {
    for (const Type& part : t.elements)
      if (!valid_key(part)) return false;
    return !t.elements.empty();
  }
  return (t.is_numeric() && !t.is(TypeKind::record)) || t.is(TypeKind::string);
}

bool valid_value(const Type& t) {
  if (t.is(TypeKind::tuple)) {
    for (const Type& part : t.elements)
      if (!valid_value(part)) return false;
    return true;
  }
  if (t.is(TypeKind::array)) return !t.dtype().is(TypeKind::record);
  if (t.is(TypeKind::dict)) return t.ndim == dict_itself && precise(t);
  return (t.is_numeric() && !t.is(TypeKind::record)) || t.is(TypeKind::string);
}

// Whether a key or value of type `from` is stored as `to`, by Numba's _sentry_safe_cast: numbers
// convert unless the domain shrinks (a float to an integer, a complex to a float, a number to a
// bool); tuples part by part; an array of the same dtype and rank, into layout A if not its own.
bool converts(const Type& from, const Type& to) {
  if (from == to) return true;
  if (from.is_numeric() && to.is_numeric() && !from.is(TypeKind::record) && !to.is(TypeKind::record)) {
    if (to.is(TypeKind::boolean)) return false;
    if (to.is(TypeKind::integer)) return from.is_integer_like();
    if (to.is(TypeKind::floating)) return !from.is(TypeKind::complex);
    return true;
  }
  if (from.is(TypeKind::tuple) && to.is(TypeKind::tuple) && from.elements.size() == to.elements.size()) {
    for (size_t i = 0; i < from.elements.size(); ++i)
      if (!converts(from.elements[i], to.elements[i])) return false;
    return true;
  }
  if (from.is(TypeKind::array) && to.is(TypeKind::array))
    return from.dtype() == to.dtype() && from.ndim == to.ndim && to.layout == Layout::A;
  return false;
}

std::optional<ir::ExprId> convert(FunctionChecker& c, const Value& v, const Type& to, SourceRange range) {
  if (!converts(v.type, to)) {
    bool numbers = v.type.is_numeric() && to.is_numeric();
    c.error(DiagKind::type_mismatch, range,
            numbers ? fmt::format("cannot safely cast {} to {}. Please cast explicitly.", to_string(v.type), to_string(to))
                    : fmt::format("cannot store a '{}' in a dict of '{}'", to_string(v.type), to_string(to)),
            numbers ? "convert it first, e.g. int(x), as Numba asks" : "");
    return std::nullopt;
  }
  return c.cast_expr(v.expr, to);
}

// The key of d[k] or d[i, j] (the tuple (i, j)).
Value key_of(FunctionChecker& c, const std::vector<ast::ExprId>& indices, SourceRange range) {
  std::vector<Value> parts;
  for (ast::ExprId index : indices) {
    const ast::Expr& e = c.module().ast()[index];
    if (e.kind == ast::ExprKind::slice || e.kind == ast::ExprKind::ellipsis) {
      c.error(DiagKind::bad_index, e.range, "a dict takes a key, not a slice");
      return Value::error();
    }
    parts.push_back(c.as_runtime(c.check_expr(index), e.range));
    if (!parts.back().ok()) return Value::error();
  }
  if (parts.size() == 1) return parts[0];
  ir::Expr tuple;
  tuple.kind = ir::ExprKind::make_tuple;
  tuple.range = range;
  std::vector<Type> types;
  for (const Value& part : parts) {
    tuple.args.push_back(part.expr);
    types.push_back(part.type);
  }
  tuple.type = Type::tuple(std::move(types));
  return c.value_of(c.add(std::move(tuple)));
}

// The dict a method is called on (call.args[0]); nullopt after reporting a view or {}'s.
std::optional<Value> receiver(FunctionChecker& c, const CallSite& call) {
  const Value& d = call.args.at(0);
  std::string method = call.name.substr(call.name.find('.') + 1);
  if (d.type.ndim != dict_itself) {
    c.error(DiagKind::unknown_attribute, call.range,
            fmt::format("a value of type '{}' has no attribute '{}'", to_string(d.type), method));
    return std::nullopt;
  }
  if (!precise(d.type)) {
    imprecise(c, d.type, call.range);
    return std::nullopt;
  }
  return d;
}

bool want_positional(FunctionChecker& c, const CallSite& call, size_t min, size_t max) {
  size_t given = call.args.size() - 1;
  if (!call.keywords.empty() || given < min || given > max) {
    std::string method = call.name.substr(call.name.find('.') + 1);
    c.error(DiagKind::wrong_arity, call.range,
            min == max ? fmt::format("{}() takes {} argument{}", method, min, min == 1 ? "" : "s")
                       : fmt::format("{}() takes {} to {} arguments", method, min, max));
    return false;
  }
  return true;
}

Value call_with_key(FunctionChecker& c, const CallSite& call, Op op, const Type& result, std::vector<Value> more = {}) {
  const Value& d = call.args[0];
  auto key = convert(c, call.args[1], key_type(d.type), call.range);
  if (!key) return Value::error();
  std::vector<ir::ExprId> args = {d.expr, *key};
  for (const Value& v : more) args.push_back(v.expr);
  return c.make_call(op, std::move(args), result, call.range);
}

// d.get(k) (an Optional of the value: None when missing), d.get(k, default): the value or the
// default, converted to the values' type.
Value get(FunctionChecker& c, const CallSite& call) {
  const Value& dict = call.args[0];
  if (dict.type.ndim == dict_itself && !precise(dict.type) && call.args.size() == 3 && want_positional(c, call, 2, 2)) {
    // Reported (an error if the dict never learns its types), but typed as the default, so a
    // store whose value reads it still teaches the dict: Numba types `d[k] = d.get(k, 0.0) +
    // x if k in d else x` from the branch it knows.
    imprecise(c, dict.type, call.range);
    return c.make_call(Op::dict_get, {dict.expr, call.args[1].expr, call.args[2].expr}, call.args[2].type, call.range);
  }
  auto d = receiver(c, call);
  if (!d || !want_positional(c, call, 1, 2)) return Value::error();
  const Type& value = value_type(d->type);
  if (call.args.size() == 2 || call.args[2].type.is(TypeKind::none))
    return call_with_key(c, call, Op::dict_get_optional, Type::optional_of(value));
  auto fallback = convert(c, call.args[2], value, call.range);
  if (!fallback) return Value::error();
  return call_with_key(c, call, Op::dict_get, value, {c.value_of(*fallback)});
}

// d.pop(k): KeyError() when missing; d.pop(k, default) the default then.
Value pop(FunctionChecker& c, const CallSite& call) {
  auto d = receiver(c, call);
  if (!d || !want_positional(c, call, 1, 2)) return Value::error();
  const Type& value = value_type(d->type);
  if (call.args.size() == 2) return call_with_key(c, call, Op::dict_pop, value);
  auto fallback = convert(c, call.args[2], value, call.range);
  if (!fallback) return Value::error();
  return call_with_key(c, call, Op::dict_pop_default, value, {c.value_of(*fallback)});
}

Value setdefault(FunctionChecker& c, const CallSite& call) {
  auto d = receiver(c, call);
  if (!d || !want_positional(c, call, 2, 2)) return Value::error();
  auto fallback = convert(c, call.args[2], value_type(d->type), call.range);
  if (!fallback) return Value::error();
  return call_with_key(c, call, Op::dict_setdefault, value_type(d->type), {c.value_of(*fallback)});
}

Value popitem(FunctionChecker& c, const CallSite& call) {
  auto d = receiver(c, call);
  if (!d || !want_positional(c, call, 0, 0)) return Value::error();
  return c.make_call(Op::dict_popitem, {d->expr}, Type::tuple({key_type(d->type), value_type(d->type)}), call.range);
}

Value delitem(FunctionChecker& c, const CallSite& call) {
  if (!call.args[0].type.is(TypeKind::dict)) {  // del a[i]: Python's TypeError at compile time
    c.error(DiagKind::unsupported_operation, call.range,
            fmt::format("a '{}' does not support item deletion", to_string(call.args[0].type)),
            "del removes a key from a dict; arrays and lists keep their items");
    return Value::error();
  }
  auto d = receiver(c, call);
  if (!d || !want_positional(c, call, 1, 1)) return Value::error();
  return call_with_key(c, call, Op::dict_delitem, Type::void_());
}

Value clear(FunctionChecker& c, const CallSite& call) {
  auto d = receiver(c, call);
  if (!d || !want_positional(c, call, 0, 0)) return Value::error();
  return c.make_call(Op::dict_clear, {d->expr}, Type::none(), call.range);
}

Value copy(FunctionChecker& c, const CallSite& call) {
  auto d = receiver(c, call);
  if (!d || !want_positional(c, call, 0, 0)) return Value::error();
  return c.make_call(Op::dict_copy, {d->expr}, d->type, call.range);
}

// d.update(other): Numba's takes another dict (of the same types here) and stores its items.
Value update(FunctionChecker& c, const CallSite& call) {
  auto d = receiver(c, call);
  if (!d || !want_positional(c, call, 1, 1)) return Value::error();
  const Type& other = call.args[1].type;
  if (!other.is(TypeKind::dict) || other.ndim != dict_itself || (precise(other) && other != d->type)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("update() of a {} takes a dict of the same types, not '{}'", to_string(d->type), to_string(other)));
    return Value::error();
  }
  if (!precise(other)) return imprecise(c, other, call.range);
  return c.make_call(Op::dict_update, {d->expr, call.args[1].expr}, Type::none(), call.range);
}

// d.keys(), d.values(), d.items(): views, which hold the dict itself (loops, len, `in`).
Handler view(DictView kind) {
  return [kind](FunctionChecker& c, const CallSite& call) -> Value {
    auto d = receiver(c, call);
    if (!d || !want_positional(c, call, 0, 0)) return Value::error();
    ir::Expr same = c.expr(d->expr);  // the dict's value, typed as the view
    same.type = Type::dict_of(key_type(d->type), value_type(d->type), kind);
    return c.value_of(c.add(std::move(same)));
  };
}

// ---- Dict.empty's arguments: Numba's types written as Python expressions ----

std::optional<Type> numba_type(FunctionChecker& c, ast::ExprId id, int depth = 0);

std::optional<Type> array_type(FunctionChecker& c, const ast::Expr& e, int depth) {
  auto dtype = numba_type(c, e.operands[0], depth);
  if (!dtype) return std::nullopt;
  const ast::Ast& tree = c.module().ast();
  size_t ndim = e.operands.size() - 1;
  auto unit_step = [&](size_t axis) {
    const ast::Expr& s = tree[e.operands[1 + axis]];
    return s.operands.size() == 3 && s.operands[2].valid() && tree[s.operands[2]].kind == ast::ExprKind::integer &&
           tree[s.operands[2]].int_value == 1;
  };
  for (size_t i = 1; i < e.operands.size(); ++i)
    if (tree[e.operands[i]].kind != ast::ExprKind::slice) {
      c.error(DiagKind::bad_argument, e.range, "an array type is written with slices: float64[:], int32[:, ::1]");
      return std::nullopt;
    }
  Layout layout = unit_step(ndim - 1) ? Layout::C : ndim > 1 && unit_step(0) ? Layout::F : Layout::A;
  return Type::array(*dtype, static_cast<int>(ndim), layout);
}

// A Numba type as written: types.int64, float64[:, ::1], types.UniTuple(types.int64, 2),
// types.Tuple((..)), or a module global bound to one (Numba makes the tuple types only outside
// jitted code: pair = types.UniTuple(types.int64, 2) at module level).
std::optional<Type> numba_type(FunctionChecker& c, ast::ExprId id, int depth) {
  const ast::Ast& tree = c.module().ast();
  const ast::Expr& e = tree[id];
  if (e.kind == ast::ExprKind::name && depth < 8 && c.module().has_global(e.text) && !c.module().imported(e.text)) {
    ast::ExprId bound = c.module().global_value(e.text, c.diagnostics());
    if (bound.valid()) return numba_type(c, bound, depth + 1);
  }
  if (e.kind == ast::ExprKind::subscript) return array_type(c, e, depth);
  if (e.kind == ast::ExprKind::call) {
    std::string name = c.module().qualified_name(e.operands[0]).value_or("");
    std::string tail = name.substr(name.rfind('.') + 1);
    if (tail == "UniTuple" && e.operands.size() == 3 && tree[e.operands[2]].kind == ast::ExprKind::integer) {
      auto item = numba_type(c, e.operands[1], depth);
      if (!item) return std::nullopt;
      return Type::uni_tuple(*item, static_cast<int>(tree[e.operands[2]].int_value));
    }
    if (tail == "Tuple" && e.operands.size() == 2 &&
        (tree[e.operands[1]].kind == ast::ExprKind::tuple || tree[e.operands[1]].kind == ast::ExprKind::list)) {
      std::vector<Type> parts;
      for (ast::ExprId part : tree[e.operands[1]].operands) {
        auto t = numba_type(c, part, depth);
        if (!t) return std::nullopt;
        parts.push_back(*t);
      }
      return Type::tuple(std::move(parts));
    }
  }
  std::string name = c.module().qualified_name(id).value_or("");
  if (name.size() > 12 && name.substr(name.size() - 12) == "unicode_type") return Type::string();
  if (auto scalar = type_value(name); scalar && scalar->is_numeric()) return scalar;
  c.error(DiagKind::bad_argument, e.range,
          fmt::format("'{}' is not a type Dict.empty takes here", std::string(c.file().slice(e.range))),
          "name a Numba type: types.int64, types.float64, types.UniTuple(types.int64, 2), types.float64[:]");
  return std::nullopt;
}

Value typed_empty_dict(FunctionChecker& c, const Type& type, SourceRange range) {
  Value untyped = c.make_call(Op::new_dict, {}, Type::dict_of(Type::unknown(), Type::unknown()), range);
  return c.value_of(c.cast_expr(untyped.expr, type));
}

Value dict_empty(FunctionChecker& c, const ast::Expr& call) {
  const ast::Ast& tree = c.module().ast();
  ast::ExprId key, value, count;
  if (call.operands.size() > 1) key = call.operands[1];
  if (call.operands.size() > 2) value = call.operands[2];
  if (call.operands.size() > 3) count = call.operands[3];
  for (const ast::Keyword& keyword : call.keywords) {
    if (keyword.name == "key_type") key = keyword.value;
    else if (keyword.name == "value_type") value = keyword.value;
    else if (keyword.name == "n_keys") count = keyword.value;
    else {
      c.error(DiagKind::bad_argument, keyword.range, fmt::format("Dict.empty() got an unexpected keyword argument '{}'", keyword.name));
      return Value::error();
    }
  }
  if (!key.valid() || !value.valid() || call.operands.size() > 4) {
    c.error(DiagKind::wrong_arity, call.range, "Dict.empty() takes key_type and value_type (and n_keys)");
    return Value::error();
  }
  auto k = numba_type(c, key);
  auto v = k ? numba_type(c, value) : std::nullopt;
  if (!k || !v) return Value::error();
  if (!valid_key(*k) || !valid_value(*v)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("a dict of '{}' keys and '{}' values is not supported", to_string(*k), to_string(*v)),
            "keys are numbers or tuples of them; values numbers, tuples, arrays or dicts");
    return Value::error();
  }
  if (count.valid()) {  // a size hint: checked as a value, not used
    Value n = c.as_runtime(c.check_expr(count), tree[count].range);
    if (!n.ok()) return Value::error();
  }
  return typed_empty_dict(c, Type::dict_of(*k, *v), call.range);
}

}  // namespace

Value dict_display(FunctionChecker& c, const ast::Expr& e) {
  if (!c.allow_host_only(e.range, "a dict", kernel_hint)) return Value::error();
  const ast::Ast& tree = c.module().ast();
  std::vector<Value> items;
  for (ast::ExprId operand : e.operands) {
    items.push_back(c.as_runtime(c.check_expr(operand), tree[operand].range));
    if (!items.back().ok()) return Value::error();
  }
  Value untyped = c.make_call(Op::new_dict, {}, Type::dict_of(Type::unknown(), Type::unknown()), e.range);
  if (items.empty()) return untyped;
  // Numba's BuildMapConstraint: the first key and value give the types; the rest convert.
  const Type& key = items[0].type;
  const Type& value = items[1].type;
  if (!valid_key(key)) {
    c.error(DiagKind::type_mismatch, tree[e.operands[0]].range, fmt::format("a '{}' cannot be a dict key", to_string(key)),
            "keys are numbers or tuples of them");
    return Value::error();
  }
  if (!valid_value(value)) {
    c.error(DiagKind::type_mismatch, tree[e.operands[1]].range,
            value.is(TypeKind::list) ? fmt::format("{} as value is forbidden", to_string(value))
                                     : fmt::format("a '{}' cannot be a dict value", to_string(value)),
            "values are numbers, tuples, arrays or dicts");
    return Value::error();
  }
  Type type = Type::dict_of(key, value);
  std::vector<ir::ExprId> args = {c.cast_expr(untyped.expr, type)};
  for (size_t i = 0; i < items.size(); ++i) {
    auto converted = convert(c, items[i], i % 2 ? value : key, tree[e.operands[i]].range);
    if (!converted) return Value::error();
    args.push_back(*converted);
  }
  return c.make_call(Op::dict_display, std::move(args), type, e.range);
}

std::optional<Value> dict_constructor(FunctionChecker& c, const ast::Expr& call, const std::string& name) {
  bool empty = name == "numba.typed.Dict.empty" || name == "numba.typed.typeddict.Dict.empty";
  bool bare = name == "numba.typed.Dict" || name == "numba.typed.typeddict.Dict" || name == "builtins.dict";
  if (!empty && !bare) return std::nullopt;
  if (!c.allow_host_only(call.range, "a dict", kernel_hint)) return Value::error();
  if (empty) return dict_empty(c, call);
  if (call.operands.size() > 1 || !call.keywords.empty()) {
    c.error(DiagKind::unsupported_operation, call.range,
            fmt::format("{}() takes no arguments here", name == "builtins.dict" ? "dict" : "Dict"),
            "make an empty dict and store the items: d = dict(); d[k] = v");
    return Value::error();
  }
  return c.make_call(Op::new_dict, {}, Type::dict_of(Type::unknown(), Type::unknown()), call.range);
}

Value dict_subscript(FunctionChecker& c, const Value& dict, const std::vector<ast::ExprId>& indices, SourceRange range) {
  if (dict.type.ndim != dict_itself) {
    c.error(DiagKind::bad_index, range, fmt::format("a '{}' is not subscriptable", to_string(dict.type)),
            "index the dict itself: d[k]");
    return Value::error();
  }
  Value key = key_of(c, indices, range);
  if (!key.ok()) return key;
  if (!precise(dict.type)) return imprecise(c, dict.type, range);
  auto k = convert(c, key, key_type(dict.type), range);
  if (!k) return Value::error();
  return c.make_call(Op::dict_getitem, {dict.expr, *k}, value_type(dict.type), range);
}

void store_into_dict(FunctionChecker& c, const Value& dict, const std::vector<ast::ExprId>& indices, const Value& value,
                     SourceRange range) {
  if (dict.type.ndim != dict_itself) {
    c.error(DiagKind::bad_assignment, range, fmt::format("a '{}' does not support item assignment", to_string(dict.type)));
    return;
  }
  Value key = key_of(c, indices, range);
  Value stored = c.as_runtime(value, range);
  if (!key.ok() || !stored.ok()) return;
  Type type = dict.type;
  if (!precise(type)) {  // Numba's DictType.refine: the first store gives the types
    if (!valid_key(key.type)) {
      c.error(DiagKind::type_mismatch, range, fmt::format("a '{}' cannot be a dict key", to_string(key.type)),
              "keys are numbers or tuples of them");
      return;
    }
    if (!valid_value(stored.type)) {
      c.error(DiagKind::type_mismatch, range,
              stored.type.is(TypeKind::list) ? fmt::format("{} as value is forbidden", to_string(stored.type))
                                             : fmt::format("a '{}' cannot be a dict value", to_string(stored.type)),
              "values are numbers, tuples, arrays or dicts");
      return;
    }
    type = Type::dict_of(key.type, stored.type);
    c.learn_list_type(dict, type);  // sets the type of the local the dict is read from, as for l.append
  }
  auto k = convert(c, key, key_type(type), range);
  auto v = k ? convert(c, stored, value_type(type), range) : std::nullopt;
  if (!k || !v) return;
  ir::Stmt out;
  out.kind = ir::StmtKind::expr;
  out.range = range;
  out.value = c.make_call(Op::dict_setitem, {dict.expr, *k, *v}, Type::void_(), range).expr;
  c.emit_stmt(std::move(out));
}

Value dict_membership(FunctionChecker& c, const Value& key, const Value& dict, SourceRange range) {
  if (dict.type.ndim != dict_itself) {  // Numba has no `in` for the views
    c.error(DiagKind::unsupported_operation, range,
            fmt::format("'in' of a '{}' is not supported, as in Numba", to_string(dict.type)), "test the dict itself: k in d");
    return Value::error();
  }
  if (!precise(dict.type)) {  // reported; still a bool, so the branches it guards teach the dict
    imprecise(c, dict.type, range);
    return c.make_call(Op::dict_contains, {dict.expr, key.expr}, Type::boolean(), range);
  }
  auto k = convert(c, key, key_type(dict.type), range);
  if (!k) return Value::error();
  return c.make_call(Op::dict_contains, {dict.expr, *k}, Type::boolean(), range);
}

Value dict_length(FunctionChecker& c, const Value& dict, SourceRange range) {
  return c.make_call(Op::dict_len, {dict.expr}, Type::i64(), range);
}

Value dict_iteration_length(FunctionChecker& c, const Value& dict, SourceRange range) {
  if (!precise(dict.type)) return imprecise(c, dict.type, range);
  return c.make_call(Op::dict_iteration_length, {dict.expr}, Type::i64(), range);
}

Value dict_iteration_item(FunctionChecker& c, const Value& dict, const Value& index, SourceRange range) {
  const Type& key = key_type(dict.type);
  const Type& value = value_type(dict.type);
  switch (dict.type.ndim) {
    case dict_values: return c.make_call(Op::dict_value_at, {dict.expr, index.expr}, value, range);
    case dict_items: return c.make_call(Op::dict_item_at, {dict.expr, index.expr}, Type::tuple({key, value}), range);
    default: return c.make_call(Op::dict_key_at, {dict.expr, index.expr}, key, range);
  }
}

bool is_dict_method(const std::string& method) {
  static const char* const methods[] = {"get",   "pop",  "popitem", "setdefault", "clear", "copy",
                                        "update", "keys", "values",  "items",      "__delitem__"};
  for (const char* m : methods)
    if (method == m) return true;
  return false;
}

std::string method_handler_name(const Type& receiver, const std::string& method) {
  // __delitem__ (del x[k]) of anything but a list is the dict's: it words the TypeError.
  bool dicts = receiver.is(TypeKind::dict) || (method == "__delitem__" && !receiver.is(TypeKind::list));
  return (dicts ? "dict." : "method.") + method;
}

void add_dict_builtins(HandlerTable& t) {
  t["dict.get"] = get;
  t["dict.pop"] = pop;
  t["dict.popitem"] = popitem;
  t["dict.setdefault"] = setdefault;
  t["dict.clear"] = clear;
  t["dict.copy"] = copy;
  t["dict.update"] = update;
  t["dict.keys"] = view(dict_keys);
  t["dict.values"] = view(dict_values);
  t["dict.items"] = view(dict_items);
  t["dict.__delitem__"] = delitem;
  // The constructors are typed from their arguments as written (dict_constructor); these rows
  // make their names known to the name pass. A call never reaches them.
  Handler constructed_elsewhere = [](FunctionChecker& c, const CallSite& call) -> Value {
    c.error(DiagKind::internal_error, call.range, "'" + call.name + "' was not typed as a dict constructor");
    return Value::error();
  };
  for (const char* name : {"numba.typed.Dict.empty", "numba.typed.Dict", "builtins.dict"}) t[name] = constructed_elsewhere;
  // Numba's type constructors, as Dict.empty's arguments (numba_type): elsewhere not values.
  Handler only_as_argument = [](FunctionChecker& c, const CallSite& call) -> Value {
    c.error(DiagKind::unsupported_operation, call.range,
            "'" + short_name(call.name) + "' makes a type, which Numba does only outside jitted code",
            "bind it at module level (PAIR = types.UniTuple(types.int64, 2)) and pass that name to Dict.empty");
    return Value::error();
  };
  for (const char* module : {"numba.types.", "numba.core.types."})
    for (const char* name : {"UniTuple", "Tuple", "unicode_type"})
      t[std::string(module) + name] = Builtin::with_types(only_as_argument);  // its arguments are types
}

}  // namespace pykern::sema
