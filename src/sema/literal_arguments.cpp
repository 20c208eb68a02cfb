// Literal arguments between @jit functions, as Numba 0.68 treats them. A caller's integer,
// bool or string constant reaches the callee as a literal type (Literal[int](0)), and the
// callee is specialised on it, but Numba's dead-branch pruning (numba/core/analysis.py
// dead_branch_prune) decides a branch on an argument only by its type against None: `if axis
// == 0:` and `if flag:` on a literal parameter keep both arms, which are typed and whose
// assignments and returns unify (`return x` / `return 1.5` gives a float64 whatever the flag).
// A branch on a constant (a literal, a module global, a local bound once to one) is pruned.
#include "sema/checker.h"

namespace pykern::sema {

bool FunctionChecker::reads_literal_parameter(ast::ExprId id) {
  if (!id.valid()) return false;
  const ast::Expr& e = module().ast()[id];
  if (e.kind == ast::ExprKind::name) {
    auto found = static_parameters_.find(e.text);
    return found != static_parameters_.end() && found->second.kind == Value::Kind::expr &&
           !found->second.type.is(TypeKind::none);
  }
  for (ast::ExprId operand : e.operands)
    if (reads_literal_parameter(operand)) return true;
  for (const ast::Keyword& keyword : e.keywords)
    if (reads_literal_parameter(keyword.value)) return true;
  return false;
}

}  // namespace pykern::sema
