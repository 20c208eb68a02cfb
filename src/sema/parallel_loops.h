// Which prange loops of a parallel=True function run on the thread pool, as Numba's parfor
// pass decides: an outermost prange loop whose iterations share nothing but arrays, read-only
// values and reductions. Everything the body assigns becomes private to each part of the loop;
// a name whose value flows from one iteration into the next must be a reduction (s += x,
// s -= x, s *= x, s /= x, s = min(s, x), s = max(s, x)). A loop that breaks, returns, has an
// else branch, carries another value or appends to a shared list runs its iterations in order,
// with a warning that says why (Numba would race or refuse).
#pragma once
#include <functional>
#include <string>

#include "base/source_file.h"
#include "sema/ir.h"

namespace pykern::sema {

using SequentialLoopReport = std::function<void(SourceRange loop, const std::string& why)>;

// Fills Stmt::parallel of the function's outermost prange loops.
void plan_parallel_loops(ir::Function& function, const SequentialLoopReport& report);

}  // namespace pykern::sema
