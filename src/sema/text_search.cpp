// str methods that search a part of a text, typed as Numba 0.68 types them
// (numba/cpython/unicode.py): find(substr, start, end), rfind, index(sub, ...) and rindex
// (a ValueError where absent), startswith(prefix, start, end) and endswith(substr, ...) with
// a string or a tuple of strings, strip(chars), lstrip(chars) and rstrip(chars) with chars a
// string or None. The keyword names are Numba's, which differ from method to method. Start
// and end are integers or None (a bool is refused, as Numba refuses it). The runtime is
// runtime/pykern/text_search.cuh.
#include <fmt/format.h>

#include "sema/text.h"
#include "sema/text_arguments.h"

namespace pykern::sema {

using ir::Op;

namespace {

constexpr int64_t omitted_bound = -9223372036854775807LL - 1;  // base.cuh's none_index

// start or end: an integer as int64, none_index where omitted or None.
std::optional<ir::ExprId> bound_argument(FunctionChecker& c, const CallSite& call, const std::optional<Value>& v,
                                         const std::string& what) {
  if (text_argument_is_none(v)) return c.make_constant({omitted_bound}, Type::i64(), call.range).expr;
  if (!v->type.is(TypeKind::integer)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{} takes an integer or None, not '{}'", what, to_string(v->type)));
    return std::nullopt;
  }
  return c.cast_expr(v->expr, Type::i64());
}

struct Bounds {
  ir::ExprId start, end;
};
std::optional<Bounds> bounds(FunctionChecker& c, const CallSite& call, const Bound& bound, const std::string& method) {
  auto start = bound_argument(c, call, bound[1], "str." + method + "()'s start");
  if (!start) return std::nullopt;
  auto end = bound_argument(c, call, bound[2], "str." + method + "()'s end");
  if (!end) return std::nullopt;
  return Bounds{*start, *end};
}

ir::ExprId flag(FunctionChecker& c, bool value, SourceRange range) {
  return c.make_constant({value}, Type::boolean(), range).expr;
}

// find, rfind, index, rindex: the code point index of the needle in s[start:end].
Handler finder(const char* method, const char* needle, bool right, bool raises) {
  return [=](FunctionChecker& c, const CallSite& call) -> Value {
    auto bound = bind_method(c, call, method, {needle, "start", "end"}, 1);
    if (!bound || !want_text(c, call, (*bound)[0], fmt::format("str.{}()", method))) return Value::error();
    auto range = bounds(c, call, *bound, method);
    if (!range) return Value::error();
    std::vector<ir::ExprId> args = {call.args[0].expr, (*bound)[0]->expr, range->start, range->end,
                                    flag(c, right, call.range)};
    return c.make_call(raises ? Op::str_index_in : Op::str_find_in, args, Type::i64(), call.range);
  };
}

// A prefix or suffix: a string, or a tuple of strings (any of them).
bool want_affix(FunctionChecker& c, const CallSite& call, const Value& v, const std::string& method) {
  if (is_text(v)) return true;
  bool strings = v.type.is(TypeKind::tuple) && !v.type.elements.empty();
  for (const Type& item : v.type.elements) strings = strings && item.is(TypeKind::string);
  if (strings) return true;
  c.error(DiagKind::type_mismatch, call.range,
          fmt::format("str.{}() takes a string or a tuple of strings, not '{}'", method, to_string(v.type)),
          v.type.is(TypeKind::tuple) ? "Numba takes a non-empty tuple whose items are all strings" : "");
  return false;
}

Handler affix(const char* method, const char* name, bool at_end) {
  return [=](FunctionChecker& c, const CallSite& call) -> Value {
    auto bound = bind_method(c, call, method, {name, "start", "end"}, 1);
    if (!bound || !want_affix(c, call, *(*bound)[0], method)) return Value::error();
    auto range = bounds(c, call, *bound, method);
    if (!range) return Value::error();
    return c.make_call(Op::str_starts, {call.args[0].expr, (*bound)[0]->expr, range->start, range->end,
                                        flag(c, at_end, call.range)},
                       Type::boolean(), call.range);
  };
}

// strip, lstrip, rstrip: whitespace where chars is omitted or None, else the characters given.
Handler stripper(const char* method, int64_t side) {
  return [=](FunctionChecker& c, const CallSite& call) -> Value {
    auto bound = bind_method(c, call, method, {"chars"}, 0);
    if (!bound) return Value::error();
    ir::ExprId how = c.make_constant({side}, Type::i64(), call.range).expr;
    if (text_argument_is_none((*bound)[0]))
      return c.make_call(Op::str_strip_side, {call.args[0].expr, how}, Type::string(), call.range);
    if (!want_text(c, call, (*bound)[0], fmt::format("str.{}()'s chars", method))) return Value::error();
    return c.make_call(Op::str_strip_chars, {call.args[0].expr, (*bound)[0]->expr, how}, Type::string(), call.range);
  };
}

}  // namespace

void add_text_search_builtins(HandlerTable& t) {
  add_for_text(t, "method.find", finder("find", "substr", false, false));
  add_for_text(t, "method.rfind", finder("rfind", "substr", true, false));
  add_for_text(t, "method.index", finder("index", "sub", false, true));  // a list's index() stays the list's
  add_for_text(t, "method.rindex", finder("rindex", "sub", true, true));
  add_for_text(t, "method.startswith", affix("startswith", "prefix", false));
  add_for_text(t, "method.endswith", affix("endswith", "substr", true));
  add_for_text(t, "method.strip", stripper("strip", 0));
  add_for_text(t, "method.lstrip", stripper("lstrip", 1));
  add_for_text(t, "method.rstrip", stripper("rstrip", 2));
}

}  // namespace pykern::sema
