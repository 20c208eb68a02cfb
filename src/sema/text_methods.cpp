// More of Python's str in @jit functions on the host, typed as Numba 0.68 types them
// (numba/cpython/unicode.py): split, rsplit, splitlines, join, partition, rpartition, count,
// replace, zfill, center, ljust, rjust, expandtabs, the is...() classes (isdigit, isalpha,
// isalnum and isdecimal are int64 there, isascii uint32), case mappings of any code point
// (upper, lower, casefold, title, capitalize, swapcase), ord() and chr(). float() of a string
// is Numba's for a literal only (builtins.cpp reads it at compile time).
// The runtime is runtime/pykern/text_methods.cuh. Kernels have no strings (sema/text.cpp).
#include <fmt/format.h>

#include "sema/builtin_rules.h"
#include "sema/text.h"
#include "sema/text_arguments.h"

namespace pykern::sema {

using ir::Op;

namespace {

const Type& text_type() {
  static const Type t = Type::string();
  return t;
}
Type text_list() { return Type::list_of(Type::string()); }

}  // namespace

bool text_argument_is_none(const std::optional<Value>& v) { return !v || v->type.is(TypeKind::none); }

// The string a method is called on (args[0]); a value of another type has no such attribute.
bool want_receiver(FunctionChecker& c, const CallSite& call, const std::string& method) {
  if (is_text(call.args[0])) return true;
  c.error(DiagKind::unknown_attribute, call.range,
          fmt::format("a value of type '{}' has no attribute '{}'", to_string(call.args[0].type), method));
  return false;
}

bool want_text(FunctionChecker& c, const CallSite& call, const std::optional<Value>& v, const std::string& what) {
  if (v && is_text(*v)) return true;
  c.error(DiagKind::type_mismatch, call.range,
          fmt::format("{} takes a string, not '{}'", what, v ? to_string(v->type) : std::string("nothing")));
  return false;
}

// An integer argument as int64, `fallback` where omitted (or None, where `none_ok`).
std::optional<ir::ExprId> integer_argument(FunctionChecker& c, const CallSite& call, const std::optional<Value>& v,
                                           int64_t fallback, const std::string& what, bool none_ok) {
  if (!v || (none_ok && v->type.is(TypeKind::none))) return c.make_constant({fallback}, Type::i64(), call.range).expr;
  if (!v->type.is_integer_like()) {
    c.error(DiagKind::type_mismatch, call.range, fmt::format("{} takes an integer, not '{}'", what, to_string(v->type)));
    return std::nullopt;
  }
  return c.cast_expr(v->expr, Type::i64());
}

std::optional<Bound> bind_method(FunctionChecker& c, const CallSite& call, const std::string& method,
                                 const std::vector<const char*>& names, size_t required) {
  if (!want_receiver(c, call, method)) return std::nullopt;
  return sema::bind(c, call, names, required, "str." + method);
}

// A string method whose name a list or array method shares (count): strings go to `mine`.
void add_for_text(HandlerTable& t, const std::string& name, Handler mine) {
  auto found = t.find(name);
  if (found == t.end()) {
    t[name] = std::move(mine);
    return;
  }
  Builtin other = found->second;
  Builtin both([other, mine](FunctionChecker& c, const CallSite& call) -> Value {
    return is_text(call.args[0]) ? mine(c, call) : other.rule(c, call);
  });
  both.takes_types = other.takes_types;
  both.takes_strings = other.takes_strings;
  t[name] = both;
}

namespace {

// s.split(sep=None, maxsplit=-1) and s.rsplit(...): a list of strings.
Handler split(bool right) {
  return [right](FunctionChecker& c, const CallSite& call) -> Value {
    std::string method = right ? "rsplit" : "split";
    auto bound = bind_method(c, call, method, {"sep", "maxsplit"}, 0);
    if (!bound) return Value::error();
    auto maxsplit = integer_argument(c, call, (*bound)[1], -1, "str." + method + "()'s maxsplit");
    if (!maxsplit) return Value::error();
    const Value& s = call.args[0];
    if (text_argument_is_none((*bound)[0]))
      return c.make_call(right ? Op::str_rsplit_whitespace : Op::str_split_whitespace, {s.expr, *maxsplit}, text_list(),
                         call.range);
    if (!want_text(c, call, (*bound)[0], "str." + method + "()'s sep")) return Value::error();
    return c.make_call(right ? Op::str_rsplit : Op::str_split, {s.expr, (*bound)[0]->expr, *maxsplit}, text_list(),
                       call.range);
  };
}

Value splitlines(FunctionChecker& c, const CallSite& call) {
  auto bound = bind_method(c, call, "splitlines", {"keepends"}, 0);
  if (!bound) return Value::error();
  ir::ExprId keep;
  if (!(*bound)[0]) keep = c.make_constant({false}, Type::boolean(), call.range).expr;
  else if ((*bound)[0]->type.is(TypeKind::boolean) || (*bound)[0]->type.is_integer_like())
    keep = c.cast_expr((*bound)[0]->expr, Type::boolean());
  else {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("str.splitlines()'s keepends takes a bool, not '{}'", to_string((*bound)[0]->type)));
    return Value::error();
  }
  return c.make_call(Op::str_splitlines, {call.args[0].expr, keep}, text_list(), call.range);
}

Value join(FunctionChecker& c, const CallSite& call) {
  auto bound = bind_method(c, call, "join", {"parts"}, 1);
  if (!bound) return Value::error();
  const Value& parts = *(*bound)[0];
  // Numba joins a list of strings, an iterable of them (a tuple of strings alone), or a string's characters.
  bool strings = is_text(parts) || (parts.type.is(TypeKind::list) || parts.type.is(TypeKind::tuple));
  for (const Type& item : is_text(parts) ? std::vector<Type>{} : parts.type.elements)
    strings = strings && item.is(TypeKind::string);
  if (!strings || (parts.type.is(TypeKind::tuple) && parts.type.elements.empty())) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("str.join() takes a list or tuple of strings, or a string, not '{}'", to_string(parts.type)),
            "Numba joins strings only: convert the numbers with str() first");
    return Value::error();
  }
  return c.make_call(Op::str_join, {call.args[0].expr, parts.expr}, text_type(), call.range);
}

