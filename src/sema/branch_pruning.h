// Numba's dead-branch pruning (numba/core/analysis.py dead_branch_prune), on the AST of one
// specialisation before it is typed. Numba rewrites a branch on `arg is None`, `arg is not
// None`, `arg == None` or `arg != None` into a jump when `arg` is still the argument itself (no
// assignment reaches the test) and its type decides the test: NoneType, Omitted(None), or a
// literal. The arm not taken is never typed, so
//
//     if hi is None:
//         hi = np.inf
//
// leaves `hi` a float64 for hi=None rather than an Optional. Conditions joined by `and`/`or`
// and `not` are pruned piece by piece (each is a branch of its own in Numba's IR), and so are
// conditional expressions (`a if x is None else b`). `if arg:` is not pruned (Numba types
// bool(None) and keeps both arms), nor is a test on an argument of an ordinary type (int64,
// an array): both arms are typed and their assignments unify, as in Numba.
#pragma once
#include <optional>
#include <vector>

#include "frontend/ast.h"

namespace pykern::sema {

// What the specialisation says of a parameter's value.
enum class ArgumentFact {
  unknown,   // an ordinary type: tests on it are typed, not pruned
  none,      // NoneType: None passed, or a default of None left out
  not_none,  // a literal (a compile-time integer or bool): never None
};

class ProgramBuilder;
struct Signature;

// The facts of a specialisation's parameters: from its argument types (None, a literal passed
// at compile time) and, past them, from the defaults left out (None).
std::vector<ArgumentFact> argument_facts(const ProgramBuilder& program, const ast::Ast& ast,
                                         const ast::Function& function, const Signature& signature);

// `function` with the branches its facts decide taken (one fact per parameter, in order), or
// nullopt when none is. New nodes are added to `ast`; the function's own are not changed.
std::optional<ast::Function> prune_dead_branches(ast::Ast& ast, const ast::Function& function,
                                                 const std::vector<ArgumentFact>& facts);

// `function` with each parameter that is passed None at run time (`facts` none, among the first
// `given`) and that the body rebinds renamed out of the way, and `name = None` first in the
// body instead; nullopt when there is none. Numba's SSA gives the later values of such a
// parameter versions of their own (`if lo is None: lo = v` in a loop makes lo an Optional);
// here `lo` becomes a variable whose assignments unify as any other's, while the parameter,
// which holds nothing, keeps its place in the calls.
std::optional<ast::Function> rebound_none_parameters(ast::Ast& ast, const ast::Function& function,
                                                     const std::vector<ArgumentFact>& facts, size_t given);

// A condition `x is None`, `x is not None`, `x == None`, `x != None`, `None is x` (or `not` of
// one): the operand x, and whether the condition holds when x is None. When x is a variable of
// a type other than None, Numba types both arms of the test (sema check_if).
struct NoneTest {
  ast::ExprId operand;
  bool true_when_none = true;
};
std::optional<NoneTest> none_test(const ast::Ast& ast, ast::ExprId condition);

}  // namespace pykern::sema
