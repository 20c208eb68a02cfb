// try statements in @jit functions, as far as Numba supports them: a handler is bare or catches
// `Exception`, and so catches every exception (Numba cannot tell classes apart); no handler may
// bind the exception (`as e`) or re-raise it with a bare `raise`. The lowering reads the
// clauses (lower.cpp); build_try checks them and builds the AST forms (ast.h):
//
//   try: B except: H else: E finally: F   →   try_finally(body: [try_except(body: B + [try_else(E)],
//                                                                              orelse: H)],
//                                                               orelse: F)
//
// Handlers after the first are never reached (the first catches everything) and are dropped
// once checked. Kernels refuse try statements, as numba-cuda does (lower.cpp, sema/check_try.cpp).
#pragma once
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "frontend/ast.h"

namespace pykern::frontend {

struct ExceptClause {
  SourceRange range;            // the whole clause
  ast::ExprId type;             // invalid for a bare `except:`
  SourceRange alias_range;      // `as e`: the name's range (empty when there is none)
  std::string alias;
  std::vector<ast::StmtId> body;
};

struct TryClauses {
  SourceRange range;  // the whole statement
  std::vector<ast::StmtId> body;
  std::vector<ExceptClause> handlers;
  std::vector<ast::StmtId> orelse;
  bool has_finally = false;
  std::vector<ast::StmtId> finally_body;
};

// The statement `clauses` lower to; what Numba refuses of them is reported (and left out).
ast::StmtId build_try(ast::Ast& ast, TryClauses clauses, const SourceFile& file, Diagnostics& diagnostics);

// A bare `raise` inside a handler: Numba cannot re-raise the exception it caught.
void report_reraise(const SourceFile& file, SourceRange range, Diagnostics& diagnostics);

}  // namespace pykern::frontend
