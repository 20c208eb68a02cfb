// The AST of the Python subset pykern translates. Nodes live in stores and refer to each other
// by ExprId/StmtId; every node keeps its source range. One Ast holds every function of a file.
#pragma once
#include <complex>
#include <deque>
#include <cstdint>
#include <string>
#include <vector>

#include "base/ids.h"
#include "base/source_file.h"

namespace pykern::ast {

struct ExprTag;
struct StmtTag;
using ExprId = Id<ExprTag>;
using StmtId = Id<StmtTag>;

enum class BinaryOp { add, sub, mul, div, floordiv, mod, pow, lshift, rshift, bitand_, bitor_, bitxor, matmul };
enum class UnaryOp { neg, pos, invert };
enum class CompareOp { lt, le, gt, ge, eq, ne, is, is_not, in, not_in };
enum class BoolOp { and_, or_ };

const char* to_string(BinaryOp op);  // Python spelling: "+", "//", ...
const char* to_string(UnaryOp op);
const char* to_string(CompareOp op);

enum class ExprKind {
  name,        // text
  integer,     // int_value
  float_,      // float_value
  imaginary,   // float_value: the imaginary part of a complex literal (1j)
  boolean,     // int_value 0/1
  none,
  ellipsis,    // `...` (an array index: all the axes it stands for)
  string,      // text (decoded)
  binary,      // binary_op, operands[0..1]
  unary,       // unary_op, operands[0]
  not_,        // operands[0]
  bool_op,     // bool_op, operands[0..1]
  compare,     // operands[0..n], compare_ops[n-1]: a chain 0 < i < n
  if_else,     // operands: [condition, then, else]
  call,        // operands[0] callee, operands[1..] positional arguments; keywords
  attribute,   // operands[0] object, text attribute
  subscript,   // operands[0] value, operands[1..] indices (one per comma-separated index)
  slice,       // operands[0..2] start, stop, step; invalid id where omitted
  tuple,       // operands
  list,        // operands
  set,         // operands: {a, b}; only read where Python values are options (fastmath={...})
  dict,        // operands: key0, value0, key1, value1, ...: {k: v}; likewise
  starred,     // operands[0]: `*args` as a call's argument
  error,       // a construct already reported; checking goes on
  fstring,     // operands: its pieces in order, string literals and the values between braces
};

struct Keyword {
  std::string name;
  ExprId value;
  SourceRange range;
};

struct Expr {
  ExprKind kind = ExprKind::error;
  SourceRange range;
  std::string text;
  int64_t int_value = 0;
  bool int_overflows = false;  // an integer literal beyond uint64: an error when used
  bool int_unsigned = false;   // one in [2**63, 2**64): uint64, as Numba types it (int_value holds its bits)
  double float_value = 0;
  BinaryOp binary_op = BinaryOp::add;
  UnaryOp unary_op = UnaryOp::neg;
  BoolOp bool_op = BoolOp::and_;
  std::vector<CompareOp> compare_ops;
  std::vector<ExprId> operands;
  std::vector<Keyword> keywords;
};

enum class StmtKind {
  expr,         // value
  assign,       // targets (a = b = v has two), value
  aug_assign,   // targets[0], binary_op, value
  if_,          // value (condition), body, orelse
  for_,         // targets[0], value (iterable), body, orelse
  while_,       // value (condition), body, orelse
  break_,
  continue_,
  return_,      // value, invalid when bare
  pass,
  assert_,      // value (condition), message (may be invalid)
  raise,        // value (may be invalid)
  function_def, // function: a `def` inside a function (Ast::functions)
  error,        // already reported
  // try statements (frontend/try_statement.h): every handler catches every exception, as Numba's
  try_except,   // body (protected), orelse (the handler), value: its class (Exception; invalid when bare)
  try_else,     // body: a try's else block, the last statement of its try_except's body
  try_finally,  // body (protected, a try_except where there are handlers), orelse (the finally block)
};

struct Stmt {
  StmtKind kind = StmtKind::error;
  SourceRange range;
  std::vector<ExprId> targets;
  ExprId value;
  ExprId message;
  BinaryOp binary_op = BinaryOp::add;
  std::vector<StmtId> body;
  std::vector<StmtId> orelse;
  int function = -1;  // function_def: its index in Ast::functions
};

struct Parameter {
  std::string name;
  SourceRange range;
  ExprId default_value;  // invalid when none
  bool star = false;     // *args: the tuple of the positional arguments left over
};

struct Function {
  std::string name;
  SourceRange range;       // the whole definition, decorators included
  SourceRange name_range;
  std::vector<Parameter> parameters;
  std::vector<StmtId> body;
  std::string docstring;
  // An inner function (a `def` inside a function): the enclosing functions' variables it reads.
  // They are its last parameters, and every call of it where it is defined passes them by
  // keyword (f(x) is f(x, s=s)), so it reads their values at the call, as a Python closure does.
  std::vector<std::string> captured;
};

struct Ast {
  Store<ExprTag, Expr> exprs;
  Store<StmtTag, Stmt> stmts;
  std::deque<Function> functions;  // inner functions (a deque: their addresses stay)

  const Expr& operator[](ExprId id) const { return exprs[id]; }
  const Stmt& operator[](StmtId id) const { return stmts[id]; }
};

// A readable dump, one node per line, for the front end's unit tests (test_frontend.cpp).
std::string dump(const Ast& ast, const Function& function);
std::string dump_expr(const Ast& ast, ExprId id);

}  // namespace pykern::ast
