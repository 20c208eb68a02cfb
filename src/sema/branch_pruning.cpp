#include "sema/branch_pruning.h"

#include <map>
#include <string>

#include "sema/checker.h"

namespace pykern::sema {

namespace {

using ast::CompareOp;
using ast::ExprId;
using ast::ExprKind;
using ast::StmtId;
using ast::StmtKind;

// What the facts say of a condition. Decided: `value`, after evaluating `residual` when valid
// (the part of `x and arg is None` the facts do not decide, whose evaluation still happens).
// Undecided: `residual` is the condition with its decided pieces taken out.
struct Decision {
  std::optional<bool> value;
  ExprId residual;
};

class Pruner {
 public:
  Pruner(ast::Ast& ast, std::map<std::string, ArgumentFact> intact) : ast_(ast), intact_(std::move(intact)) {}

  std::vector<StmtId> block(const std::vector<StmtId>& body) {
    std::vector<StmtId> out;
    for (StmtId id : body) statement(id, out);
    return out;
  }
  bool changed() const { return changed_; }

 private:
  void statement(StmtId id, std::vector<StmtId>& out) {
    ast::Stmt s = ast_[id];
    switch (s.kind) {
      case StmtKind::if_: return if_statement(id, std::move(s), out);
      case StmtKind::for_:
      case StmtKind::while_:
      case StmtKind::try_except:
      case StmtKind::try_else:
      case StmtKind::try_finally: {
        // A loop's assignments reach its head again, and a try's reach its handlers from any
        // point: what is assigned anywhere in the statement is not the argument inside it.
        forget_assigned(id);
        std::vector<StmtId> body = block(s.body), orelse = block(s.orelse);
        forget_assigned(id);
        if (body == s.body && orelse == s.orelse) return out.push_back(id);
        s.body = std::move(body);
        s.orelse = std::move(orelse);
        return out.push_back(ast_.stmts.add(std::move(s)));
      }
      case StmtKind::assign:
      case StmtKind::aug_assign:
      case StmtKind::expr:
      case StmtKind::return_:
      case StmtKind::assert_:
      case StmtKind::raise: {
        ExprId value = rewrite(s.value);
        forget_assigned(id);
        if (value == s.value) return out.push_back(id);
        s.value = value;
        return out.push_back(ast_.stmts.add(std::move(s)));
      }
      default: return out.push_back(id);
    }
  }

  // A decided `if` becomes the arm it takes; an undecided one keeps both, each pruned, and
  // after it only what both arms leave intact is known.
  void if_statement(StmtId id, ast::Stmt s, std::vector<StmtId>& out) {
    Decision d = decide(s.value);
    if (d.value) {
      changed_ = true;
      if (d.residual.valid()) out.push_back(expression_statement(d.residual, s.range));
      std::vector<StmtId> arm = block(*d.value ? s.body : s.orelse);
      out.insert(out.end(), arm.begin(), arm.end());
      return;
    }
    std::map<std::string, ArgumentFact> before = intact_;
    std::vector<StmtId> body = block(s.body);
    std::map<std::string, ArgumentFact> after_body = std::move(intact_);
    intact_ = std::move(before);
    std::vector<StmtId> orelse = block(s.orelse);
    for (auto it = intact_.begin(); it != intact_.end();) it = after_body.count(it->first) ? std::next(it) : intact_.erase(it);
    if (d.residual == s.value && body == s.body && orelse == s.orelse) return out.push_back(id);
    s.value = d.residual;
    s.body = std::move(body);
    s.orelse = std::move(orelse);
    out.push_back(ast_.stmts.add(std::move(s)));
  }

  StmtId expression_statement(ExprId value, SourceRange range) {
    ast::Stmt s;
    s.kind = StmtKind::expr;
    s.range = range;
    s.value = value;
    return ast_.stmts.add(std::move(s));
  }

  // The fact of an operand of a test: None itself, or a parameter no assignment has reached.
  std::optional<ArgumentFact> fact_of(ExprId id) const {
    const ast::Expr& e = ast_[id];
    if (e.kind == ExprKind::none) return ArgumentFact::none;
    if (e.kind != ExprKind::name) return std::nullopt;
    auto found = intact_.find(e.text);
    if (found == intact_.end()) return std::nullopt;
    return found->second;
  }