Handler partition(bool right) {
  return [right](FunctionChecker& c, const CallSite& call) -> Value {
    std::string method = right ? "rpartition" : "partition";
    auto bound = bind_method(c, call, method, {"sep"}, 1);
    if (!bound || !want_text(c, call, (*bound)[0], "str." + method + "()")) return Value::error();
    ir::ExprId from_right = c.make_constant({right}, Type::boolean(), call.range).expr;
    return c.make_call(Op::str_partition, {call.args[0].expr, (*bound)[0]->expr, from_right},
                       Type::tuple({text_type(), text_type(), text_type()}), call.range);
  };
}

Value count(FunctionChecker& c, const CallSite& call) {
  auto bound = bind_method(c, call, "count", {"sub", "start", "end"}, 1);
  if (!bound || !want_text(c, call, (*bound)[0], "str.count()")) return Value::error();
  constexpr int64_t omitted = -9223372036854775807LL - 1;  // base.cuh's none_index
  auto start = integer_argument(c, call, (*bound)[1], omitted, "str.count()'s start", true);
  auto end = start ? integer_argument(c, call, (*bound)[2], omitted, "str.count()'s end", true) : std::nullopt;
  if (!end) return Value::error();
  return c.make_call(Op::str_count, {call.args[0].expr, (*bound)[0]->expr, *start, *end}, Type::i64(), call.range);
}

Value replace(FunctionChecker& c, const CallSite& call) {
  auto bound = bind_method(c, call, "replace", {"old", "new", "count"}, 2);
  if (!bound || !want_text(c, call, (*bound)[0], "str.replace()") || !want_text(c, call, (*bound)[1], "str.replace()"))
    return Value::error();
  auto n = integer_argument(c, call, (*bound)[2], -1, "str.replace()'s count");
  if (!n) return Value::error();
  return c.make_call(Op::str_replace, {call.args[0].expr, (*bound)[0]->expr, (*bound)[1]->expr, *n}, text_type(),
                     call.range);
}

// ljust (0), rjust (1), center (2): width and a fill character, ' ' where omitted.
Handler pad(const char* method, int align) {
  return [method, align](FunctionChecker& c, const CallSite& call) -> Value {
    auto bound = bind_method(c, call, method, {"width", "fillchar"}, 1);
    if (!bound) return Value::error();
    auto width = integer_argument(c, call, (*bound)[0], 0, fmt::format("str.{}()'s width", method));
    if (!width) return Value::error();
    ir::ExprId fill;
    if (!(*bound)[1]) fill = c.make_constant({std::string(" ")}, text_type(), call.range).expr;
    else if (want_text(c, call, (*bound)[1], fmt::format("str.{}()'s fillchar", method))) fill = (*bound)[1]->expr;
    else return Value::error();
    ir::ExprId how = c.make_constant({int64_t(align)}, Type::i64(), call.range).expr;
    return c.make_call(Op::str_pad, {call.args[0].expr, *width, fill, how}, text_type(), call.range);
  };
}

