// Python lists in @jit functions on the host (sema/lists.cpp): Numba's reflected lists and
// numba.typed.List, typed alike. The checker's general rules (operators, subscripts, `in`,
// truth, augmented assignment) hand a list operand to these.
#pragma once
#include "sema/checker.h"

namespace pykern::sema {

// A type a list may hold: a number, a tuple of such, an array, or a list.
bool list_can_hold(const Type& item);

Value list_binary(FunctionChecker& c, ast::BinaryOp op, const Value& left, const Value& right, SourceRange range);
Value list_compare(FunctionChecker& c, ast::CompareOp op, const Value& left, const Value& right, SourceRange range);
Value list_membership(FunctionChecker& c, bool in, const Value& item, const Value& list, SourceRange range);
Value list_truth(FunctionChecker& c, const Value& list, SourceRange range);
// l[i] (an element: a place that l[i] = v stores into) and l[a:b:c] (a new list).
Value list_subscript(FunctionChecker& c, const Value& list, const FunctionChecker::IndexItem& index, SourceRange range);
// l += other, l *= n: the list itself changes (another name for it sees the change).
void list_aug_assign(FunctionChecker& c, ast::BinaryOp op, const Value& list, const Value& operand, SourceRange range);

}  // namespace pykern::sema