  Decision decide(ExprId id) {
    if (!id.valid()) return {std::nullopt, id};
    ast::Expr e = ast_[id];
    switch (e.kind) {
      case ExprKind::compare: return decide_compare(id, e);
      case ExprKind::not_: {
        Decision inner = decide(e.operands[0]);
        if (inner.value) return {!*inner.value, inner.residual};
        if (inner.residual == e.operands[0]) return {std::nullopt, id};
        e.operands[0] = inner.residual;
        return {std::nullopt, ast_.exprs.add(std::move(e))};
      }
      case ExprKind::bool_op: return decide_bool_op(id, e);
      default: return {std::nullopt, id};
    }
  }

  // `p is None`, `p is not None`, `p == None`, `p != None` (either way round), decided as
  // Numba's prune_by_type applies the operator to the two types: None is None, a literal is not.
  Decision decide_compare(ExprId id, const ast::Expr& e) {
    if (e.compare_ops.size() != 1) return {std::nullopt, id};
    CompareOp op = e.compare_ops[0];
    if (op != CompareOp::is && op != CompareOp::is_not && op != CompareOp::eq && op != CompareOp::ne)
      return {std::nullopt, id};
    auto left = fact_of(e.operands[0]), right = fact_of(e.operands[1]);
    if (!left || !right || *left == ArgumentFact::unknown || *right == ArgumentFact::unknown) return {std::nullopt, id};
    if (*left != ArgumentFact::none && *right != ArgumentFact::none) return {std::nullopt, id};
    bool same = *left == ArgumentFact::none && *right == ArgumentFact::none;
    changed_ = true;
    return {op == CompareOp::is || op == CompareOp::eq ? same : !same, ExprId()};
  }

  // `a and b` / `a or b` as the branches Python makes of them: the first operand decides
  // alone when it short-circuits; otherwise the second decides, after the first is evaluated.
  Decision decide_bool_op(ExprId id, ast::Expr e) {
    bool is_and = e.bool_op == ast::BoolOp::and_;
    Decision a = decide(e.operands[0]);
    if (a.value && *a.value != is_and) return a;  // False and ..., True or ...
    Decision b = decide(e.operands[1]);
    if (a.value) {  // True and b, False or b: b's outcome, after a's residual
      if (!a.residual.valid()) return b;
      if (b.value && !b.residual.valid()) return {b.value, a.residual};
      return {std::nullopt, id};
    }
    if (!b.value) {
      if (a.residual == e.operands[0] && b.residual == e.operands[1]) return {std::nullopt, id};
      e.operands = {a.residual, b.residual};
      return {std::nullopt, ast_.exprs.add(std::move(e))};
    }
    if (b.residual.valid()) return {std::nullopt, id};
    // a and True, a or False: a's truth; a and False, a or True: decided once a is evaluated.
    if (*b.value == is_and) return {std::nullopt, a.residual};
    return {b.value, a.residual};
  }

  // An expression with its decided conditional expressions (`x if p is None else y`) replaced
  // by the arm they take.
  ExprId rewrite(ExprId id) {
    if (!id.valid()) return id;
    ast::Expr e = ast_[id];
    if (e.kind == ExprKind::if_else) {
      Decision d = decide(e.operands[0]);
      if (d.value && !d.residual.valid()) {
        changed_ = true;
        return rewrite(e.operands[*d.value ? 1 : 2]);
      }
    }
    bool changed = false;
    for (ExprId& operand : e.operands) {
      ExprId now = rewrite(operand);
      changed |= now != operand;
      operand = now;
    }
    for (ast::Keyword& keyword : e.keywords) {
      ExprId now = rewrite(keyword.value);
      changed |= now != keyword.value;
      keyword.value = now;
    }
    return changed ? ast_.exprs.add(std::move(e)) : id;
  }

  void forget_assigned(StmtId id) {
    const ast::Stmt& s = ast_[id];
    if (s.kind == StmtKind::assign || s.kind == StmtKind::aug_assign || s.kind == StmtKind::for_)
      for (ExprId target : s.targets) forget_target(target);
    for (StmtId inner : s.body) forget_assigned(inner);
    for (StmtId inner : s.orelse) forget_assigned(inner);
  }
  void forget_target(ExprId target) {
    const ast::Expr& e = ast_[target];
    if (e.kind == ExprKind::name) intact_.erase(e.text);
    if (e.kind == ExprKind::tuple || e.kind == ExprKind::list || e.kind == ExprKind::starred)
      for (ExprId part : e.operands) forget_target(part);
  }