// A method of one integer argument: zfill(width), expandtabs(tabsize=8).
Handler with_integer(const char* method, const char* name, std::optional<int64_t> fallback, Op op) {
  return [=](FunctionChecker& c, const CallSite& call) -> Value {
    auto bound = bind_method(c, call, method, {name}, fallback ? 0 : 1);
    if (!bound) return Value::error();
    auto n = integer_argument(c, call, (*bound)[0], fallback.value_or(0), fmt::format("str.{}()", method));
    if (!n) return Value::error();
    return c.make_call(op, {call.args[0].expr, *n}, text_type(), call.range);
  };
}

// A method of no arguments.
Handler nullary_method(const char* method, Op op, Type result) {
  return [=](FunctionChecker& c, const CallSite& call) -> Value {
    auto bound = bind_method(c, call, method, {}, 0);
    if (!bound) return Value::error();
    return c.make_call(op, {call.args[0].expr}, result, call.range);
  };
}

}  // namespace

bool printable_list(const Type& list) {
  const Type& item = list.elements.at(0);
  if (item.is(TypeKind::list)) return printable_list(item);
  return item.is(TypeKind::string) || item.is(TypeKind::integer) || item.is(TypeKind::boolean) ||
         item.is(TypeKind::floating);
}

void add_text_method_builtins(HandlerTable& t) {
  add_for_text(t, "method.split", split(false));
  add_for_text(t, "method.rsplit", split(true));
  add_for_text(t, "method.splitlines", splitlines);
  add_for_text(t, "method.join", join);
  add_for_text(t, "method.partition", partition(false));
  add_for_text(t, "method.rpartition", partition(true));
  add_for_text(t, "method.count", count);  // a list's count() stays the list's
  add_for_text(t, "method.replace", replace);
  add_for_text(t, "method.ljust", pad("ljust", 0));
  add_for_text(t, "method.rjust", pad("rjust", 1));
  add_for_text(t, "method.center", pad("center", 2));
  add_for_text(t, "method.zfill", with_integer("zfill", "width", std::nullopt, Op::str_zfill));
  add_for_text(t, "method.expandtabs", with_integer("expandtabs", "tabsize", 8, Op::str_expandtabs));
  add_text_search_builtins(t);  // find, index, startswith, strip ... (sema/text_search.cpp)
  struct Row {
    const char* name;
    Op op;
    Type result;
  };
  const Row rows[] = {
      {"isalpha", Op::str_isalpha, Type::i64()},     {"isdecimal", Op::str_isdecimal, Type::i64()},
      {"isdigit", Op::str_isdigit, Type::i64()},     {"isalnum", Op::str_isalnum, Type::i64()},
      {"isnumeric", Op::str_isnumeric, Type::boolean()}, {"isspace", Op::str_isspace, Type::boolean()},
      {"isprintable", Op::str_isprintable, Type::boolean()}, {"isascii", Op::str_isascii, Type::int_(32, false)},
      {"islower", Op::str_islower, Type::boolean()}, {"isupper", Op::str_isupper, Type::boolean()},
      {"istitle", Op::str_istitle, Type::boolean()}, {"isidentifier", Op::str_isidentifier, Type::boolean()},
      {"upper", Op::str_to_upper, Type::string()},   {"lower", Op::str_to_lower, Type::string()},
      {"casefold", Op::str_casefold, Type::string()}, {"title", Op::str_title, Type::string()},
      {"capitalize", Op::str_capitalize, Type::string()}, {"swapcase", Op::str_swapcase, Type::string()},
  };
  for (const Row& row : rows) add_for_text(t, std::string("method.") + row.name, nullary_method(row.name, row.op, row.result));

  t["builtins.ord"] = [](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 1, 1)) return Value::error();
    if (!is_text(call.args[0])) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("ord() takes a string of one character, not '{}'", to_string(call.args[0].type)));
      return Value::error();
    }
    return c.make_call(Op::str_ord, {call.args[0].expr}, Type::i64(), call.range);
  };
  t["builtins.chr"] = [](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 1, 1)) return Value::error();
    if (!c.on_host()) {
      c.error(DiagKind::unsupported_operation, call.range, "chr() makes a string, which kernels cannot hold",
              "text is for @jit functions called on the host");
      return Value::error();
    }
    if (!call.args[0].type.is_integer_like()) {
      c.error(DiagKind::type_mismatch, call.range,
              fmt::format("chr() takes an integer, not '{}'", to_string(call.args[0].type)));
      return Value::error();
    }
    return c.make_call(Op::str_chr, {c.cast_expr(call.args[0].expr, Type::i64())}, text_type(), call.range);
  };
}

}  // namespace pykern::sema
