#include "frontend/try_statement.h"

#include <fmt/format.h>

namespace pykern::frontend {

namespace {

using namespace ast;

// Numba matches a handler's class only against Exception (numba/core/unsafe/eh.py): any other
// class, or a tuple of classes, is refused there; `except (Exception):` is Exception, and so is
// `except builtins.Exception:` (sema/check_try.cpp checks that the module is builtins).
bool catches_everything(const Ast& ast, const ExceptClause& clause) {
  if (!clause.type.valid()) return true;
  const Expr& type = ast[clause.type];
  if (type.kind == ExprKind::attribute) return type.text == "Exception" && ast[type.operands[0]].kind == ExprKind::name;
  return type.kind == ExprKind::name && type.text == "Exception";
}

// `except (Exception,):` — a tuple, even of Exception alone: Numba's exception_match takes a
// class, and fails to type a tuple ("'UniTuple' object has no attribute 'exc_class'").
bool is_tuple_of_exception(const Ast& ast, const Expr& type) {
  if (type.kind != ExprKind::tuple || type.operands.empty()) return false;
  for (ExprId part : type.operands)
    if (ast[part].kind != ExprKind::name || ast[part].text != "Exception") return false;
  return true;
}

void check_handler(const Ast& ast, const ExceptClause& clause, const SourceFile& file, Diagnostics& diagnostics) {
  if (clause.type.valid() && is_tuple_of_exception(ast, ast[clause.type])) {
    const Expr& type = ast[clause.type];
    diagnostics.error(DiagKind::unsupported_syntax, file, type.range,
                      fmt::format("a handler takes one class, as in Numba: 'except {}' names a tuple of classes",
                                  std::string(file.slice(type.range))),
                      "write 'except Exception:'");
  } else if (!catches_everything(ast, clause)) {
    const Expr& type = ast[clause.type];
    std::string shown(file.slice(type.range));
    diagnostics.error(DiagKind::unsupported_syntax, file, type.range,
                      fmt::format("exception matching is limited to 'Exception', as in Numba: 'except {}' cannot "
                                  "catch {} alone",
                                  shown, type.kind == ExprKind::tuple ? "those classes" : shown),
                      "catch every exception with 'except Exception:' (or a bare 'except:'), and tell the cases "
                      "apart before the operation that fails");
  }
  if (!clause.alias.empty())
    diagnostics.error(DiagKind::unsupported_syntax, file, clause.alias_range,
                      fmt::format("an exception cannot be bound to a name ('as {}'): Numba keeps no exception "
                                  "object in compiled code",
                                  clause.alias),
                      "drop 'as " + clause.alias + "'; the handler runs for every exception the try block raises");
}

StmtId add_stmt(Ast& ast, StmtKind kind, SourceRange range) {
  Stmt stmt;
  stmt.kind = kind;
  stmt.range = range;
  return ast.stmts.add(std::move(stmt));
}

}  // namespace

StmtId build_try(Ast& ast, TryClauses clauses, const SourceFile& file, Diagnostics& diagnostics) {
  for (const ExceptClause& clause : clauses.handlers) check_handler(ast, clause, file, diagnostics);
  std::vector<StmtId> protected_body = std::move(clauses.body);
  if (!clauses.handlers.empty()) {
    if (!clauses.orelse.empty()) {
      // The else block runs after the try block ends normally, outside the handler's reach.
      StmtId orelse = add_stmt(ast, StmtKind::try_else, clauses.range);
      ast.stmts[orelse].body = std::move(clauses.orelse);
      protected_body.push_back(orelse);
    }
    const ExceptClause& first = clauses.handlers.front();
    StmtId handled = add_stmt(ast, StmtKind::try_except, clauses.range);
    Stmt& stmt = ast.stmts[handled];
    stmt.body = std::move(protected_body);
    stmt.orelse = first.body;
    stmt.value = first.type;
    if (!clauses.has_finally) return handled;
    protected_body = {handled};
  }
  StmtId finally = add_stmt(ast, StmtKind::try_finally, clauses.range);
  ast.stmts[finally].body = std::move(protected_body);
  ast.stmts[finally].orelse = std::move(clauses.finally_body);
  return finally;
}

void report_reraise(const SourceFile& file, SourceRange range, Diagnostics& diagnostics) {
  diagnostics.error(DiagKind::unsupported_syntax, file, range,
                    "re-raising the exception a handler caught (a bare 'raise') is not supported, as in Numba",
                    "set a flag in the handler and raise a new exception after the try statement, e.g. "
                    "if failed: raise ValueError(\"...\")");
}

}  // namespace pykern::frontend
