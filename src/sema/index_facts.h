// Facts about array indices that let emitted accesses skip work, as LLVM's range analysis
// lets Numba skip it: inside `for i in range(start, stop, step)` with a constant start >= 0 and
// step >= 1, where the body never assigns i, the index i (or i + c for a constant c >= 0) is
// never negative, so no wrap-around; and when stop is a.shape[k] (len(a), `for x in a`) of an
// array the body never reassigns, a[..., i, ...] on axis k is within bounds, so no check.
#pragma once
#include "sema/ir.h"

namespace pykern::sema {

// Sets Expr::known_non_negative / known_in_bounds on the function's element accesses.
void mark_index_facts(ir::Function& function);

}  // namespace pykern::sema
