// Python lists in @jit functions on the host, typed as Numba types them
// (numba/core/typing/listdecl.py, numba/cpython/listobj.py for reflected lists,
// numba/typed/typedlist.py for numba.typed.List): one item type per list, learnt from the
// display, the first append or the declared type; items are numbers, tuples, arrays or lists.
// Runtime: runtime/pykern/list.cuh. Kernels refuse every list (allow_host_only).
#include "sema/lists.h"

#include <fmt/format.h>

#include "sema/builtin_rules.h"
#include "sema/dict_lists.h"

namespace pykern::sema {

using ir::Op;

bool list_can_hold(const Type& item) {
  if (item.is(TypeKind::record)) return false;
  if (item.is_numeric() || item.is(TypeKind::array)) return true;
  if (item.is(TypeKind::string)) return true;  // list(unicode_type): s.split(), ["a", "b"]
  if (item.is(TypeKind::list)) return !item.elements[0].known() || list_can_hold(item.elements[0]);
  if (item.is(TypeKind::tuple)) {
    for (const Type& element : item.elements)
      if (!list_can_hold(element)) return false;
    return !item.elements.empty();
  }
  return false;
}

namespace {

// Items of these types compare with == and < as Python's do (arrays compare elementwise, so a
// list of arrays has no `in`, count, index, remove or ==; Numba fails there at run time).
bool comparable(const Type& a, const Type& b) {
  if (a.is_numeric() && b.is_numeric()) return !a.is(TypeKind::record) && !b.is(TypeKind::record);
  if (a.is(TypeKind::string) && b.is(TypeKind::string)) return true;  // by code point (text.cuh)
  if (a.is(TypeKind::list) && b.is(TypeKind::list)) return comparable(a.elements[0], b.elements[0]);
  if (a.is(TypeKind::tuple) && b.is(TypeKind::tuple)) {
    if (a.elements.size() != b.elements.size()) return false;
    for (size_t i = 0; i < a.elements.size(); ++i)
      if (!comparable(a.elements[i], b.elements[i])) return false;
    return true;
  }
  return false;
}

bool want_comparable(FunctionChecker& c, const Type& item, const Type& value, SourceRange range, const char* what) {
  if (comparable(item, value)) return true;
  c.error(DiagKind::type_mismatch, range,
          fmt::format("{} compares a list's items with a '{}', and a list of '{}' cannot", what, to_string(value),
                      to_string(item)),
          item.is(TypeKind::array) ? "arrays compare element by element (Numba raises ValueError here); compare "
                                     "with np.array_equal in a loop"
                                   : "");
  return false;
}

// The list a method is called on (args[0]), with its items' type known.
bool want_list(FunctionChecker& c, const CallSite& call, const std::string& method) {
  const Type& type = call.args[0].type;
  if (!type.is(TypeKind::list)) {
    c.error(DiagKind::unknown_attribute, call.range,
            "a value of type '" + to_string(type) + "' has no attribute '" + method + "'");
    return false;
  }
  return true;
}
bool want_item_type(FunctionChecker& c, const Type& list, SourceRange range) {
  if (list.elements[0].known()) return true;
  c.error(DiagKind::type_mismatch, range, "the type of this list's items is not known here",
          "append to the list first, or make it with numba.typed.List.empty_list(item_type)");
  return false;
}

// `value` as an item of a list of `item` items (a number converts, as Numba's does); nullopt
// after reporting a value the list cannot hold.
std::optional<ir::ExprId> as_item(FunctionChecker& c, const Type& item, const Value& value, SourceRange range) {
  auto unified = unify(item, value.type);
  bool numbers = item.is_numeric() && value.type.is_numeric() && !value.type.is(TypeKind::record);
  if (!list_can_hold(value.type) || !unified || (*unified != item && !numbers)) {
    c.error(DiagKind::type_mismatch, range,
            fmt::format("cannot put a '{}' into a {}", to_string(value.type), to_string(Type::list_of(item))),
            "a list holds items of one type, as in Numba");
    return std::nullopt;
  }
  return c.cast_expr(value.expr, item);
}

// The item type a list takes on from `value` (its first append): nullopt after reporting.
std::optional<Type> first_item_type(FunctionChecker& c, const Value& value, const Type& list, SourceRange range) {
  if (!list_can_hold(value.type)) {
    c.error(DiagKind::type_mismatch, range,
            fmt::format("cannot put a '{}' into a {}", to_string(value.type), to_string(list)),
            "lists hold numbers, tuples, arrays and lists");
    return std::nullopt;
  }
  return value.type;
}

Value zero_of(FunctionChecker& c, const Type& type, SourceRange range) {
  if (type.is(TypeKind::string)) return c.make_constant({std::string()}, type, range);  // a str names the type
  return c.make_constant({int64_t(0)}, type, range);
}

// l.append(x): the items' type is learnt from what is appended, as Numba's is.
Value append(FunctionChecker& c, const CallSite& call) {
  if (!want_list(c, call, "append")) return Value::error();
  if (call.args.size() != 2 || !call.keywords.empty()) {
    c.error(DiagKind::wrong_arity, call.range, "append() takes one argument");
    return Value::error();
  }
  const Type& type = call.args[0].type;
  Value item = c.as_runtime(call.args[1], call.range);
  if (!item.ok()) return Value::error();
  if (!type.elements[0].known()) {
    auto learnt = first_item_type(c, item, type, call.range);
    if (!learnt) return Value::error();
    c.learn_list_type(call.args[0], Type::list_of(*learnt));
    return c.make_call(Op::list_append, {call.args[0].expr, item.expr}, Type::void_(), call.range);
  }
  auto converted = as_item(c, type.elements[0], item, call.range);
  if (!converted) return Value::error();
  return c.make_call(Op::list_append, {call.args[0].expr, *converted}, Type::void_(), call.range);
}

// l.pop() and l.pop(i): the item; IndexError for an empty list or an index out of range.
Value pop(FunctionChecker& c, const CallSite& call) {
  if (!want_list(c, call, "pop") || !want_args(c, call, 1, 2)) return Value::error();
  const Type& type = call.args[0].type;
  if (!want_item_type(c, type, call.range)) return Value::error();
  std::vector<ir::ExprId> args = {call.args[0].expr};
  if (call.args.size() == 2) {
    if (!call.args[1].type.is_integer_like()) {
      c.error(DiagKind::type_mismatch, call.range, "pop() takes an integer index");
      return Value::error();
    }
    args.push_back(c.cast_expr(call.args[1].expr, Type::i64()));
  }
  return c.make_call(Op::list_pop, std::move(args), type.elements[0], call.range);
}

// del l[i] (lowered to l.__delitem__(i)): IndexError out of range.
Value delete_item(FunctionChecker& c, const CallSite& call) {
  if (!call.args[0].type.is(TypeKind::list)) {
    c.error(DiagKind::unsupported_operation, call.range,
            "'del' removes an item of a list; this is a '" + to_string(call.args[0].type) + "'");
    return Value::error();
  }
  if (!want_args(c, call, 2, 2)) return Value::error();
  if (!call.args[1].type.is_integer_like()) {
    c.error(DiagKind::bad_index, call.range, "list indices must be integers, not '" + to_string(call.args[1].type) + "'");
    return Value::error();
  }
  return c.make_call(Op::list_delete, {call.args[0].expr, c.cast_expr(call.args[1].expr, Type::i64())}, Type::void_(),
                     call.range);
}

Value insert(FunctionChecker& c, const CallSite& call) {
  if (!want_list(c, call, "insert") || !want_args(c, call, 3, 3)) return Value::error();
  const Type& type = call.args[0].type;
  if (!want_item_type(c, type, call.range)) return Value::error();
  if (!call.args[1].type.is_integer_like()) {
    c.error(DiagKind::type_mismatch, call.range, "insert() takes an integer index");
    return Value::error();
  }
  auto item = as_item(c, type.elements[0], call.args[2], call.range);
  if (!item) return Value::error();
  return c.make_call(Op::list_insert, {call.args[0].expr, c.cast_expr(call.args[1].expr, Type::i64()), *item},
                     Type::void_(), call.range);
}

// The items an extend or List(iterable) takes: a list's, a 1-d array's or a range's.
std::optional<Type> iterable_item(const Type& iterable) {
  if (iterable.is(TypeKind::list)) return iterable.elements[0];
  if (iterable.is(TypeKind::array) && iterable.ndim == 1 && !iterable.dtype().is(TypeKind::record))
    return iterable.dtype();
  if (iterable.is(TypeKind::range)) return iterable.elements[0];
  return std::nullopt;
}

// l.extend(iterable), l += iterable: the items appended in order (l.extend(l) doubles l).
Value extend_with(FunctionChecker& c, const Value& list, const Value& other, SourceRange range) {
  const Type& type = list.type;
  auto item = iterable_item(other.type);
  if (!item || !item->known()) {
    c.error(DiagKind::type_mismatch, range, "extend() takes a list, a 1-d array or a range, not '" + to_string(other.type) + "'");
    return Value::error();
  }
  if (!type.elements[0].known()) {
    c.learn_list_type(list, Type::list_of(*item));
  } else {
    bool numbers = type.elements[0].is_numeric() && item->is_numeric();
    if (*item != type.elements[0] && !numbers) {
      c.error(DiagKind::type_mismatch, range,
              fmt::format("cannot extend a {} with the items of a '{}'", to_string(type), to_string(other.type)));
      return Value::error();
    }
  }
  return c.make_call(Op::list_extend, {list.expr, other.expr}, Type::void_(), range);
}
Value extend(FunctionChecker& c, const CallSite& call) {
  if (!want_list(c, call, "extend") || !want_args(c, call, 2, 2)) return Value::error();
  return extend_with(c, call.args[0], call.args[1], call.range);
}

// l.remove(x), l.count(x), l.index(x[, start[, stop]]): items compared with ==.
Value by_value(FunctionChecker& c, const CallSite& call, const char* method, Op op, size_t max_args) {
  if (!want_list(c, call, method) || !want_args(c, call, 2, max_args)) return Value::error();
  const Type& type = call.args[0].type;
  if (!want_item_type(c, type, call.range) ||
      !want_comparable(c, type.elements[0], call.args[1].type, call.range, fmt::format("{}()", method).c_str()))
    return Value::error();
  std::vector<ir::ExprId> args = {call.args[0].expr, call.args[1].expr};
  for (size_t i = 2; i < call.args.size(); ++i) {
    if (!call.args[i].type.is_integer_like()) {
      c.error(DiagKind::type_mismatch, call.range, fmt::format("{}()'s start and stop must be integers", method));
      return Value::error();
    }
    args.push_back(c.cast_expr(call.args[i].expr, Type::i64()));
  }
  Type result = op == Op::list_remove ? Type::void_() : Type::i64();
  return c.make_call(op, std::move(args), result, call.range);
}

// l.reverse(), l.clear(): in place; l.copy(): a new list of the same items.
Handler no_argument(const char* method, Op op, bool returns_list) {
  return [method, op, returns_list](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_list(c, call, method) || !want_args(c, call, 1, 1)) return Value::error();
    return c.make_call(op, {call.args[0].expr}, returns_list ? call.args[0].type : Type::void_(), call.range);
  };
}

// sort()'s and sorted()'s keywords: reverse (a bool or an integer, as Numba's check); the key
// is key_argument's.
std::optional<ir::ExprId> reverse_argument(FunctionChecker& c, const CallSite& call, const char* what) {
  std::optional<ir::ExprId> reverse;
  for (const auto& [name, value] : call.keywords) {
    if (name == "reverse" && value.kind == Value::Kind::expr && value.type.is_integer_like()) {
      reverse = c.truth(value, call.range).expr;
      continue;
    }
    if (name == "key") continue;
    c.error(DiagKind::bad_argument, call.range,
            name == "reverse" ? fmt::format("an integer is required for 'reverse' (got type {})", to_string(value.type))
                              : fmt::format("{} got an unexpected keyword argument '{}'", what, name));
    return std::nullopt;
  }
  return reverse ? *reverse : c.make_constant({false}, Type::boolean(), call.range).expr;
}

// The key function of sort() and sorted(): nullopt when absent or None (sema/key_sort.cpp).
std::optional<Value> key_argument(const CallSite& call) {
  for (const auto& [name, value] : call.keywords)
    if (name == "key" && !(value.kind == Value::Kind::expr && value.type.is(TypeKind::none))) return value;
  return std::nullopt;
}

// items.sort(key=f) on a list held in a temporary: the call that orders it by the keys.
Value sort_by_key(FunctionChecker& c, const Value& items, const Value& key, ir::ExprId reverse, SourceRange range) {
  Value keys = c.keys_of(items, key, range);
  if (!keys.ok()) return Value::error();
  return c.make_call(Op::list_sort_by_keys, {items.expr, keys.expr, reverse}, Type::none(), range);
}

Value sort(FunctionChecker& c, const CallSite& call) {
  if (!want_list(c, call, "sort")) return Value::error();
  if (call.args.size() != 1) {
    c.error(DiagKind::wrong_arity, call.range, "sort() takes only keyword arguments: key=None, reverse=False");
    return Value::error();
  }
  const Type& type = call.args[0].type;
  auto key = key_argument(call);
  if (!want_item_type(c, type, call.range) ||
      (!key && !want_comparable(c, type.elements[0], type.elements[0], call.range, "sort()")))
    return Value::error();
  auto reverse = reverse_argument(c, call, "sort()");
  if (!reverse) return Value::error();
  if (key) {
    Value held = c.store_in_temporary(call.args[0], call.range);
    return sort_by_key(c, held, *key, *reverse, call.range);
  }
  return c.make_call(Op::list_sort, {call.args[0].expr, *reverse}, Type::none(), call.range);
}

// sorted(iterable, reverse=False): a new sorted list of a list's, a 1-d array's or a range's items.
Value sorted(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "sorted()")) return Value::error();
  if (call.args.size() != 1) {
    c.error(DiagKind::wrong_arity, call.range, "sorted() takes one iterable");
    return Value::error();
  }
  const Value iterable = is_dict_view(call.args[0].type) ? list_of_dict_view(c, call.args[0], call.range) : call.args[0];
  auto item = iterable_item(iterable.type);
  auto key = key_argument(call);
  if (!item || !item->known() || (!key && !comparable(*item, *item))) {
    c.error(DiagKind::type_mismatch, call.range,
            "sorted() takes a list of numbers, tuples or lists, a 1-d array or a range, not '" +
                to_string(iterable.type) + "'");
    return Value::error();
  }
  auto reverse = reverse_argument(c, call, "sorted()");
  if (!reverse) return Value::error();
  if (key) {  // a new list of the items, sorted in place by the keys
    Value items = iterable.type.is(TypeKind::list)
                      ? c.make_call(Op::list_copy, {iterable.expr}, iterable.type, call.range)
                      : c.make_call(Op::list_from, {iterable.expr}, Type::list_of(*item), call.range);
    Value held = c.store_in_temporary(items, call.range);
    Value ordered = sort_by_key(c, held, *key, *reverse, call.range);
    if (!ordered.ok()) return Value::error();
    ir::Stmt out;
    out.kind = ir::StmtKind::expr;
    out.range = call.range;
    out.value = ordered.expr;
    c.emit_stmt(std::move(out));
    return c.read_local(c.expr(held.expr).local, call.range);
  }
  if (iterable.type.is(TypeKind::array))
    return c.make_call(Op::sorted_array, {iterable.expr, *reverse}, Type::list_of(*item), call.range);
  if (iterable.type.is(TypeKind::range)) {
    Value items = c.make_call(Op::list_from, {iterable.expr}, Type::list_of(*item), call.range);
    return c.make_call(Op::list_sorted, {items.expr, *reverse}, items.type, call.range);
  }
  return c.make_call(Op::list_sorted, {iterable.expr, *reverse}, iterable.type, call.range);
}