  ast::Ast& ast_;
  std::map<std::string, ArgumentFact> intact_;  // parameters no assignment has reached, with their facts
  bool changed_ = false;
};

}  // namespace

std::vector<ArgumentFact> argument_facts(const ProgramBuilder& program, const ast::Ast& ast,
                                         const ast::Function& function, const Signature& signature) {
  std::vector<ArgumentFact> facts(function.parameters.size(), ArgumentFact::unknown);
  for (size_t i = 0; i < facts.size(); ++i) {
    if (i >= signature.arguments.size()) {  // left out: its default, Numba's Omitted(default)
      ExprId fallback = function.parameters[i].default_value;
      if (fallback.valid() && ast[fallback].kind == ExprKind::none) facts[i] = ArgumentFact::none;
      continue;
    }
    const Type& type = signature.arguments[i];
    if (type.is(TypeKind::none)) facts[i] = ArgumentFact::none;
    if (!type.is(TypeKind::static_value)) continue;
    const StaticValue& value = program.static_value(type);
    if (value.kind != Value::Kind::expr) continue;  // a type or a function: Numba knows no literal of it
    facts[i] = value.type.is(TypeKind::none) ? ArgumentFact::none : ArgumentFact::not_none;
  }
  return facts;
}

std::optional<ast::Function> rebound_none_parameters(ast::Ast& ast, const ast::Function& function,
                                                     const std::vector<ArgumentFact>& facts, size_t given) {
  ast::Function renamed = function;
  std::vector<StmtId> prologue;
  for (size_t i = 0; i < given && i < facts.size() && i < function.parameters.size(); ++i) {
    ast::Parameter& parameter = renamed.parameters[i];
    if (facts[i] != ArgumentFact::none || parameter.star || bindings_of(ast, function.body, parameter.name) == 0) continue;
    ast::Expr none;
    none.kind = ExprKind::none;
    none.range = parameter.range;
    ast::Expr target;
    target.kind = ExprKind::name;
    target.text = parameter.name;
    target.range = parameter.range;
    ast::Stmt assign;
    assign.kind = StmtKind::assign;
    assign.range = parameter.range;
    assign.targets.push_back(ast.exprs.add(std::move(target)));
    assign.value = ast.exprs.add(std::move(none));
    prologue.push_back(ast.stmts.add(std::move(assign)));
    parameter.name += " (None)";  // no Python name has a space: the body cannot read it
  }
  if (prologue.empty()) return std::nullopt;
  renamed.body.insert(renamed.body.begin(), prologue.begin(), prologue.end());
  return renamed;
}

std::optional<NoneTest> none_test(const ast::Ast& ast, ExprId condition) {
  if (!condition.valid()) return std::nullopt;
  const ast::Expr& e = ast[condition];
  if (e.kind == ExprKind::not_) {
    auto inner = none_test(ast, e.operands[0]);
    if (inner) inner->true_when_none = !inner->true_when_none;
    return inner;
  }
  if (e.kind != ExprKind::compare || e.compare_ops.size() != 1) return std::nullopt;
  CompareOp op = e.compare_ops[0];
  if (op != CompareOp::is && op != CompareOp::is_not && op != CompareOp::eq && op != CompareOp::ne) return std::nullopt;
  bool left_none = ast[e.operands[0]].kind == ExprKind::none, right_none = ast[e.operands[1]].kind == ExprKind::none;
  if (left_none == right_none) return std::nullopt;
  return NoneTest{e.operands[left_none ? 1 : 0], op == CompareOp::is || op == CompareOp::eq};
}

std::optional<ast::Function> prune_dead_branches(ast::Ast& ast, const ast::Function& function,
                                                 const std::vector<ArgumentFact>& facts) {
  std::map<std::string, ArgumentFact> intact;
  for (size_t i = 0; i < function.parameters.size() && i < facts.size(); ++i)
    if (facts[i] != ArgumentFact::unknown && !function.parameters[i].star) intact[function.parameters[i].name] = facts[i];
  if (intact.empty()) return std::nullopt;
  Pruner pruner(ast, std::move(intact));
  std::vector<StmtId> body = pruner.block(function.body);
  if (!pruner.changed()) return std::nullopt;
  ast::Function pruned = function;
  pruned.body = std::move(body);
  return pruned;
}

}  // namespace pykern::sema
