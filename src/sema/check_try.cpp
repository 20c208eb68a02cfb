// try statements (frontend/try_statement.h): typed as the blocks they hold, on the host only.
// Numba's CPU target catches every exception a try block raises, its own and its callees'
// (IndexError of a checked index, ZeroDivisionError, LinAlgError, a raise); numba-cuda compiles
// no exception handling, so a @jit function compiled for a kernel refuses them, as a
// @cuda.jit function does when it is lowered.
#include <algorithm>

#include <fmt/format.h>

#include "sema/checker.h"

namespace pykern::sema {

using ast::StmtKind;

void FunctionChecker::check_try(const ast::Stmt& stmt) {
  // A refused statement is typed all the same, so that what it assigns is no unassigned name
  // further on.
  auto type_refused = [&] {
    std::vector<ir::StmtId> refused;
    check_block(stmt.body, refused);
    check_block(stmt.orelse, refused);
  };
  ir::Stmt out;
  out.range = stmt.range;
  if (stmt.kind == StmtKind::try_else) {
    out.kind = ir::StmtKind::try_else;
    check_block(stmt.body, out.body);
    emit_stmt(std::move(out));
    return;
  }
  if (stmt.kind == StmtKind::try_except && stmt.value.valid() &&
      module().ast()[stmt.value].kind == ast::ExprKind::attribute) {
    // `except builtins.Exception:` (the frontend let only `NAME.Exception` through), checked
    // wherever the function is compiled.
    const ast::Expr& type = module().ast()[stmt.value];
    if (module().qualified_name(stmt.value) != "builtins.Exception") {
      error(DiagKind::unsupported_syntax, type.range,
            fmt::format("exception matching is limited to the builtin 'Exception', as in Numba: '{}' is not "
                        "builtins.Exception",
                        std::string(file().slice(type.range))),
            "write 'except Exception:', or 'import builtins' and 'except builtins.Exception:'");
      type_refused();
      return;
    }
  }
  if (!program_.host_calls()) {
    error(DiagKind::unsupported_syntax, stmt.range, "'try' statement is not supported in kernels",
          fmt::format("'{}' is compiled for a kernel here, and numba-cuda compiles no exception handling for the "
                      "GPU; test for the failing case before the operation instead",
                      ast_.name));
    type_refused();
    return;
  }
  if (stmt.kind == StmtKind::try_except && stmt.value.valid() && module().ast()[stmt.value].kind == ast::ExprKind::name) {
    // The frontend let only `Exception` through: it must be the builtin class, not a variable.
    const ast::Expr& type = module().ast()[stmt.value];
    std::vector<std::string> globals = module().top_level_names();
    bool builtin = module().imported(type.text).value_or("builtins.Exception") == "builtins.Exception";
    if (local_at(stmt.value) >= 0 || !builtin ||
        (!module().imported(type.text) && std::count(globals.begin(), globals.end(), type.text) > 0)) {
      error(DiagKind::unsupported_syntax, type.range,
            "exception matching is limited to the builtin 'Exception', as in Numba: here 'Exception' names a "
            "variable of the program",
            "rename the variable, so that 'Exception' is Python's class again");
      type_refused();
      return;
    }
  }
  out.kind = stmt.kind == StmtKind::try_except ? ir::StmtKind::try_except : ir::StmtKind::try_finally;
  out.loop_id = next_loop_id_++;  // names the statement's labels in the C++
  check_block(stmt.body, out.body);
  check_block(stmt.orelse, out.orelse);
  emit_stmt(std::move(out));
}

}  // namespace pykern::sema