// list(), list(iterable), numba.typed.List(), List(iterable): a new list (of a list's, a 1-d
// array's or a range's items). An empty one learns its items' type from its first append.
Value new_list_from(FunctionChecker& c, const CallSite& call, const char* what) {
  if (!c.allow_host_only(call.range, what)) return Value::error();
  if (!call.keywords.empty() || call.args.size() > 1) {
    c.error(DiagKind::wrong_arity, call.range, fmt::format("{} takes at most one iterable and no keywords", what));
    return Value::error();
  }
  if (call.args.empty()) return c.make_call(Op::new_list, {}, Type::list_of(Type::unknown()), call.range);
  if (is_dict_view(call.args[0].type)) return list_of_dict_view(c, call.args[0], call.range);
  auto item = iterable_item(call.args[0].type);
  if (!item || !item->known()) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{} takes a list, a 1-d array or a range, not '{}'", what, to_string(call.args[0].type)));
    return Value::error();
  }
  return c.make_call(Op::list_from, {call.args[0].expr}, Type::list_of(*item), call.range);
}

// List.empty_list(item_type): an empty typed List of that item type (numba.types.float64, ...).
Value empty_list(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "List.empty_list()")) return Value::error();
  std::optional<Value> item_type;
  if (call.args.size() == 1 && call.keywords.empty()) item_type = call.args[0];
  if (call.args.empty() && call.keywords.size() == 1 && call.keywords[0].first == "item_type")
    item_type = call.keywords[0].second;
  if (!item_type || item_type->kind != Value::Kind::type || !item_type->type.is_numeric() ||
      item_type->is_string_literal()) {
    c.error(DiagKind::bad_argument, call.range, "List.empty_list() takes the items' type, such as types.float64",
            "for lists of arrays or tuples, start with List() and append: the first item gives the type");
    return Value::error();
  }
  return c.make_call(Op::new_list, {zero_of(c, item_type->type, call.range).expr}, Type::list_of(item_type->type),
                     call.range);
}

