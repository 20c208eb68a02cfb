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
// With `store`, a slice is a place: l[a:b:c] = v or del l[a:b:c] (sema/list_slices.cpp).
Value list_subscript(FunctionChecker& c, const Value& list, const FunctionChecker::IndexItem& index, SourceRange range,
                     FunctionChecker::PendingStore* store = nullptr);
// l += other, l *= n: the list itself changes (another name for it sees the change).
void list_aug_assign(FunctionChecker& c, ast::BinaryOp op, const Value& list, const Value& operand, SourceRange range);

// l[a:b:c] = store.value, or with store.deletes del l[a:b:c]: reported or done (store.done).
void list_store_slice(FunctionChecker& c, const Value& list, const FunctionChecker::IndexItem& index,
                      FunctionChecker::PendingStore& store, SourceRange range);
// del l[a:b:c] (l.__delitem__ of a slice): the call that deletes, or an error after reporting.
Value delete_list_slice(FunctionChecker& c, const Value& list, ast::ExprId slice, SourceRange range);

}  // namespace pykern::sema
