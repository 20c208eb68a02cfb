#include "sema/passes.h"

#include "sema/evaluation_order.h"
#include "sema/index_facts.h"
#include "sema/parallel_loops.h"

namespace pykern::sema {

void sequence_effects(ir::Program& program) {
  for (ir::Function& function : program.functions) sequence_effects(function);
}

void mark_index_facts(ir::Program& program) {
  for (ir::Function& function : program.functions) mark_index_facts(function);
}

void plan_parallel_loops(ir::Program& program, const SourceFile& file, Diagnostics& diagnostics) {
  for (ir::Function& function : program.functions) {
    if (!function.parallel) continue;
    plan_parallel_loops(function, [&](SourceRange range, const std::string& why) {
      diagnostics.warning(DiagKind::sequential_prange, file, range, "this prange loop runs its iterations in order: " + why,
                          "a parallel loop may only carry values from one iteration to the next as reductions "
                          "(s += x, s -= x, s *= x, s /= x, s = min(s, x), s = max(s, x))");
    });
  }
}

}  // namespace pykern::sema
