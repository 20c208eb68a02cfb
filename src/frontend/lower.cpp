#include "frontend/lower.h"

#include <cerrno>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "frontend/closures.h"
#include "frontend/escapes.h"
#include "frontend/try_statement.h"

namespace pykern::frontend {
namespace {

using syntax::Field;
using syntax::Node;
using syntax::Token;
using namespace ast;

class Lowerer {
 public:
  Lowerer(const syntax::SyntaxTree& tree, Ast& ast, Diagnostics& diagnostics, bool cuda = false,
          std::string where = "kernels")
      : tree_(tree), ast_(ast), diagnostics_(diagnostics), cuda_(cuda), where_(std::move(where)) {}

  Function function(TSNode definition);
  ExprId expression(TSNode node);

 private:
  // Statements.
  std::vector<StmtId> block(TSNode node);
  void statement(TSNode node, std::vector<StmtId>& out);
  StmtId expression_statement(TSNode node);
  StmtId assignment(TSNode node);
  StmtId augmented_assignment(TSNode node);
  StmtId if_statement(TSNode node);
  StmtId for_statement(TSNode node);
  StmtId while_statement(TSNode node);
  StmtId return_statement(TSNode node);
  StmtId assert_statement(TSNode node);
  StmtId raise_statement(TSNode node);
  StmtId try_statement(TSNode node);
  ExceptClause except_clause(TSNode clause);
  StmtId inner_function(TSNode definition);
  StmtId lambda_function(TSNode assignment, ExprId target, TSNode lambda);
  ExprId hoisted_lambda(TSNode lambda);
  int lambdas_ = 0;  // lambdas lowered in place (hoisted_lambda), to name each apart
  std::vector<Parameter> parameters(TSNode list);
  std::vector<StmtId> else_body(TSNode else_clause);

  // Expressions.
  ExprId integer(TSNode node);
  ExprId float_literal(TSNode node);
  ExprId string(TSNode node);
  ExprId fstring(TSNode node);  // f"...{x}...": ExprKind::fstring
  ExprId joined_fstring(TSNode node, const std::vector<ExprId>& parts);
  ExprId binary_operator(TSNode node);
  ExprId unary_operator(TSNode node);
  ExprId boolean_operator(TSNode node);
  ExprId comparison_operator(TSNode node);
  ExprId conditional_expression(TSNode node);
  ExprId call(TSNode node);
  ExprId attribute(TSNode node);
  ExprId subscript(TSNode node);
  ExprId slice(TSNode node);
  ExprId sequence(TSNode node, ExprKind kind);
  ExprId dictionary(TSNode node);
  ExprId list_comprehension(TSNode node);
  StmtId delete_statement(TSNode node);
  StmtId lower_statement(TSNode node);
  ExprId target(TSNode node);

  ExprId add(Expr expr) { return ast_.exprs.add(std::move(expr)); }
  StmtId add(Stmt stmt) { return ast_.stmts.add(std::move(stmt)); }
  Expr make_expr(ExprKind kind, TSNode node) {
    Expr expr;
    expr.kind = kind;
    expr.range = syntax::SyntaxTree::range(node);
    return expr;
  }
  Stmt make_stmt(StmtKind kind, TSNode node) {
    Stmt stmt;
    stmt.kind = kind;
    stmt.range = syntax::SyntaxTree::range(node);
    return stmt;
  }
  ExprId unsupported_expr(TSNode node, const std::string& what, const std::string& hint = {});
  StmtId unsupported_stmt(TSNode node, const std::string& what, const std::string& hint = {});
  StmtId with_statement(TSNode node);
  ExprId name_expr(const std::string& name, TSNode node) {
    Expr expr = make_expr(ExprKind::name, node);
    expr.text = name;
    return add(std::move(expr));
  }
  void rename_targets(TSNode pattern, int comprehension);

  // A list comprehension becomes a list and the loop that fills it, run before the statement
  // it is in (as Numba inlines the comprehension's closure): `hoisted_` is where that loop goes,
  // null where no statement can (a parameter's default value). Inside an operand evaluated only
  // sometimes or more than once (x if c else y, a or b, a while or elif condition) a hoisted
  // loop would run when Python's would not, so a comprehension there is refused.
  struct Hoisting {
    Lowerer& lowerer;
    std::vector<StmtId>* saved;
    int saved_conditional;
    Hoisting(Lowerer& l, std::vector<StmtId>* into)
        : lowerer(l), saved(l.hoisted_), saved_conditional(l.conditional_) {
      l.hoisted_ = into;
      l.conditional_ = 0;
    }
    ~Hoisting() {
      lowerer.hoisted_ = saved;
      lowerer.conditional_ = saved_conditional;
    }
  };
  struct Conditional {
    Lowerer& lowerer;
    explicit Conditional(Lowerer& l) : lowerer(l) { ++l.conditional_; }
    ~Conditional() { --lowerer.conditional_; }
  };
  std::vector<StmtId>* hoisted_ = nullptr;
  int conditional_ = 0;
  int comprehensions_ = 0;  // numbers each one's list and variables
  // A comprehension's loop variables, hidden from the enclosing function (Python 3 scopes
  // them to the comprehension): `i` in the first of a function is read as `i.1`.
  std::vector<std::pair<std::string, std::string>> renames_;

