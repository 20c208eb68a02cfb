// The passes over typed IR that follow inference, each over the whole program. The compiler's
// driver (src/compiler/translate.cpp) runs them in this order.
#pragma once
#include "base/diagnostics.h"
#include "sema/ir.h"
#include "sema/memory_limits.h"  // account_memory: local and shared memory per kernel, last

namespace pykern::sema {

// Python's left-to-right order where a statement's calls have effects (evaluation_order.h).
void sequence_effects(ir::Program& program);
// Indices known non-negative or within bounds skip wrap-around and checks (index_facts.h).
void mark_index_facts(ir::Program& program);
// Which prange loops of parallel=True functions run on the thread pool; a warning for those
// that run in order (parallel_loops.h).
void plan_parallel_loops(ir::Program& program, const SourceFile& file, Diagnostics& diagnostics);

}  // namespace pykern::sema
