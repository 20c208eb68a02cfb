// Facts about array indices that let emitted accesses skip work, as LLVM's range analysis
// lets Numba skip it.
// - An index that is never negative needs no wrap-around: a thread position (cuda.grid,
//   threadIdx), an extent, a sum or product of such, a local every assignment of which is one
//   (i = cuda.grid(1)), and the counter of `for i in range(start, stop, step)` with such a
//   start and a step of at least 1 (a constant, cuda.gridsize, blockDim), where the body never
//   assigns i (nor i + c for a constant c >= 0); i - c too where the start is at least c.
// - When that loop's stop is a.shape[k] (len(a), `for x in a`, or a local holding it) of an
//   array never reassigned, a[..., i, ...] on axis k is within bounds, so no check.
// - Such a loop's step_sign becomes +1, so it tests i < stop.
#pragma once
#include "sema/ir.h"

namespace pykern::sema {

// Sets Expr::known_non_negative / known_in_bounds on the function's element accesses.
void mark_index_facts(ir::Function& function);

}  // namespace pykern::sema
