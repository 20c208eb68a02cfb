// Which integer min/max calls a host build writes as branches (runtime pk::min_branch and
// pk::max_branch): a min of a min (or a max of a max) of integers inside a loop that carries a
// local from one iteration to the next, as edit distance's row update
//   row[j] = min(above + 1, row[j - 1] + 1, diagonal + cost)   # diagonal carried
// Such a loop is a recurrence, which no compiler vectorises, and its mins lie on the carried
// chain: as selects (cmov) every iteration waits for two compare-and-moves, where predicted
// branches let it run ahead. Numba's LLVM makes that choice itself (x86 cmov conversion);
// g++ does not, which made pykern's levenshtein 1.6-1.9x Numba's (BENCHMARKS.md, issue 32).
// A loop whose only carried values are reductions of one min (m = min(m, x[i])) has no chain
// and keeps the select, which vectorises.
#pragma once
#include <vector>

#include "sema/ir.h"

namespace pykern::emit {

// By expression index: true where the call is emitted as a branch.
std::vector<bool> carried_min_max_chains(const ir::Function& function);

}  // namespace pykern::emit
