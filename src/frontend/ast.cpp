#include "frontend/ast.h"

#include <fmt/format.h>

namespace pykern::ast {

const char* to_string(BinaryOp op) {
  switch (op) {
    case BinaryOp::add: return "+";
    case BinaryOp::sub: return "-";
    case BinaryOp::mul: return "*";
    case BinaryOp::div: return "/";
    case BinaryOp::floordiv: return "//";
    case BinaryOp::mod: return "%";
    case BinaryOp::pow: return "**";
    case BinaryOp::lshift: return "<<";
    case BinaryOp::rshift: return ">>";
    case BinaryOp::bitand_: return "&";
    case BinaryOp::bitor_: return "|";
    case BinaryOp::bitxor: return "^";
    case BinaryOp::matmul: return "@";
  }
  return "?";
}

const char* to_string(UnaryOp op) {
  switch (op) {
    case UnaryOp::neg: return "-";
    case UnaryOp::pos: return "+";
    case UnaryOp::invert: return "~";
  }
  return "?";
}

const char* to_string(CompareOp op) {
  switch (op) {
    case CompareOp::lt: return "<";
    case CompareOp::le: return "<=";
    case CompareOp::gt: return ">";
    case CompareOp::ge: return ">=";
    case CompareOp::eq: return "==";
    case CompareOp::ne: return "!=";
    case CompareOp::is: return "is";
    case CompareOp::is_not: return "is not";
    case CompareOp::in: return "in";
    case CompareOp::not_in: return "not in";
  }
  return "?";
}

std::string dump_expr(const Ast& ast, ExprId id) {
  if (!id.valid()) return "_";
  const Expr& e = ast[id];
  auto list = [&](size_t from) {
    std::string text;
    for (size_t i = from; i < e.operands.size(); ++i)
      text += (i > from ? ", " : "") + dump_expr(ast, e.operands[i]);
    return text;
  };
  switch (e.kind) {
    case ExprKind::name: return e.text;
    case ExprKind::integer: return std::to_string(e.int_value);
    case ExprKind::float_: return fmt::format("{}", e.float_value);
    case ExprKind::imaginary: return fmt::format("{}j", e.float_value);
    case ExprKind::boolean: return e.int_value ? "True" : "False";
    case ExprKind::none: return "None";
    case ExprKind::ellipsis: return "...";
    case ExprKind::string: return fmt::format("'{}'", e.text);
    case ExprKind::binary:
      return fmt::format("({} {} {})", dump_expr(ast, e.operands[0]), to_string(e.binary_op),
                         dump_expr(ast, e.operands[1]));
    case ExprKind::unary: return fmt::format("({}{})", to_string(e.unary_op), dump_expr(ast, e.operands[0]));
    case ExprKind::not_: return fmt::format("(not {})", dump_expr(ast, e.operands[0]));
    case ExprKind::bool_op:
      return fmt::format("({} {} {})", dump_expr(ast, e.operands[0]),
                         e.bool_op == BoolOp::and_ ? "and" : "or", dump_expr(ast, e.operands[1]));
    case ExprKind::compare: {
      std::string text = "(" + dump_expr(ast, e.operands[0]);
      for (size_t i = 0; i < e.compare_ops.size(); ++i)
        text += fmt::format(" {} {}", to_string(e.compare_ops[i]), dump_expr(ast, e.operands[i + 1]));
      return text + ")";
    }
    case ExprKind::if_else:
      return fmt::format("({} if {} else {})", dump_expr(ast, e.operands[1]),
                         dump_expr(ast, e.operands[0]), dump_expr(ast, e.operands[2]));
    case ExprKind::call: {
      std::string text = dump_expr(ast, e.operands[0]) + "(" + list(1);
      for (const Keyword& k : e.keywords)
        text += fmt::format("{}{}={}", text.back() == '(' ? "" : ", ", k.name, dump_expr(ast, k.value));
      return text + ")";
    }
    case ExprKind::attribute: return dump_expr(ast, e.operands[0]) + "." + e.text;
    case ExprKind::subscript: return dump_expr(ast, e.operands[0]) + "[" + list(1) + "]";
    case ExprKind::slice:
      return fmt::format("{}:{}:{}", dump_expr(ast, e.operands[0]), dump_expr(ast, e.operands[1]),
                         dump_expr(ast, e.operands[2]));
    case ExprKind::tuple: return "(" + list(0) + (e.operands.size() == 1 ? ",)" : ")");
    case ExprKind::list: return "[" + list(0) + "]";
    case ExprKind::set: return "{" + list(0) + "}";
    case ExprKind::dict: {
      std::string text;
      for (size_t i = 0; i + 1 < e.operands.size(); i += 2)
        text += fmt::format("{}{}: {}", i ? ", " : "", dump_expr(ast, e.operands[i]), dump_expr(ast, e.operands[i + 1]));
      return "{" + text + "}";
    }
    case ExprKind::starred: return "*" + dump_expr(ast, e.operands[0]);
    case ExprKind::error: return "<error>";
    case ExprKind::fstring: return "f(" + list(0) + ")";
  }
  return "?";
}

namespace {
void dump_block(const Ast& ast, const std::vector<StmtId>& body, int depth, std::string& out);

void dump_stmt(const Ast& ast, StmtId id, int depth, std::string& out) {
  const Stmt& s = ast[id];
  std::string pad(depth * 2, ' ');
  auto targets = [&] {
    std::string text;
    for (ExprId t : s.targets) text += dump_expr(ast, t) + " = ";
    return text;
  };
  switch (s.kind) {
    case StmtKind::expr: out += pad + dump_expr(ast, s.value) + "\n"; break;
    case StmtKind::assign: out += pad + targets() + dump_expr(ast, s.value) + "\n"; break;
    case StmtKind::aug_assign:
      out += fmt::format("{}{} {}= {}\n", pad, dump_expr(ast, s.targets[0]), to_string(s.binary_op),
                         dump_expr(ast, s.value));
      break;
    case StmtKind::if_:
      out += pad + "if " + dump_expr(ast, s.value) + ":\n";
      dump_block(ast, s.body, depth + 1, out);
      if (!s.orelse.empty()) {
        out += pad + "else:\n";
        dump_block(ast, s.orelse, depth + 1, out);
      }
      break;
    case StmtKind::for_:
    case StmtKind::while_:
      out += s.kind == StmtKind::for_
                 ? fmt::format("{}for {} in {}:\n", pad, dump_expr(ast, s.targets[0]), dump_expr(ast, s.value))
                 : fmt::format("{}while {}:\n", pad, dump_expr(ast, s.value));
      dump_block(ast, s.body, depth + 1, out);
      if (!s.orelse.empty()) {
        out += pad + "else:\n";
        dump_block(ast, s.orelse, depth + 1, out);
      }
      break;
    case StmtKind::break_: out += pad + "break\n"; break;
    case StmtKind::continue_: out += pad + "continue\n"; break;
    case StmtKind::return_:
      out += pad + "return" + (s.value.valid() ? " " + dump_expr(ast, s.value) : "") + "\n";
      break;
    case StmtKind::pass: out += pad + "pass\n"; break;
    case StmtKind::assert_: out += pad + "assert " + dump_expr(ast, s.value) + "\n"; break;
    case StmtKind::raise: out += pad + "raise " + dump_expr(ast, s.value) + "\n"; break;
    case StmtKind::function_def: out += pad + "def " + ast.functions[s.function].name + "\n"; break;
    case StmtKind::error: out += pad + "<error>\n"; break;
    case StmtKind::try_except:
    case StmtKind::try_finally:
      out += pad + "try:\n";
      dump_block(ast, s.body, depth + 1, out);
      out += s.kind == StmtKind::try_finally ? pad + "finally:\n"
                                              : pad + "except" + (s.value.valid() ? " " + dump_expr(ast, s.value) : "") + ":\n";
      dump_block(ast, s.orelse, depth + 1, out);
      break;
    case StmtKind::try_else:
      out += pad + "else:\n";
      dump_block(ast, s.body, depth + 1, out);
      break;
  }
}

void dump_block(const Ast& ast, const std::vector<StmtId>& body, int depth, std::string& out) {
  for (StmtId id : body) dump_stmt(ast, id, depth, out);
}
}  // namespace

std::string dump(const Ast& ast, const Function& function) {
  std::string out = "def " + function.name + "(";
  for (size_t i = 0; i < function.parameters.size(); ++i)
    out += (i ? ", " : "") + function.parameters[i].name;
  out += "):\n";
  dump_block(ast, function.body, 1, out);
  return out;
}

}  // namespace pykern::ast
