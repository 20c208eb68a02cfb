#include "sema/evaluation_order.h"

#include <fmt/format.h>

namespace pykern::sema {

namespace {

using ir::ExprKind;
using ir::StmtKind;

// Calls whose effects or results depend on when they run (the registry's effects flag).
bool has_effects(const ir::Expr& e) {
  if (e.kind == ExprKind::device_call) return true;
  return e.kind == ExprKind::call && ir::call_has(e.op, ir::call_flag::effects);
}

// An operand the call takes by reference (the element an atomic updates): it stays in place.
bool is_place(const ir::Expr& parent, size_t operand) {
  return operand == 0 && parent.kind == ExprKind::call && ir::call_has(parent.op, ir::call_flag::by_reference);
}

// A value the emitter can hold in a temporary: not a record (a record variable refers into
// its array, so it would not keep the value read), a list, or nothing.
bool can_hold(const Type& type) {
  return type.known() && !type.is(TypeKind::record) && !type.is(TypeKind::list) && !type.is(TypeKind::void_) &&
         !type.is(TypeKind::none);
}

class Sequencer {
 public:
  explicit Sequencer(ir::Function& f) : f_(f) {}
  void block(std::vector<ir::StmtId>& body);

 private:
  // What a subtree holds, and whether two of its parts C++ leaves unsequenced could differ.
  struct Census {
    bool effects = false;
    bool reads = false;
    bool conflict = false;
    bool effect_in_branch = false;  // in an `and`/`or` operand or a conditional's branch
  };
  Census census(ir::ExprId e, bool in_branch) const;
  // Adds `part`, evaluated after what `into` holds and unsequenced against it.
  static void absorb(Census& into, const Census& part);
  bool needs_order(const std::vector<ir::ExprId>& roots) const;
  ir::ExprId sequence(ir::ExprId e, bool keep, const ir::Stmt& at, std::vector<ir::StmtId>& before);

  ir::Function& f_;
  int temporaries_ = 0;
};

// An operand is evaluated before the operation that uses it, so a node never conflicts with
// its own operands; two sibling operands conflict when one has effects and the other has
// effects or reads an element.
Sequencer::Census Sequencer::census(ir::ExprId id, bool in_branch) const {
  const ir::Expr& e = f_[id];
  Census out;
  bool branches = e.kind == ExprKind::logical || e.kind == ExprKind::select;
  for (size_t i = 0; i < e.args.size(); ++i) absorb(out, census(e.args[i], in_branch || (branches && i > 0)));
  if (has_effects(e)) {
    out.effects = true;
    out.effect_in_branch = out.effect_in_branch || in_branch;
  }
  if (e.kind == ExprKind::element) out.reads = true;
  return out;
}

void Sequencer::absorb(Census& into, const Census& part) {
  into.conflict = into.conflict || part.conflict || (part.effects && (into.effects || into.reads)) ||
                  (part.reads && into.effects);
  into.effects = into.effects || part.effects;
  into.reads = into.reads || part.reads;
  into.effect_in_branch = into.effect_in_branch || part.effect_in_branch;
}

bool Sequencer::needs_order(const std::vector<ir::ExprId>& roots) const {
  Census all;
  for (ir::ExprId root : roots) absorb(all, census(root, false));
  // Calls in a branch run only if it is taken: they cannot move ahead, so such a statement
  // keeps C++'s order (Numba code rarely puts effects there).
  return all.conflict && !all.effect_in_branch;
}

// Evaluates `e`'s operands in order, moving each call with effects and each element read
// (but `e` itself when `keep`) into a temporary assigned in `before`.
ir::ExprId Sequencer::sequence(ir::ExprId id, bool keep, const ir::Stmt& at, std::vector<ir::StmtId>& before) {
  std::vector<ir::ExprId> args = f_[id].args;
  bool branches = f_[id].kind == ExprKind::logical || f_[id].kind == ExprKind::select;
  for (size_t i = 0; i < args.size(); ++i)
    if (!(branches && i > 0)) args[i] = sequence(args[i], is_place(f_[id], i), at, before);
  f_.exprs[id].args = args;
  const ir::Expr& e = f_[id];
  if (keep || !(has_effects(e) || e.kind == ExprKind::element) || !can_hold(e.type)) return id;
  int local = static_cast<int>(f_.locals.size());
  ir::Local temporary;
  temporary.name = fmt::format("seq{}", temporaries_++);
  temporary.type = e.type;
  temporary.is_temporary = true;
  f_.locals.push_back(temporary);
  ir::Expr read;
  read.kind = ExprKind::local;
  read.type = e.type;
  read.range = e.range;
  read.local = local;
  ir::Stmt assign;
  assign.kind = StmtKind::assign;
  assign.range = at.range;
  assign.line = at.line;
  assign.target = f_.exprs.add(read);
  assign.value = id;
  before.push_back(f_.stmts.add(assign));
  return f_.exprs.add(read);
}

void Sequencer::block(std::vector<ir::StmtId>& body) {
  std::vector<ir::StmtId> out;
  for (ir::StmtId id : body) {
    ir::Stmt& s = f_.stmts[id];
    // The expressions evaluated before the statement acts, and each one's slot.
    std::vector<ir::ExprId*> slots;
    switch (s.kind) {
      case StmtKind::assign:
      case StmtKind::expr:
      case StmtKind::return_:
        if (s.value.valid()) slots.push_back(&s.value);
        break;
      case StmtKind::if_: slots.push_back(&s.condition); break;
      case StmtKind::for_range:
        for (ir::ExprId* slot : {&s.start, &s.stop, &s.step})
          if (slot->valid()) slots.push_back(slot);
        break;
      case StmtKind::print:
        for (ir::ExprId& arg : s.args) slots.push_back(&arg);
        break;
      default: break;  // a while condition is evaluated again each iteration: not moved
    }
    std::vector<ir::ExprId> roots;
    for (ir::ExprId* slot : slots) roots.push_back(*slot);
    if (needs_order(roots)) {
      std::vector<ir::StmtId> before;
      // A print's arguments and a loop's bounds are unsequenced among themselves, so they move
      // too; a statement's one value stays where it is once its operands have moved.
      bool move_roots = s.kind == StmtKind::print || s.kind == StmtKind::for_range;
      // The stores are deques: adding to them leaves `s` and its slots where they are.
      for (ir::ExprId* slot : slots) *slot = sequence(*slot, !move_roots, s, before);
      out.insert(out.end(), before.begin(), before.end());
    }
    block(s.body);
    block(s.orelse);
    out.push_back(id);
  }
  body = std::move(out);
}

}  // namespace

void sequence_effects(ir::Function& function) {
  Sequencer sequencer(function);
  std::vector<ir::StmtId> body = function.body;
  sequencer.block(body);
  function.body = std::move(body);
}

}  // namespace pykern::sema