// A method name lists share with arrays (a.copy(), a.sort()): lists take the list rule.
void add_list_method(HandlerTable& t, const std::string& name, Handler rule) {
  auto found = t.find(name);
  if (found == t.end()) {
    t[name] = std::move(rule);
    return;
  }
  Builtin shared = found->second;
  Handler other = shared.rule;
  shared.rule = [rule, other](FunctionChecker& c, const CallSite& call) {
    return call.args[0].type.is(TypeKind::list) ? rule(c, call) : other(c, call);
  };
  t[name] = shared;
}

}  // namespace

void add_list_builtins(HandlerTable& t) {
  add_list_method(t, "method.append", append);
  add_list_method(t, "method.pop", pop);
  add_list_method(t, "method.insert", insert);
  add_list_method(t, "method.extend", extend);
  add_list_method(t, "method.remove", [](FunctionChecker& c, const CallSite& call) {
    return by_value(c, call, "remove", Op::list_remove, 2);
  });
  add_list_method(t, "method.count", [](FunctionChecker& c, const CallSite& call) {
    return by_value(c, call, "count", Op::list_count, 2);
  });
  add_list_method(t, "method.index", [](FunctionChecker& c, const CallSite& call) {
    return by_value(c, call, "index", Op::list_index, 4);
  });
  add_list_method(t, "method.reverse", no_argument("reverse", Op::list_reverse, false));
  add_list_method(t, "method.clear", no_argument("clear", Op::list_clear, false));
  add_list_method(t, "method.copy", no_argument("copy", Op::list_copy, true));
  add_list_method(t, "method.sort", sort);
  add_list_method(t, "method.__delitem__", delete_item);
  t["builtins.sorted"] = sorted;
  t["builtins.list"] = [](FunctionChecker& c, const CallSite& call) { return new_list_from(c, call, "list()"); };
  t["numba.typed.List"] = [](FunctionChecker& c, const CallSite& call) { return new_list_from(c, call, "List()"); };
  t["numba.typed.List.empty_list"] = Builtin::with_types(empty_list);
}

