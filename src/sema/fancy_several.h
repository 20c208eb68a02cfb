// Several integer index arrays in one subscript, a[rows, cols], in @jit functions on the host,
// as Numba 0.68 types them (numba/core/typing/arraydecl.py get_array_index_type: any number of
// advanced indices, broadcast together; the result a new C array) and computes them
// (numba/np/arrayobj.py FancyIndexer). Here: a 1-D integer array for every axis of the array;
// fewer, or mixed with integers and slices, is sema/fancy_mixed.cpp's. Runtime:
// runtime/pykern/fancy_several.cuh.
#pragma once
#include <optional>
#include <vector>

#include "sema/checker.h"

namespace pykern::sema {

// The take a[i0, i1, ...] (or, with a pending store, the store made and marked done) where
// the items are two or more 1-D integer arrays; nullopt for any other subscript; Value::error()
// after reporting.
std::optional<Value> several_index_arrays(FunctionChecker& c, const Value& base,
                                          const std::vector<FunctionChecker::IndexItem>& items, SourceRange range,
                                          FunctionChecker::PendingStore* store);

// a[rows, cols] op= v: the picked elements read once, combined with v and stored back at the
// same sites (Numba's getitem, inplace operator, setitem). False where `current` is no
// a[rows, cols] read.
bool several_aug_assign(FunctionChecker& c, const Value& current, const Value& operand, ast::BinaryOp op,
                        SourceRange range);

}  // namespace pykern::sema
