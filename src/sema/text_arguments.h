// The arguments of str methods, bound and checked as Numba's overloads of unicode_type take
// them (sema/text_methods.cpp defines these; text_search.cpp uses them too).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sema/builtin_rules.h"

namespace pykern::sema {

// An argument left out, or passed as None.
bool text_argument_is_none(const std::optional<Value>& v);
// The string a method is called on (args[0]); a value of another type has no such attribute.
bool want_receiver(FunctionChecker& c, const CallSite& call, const std::string& method);
// A string argument; else an error naming `what` and the type given.
bool want_text(FunctionChecker& c, const CallSite& call, const std::optional<Value>& v, const std::string& what);
// An integer argument as int64, `fallback` where omitted (or None, where `none_ok`).
std::optional<ir::ExprId> integer_argument(FunctionChecker& c, const CallSite& call, const std::optional<Value>& v,
                                           int64_t fallback, const std::string& what, bool none_ok = false);
// The receiver checked, then the arguments bound to `names` as Python binds them.
std::optional<Bound> bind_method(FunctionChecker& c, const CallSite& call, const std::string& method,
                                 const std::vector<const char*>& names, size_t required);
// A string method whose name a list or array method shares (count, index): strings go to `mine`.
void add_for_text(HandlerTable& t, const std::string& name, Handler mine);

void add_text_search_builtins(HandlerTable& t);  // sema/text_search.cpp

}  // namespace pykern::sema