// ---------------------------------------------------------------- displays

// [] and [a, b, ...]: a list, in @jit functions run on the host (Numba's reflected list). The
// items' type comes from the items, or for [] from what is appended later.
Value FunctionChecker::check_list(const ast::Expr& e) {
  if (!allow_host_only(e.range, "a list")) return Value::error();
  std::vector<Value> items;
  Type item_type = Type::unknown();
  for (ast::ExprId operand : e.operands) {
    Value item = as_runtime(check_expr(operand), module().ast()[operand].range);
    if (!item.ok()) return Value::error();
    auto unified = unify(item_type, item.type);
    if (!unified || !list_can_hold(item.type)) {
      error(DiagKind::type_mismatch, e.range,
            fmt::format("a list holds items of one type: this one has a '{}'{}", to_string(item.type),
                        item_type.known() ? " beside a '" + to_string(item_type) + "'" : ""),
            "lists hold numbers, tuples, arrays and lists");
      return Value::error();
    }
    item_type = *unified;
    items.push_back(item);
  }
  return new_list(Type::list_of(item_type), items, e.range);
}

Value FunctionChecker::new_list(const Type& type, const std::vector<Value>& items, SourceRange range) {
  std::vector<ir::ExprId> args;
  if (type.elements[0].known()) {
    args.push_back(zero_of(*this, type.elements[0], range).expr);  // names the item type for C++
    for (const Value& item : items) args.push_back(cast_expr(item.expr, type.elements[0]));
  }
  return make_call(ir::Op::new_list, std::move(args), type, range);
}

