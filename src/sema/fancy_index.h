// Advanced indexing of arrays in @jit functions on the host, as Numba's CPU target types and
// runs it (numba/np/arrayobj.py: fancy_getitem, fancy_setslice): one 1-D array per subscript,
// a boolean mask or integer positions, beside integers and slices; and `...` (Ellipsis).
// FunctionChecker::index_into calls these; the runtime is runtime/pykern/fancy_index.cuh.
#pragma once
#include <optional>
#include <vector>

#include "sema/checker.h"

namespace pykern::sema {

// Replaces an Ellipsis among an array's index items by the full slices it stands for (none
// where it ends the index: a[i, ...] is the view a[i]). False after reporting an error (two
// ellipses, an ellipsis indexing something not an array, a[...] read whole as Numba cannot).
bool expand_ellipsis(FunctionChecker& c, const Type& base, std::vector<FunctionChecker::IndexItem>& items,
                     SourceRange range, const FunctionChecker::PendingStore* store);

// a[mask], a[idx], a[i, idx], a[:, mask]: where an item is an array, the new array it picks (or,
// with a pending store, the store made and marked done); nullopt where no item is an array.
// Value::error() after reporting. `items` fit the array (no more than its dimensions).
std::optional<Value> advanced_index(FunctionChecker& c, const Value& base,
                                    const std::vector<FunctionChecker::IndexItem>& items, SourceRange range,
                                    FunctionChecker::PendingStore* store);

// What a store through index arrays writes (a[idx] = v, a[rows, cols] = v, a[rows, :, cols] = v):
// a number converted to the array's type, or an array of numbers as it is (only 1-D with
// `one_d_arrays`). Value::error() after a located error: a read-only array, or a value whose type
// does not convert to its elements.
Value fancy_store_value(FunctionChecker& c, const Type& array, const Value& value, SourceRange target,
                        SourceRange range, bool one_d_arrays = false);

// a[mask] op= v: the picked elements read once, combined with v and stored back (Numba's
// getitem, inplace operator, setitem). False where `current` is no advanced index's read.
bool advanced_aug_assign(FunctionChecker& c, const Value& current, const Value& operand, ast::BinaryOp op,
                         SourceRange range);

}  // namespace pykern::sema
