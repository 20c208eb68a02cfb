// A readable dump of the typed IR for unit tests.
#include <fmt/format.h>

#include "sema/ir.h"

namespace pykern::ir {

namespace {
std::string expr_text(const Function& f, ExprId id) {
  if (!id.valid()) return "_";
  const Expr& e = f[id];
  std::string args;
  for (size_t i = 0; i < e.args.size(); ++i) args += (i ? ", " : "") + expr_text(f, e.args[i]);
  std::string type = sema::to_string(e.type);
  switch (e.kind) {
    case ExprKind::constant:
      return fmt::format("{}:{}", std::holds_alternative<double>(e.constant.value)
                                      ? fmt::format("{}", e.constant.as_double())
                                      : std::to_string(e.constant.as_int()), type);
    case ExprKind::local: return f.locals[e.local].name;
    case ExprKind::cast: return fmt::format("cast<{}>({})", type, args);
    case ExprKind::unary: return fmt::format("({}{})", ir::call_info(e.op).spelling, args);
    case ExprKind::binary:
    case ExprKind::logical:
      return fmt::format("({} {} {}):{}", expr_text(f, e.args[0]), ir::call_info(e.op).spelling, expr_text(f, e.args[1]),
                         type);
    case ExprKind::call: {
      std::string op(ir::call_info(e.op).id);
      if (e.op_arg >= 0) op += fmt::format("<{}>", e.op_arg);
      return fmt::format("{}({}):{}", op, args, type);
    }
    case ExprKind::device_call: return fmt::format("call#{}({}):{}", e.callee, args, type);
    case ExprKind::element: return fmt::format("{}[{}]:{}", expr_text(f, e.args[0]), args.substr(args.find(',') + 2), type);
    case ExprKind::member: return fmt::format("{}.{}", expr_text(f, e.args[0]), e.name);
    case ExprKind::make_tuple: return fmt::format("({})", args);
    case ExprKind::select: return fmt::format("select({})", args);
    case ExprKind::constant_array: return fmt::format("constant#{}:{}", e.callee, type);
  }
  return "?";
}
}  // namespace

std::string dump(const Function& f) {
  std::string out = fmt::format("function {} -> {}\n", f.python_name, sema::to_string(f.return_type));
  for (const Local& l : f.locals) out += fmt::format("  local {}: {}\n", l.name, sema::to_string(l.type));
  for (size_t i = 0; i < f.stmts.size(); ++i) {
    const Stmt& s = f.stmts[StmtId(static_cast<uint32_t>(i))];
    if (s.kind == StmtKind::assign)
      out += fmt::format("  {} = {}\n", expr_text(f, s.target), expr_text(f, s.value));
  }
  return out;
}

}  // namespace pykern::ir