// ---------------------------------------------------------------- operators

Value list_binary(FunctionChecker& c, ast::BinaryOp op, const Value& left, const Value& right, SourceRange range) {
  bool left_list = left.type.is(TypeKind::list), right_list = right.type.is(TypeKind::list);
  if (op == ast::BinaryOp::add && left_list && right_list) {
    // Numba unifies the two lists' types: [1] + [2.5] is a list of float64.
    auto item = unify(left.type.elements[0], right.type.elements[0]);
    bool numbers = left.type.elements[0].is_numeric() && right.type.elements[0].is_numeric();
    if (!item || !item->known() || (!numbers && left.type.elements[0] != right.type.elements[0])) {
      c.error(DiagKind::type_mismatch, range,
              fmt::format("cannot add a {} and a {}", to_string(left.type), to_string(right.type)));
      return Value::error();
    }
    return c.make_call(Op::list_concat, {zero_of(c, *item, range).expr, left.expr, right.expr}, Type::list_of(*item),
                       range);
  }
  if (op == ast::BinaryOp::mul && left_list != right_list) {
    const Value& list = left_list ? left : right;
    const Value& times = left_list ? right : left;
    if (times.type.is_integer_like())
      return c.make_call(Op::list_repeat, {list.expr, c.cast_expr(times.expr, Type::i64())}, list.type, range);
  }
  c.error(DiagKind::type_mismatch, range,
          fmt::format("unsupported operand types for {}: '{}' and '{}'", ast::to_string(op), to_string(left.type),
                      to_string(right.type)),
          "lists take + (another list) and * (an integer)");
  return Value::error();
}

