#include "emit/carried_chains.h"

#include <set>

namespace pykern::emit {

namespace {

using sema::TypeKind;

class LoopScan {
 public:
  explicit LoopScan(const ir::Function& f) : f_(f), marked_(f.exprs.size(), false) {}

  std::vector<bool> run() {
    for (ir::StmtId id : f_.body) stmt(id);
    return std::move(marked_);
  }

 private:
  // Every loop, outer ones too: an outer loop that carries a value marks its inner loops' chains.
  void stmt(ir::StmtId id) {
    const ir::Stmt& s = f_[id];
    bool loop = (s.kind == ir::StmtKind::for_range && !s.parallel.enabled) || s.kind == ir::StmtKind::while_;
    if (loop && carries(s.body)) mark_chains(s.body);
    for (ir::StmtId inner : s.body) stmt(inner);
    for (ir::StmtId inner : s.orelse) stmt(inner);
  }

  // Whether some local of `body` is read before the body assigns it, in the order of the
  // statements (an iteration then reads the previous one's value).
  bool carries(const std::vector<ir::StmtId>& body) const {
    std::set<int> assigned, read_first;
    walk_order(body, assigned, read_first);
    for (int local : read_first)
      if (assigned.count(local)) return true;
    return false;
  }

  void walk_order(const std::vector<ir::StmtId>& body, std::set<int>& assigned, std::set<int>& read_first) const {
    for (ir::StmtId id : body) {
      const ir::Stmt& s = f_[id];
      for (ir::ExprId e : {s.value, s.condition, s.start, s.stop, s.step}) reads(e, assigned, read_first);
      for (ir::ExprId e : s.args) reads(e, assigned, read_first);
      if (s.kind == ir::StmtKind::assign && s.target.valid()) {
        const ir::Expr& target = f_[s.target];
        if (target.kind == ir::ExprKind::local) assigned.insert(target.local);
        else reads(s.target, assigned, read_first);
      }
      if (s.kind == ir::StmtKind::for_range) assigned.insert(s.local);
      walk_order(s.body, assigned, read_first);
      walk_order(s.orelse, assigned, read_first);
    }
  }

  void reads(ir::ExprId id, const std::set<int>& assigned, std::set<int>& read_first) const {
    if (!id.valid()) return;
    const ir::Expr& e = f_[id];
    if (e.kind == ir::ExprKind::local && !assigned.count(e.local)) read_first.insert(e.local);
    for (ir::ExprId arg : e.args) reads(arg, assigned, read_first);
  }

  bool integer_min_max(ir::ExprId id, ir::Op op) const {
    const ir::Expr& e = f_[id];
    return e.kind == ir::ExprKind::call && e.op == op && e.type.is(TypeKind::integer);
  }

  void mark_chains(const std::vector<ir::StmtId>& body) {
    for (ir::StmtId id : body) {
      const ir::Stmt& s = f_[id];
      for (ir::ExprId e : {s.target, s.value, s.condition, s.start, s.stop, s.step}) mark(e);
      for (ir::ExprId e : s.args) mark(e);
      if (!(s.kind == ir::StmtKind::for_range && s.parallel.enabled)) {
        mark_chains(s.body);
        mark_chains(s.orelse);
      }
    }
  }

  void mark(ir::ExprId id) {
    if (!id.valid()) return;
    const ir::Expr& e = f_[id];
    for (ir::Op op : {ir::Op::min, ir::Op::max}) {
      if (!integer_min_max(id, op)) continue;
      for (ir::ExprId arg : e.args)
        if (integer_min_max(arg, op)) marked_[id.index] = marked_[arg.index] = true;
    }
    for (ir::ExprId arg : e.args) mark(arg);
  }

  const ir::Function& f_;
  std::vector<bool> marked_;
};

}  // namespace

std::vector<bool> carried_min_max_chains(const ir::Function& function) { return LoopScan(function).run(); }

}  // namespace pykern::emit
