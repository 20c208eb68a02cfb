// a[i] = (x, y, z): a tuple stored into a 1-d view of an array (sema/sequence_store.cpp).
#pragma once

#include "sema/checker.h"

namespace pykern::sema {

// Numba's setitem from a sequence: a homogeneous tuple of numbers into a 1-d view, item k into
// element k, each converted to the array's type; a view of another length is Numba's ValueError
// at run time. False when `source` is no such tuple (the caller reports what it takes);
// true once handled, the store emitted or an error reported.
bool store_tuple_into_view(FunctionChecker& c, const Value& view, const Value& source, SourceRange range);

}  // namespace pykern::sema