void list_aug_assign(FunctionChecker& c, ast::BinaryOp op, const Value& list, const Value& operand, SourceRange range) {
  Value done;
  if (op == ast::BinaryOp::add) {
    done = extend_with(c, list, operand, range);
  } else if (op == ast::BinaryOp::mul && operand.type.is_integer_like()) {
    done = c.make_call(Op::list_repeat_in_place, {list.expr, c.cast_expr(operand.expr, Type::i64())}, Type::void_(),
                       range);
  } else {
    c.error(DiagKind::type_mismatch, range,
            fmt::format("unsupported operand types for {}=: '{}' and '{}'", ast::to_string(op), to_string(list.type),
                        to_string(operand.type)),
            "lists take += (a list, 1-d array or range) and *= (an integer)");
    return;
  }
  if (!done.ok()) return;
  ir::Stmt out;
  out.kind = ir::StmtKind::expr;
  out.range = range;
  out.value = done.expr;
  c.emit_stmt(std::move(out));
}

Value list_compare(FunctionChecker& c, ast::CompareOp op, const Value& left, const Value& right, SourceRange range) {
  if (!left.type.is(TypeKind::list) || !right.type.is(TypeKind::list) || !comparable(left.type, right.type)) {
    c.error(DiagKind::type_mismatch, range,
            fmt::format("cannot compare '{}' and '{}'", to_string(left.type), to_string(right.type)),
            left.type.is(TypeKind::list) && right.type.is(TypeKind::list)
                ? "lists compare item by item: numbers, tuples and lists, not arrays"
                : "");
    return Value::error();
  }
  Op ops[] = {Op::list_eq, Op::list_ne, Op::list_lt, Op::list_le, Op::list_gt, Op::list_ge};
  ast::CompareOp names[] = {ast::CompareOp::eq, ast::CompareOp::ne, ast::CompareOp::lt,
                            ast::CompareOp::le, ast::CompareOp::gt, ast::CompareOp::ge};
  for (size_t i = 0; i < 6; ++i)
    if (names[i] == op) return c.make_call(ops[i], {left.expr, right.expr}, Type::boolean(), range);
  return Value::error();
}

