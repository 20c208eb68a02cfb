// for x in numba.literal_unroll(t) over a tuple of several types (Numba's MixedContainerUnroller,
// numba/core/untyped_passes.py): the loop stays a loop over the tuple's positions, and its body
// is typed once per position, as the branch `if k == position:` of a switch, with x that
// position's item. Names the body alone uses (x, and those it assigns before reading) are
// versioned per position, so each branch types them anew; the others (an accumulator, a name
// read after the loop) are shared, and their types unify across the branches, which is where
// Numba says "Cannot unify". break and continue leave or go on with the one loop, as in Numba.
#include <algorithm>

#include <fmt/format.h>

#include "sema/builtins.h"
#include "sema/checker.h"

namespace pykern::sema {

namespace {

bool is_literal_unroll(const std::string& name) {
  return name == "numba.literal_unroll" || name == "numba.misc.literal.literal_unroll";
}

// Every occurrence of a name in these statements and the expressions they hold.
class NameOccurrences {
 public:
  explicit NameOccurrences(const ast::Ast& tree) : tree_(tree) {}
  void statements(const std::vector<ast::StmtId>& body) {
    for (ast::StmtId id : body) {
      const ast::Stmt& s = tree_[id];
      for (ast::ExprId target : s.targets) expression(target);
      expression(s.value);
      expression(s.message);
      statements(s.body);
      statements(s.orelse);
    }
  }
  void expression(ast::ExprId id) {
    if (!id.valid()) return;
    const ast::Expr& e = tree_[id];
    if (e.kind == ast::ExprKind::name) found.push_back(id);
    for (ast::ExprId operand : e.operands) expression(operand);
    for (const ast::Keyword& keyword : e.keywords) expression(keyword.value);
  }
  std::vector<ast::ExprId> found;

