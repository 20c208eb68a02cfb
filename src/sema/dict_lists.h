// A dict view taken as an iterable by sorted() and list() (sema/dict_lists.cpp).
#pragma once
#include "sema/checker.h"

namespace pykern::sema {

// d.keys(), d.values(), d.items() (not the dict itself).
bool is_dict_view(const Type& type);
// The view's items as a new list, in the dict's order.
Value list_of_dict_view(FunctionChecker& c, const Value& view, SourceRange range);

}  // namespace pykern::sema