Value list_membership(FunctionChecker& c, bool in, const Value& item, const Value& list, SourceRange range) {
  if (!want_item_type(c, list.type, range) || !want_comparable(c, list.type.elements[0], item.type, range, "'in'"))
    return Value::error();
  Value found = c.make_call(Op::list_contains, {list.expr, item.expr}, Type::boolean(), range);
  if (in) return found;
  return c.make_call(Op::logical_not, {found.expr}, Type::boolean(), range);
}

Value list_truth(FunctionChecker& c, const Value& list, SourceRange range) {
  return c.make_call(Op::list_truth, {list.expr}, Type::boolean(), range);
}

Value list_subscript(FunctionChecker& c, const Value& list, const FunctionChecker::IndexItem& index, SourceRange range,
                     FunctionChecker::PendingStore* store) {
  if (index.is_slice && store) {
    list_store_slice(c, list, index, *store, range);
    return Value::error();
  }
  if (index.is_slice) {
    auto none = [&] { return c.make_constant({INT64_MIN}, Type::i64(), range).expr; };
    return c.make_call(Op::list_slice,
                       {list.expr, index.start.valid() ? index.start : none(), index.stop.valid() ? index.stop : none(),
                        index.step.valid() ? index.step : none()},
                       list.type, range);
  }
  if (!index.value.ok() || !index.value.type.is_integer_like()) {
    c.error(DiagKind::bad_index, range, "list indices must be integers or slices");
    return Value::error();
  }
  ir::Expr element;  // PK_AT: the list's at() wraps negative indices and checks the bounds
  element.kind = ir::ExprKind::element;
  element.type = list.type.elements[0];
  element.range = range;
  element.args = {list.expr, c.cast_expr(index.value.expr, Type::i64())};
  return c.value_of(c.add(std::move(element)));
}

}  // namespace pykern::sema