 private:
  const ast::Ast& tree_;
};

}  // namespace

// The locals each version of the body has its own: those only the loop's target and body name,
// and that an iteration assigns before it reads them (the target, or a plain assignment at the
// body's top level before any other use). Any other, such as one read before it is assigned
// (a value carried from the iteration before) or first assigned under an if, is shared, as a
// name live at Numba's loop header is.
std::set<int> FunctionChecker::body_private_locals(const ast::Stmt& loop) {
  const ast::Ast& tree = module().ast();
  NameOccurrences inside(tree), everywhere(tree);
  inside.expression(loop.targets[0]);
  inside.statements(loop.body);
  everywhere.statements(ast_.body);
  std::map<int, int> count;
  for (ast::ExprId id : everywhere.found)
    if (int local = local_at(id); local >= 0) ++count[local];
  for (ast::ExprId id : inside.found)
    if (int local = local_at(id); local >= 0) --count[local];
  // Walked in the order an iteration runs: `defined` holds what it has assigned so far.
  std::set<int> defined, shared;
  NameOccurrences target(tree);
  target.expression(loop.targets[0]);
  for (ast::ExprId id : target.found) defined.insert(local_at(id));
  auto read = [&](const std::vector<ast::ExprId>& uses) {
    for (ast::ExprId id : uses)
      if (int local = local_at(id); local >= 0 && !defined.count(local)) shared.insert(local);
  };
  for (ast::StmtId id : loop.body) {
    const ast::Stmt& s = tree[id];
    if (s.kind != ast::StmtKind::assign) {
      NameOccurrences uses(tree);
      uses.statements({id});
      read(uses.found);
      continue;
    }
    NameOccurrences value(tree);
    value.expression(s.value);
    read(value.found);
    for (ast::ExprId t : s.targets) {
      NameOccurrences names(tree);
      names.expression(t);
      bool plain = tree[t].kind == ast::ExprKind::name || tree[t].kind == ast::ExprKind::tuple;
      if (!plain) read(names.found);  // a[i] = v reads a
      else
        for (ast::ExprId n : names.found) defined.insert(local_at(n));
    }
  }
  std::set<int> private_locals;
  for (const auto& [local, left] : count)
    if (left == 0 && !function_.locals[local].is_parameter && !shared.count(local)) private_locals.insert(local);
  return private_locals;
}

// Returns false when the loop is no literal_unroll over a tuple of several types (the plain
// loop then types it); true when it was typed, or reported, here.
bool FunctionChecker::check_unrolled_loop(const ast::Stmt& stmt) {
  const ast::Ast& tree = module().ast();
  const ast::Expr& call = tree[stmt.value];
  if (!is_literal_unroll(qualified_callee(call))) return false;
  if (unrolling_ > 0) {
    error(DiagKind::unsupported_syntax, call.range, "Nesting of literal_unroll is unsupported",
          "unroll the inner loop by hand, or loop over a tuple of one type with a plain for");
    return true;
  }
  if (call.operands.size() != 2 || !call.keywords.empty()) return false;  // literal_unroll reports the arity
  // The argument's type, seen without emitting anything: the plain loop evaluates it otherwise.
  std::vector<ir::StmtId> scratch;
  std::vector<ir::StmtId>* saved = current_block_;
  current_block_ = &scratch;
  bool was_muted = diagnostics().muted();
  diagnostics().set_muted(true);
  Type type = check_expr(call.operands[1]).type;
  diagnostics().set_muted(was_muted);
  current_block_ = saved;
  bool mixed = type.is(TypeKind::tuple) &&
               std::any_of(type.elements.begin(), type.elements.end(), [&](const Type& t) { return !(t == type.elements[0]); });
  if (!mixed) {
    ++unrolling_;  // a nested literal_unroll is refused in any case, as Numba refuses it
    return false;
  }
  Value tuple = as_runtime(check_expr(call.operands[1]), tree[call.operands[1]].range);
  if (!tuple.ok()) return true;
  tuple = store_in_temporary(tuple, call.range);  // evaluated once, before the loop
  const size_t count = type.elements.size();

  ir::Stmt loop;
  loop.kind = ir::StmtKind::for_range;
  loop.range = stmt.range;
  loop.loop_id = next_loop_id_++;
  loop.loop_has_else = !stmt.orelse.empty();
  loop.local = new_temporary(Type::i64());
  loop.start = make_constant({int64_t(0)}, Type::i64(), call.range).expr;
  loop.stop = make_constant({int64_t(count)}, Type::i64(), call.range).expr;
  loop.step = make_constant({int64_t(1)}, Type::i64(), call.range).expr;
  loop.step_sign = 1;

  std::set<int> versioned = body_private_locals(stmt);
  ++unrolling_;
  for (size_t position = 0; position < count; ++position) {
    // This version's own locals, typed by what earlier rounds learnt of them.
    std::map<int, int> renames;
    for (int local : versioned) {
      std::string key = fmt::format("{}/{}/{}", stmt.value.index, position, function_.locals[local].name);
      auto learnt = version_types_.find(key);
      renames[local] = new_temporary(learnt == version_types_.end() ? Type::unknown() : learnt->second);
    }
    std::swap(local_renames_, renames);
    ir::Stmt branch;
    branch.kind = ir::StmtKind::if_;
    branch.range = stmt.range;
    Value index = read_local(loop.local, call.range);
    branch.condition = compare(ast::CompareOp::eq, index, make_constant({int64_t(position)}, Type::i64(), call.range),
                               call.range)
                           .expr;
    current_block_ = &branch.body;
    Value item = element_of_tuple(tuple, position, call.range);
    assign_to(stmt.targets[0], item, stmt.range);
    current_block_ = saved;
    check_loop_body(loop, stmt.body, branch.body);
    for (const auto& [local, version] : local_renames_) {
      std::string key = fmt::format("{}/{}/{}", stmt.value.index, position, function_.locals[local].name);
      version_types_[key] = function_.locals[version].type;
    }
    std::swap(local_renames_, renames);
    current_block_ = &loop.body;
    emit_stmt(std::move(branch));
    current_block_ = saved;
  }
  --unrolling_;
  check_block(stmt.orelse, loop.orelse);
  emit_stmt(std::move(loop));
  return true;
}

}  // namespace pykern::sema
