// A @jit function called from the host with fewer arguments than parameters: Numba's dispatcher
// types the parameters left out as Omitted(default) and the body reads their defaults. Here the
// function is typed as a copy whose omitted parameters are locals bound to their defaults by
// its first statements, so `if hi is None:` is decided at compile time, as Numba prunes it.
#pragma once
#include <cstddef>

#include "frontend/ast.h"

namespace pykern::sema {

// Whether the parameters from `given` on each have a default (and none is *args).
bool omitted_have_defaults(const ast::Function& function, size_t given);

// `function` with its first `given` parameters, its others bound to their defaults at entry.
ast::Function with_defaults_bound(ast::Ast& ast, const ast::Function& function, size_t given);

}  // namespace pykern::sema
