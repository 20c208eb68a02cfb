// Inner functions: what each reads of the functions that enclose it (closures.cpp).
#pragma once
#include "base/diagnostics.h"
#include "frontend/ast.h"

namespace pykern::frontend {

// For a lowered function and the inner functions defined in it (Ast::functions, at any depth):
// sets each inner function's captured variables, adds them as its last parameters, and passes
// them by keyword at its calls. Reports a recursive inner function, and a name defined twice.
void resolve_inner_functions(ast::Function& function, ast::Ast& ast, const SourceFile& file,
                             Diagnostics& diagnostics);

}  // namespace pykern::frontend