  const syntax::SyntaxTree& tree_;
  Ast& ast_;
  Diagnostics& diagnostics_;
  bool cuda_ = false;  // a @cuda.jit kernel or device function: numba-cuda compiles no try statement
  int handlers_ = 0;   // how many except clauses the statement being lowered is inside
  std::string where_;  // what the refusals say the function is: "kernels", "@jit functions"
};

ExprId Lowerer::unsupported_expr(TSNode node, const std::string& what, const std::string& hint) {
  diagnostics_.error(DiagKind::unsupported_syntax, tree_.file(), syntax::SyntaxTree::range(node),
                     what + " is not supported in " + where_, hint);
  return add(make_expr(ExprKind::error, node));
}

StmtId Lowerer::unsupported_stmt(TSNode node, const std::string& what, const std::string& hint) {
  diagnostics_.error(DiagKind::unsupported_syntax, tree_.file(), syntax::SyntaxTree::range(node),
                     what + " is not supported in " + where_, hint);
  return add(make_stmt(StmtKind::error, node));
}

// with_statement = 'with' with_clause ':' block. Numba compiles only `with objmode(...)`
// (and numba.objmode, numba.core.withcontexts.objmode_context), whose block runs in the Python
// interpreter: that one says so; any other context manager is unsupported syntax.
StmtId Lowerer::with_statement(TSNode node) {
  std::string_view text = tree_.text(node);
  std::string_view header = text.substr(0, text.find(':'));
  bool object_mode = header.find("objmode") != std::string_view::npos || header.find("object_mode") != std::string_view::npos;
  if (!object_mode) return unsupported_stmt(node, "'with' statement");
  diagnostics_.error(DiagKind::unsupported_syntax, tree_.file(), syntax::SyntaxTree::range(node),
                     "an objmode block runs in the Python interpreter, which pykern does not have",
                     "compute the value in nopython code, or move this part out of the @jit function");
  return add(make_stmt(StmtKind::error, node));
}

// parameters = '(' parameter, ... ')'; lambda_parameters the same without parentheses.
std::vector<Parameter> Lowerer::parameters(TSNode list) {
  std::vector<Parameter> out;
  if (ts_node_is_null(list)) return out;
  for (TSNode parameter : tree_.named_children(list)) {
    Parameter lowered;
    lowered.range = syntax::SyntaxTree::range(parameter);
    switch (tree_.kind(parameter)) {
      case Node::identifier:
        lowered.name = tree_.name(parameter);
        break;
      case Node::default_parameter:
        lowered.name = tree_.name(tree_.field(parameter, Field::name));
        lowered.default_value = expression(tree_.field(parameter, Field::value));
        break;
      case Node::list_splat_pattern:  // *args
        lowered.name = tree_.name(ts_node_named_child(parameter, 0));
        lowered.star = true;
        break;
      case Node::typed_parameter:  // its name is not a field: the first named child
      case Node::typed_default_parameter: {
        TSNode first = ts_node_named_child(parameter, 0);
        lowered.name = tree_.name(first);
        if (tree_.kind(parameter) == Node::typed_default_parameter)
          lowered.default_value = expression(tree_.field(parameter, Field::value));
        break;
      }
      default:
        unsupported_expr(parameter, "parameter '" + std::string(tree_.text(parameter)) + "'",
                         "kernels take a fixed list of named parameters (no *args or **kwargs)");
        continue;
    }
    out.push_back(std::move(lowered));
  }
  return out;
}

// function_definition = 'def' name parameters ['->' return_type] ':' body
Function Lowerer::function(TSNode definition) {
  Function function;
  TSNode outer = ts_node_parent(definition);
  function.range = syntax::SyntaxTree::range(
      tree_.kind(outer) == Node::decorated_definition ? outer : definition);
  TSNode name = tree_.field(definition, Field::name);
  function.name = tree_.name(name);
  function.name_range = syntax::SyntaxTree::range(name);
  if (tree_.token(ts_node_child(definition, 0)) == Token::kw_async)
    unsupported_stmt(definition, "'async def'");
  {
    Hoisting nowhere(*this, nullptr);  // a default value is evaluated once, at the definition
    function.parameters = parameters(tree_.field(definition, Field::parameters));
  }
  TSNode body = tree_.field(definition, Field::body);
  std::vector<TSNode> statements = tree_.named_children(body);
  // A leading string is the docstring, not a statement.
  if (!statements.empty() && tree_.kind(statements[0]) == Node::expression_statement) {
    TSNode only = ts_node_named_child(statements[0], 0);
    if (ts_node_named_child_count(statements[0]) == 1 && tree_.kind(only) == Node::string)
      function.docstring = ast_.exprs[string(only)].text;
  }
  function.body = block(body);
  if (!function.docstring.empty() && !function.body.empty()) function.body.erase(function.body.begin());
  return function;
}

// A `def` inside a function: an inner function (closures.cpp finds what it reads of the
// enclosing function).
StmtId Lowerer::inner_function(TSNode definition) {
  int handlers = handlers_;
  handlers_ = 0;  // a bare raise in a def inside a handler is the def's own
  Function inner = function(definition);
  handlers_ = handlers;
  Stmt stmt = make_stmt(StmtKind::function_def, definition);
  stmt.function = static_cast<int>(ast_.functions.size());
  ast_.functions.push_back(std::move(inner));
  return add(std::move(stmt));
}

// `f = lambda x: x * s`: an inner function f, as Numba compiles a lambda bound to a name.
StmtId Lowerer::lambda_function(TSNode assignment, ExprId target, TSNode lambda) {
  Function function;
  function.range = syntax::SyntaxTree::range(assignment);
  function.name = ast_[target].text;
  function.name_range = ast_[target].range;
  {
    Hoisting nowhere(*this, nullptr);
    function.parameters = parameters(tree_.field(lambda, Field::parameters));
  }
  TSNode body = tree_.field(lambda, Field::body);
  Stmt result = make_stmt(StmtKind::return_, body);
  {
    Hoisting into(*this, &function.body);  // a comprehension in the body runs at each call
    result.value = expression(body);
  }
  function.body.push_back(add(std::move(result)));
  Stmt stmt = make_stmt(StmtKind::function_def, assignment);
  stmt.function = static_cast<int>(ast_.functions.size());
  ast_.functions.push_back(std::move(function));
  return add(std::move(stmt));
}

// A lambda inside an expression (sorted(x, key=lambda p: p[1])): an inner function defined
// just before the statement, as `<lambda>` (Python's name for it; a second is `<lambda>2`,
// and no Python name can be either), and the expression names it.
ExprId Lowerer::hoisted_lambda(TSNode lambda) {
  Function function;
  function.range = syntax::SyntaxTree::range(lambda);
  function.name = ++lambdas_ == 1 ? "<lambda>" : fmt::format("<lambda>{}", lambdas_);
  function.name_range = function.range;
  {
    Hoisting nowhere(*this, nullptr);
    function.parameters = parameters(tree_.field(lambda, Field::parameters));
  }
  TSNode body = tree_.field(lambda, Field::body);
  Stmt result = make_stmt(StmtKind::return_, body);
  {
    Hoisting into(*this, &function.body);
    result.value = expression(body);
  }
  function.body.push_back(add(std::move(result)));
  Stmt stmt = make_stmt(StmtKind::function_def, lambda);
  stmt.function = static_cast<int>(ast_.functions.size());
  ast_.functions.push_back(std::move(function));
  hoisted_->push_back(add(std::move(stmt)));
  Expr name = make_expr(ExprKind::name, lambda);
  name.text = ast_.functions.back().name;
  return add(std::move(name));
}

// block = statement+
std::vector<StmtId> Lowerer::block(TSNode node) {
  std::vector<StmtId> statements;
  if (ts_node_is_null(node)) return statements;
  if (tree_.kind(node) != Node::block) {  // `if x: y` on one line
    statement(node, statements);
    return statements;
  }
  for (TSNode child : tree_.named_children(node)) statement(child, statements);
  return statements;
}

// One statement, after the loops of the list comprehensions it holds.
void Lowerer::statement(TSNode node, std::vector<StmtId>& out) {
  std::vector<StmtId> before;
  StmtId lowered;
  {
    Hoisting into(*this, &before);
    lowered = lower_statement(node);
  }
  out.insert(out.end(), before.begin(), before.end());
  out.push_back(lowered);
}

StmtId Lowerer::lower_statement(TSNode node) {
  switch (tree_.kind(node)) {
    case Node::expression_statement: return expression_statement(node);
    case Node::if_statement: return if_statement(node);
    case Node::for_statement: return for_statement(node);
    case Node::while_statement: return while_statement(node);
    case Node::return_statement: return return_statement(node);
    case Node::pass_statement: return add(make_stmt(StmtKind::pass, node));
    case Node::break_statement: return add(make_stmt(StmtKind::break_, node));
    case Node::continue_statement: return add(make_stmt(StmtKind::continue_, node));
    case Node::assert_statement: return assert_statement(node);
    case Node::raise_statement: return raise_statement(node);
    case Node::error: return add(make_stmt(StmtKind::error, node));  // reported by the sweep
    case Node::try_statement: return try_statement(node);
    case Node::with_statement: return with_statement(node);
    case Node::global_statement:
      return unsupported_stmt(node, "'global' statement",
                                     "module globals are compile-time constants in kernels; "
                                     "pass mutable state as an array argument");
    case Node::nonlocal_statement:
      return unsupported_stmt(node, "'nonlocal' statement");
    case Node::class_definition:
      return unsupported_stmt(node, "class definition");
    case Node::function_definition: return inner_function(node);
    case Node::decorated_definition:
      return unsupported_stmt(node, "a decorated function inside a function",
                                     "define it at module level with @cuda.jit(device=True), or drop the "
                                     "decorator: an inner function is compiled with the function it is in");
    case Node::import_statement:
    case Node::import_from_statement:
      return unsupported_stmt(node, "'import' inside a function",
                                     "import at module level");
    case Node::delete_statement: return delete_statement(node);
    case Node::match_statement: return unsupported_stmt(node, "'match' statement");
    default:
      return unsupported_stmt(node, "'" + std::string(ts_node_type(node)) + "'");
  }
}

// delete_statement = 'del' subscript: `del l[i]` and `del d[k]` are the statement
// `x.__delitem__(k)`, as Python defines them, which the checker types for lists (sema/lists.cpp)
// and dicts (sema/dictionaries.cpp); `del d[i, j]` takes the tuple (i, j). Other targets (names,
// several items with a slice among them) are refused here.
StmtId Lowerer::delete_statement(TSNode node) {
  std::vector<TSNode> targets = tree_.named_children(node);
  if (targets.size() != 1 || tree_.kind(targets[0]) != Node::subscript)
    return unsupported_stmt(node, "'del' statement",
                            "'del l[i]' removes a list's item and 'del d[k]' a dict's; other targets are not supported");
  std::vector<TSNode> indices = tree_.fields(targets[0], Field::subscript);
  for (TSNode index : indices)  // del l[a:b:c] is a list's (sema/list_slices.cpp); not among several
    if (tree_.kind(index) == Node::slice && indices.size() > 1)
      return unsupported_stmt(node, "'del' of a slice", "delete one item: del l[i], or one slice: del l[a:b]");
  Expr method = make_expr(ExprKind::attribute, targets[0]);
  method.operands.push_back(expression(tree_.field(targets[0], Field::value)));
  method.text = "__delitem__";
  Expr call = make_expr(ExprKind::call, targets[0]);  // errors point at the item deleted
  call.operands.push_back(add(std::move(method)));
  if (indices.size() == 1) {
    call.operands.push_back(expression(indices[0]));
  } else {
    Expr key = make_expr(ExprKind::tuple, targets[0]);
    for (TSNode index : indices) key.operands.push_back(expression(index));
    call.operands.push_back(add(std::move(key)));
  }
  Stmt stmt = make_stmt(StmtKind::expr, node);
  stmt.value = add(std::move(call));
  return add(std::move(stmt));
}

// expression_statement = expression | assignment | augmented_assignment | yield | expression_list
StmtId Lowerer::expression_statement(TSNode node) {
  std::vector<TSNode> children = tree_.named_children(node);
  if (children.size() == 1) {
    TSNode child = children[0];
    switch (tree_.kind(child)) {
      case Node::assignment: return assignment(child);
      case Node::augmented_assignment: return augmented_assignment(child);
      case Node::yield:
        return unsupported_stmt(child, "'yield' (a generator)");
      default: break;
    }
  }
  Stmt stmt = make_stmt(StmtKind::expr, node);
  stmt.value = children.size() == 1 ? expression(children[0]) : sequence(node, ExprKind::tuple);
  return add(std::move(stmt));
}

// assignment = left '=' right | left ':' type ['=' right]; chains nest in `right`.
StmtId Lowerer::assignment(TSNode node) {
  Stmt stmt = make_stmt(StmtKind::assign, node);
  TSNode current = node;
  while (true) {
    stmt.targets.push_back(target(tree_.field(current, Field::left)));
    TSNode right = tree_.field(current, Field::right);
    if (ts_node_is_null(right)) {
      // `x: float32` declares without assigning: nothing to do at run time.
      return add(make_stmt(StmtKind::pass, node));
    }
    if (tree_.kind(right) == Node::assignment) {
      current = right;
      continue;
    }
    if (tree_.kind(right) == Node::lambda && stmt.targets.size() == 1 && ast_[stmt.targets[0]].kind == ExprKind::name)
      return lambda_function(node, stmt.targets[0], right);
    stmt.value = expression(right);
    return add(std::move(stmt));
  }
}

// augmented_assignment = left operator right   (operator is '+=', '-=', ...)
StmtId Lowerer::augmented_assignment(TSNode node) {
  Stmt stmt = make_stmt(StmtKind::aug_assign, node);
  stmt.targets.push_back(target(tree_.field(node, Field::left)));
  std::string_view op = tree_.text(tree_.field(node, Field::operator_));
  static const std::pair<std::string_view, BinaryOp> ops[] = {
      {"+=", BinaryOp::add},       {"-=", BinaryOp::sub},        {"*=", BinaryOp::mul},
      {"/=", BinaryOp::div},       {"//=", BinaryOp::floordiv},  {"%=", BinaryOp::mod},
      {"**=", BinaryOp::pow},      {"<<=", BinaryOp::lshift},    {">>=", BinaryOp::rshift},
      {"&=", BinaryOp::bitand_},   {"|=", BinaryOp::bitor_},     {"^=", BinaryOp::bitxor},
      {"@=", BinaryOp::matmul}};
  for (auto [text, value] : ops)
    if (text == op) stmt.binary_op = value;
  stmt.value = expression(tree_.field(node, Field::right));
  return add(std::move(stmt));
}

// A target of an assignment or a for loop: a name, a subscript, an attribute or a tuple of them.
ExprId Lowerer::target(TSNode node) {
  switch (tree_.kind(node)) {
    case Node::pattern_list:
    case Node::tuple_pattern:
    case Node::list_pattern:
      return sequence(node, ExprKind::tuple);
    case Node::list_splat_pattern:
      return unsupported_expr(node, "starred assignment target");
    default:
      return expression(node);
  }
}

// if_statement = 'if' condition ':' consequence (elif_clause)* [else_clause]
StmtId Lowerer::if_statement(TSNode node) {
  Stmt stmt = make_stmt(StmtKind::if_, node);
  stmt.value = expression(tree_.field(node, Field::condition));
  stmt.body = block(tree_.field(node, Field::consequence));
  // elif chains become nested ifs in the else branch, innermost last.
  std::vector<TSNode> alternatives = tree_.fields(node, Field::alternative);
  StmtId outer = add(std::move(stmt));
  std::vector<StmtId>* orelse = &ast_.stmts[outer].orelse;  // stores never move their nodes
  for (TSNode alternative : alternatives) {
    if (tree_.kind(alternative) == Node::else_clause) {
      *orelse = else_body(alternative);
      break;
    }
    Stmt elif = make_stmt(StmtKind::if_, alternative);
    {
      Conditional sometimes(*this);  // evaluated only when the conditions before it are false
      elif.value = expression(tree_.field(alternative, Field::condition));
    }
    elif.body = block(tree_.field(alternative, Field::consequence));
    StmtId id = add(std::move(elif));
    orelse->push_back(id);
    orelse = &ast_.stmts[id].orelse;
  }
  return outer;
}

// else_clause = 'else' ':' body
std::vector<StmtId> Lowerer::else_body(TSNode else_clause) {
  if (ts_node_is_null(else_clause)) return {};
  return block(tree_.field(else_clause, Field::body));
}

// for_statement = 'for' left 'in' right ':' body [else_clause]
StmtId Lowerer::for_statement(TSNode node) {
  if (tree_.token(ts_node_child(node, 0)) == Token::kw_async)
    return unsupported_stmt(node, "'async for'");
  Stmt stmt = make_stmt(StmtKind::for_, node);
  stmt.targets.push_back(target(tree_.field(node, Field::left)));
  stmt.value = expression(tree_.field(node, Field::right));
  stmt.body = block(tree_.field(node, Field::body));
  stmt.orelse = else_body(tree_.field(node, Field::alternative));
  return add(std::move(stmt));
}

// while_statement = 'while' condition ':' body [else_clause]
StmtId Lowerer::while_statement(TSNode node) {
  Stmt stmt = make_stmt(StmtKind::while_, node);
  {
    Conditional each_time(*this);  // evaluated before every iteration
    stmt.value = expression(tree_.field(node, Field::condition));
  }
  stmt.body = block(tree_.field(node, Field::body));
  stmt.orelse = else_body(tree_.field(node, Field::alternative));
  return add(std::move(stmt));
}

// return_statement = 'return' [expression | expression_list]   (no fields)
StmtId Lowerer::return_statement(TSNode node) {
  Stmt stmt = make_stmt(StmtKind::return_, node);
  std::vector<TSNode> children = tree_.named_children(node);
  if (!children.empty()) {
    stmt.value = tree_.kind(children[0]) == Node::expression_list
                     ? sequence(children[0], ExprKind::tuple)
                     : expression(children[0]);
  }
  return add(std::move(stmt));
}

// assert_statement = 'assert' expression [',' expression]
StmtId Lowerer::assert_statement(TSNode node) {
  Stmt stmt = make_stmt(StmtKind::assert_, node);
  std::vector<TSNode> children = tree_.named_children(node);
  if (!children.empty()) stmt.value = expression(children[0]);
  if (children.size() > 1) {
    Conditional on_failure(*this);  // the message is evaluated only when the assertion fails
    stmt.message = expression(children[1]);
  }
  return add(std::move(stmt));
}

// raise_statement = 'raise' [expression ['from' expression]]
StmtId Lowerer::raise_statement(TSNode node) {
  Stmt stmt = make_stmt(StmtKind::raise, node);
  std::vector<TSNode> children = tree_.named_children(node);
  if (!children.empty()) stmt.value = expression(children[0]);
  if (children.empty() && handlers_ > 0) {
    report_reraise(tree_.file(), stmt.range, diagnostics_);
    stmt.kind = StmtKind::error;
  }
  return add(std::move(stmt));
}

// try_statement = 'try' ':' body (except_clause+ [else_clause] [finally_clause] | finally_clause)
// (frontend/try_statement.h builds what it lowers to)
StmtId Lowerer::try_statement(TSNode node) {
  if (cuda_)
    return unsupported_stmt(node, "'try' statement",
                            "numba-cuda compiles no exception handling for the GPU; test for the failing case "
                            "before the operation instead (a @jit function called on the host may catch exceptions)");
  TryClauses clauses;
  clauses.range = syntax::SyntaxTree::range(node);
  clauses.body = block(tree_.field(node, Field::body));
  for (TSNode clause : tree_.named_children(node)) {
    switch (tree_.kind(clause)) {
      case Node::except_clause: clauses.handlers.push_back(except_clause(clause)); break;
      case Node::except_group_clause: unsupported_stmt(clause, "'except*' (an exception group)"); break;
      case Node::else_clause: clauses.orelse = else_body(clause); break;
      case Node::finally_clause: {
        std::vector<TSNode> parts = tree_.named_children(clause);
        clauses.has_finally = true;
        for (TSNode part : parts)
          if (tree_.kind(part) == Node::block) clauses.finally_body = block(part);
        break;
      }
      default: break;
    }
  }
  return build_try(ast_, std::move(clauses), tree_.file(), diagnostics_);
}

// except_clause = 'except' [expression ['as' expression]] ':' block
ExceptClause Lowerer::except_clause(TSNode clause) {
  ExceptClause out;
  out.range = syntax::SyntaxTree::range(clause);
  std::vector<TSNode> parts;
  TSNode body{};
  for (TSNode part : tree_.named_children(clause)) {
    if (tree_.kind(part) == Node::block) body = part;
    else if (tree_.kind(part) != Node::comment) parts.push_back(part);
  }
  // `except E as e` parses as one as_pattern: E, then its as_pattern_target `e`.
  if (!parts.empty() && tree_.kind(parts[0]) == Node::as_pattern) {
    std::vector<TSNode> pattern = tree_.named_children(parts[0]);
    parts.assign(pattern.begin(), pattern.end());
  }
  if (!parts.empty()) {
    Hoisting nowhere(*this, nullptr);  // a class expression is no place for a comprehension
    out.type = expression(parts[0]);
  }
  if (parts.size() > 1) {
    out.alias = std::string(tree_.text(parts[1]));
    out.alias_range = syntax::SyntaxTree::range(parts[1]);
  }
  ++handlers_;
  out.body = block(body);
  --handlers_;
  return out;
}

ExprId Lowerer::expression(TSNode node) {
  if (ts_node_is_null(node)) {
    Expr missing;
    return add(std::move(missing));
  }
  switch (tree_.kind(node)) {
    case Node::identifier: {
      std::string name = tree_.name(node);
      for (auto rename = renames_.rbegin(); rename != renames_.rend(); ++rename)
        if (rename->first == name) return name_expr(rename->second, node);
      return name_expr(name, node);
    }
    case Node::integer: return integer(node);
    case Node::float_: return float_literal(node);
    case Node::true_:
    case Node::false_: {
      Expr expr = make_expr(ExprKind::boolean, node);
      expr.int_value = tree_.kind(node) == Node::true_;
      return add(std::move(expr));
    }
    case Node::none: return add(make_expr(ExprKind::none, node));
    case Node::ellipsis: return add(make_expr(ExprKind::ellipsis, node));
    case Node::string: return string(node);
    case Node::concatenated_string: {
      Expr expr = make_expr(ExprKind::string, node);
      std::vector<ExprId> parts;
      for (TSNode part : tree_.named_children(node)) parts.push_back(string(part));
      for (ExprId part : parts) expr.text += ast_.exprs[part].text;
      for (ExprId part : parts)  // "a" f"{x}": one f-string of all the pieces
        if (ast_.exprs[part].kind != ExprKind::string) return joined_fstring(node, parts);
      return add(std::move(expr));
    }
    case Node::binary_operator: return binary_operator(node);
    case Node::unary_operator: return unary_operator(node);
    case Node::not_operator: {
      Expr expr = make_expr(ExprKind::not_, node);
      expr.operands.push_back(expression(tree_.field(node, Field::argument)));
      return add(std::move(expr));
    }
    case Node::boolean_operator: return boolean_operator(node);
    case Node::comparison_operator: return comparison_operator(node);
    case Node::conditional_expression: return conditional_expression(node);
    case Node::call: return call(node);
    case Node::attribute: return attribute(node);
    case Node::subscript: return subscript(node);
    case Node::slice: return slice(node);
    case Node::tuple:
    case Node::expression_list:
    case Node::pattern_list:
    case Node::tuple_pattern:
      return sequence(node, ExprKind::tuple);
    case Node::list: return sequence(node, ExprKind::list);
    case Node::parenthesized_expression: {
      std::vector<TSNode> inner = tree_.named_children(node);
      if (inner.size() != 1) return unsupported_expr(node, "this parenthesized form");
      return expression(inner[0]);
    }
    case Node::error: return add(make_expr(ExprKind::error, node));  // reported by the sweep
    case Node::lambda:
      // An argument (sorted(x, key=lambda p: p[1])) is defined before the statement; a lambda
      // called where it is written stays refused.
      if (hoisted_ && tree_.kind(ts_node_parent(node)) == Node::keyword_argument) return hoisted_lambda(node);
      return unsupported_expr(node, "'lambda' outside an assignment",
                              "bind it to a name first (f = lambda x: ...), then call f");
    case Node::list_comprehension: return list_comprehension(node);
    case Node::dictionary_comprehension:
      return unsupported_expr(node, "a dict comprehension");
    case Node::set_comprehension: return unsupported_expr(node, "a set comprehension");
    case Node::generator_expression:
      return unsupported_expr(node, "a generator expression", "write the loop out");
    // Kept for the decorator options that take them (fastmath={'nnan'}); sema refuses them as values.
    case Node::dictionary: return dictionary(node);
    case Node::set: return sequence(node, ExprKind::set);
    case Node::await: return unsupported_expr(node, "'await'");
    case Node::yield: return unsupported_expr(node, "'yield' (a generator)");
    case Node::named_expression: return unsupported_expr(node, "the walrus operator ':='");
    case Node::list_splat:
    case Node::dictionary_splat:
      return unsupported_expr(node, "argument unpacking with * or **");
    default:
      return unsupported_expr(node, "'" + std::string(ts_node_type(node)) + "'");
  }
}

// integer = decimal | 0x.. | 0o.. | 0b..  with '_' separators; a trailing j/J makes it imaginary.
ExprId Lowerer::integer(TSNode node) {
  std::string text;
  for (char c : tree_.text(node))
    if (c != '_') text += c;
  if (!text.empty() && (text.back() == 'j' || text.back() == 'J')) {
    Expr expr = make_expr(ExprKind::imaginary, node);
    text.pop_back();
    expr.float_value = std::strtod(text.c_str(), nullptr);
    return add(std::move(expr));
  }
  Expr expr = make_expr(ExprKind::integer, node);
  int base = 10;
  std::string digits = text;
  if (text.size() > 2 && text[0] == '0' && std::string("xXoObB").find(text[1]) != std::string::npos) {
    base = text[1] == 'x' || text[1] == 'X' ? 16 : text[1] == 'o' || text[1] == 'O' ? 8 : 2;
    digits = text.substr(2);
  }
  errno = 0;
  unsigned long long value = std::strtoull(digits.c_str(), nullptr, base);
  expr.int_overflows = errno == ERANGE;
  expr.int_unsigned = !expr.int_overflows && value > static_cast<unsigned long long>(INT64_MAX);
  expr.int_value = static_cast<int64_t>(value);
  return add(std::move(expr));
}

// float = digits '.' digits [exponent] ; a trailing j/J makes it imaginary.
ExprId Lowerer::float_literal(TSNode node) {
  std::string text;
  for (char c : tree_.text(node))
    if (c != '_') text += c;
  bool imaginary = !text.empty() && (text.back() == 'j' || text.back() == 'J');
  if (imaginary) text.pop_back();
  Expr expr = make_expr(imaginary ? ExprKind::imaginary : ExprKind::float_, node);
  expr.float_value = std::strtod(text.c_str(), nullptr);
  return add(std::move(expr));
}

// string = string_start (string_content | interpolation)* string_end, where string_content
// holds escape_sequence children (none in raw strings, whose backslashes are content).
ExprId Lowerer::string(TSNode node) {
  Expr expr = make_expr(ExprKind::string, node);
  for (TSNode part : tree_.named_children(node)) {
    switch (tree_.kind(part)) {
      case Node::string_content: {
        uint32_t copied = ts_node_start_byte(part);
        for (TSNode escape : tree_.named_children(part)) {
          if (tree_.kind(escape) != Node::escape_sequence) continue;
          expr.text += tree_.file().text().substr(copied, ts_node_start_byte(escape) - copied);
          auto decoded = decode_python_escape(tree_.text(escape));
          if (!decoded)
            return unsupported_expr(escape, "the escape '" + std::string(tree_.text(escape)) + "'",
                                    "write the character itself, or use \\x, \\u or \\U with its code");
          expr.text += *decoded;
          copied = ts_node_end_byte(escape);
        }
        expr.text += tree_.file().text().substr(copied, ts_node_end_byte(part) - copied);
        break;
      }
      case Node::interpolation: return fstring(node);
      default: break;
    }
  }
  return add(std::move(expr));
}

namespace {
// An f-string's literal text: {{ and }} stand for one brace.
std::string unbrace(std::string_view raw) {
  std::string text;
  for (size_t i = 0; i < raw.size(); ++i) {
    text += raw[i];
    if ((raw[i] == '{' || raw[i] == '}') && i + 1 < raw.size() && raw[i + 1] == raw[i]) ++i;
  }
  return text;
}
}  // namespace

// An f-string: its literal pieces and the values between braces, in order (Numba formats each
// value as str() does). A format spec, a conversion (!r) or `=` Numba refuses.
// string = string_start (string_content | interpolation)* string_end
// interpolation = '{' expression ['='] [type_conversion] [format_specifier] '}'
ExprId Lowerer::fstring(TSNode node) {
  Expr expr = make_expr(ExprKind::fstring, node);
  for (TSNode part : tree_.named_children(node)) {
    if (tree_.kind(part) == Node::string_content) {
      Expr piece = make_expr(ExprKind::string, part);
      uint32_t copied = ts_node_start_byte(part);
      for (TSNode escape : tree_.named_children(part)) {
        if (tree_.kind(escape) != Node::escape_sequence) continue;
        piece.text += unbrace(tree_.file().text().substr(copied, ts_node_start_byte(escape) - copied));
        auto decoded = decode_python_escape(tree_.text(escape));
        if (!decoded)
          return unsupported_expr(escape, "the escape '" + std::string(tree_.text(escape)) + "'",
                                  "write the character itself, or use \\x, \\u or \\U with its code");
        piece.text += *decoded;
        copied = ts_node_end_byte(escape);
      }
      piece.text += unbrace(tree_.file().text().substr(copied, ts_node_end_byte(part) - copied));
      expr.operands.push_back(add(std::move(piece)));
      continue;
    }
    if (tree_.kind(part) != Node::interpolation) continue;
    std::vector<TSNode> inside = tree_.named_children(part);
    bool plain = inside.size() == 1;
    for (uint32_t i = 0; plain && i < ts_node_child_count(part); ++i)
      plain = std::string_view(ts_node_type(ts_node_child(part, i))) != "=";
    if (inside.empty() || !plain)
      return unsupported_expr(part, "a format spec, conversion or '=' in an f-string",
                              "Numba formats only {value}: convert it with str(), or print the value itself");
    expr.operands.push_back(expression(inside[0]));
  }
  return add(std::move(expr));
}

// Adjacent literals of which one at least is an f-string: one f-string of all their pieces.
ExprId Lowerer::joined_fstring(TSNode node, const std::vector<ExprId>& parts) {
  Expr expr = make_expr(ExprKind::fstring, node);
  for (ExprId part : parts) {
    const Expr& e = ast_.exprs[part];
    if (e.kind == ExprKind::fstring) expr.operands.insert(expr.operands.end(), e.operands.begin(), e.operands.end());
    else if (e.kind == ExprKind::string) expr.operands.push_back(part);
    else return part;  // an error, reported
  }
  return add(std::move(expr));
}

// binary_operator = left operator right
ExprId Lowerer::binary_operator(TSNode node) {
  Expr expr = make_expr(ExprKind::binary, node);
  switch (tree_.token(tree_.field(node, Field::operator_))) {
    case Token::plus: expr.binary_op = BinaryOp::add; break;
    case Token::minus: expr.binary_op = BinaryOp::sub; break;
    case Token::star: expr.binary_op = BinaryOp::mul; break;
    case Token::slash: expr.binary_op = BinaryOp::div; break;
    case Token::slash_slash: expr.binary_op = BinaryOp::floordiv; break;
    case Token::percent: expr.binary_op = BinaryOp::mod; break;
    case Token::star_star: expr.binary_op = BinaryOp::pow; break;
    case Token::at: expr.binary_op = BinaryOp::matmul; break;
    case Token::shift_left: expr.binary_op = BinaryOp::lshift; break;
    case Token::shift_right: expr.binary_op = BinaryOp::rshift; break;
    case Token::ampersand: expr.binary_op = BinaryOp::bitand_; break;
    case Token::pipe: expr.binary_op = BinaryOp::bitor_; break;
    case Token::caret: expr.binary_op = BinaryOp::bitxor; break;
    default: return unsupported_expr(node, "this operator");
  }
  expr.operands.push_back(expression(tree_.field(node, Field::left)));
  Conditional short_circuit(*this);
  expr.operands.push_back(expression(tree_.field(node, Field::right)));
  return add(std::move(expr));
}

// unary_operator = operator argument   ('-' | '+' | '~')
ExprId Lowerer::unary_operator(TSNode node) {
  Expr expr = make_expr(ExprKind::unary, node);
  Token op = tree_.token(tree_.field(node, Field::operator_));
  expr.unary_op = op == Token::minus ? UnaryOp::neg : op == Token::plus ? UnaryOp::pos : UnaryOp::invert;
  expr.operands.push_back(expression(tree_.field(node, Field::argument)));
  return add(std::move(expr));
}

// boolean_operator = left ('and' | 'or') right
ExprId Lowerer::boolean_operator(TSNode node) {
  Expr expr = make_expr(ExprKind::bool_op, node);
  expr.bool_op = tree_.token(tree_.field(node, Field::operator_)) == Token::kw_and ? BoolOp::and_
                                                                                   : BoolOp::or_;
  expr.operands.push_back(expression(tree_.field(node, Field::left)));
  expr.operands.push_back(expression(tree_.field(node, Field::right)));
  return add(std::move(expr));
}

// comparison_operator = expression (operators expression)+ ; 'not in' and 'is not' are two tokens.
ExprId Lowerer::comparison_operator(TSNode node) {
  Expr expr = make_expr(ExprKind::compare, node);
  TSFieldId operators = tree_.grammar().field(Field::operators);
  // Walk the children with a cursor: it knows each child's field id.
  std::vector<std::pair<TSNode, bool>> children;  // (child, is an operator token)
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      children.push_back({ts_tree_cursor_current_node(&cursor),
                          ts_tree_cursor_current_field_id(&cursor) == operators});
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  for (auto [child, is_operator] : children) {
    if (ts_node_is_named(child)) {
      if (!tree_.is_trivia(child)) expr.operands.push_back(expression(child));
      continue;
    }
    if (!is_operator) continue;
    switch (tree_.token(child)) {
      case Token::less: expr.compare_ops.push_back(CompareOp::lt); break;
      case Token::less_equal: expr.compare_ops.push_back(CompareOp::le); break;
      case Token::greater: expr.compare_ops.push_back(CompareOp::gt); break;
      case Token::greater_equal: expr.compare_ops.push_back(CompareOp::ge); break;
      case Token::equal_equal: expr.compare_ops.push_back(CompareOp::eq); break;
      case Token::not_equal: expr.compare_ops.push_back(CompareOp::ne); break;
      case Token::kw_in: expr.compare_ops.push_back(CompareOp::in); break;
      case Token::kw_is: expr.compare_ops.push_back(CompareOp::is); break;
      case Token::kw_not_in: expr.compare_ops.push_back(CompareOp::not_in); break;
      case Token::kw_is_not: expr.compare_ops.push_back(CompareOp::is_not); break;
      default: return unsupported_expr(node, "this comparison");
    }
  }
  if (expr.compare_ops.size() + 1 != expr.operands.size())
    return unsupported_expr(node, "this comparison");
  return add(std::move(expr));
}

// conditional_expression = expression 'if' expression 'else' expression  (no fields)
ExprId Lowerer::conditional_expression(TSNode node) {
  std::vector<TSNode> parts = tree_.named_children(node);
  if (parts.size() != 3) return unsupported_expr(node, "this conditional expression");
  Expr expr = make_expr(ExprKind::if_else, node);
  ExprId condition = expression(parts[1]);
  Conditional one_branch(*this);
  expr.operands = {condition, expression(parts[0]), expression(parts[2])};
  return add(std::move(expr));
}

// call = function arguments ; argument_list = '(' (expression | keyword_argument)* ')'
ExprId Lowerer::call(TSNode node) {
  Expr expr = make_expr(ExprKind::call, node);
  expr.operands.push_back(expression(tree_.field(node, Field::function)));
  TSNode arguments = tree_.field(node, Field::arguments);
  if (tree_.kind(arguments) == Node::generator_expression)
    return unsupported_expr(arguments, "a generator expression", "write the loop out");
  for (TSNode argument : tree_.named_children(arguments)) {
    if (tree_.kind(argument) == Node::keyword_argument) {
      Keyword keyword;
      keyword.name = tree_.name(tree_.field(argument, Field::name));
      keyword.value = expression(tree_.field(argument, Field::value));
      keyword.range = syntax::SyntaxTree::range(argument);
      expr.keywords.push_back(std::move(keyword));
    } else if (tree_.kind(argument) == Node::list_splat) {  // f(*args)
      Expr starred = make_expr(ExprKind::starred, argument);
      starred.operands.push_back(expression(ts_node_named_child(argument, 0)));
      expr.operands.push_back(add(std::move(starred)));
    } else {
      expr.operands.push_back(expression(argument));
    }
  }
  return add(std::move(expr));
}

// attribute = object '.' attribute
ExprId Lowerer::attribute(TSNode node) {
  Expr expr = make_expr(ExprKind::attribute, node);
  expr.operands.push_back(expression(tree_.field(node, Field::object)));
  expr.text = tree_.name(tree_.field(node, Field::attribute));
  return add(std::move(expr));
}

// subscript = value '[' subscript (',' subscript)* ']'
ExprId Lowerer::subscript(TSNode node) {
  Expr expr = make_expr(ExprKind::subscript, node);
  expr.operands.push_back(expression(tree_.field(node, Field::value)));
  for (TSNode index : tree_.fields(node, Field::subscript)) expr.operands.push_back(expression(index));
  return add(std::move(expr));
}

// slice = [expression] ':' [expression] [':' [expression]]   (no fields: read the colons)
ExprId Lowerer::slice(TSNode node) {
  Expr expr = make_expr(ExprKind::slice, node);
  expr.operands.assign(3, ExprId());
  size_t part = 0;
  for (TSNode child : syntax::SyntaxTree::children(node)) {
    if (part == 3) break;
    if (!ts_node_is_named(child)) {
      ++part;  // a ':' moves to the next part
      continue;
    }
    if (!tree_.is_trivia(child)) expr.operands[part] = expression(child);
  }
  return add(std::move(expr));
}

// [element for target in iterable (for ... | if condition)*]: in the statements before this one,
//   comprehension.N = []
//   for target.N in iterable:   (each clause nested in the one before)
//       if condition:
//           comprehension.N.append(element)
// and the expression reads comprehension.N. The first iterable is read in the enclosing scope,
// the rest and the element see the loop variables, as in Python 3.
ExprId Lowerer::list_comprehension(TSNode node) {
  if (!hoisted_ || conditional_ > 0) {
    diagnostics_.error(DiagKind::unsupported_syntax, tree_.file(), syntax::SyntaxTree::range(node),
                       hoisted_ ? "a list comprehension where it may run more than once or not at all is not supported"
                                : "a list comprehension is not supported in a default value",
                       hoisted_ ? "assign it to a variable in a statement of its own, and use the variable"
                                : "make the list in the function's body, or pass it as an argument");
    return add(make_expr(ExprKind::error, node));
  }
  int number = ++comprehensions_;
  std::string list = fmt::format("comprehension.{}", number);
  Stmt start = make_stmt(StmtKind::assign, node);
  start.targets.push_back(name_expr(list, node));
  start.value = add(make_expr(ExprKind::list, node));
  hoisted_->push_back(add(std::move(start)));

  std::vector<StmtId>* saved_hoisted = hoisted_;
  size_t saved_renames = renames_.size();
  std::vector<StmtId>* into = hoisted_;
  for (TSNode clause : tree_.named_children(node)) {
    if (ts_node_eq(clause, tree_.field(node, Field::body))) continue;
    Stmt nested;
    if (tree_.kind(clause) == Node::for_in_clause) {
      if (tree_.token(ts_node_child(clause, 0)) == Token::kw_async) {
        renames_.resize(saved_renames);
        hoisted_ = saved_hoisted;
        return unsupported_expr(clause, "'async for'");
      }
      nested = make_stmt(StmtKind::for_, clause);
      std::vector<TSNode> iterables = tree_.fields(clause, Field::right);
      nested.value = iterables.size() == 1 ? expression(iterables[0]) : unsupported_expr(clause, "a comprehension over several iterables");
      TSNode pattern = tree_.field(clause, Field::left);
      rename_targets(pattern, number);
      nested.targets.push_back(target(pattern));
    } else if (tree_.kind(clause) == Node::if_clause) {
      nested = make_stmt(StmtKind::if_, clause);
      std::vector<TSNode> condition = tree_.named_children(clause);
      nested.value = condition.size() == 1 ? expression(condition[0]) : unsupported_expr(clause, "this condition");
    } else {
      continue;  // a comment
    }
    StmtId id = add(std::move(nested));
    into->push_back(id);
    into = &ast_.stmts[id].body;  // stores never move their nodes
    hoisted_ = into;  // a comprehension inside runs at each step of this one
  }
  Expr append = make_expr(ExprKind::attribute, node);
  append.operands.push_back(name_expr(list, node));
  append.text = "append";
  Expr call = make_expr(ExprKind::call, node);
  call.operands.push_back(add(std::move(append)));
  call.operands.push_back(expression(tree_.field(node, Field::body)));
  Stmt fill = make_stmt(StmtKind::expr, node);
  fill.value = add(std::move(call));
  into->push_back(add(std::move(fill)));

  renames_.resize(saved_renames);
  hoisted_ = saved_hoisted;
  return name_expr(list, node);
}

// The names a comprehension's `for` binds, read under hidden names from here on.
void Lowerer::rename_targets(TSNode pattern, int comprehension) {
  if (tree_.kind(pattern) == Node::identifier) {
    std::string name = tree_.name(pattern);
    renames_.emplace_back(name, fmt::format("{}.{}", name, comprehension));
    return;
  }
  for (TSNode part : tree_.named_children(pattern)) rename_targets(part, comprehension);
}

// {k: v, ...}: the keys and values in turn; `**other` is refused.
ExprId Lowerer::dictionary(TSNode node) {
  Expr expr = make_expr(ExprKind::dict, node);
  for (TSNode element : tree_.named_children(node)) {
    if (tree_.kind(element) != Node::pair) return unsupported_expr(element, "'**' in a dict display");
    expr.operands.push_back(expression(tree_.field(element, Field::key)));
    expr.operands.push_back(expression(tree_.field(element, Field::value)));
  }
  return add(std::move(expr));
}

ExprId Lowerer::sequence(TSNode node, ExprKind kind) {
  Expr expr = make_expr(kind, node);
  for (TSNode element : tree_.named_children(node)) {
    expr.operands.push_back(tree_.kind(node) == Node::pattern_list ||
                                    tree_.kind(node) == Node::tuple_pattern
                                ? target(element)
                                : expression(element));
  }
  return add(std::move(expr));
}

}  // namespace

ast::Function lower_function(const syntax::SyntaxTree& tree, TSNode definition, ast::Ast& ast,
                             Diagnostics& diagnostics, bool cuda, const std::string& where) {
  ast::Function function = Lowerer(tree, ast, diagnostics, cuda, where).function(definition);
  resolve_inner_functions(function, ast, tree.file(), diagnostics);
  return function;
}

ast::ExprId lower_expression(const syntax::SyntaxTree& tree, TSNode node, ast::Ast& ast,
                             Diagnostics& diagnostics) {
  return Lowerer(tree, ast, diagnostics).expression(node);
}

}  // namespace pykern::frontend
