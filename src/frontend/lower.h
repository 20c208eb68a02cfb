// CST → AST: one function per Python node type. Anything outside the supported subset becomes
// a located diagnostic that names the construct, and an error node; lowering goes on.
#pragma once
#include <string>

#include <tree_sitter/api.h>

#include "base/diagnostics.h"
#include "frontend/ast.h"
#include "syntax/syntax_tree.h"

namespace pykern::frontend {

// Lowers a function_definition node (its decorators are read by the module model). `cuda`: a
// @cuda.jit kernel or device function, where a try statement is refused as numba-cuda refuses it.
// `where` names the kind of function in what lowering refuses ("... is not supported in kernels").
ast::Function lower_function(const syntax::SyntaxTree& tree, TSNode definition, ast::Ast& ast,
                             Diagnostics& diagnostics, bool cuda = false, const std::string& where = "kernels");

// Lowers one expression node (module-level constants, decorator arguments, signatures).
ast::ExprId lower_expression(const syntax::SyntaxTree& tree, TSNode node, ast::Ast& ast,
                             Diagnostics& diagnostics);

}  // namespace pykern::frontend
