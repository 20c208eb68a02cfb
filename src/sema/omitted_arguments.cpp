#include "sema/omitted_arguments.h"

#include <algorithm>

namespace pykern::sema {

bool omitted_have_defaults(const ast::Function& function, size_t given) {
  if (given > function.parameters.size()) return false;
  return std::all_of(function.parameters.begin(), function.parameters.end(), [](const ast::Parameter& p) { return !p.star; }) &&
         std::all_of(function.parameters.begin() + static_cast<long>(given), function.parameters.end(),
                     [](const ast::Parameter& p) { return p.default_value.valid(); });
}

ast::Function with_defaults_bound(ast::Ast& ast, const ast::Function& function, size_t given) {
  ast::Function bound = function;
  bound.parameters.resize(given);
  std::vector<ast::StmtId> prologue;
  for (size_t i = given; i < function.parameters.size(); ++i) {
    const ast::Parameter& parameter = function.parameters[i];
    ast::Expr target;
    target.kind = ast::ExprKind::name;
    target.text = parameter.name;
    target.range = parameter.range;
    ast::Stmt assign;
    assign.kind = ast::StmtKind::assign;
    assign.range = parameter.range;
    assign.targets.push_back(ast.exprs.add(std::move(target)));
    assign.value = parameter.default_value;
    prologue.push_back(ast.stmts.add(std::move(assign)));
  }
  bound.body.insert(bound.body.begin(), prologue.begin(), prologue.end());
  return bound;
}

}  // namespace pykern::sema
