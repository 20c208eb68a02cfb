// Several index arrays mixed with integers and slices in one subscript, a[idx, :, cols],
// b[1, rows, cols], a[rows, 1:3, cols], in @jit functions on the host, as Numba 0.68 types them
// (numba/core/typing/arraydecl.py get_array_index_type) and computes them (numba/np/arrayobj.py
// FancyIndexer): the integers and slices make a view, the 1-D integer arrays broadcast together
// and pick their axes of it at once; the picked axes' one result axis stands where the first of
// them stood when the integers and arrays form one run in the subscript, else first (NumPy's
// rule, which Numba's subspace count follows). A mask beside another index array is refused:
// Numba 0.68 types it and then fails to compile it. An integer array for every axis of the array
// is sema/fancy_several.cpp's; the runtime is runtime/pykern/fancy_mixed.cuh.
#pragma once
#include <optional>
#include <vector>

#include "sema/checker.h"

namespace pykern::sema {

// The take (or, with a pending store, the store made and marked done) where two or more items
// are index arrays and they are not all of the array's axes; nullopt for any other
// subscript; Value::error() after reporting.
std::optional<Value> mixed_index_arrays(FunctionChecker& c, const Value& base,
                                        const std::vector<FunctionChecker::IndexItem>& items, SourceRange range,
                                        FunctionChecker::PendingStore* store);

// a[rows, :, cols] op= v: read once, combined with v, stored back at the same elements. False
// where `current` is no such read.
bool mixed_aug_assign(FunctionChecker& c, const Value& current, const Value& operand, ast::BinaryOp op,
                      SourceRange range);

}  // namespace pykern::sema
