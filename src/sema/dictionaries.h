// Typed dicts in @jit functions on the host, as Numba types them (numba/typed/dictobject.py,
// numba/core/typing/dictdecl.py, typeinfer.py's BuildMapConstraint): TypeKind::dict with the
// keys' and values' types, learnt from the first store where {} or dict() made it. The places
// check_expr.cpp, infer.cpp, check_loops.cpp and builtins.cpp hand a dict to are here; the
// runtime is runtime/pykern/dict.cuh. Kernels refuse dicts, as numba-cuda does.
#pragma once
#include <string>
#include <vector>

#include "sema/builtin_rules.h"
#include "sema/checker.h"

namespace pykern::sema {

// A dict view's kinds (Type::ndim of a TypeKind::dict).
enum DictView { dict_itself = 0, dict_keys = 1, dict_values = 2, dict_items = 3 };

// {} and {k: v, ...}.
Value dict_display(FunctionChecker& c, const ast::Expr& e);
// Dict.empty(key_type=..., value_type=...), Dict(), dict() and dict(d): `name` is the callee's
// qualified name; nullopt when it names none of them (the call is checked as usual).
std::optional<Value> dict_constructor(FunctionChecker& c, const ast::Expr& call, const std::string& name);
// d[k] read (an lvalue: d[k] += 1 updates it; KeyError when missing).
Value dict_subscript(FunctionChecker& c, const Value& dict, const std::vector<ast::ExprId>& indices, SourceRange range);
// d[k] = v: stores; where d's types are not known yet, they are learnt from k and v.
void store_into_dict(FunctionChecker& c, const Value& dict, const std::vector<ast::ExprId>& indices, const Value& value,
                     SourceRange range);
// `key in d` (and in d.keys()): a bool.
Value dict_membership(FunctionChecker& c, const Value& key, const Value& dict, SourceRange range);
// len(d), len(d.keys()), ...
Value dict_length(FunctionChecker& c, const Value& dict, SourceRange range);
// for loops over a dict or a view: the number of items (evaluated once, before the loop) and
// item i (a key, a value or a (key, value) tuple).
Value dict_iteration_length(FunctionChecker& c, const Value& dict, SourceRange range);
Value dict_iteration_item(FunctionChecker& c, const Value& dict, const Value& index, SourceRange range);
// The handler name of `receiver.method(...)`: "dict.get" on a dict, else "method.get".
std::string method_handler_name(const Type& receiver, const std::string& method);
bool is_dict_method(const std::string& method);

void add_dict_builtins(HandlerTable& t);

}  // namespace pykern::sema
