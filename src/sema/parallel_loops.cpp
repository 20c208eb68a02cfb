#include "sema/parallel_loops.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "sema/ir_walk.h"

namespace pykern::sema {

namespace {

using ir::ExprKind;
using ir::StmtKind;

class LoopPlanner {
 public:
  LoopPlanner(const ir::Function& f, const ir::Stmt& loop) : f_(f), loop_(loop) {}

  // The plan, or why the loop must run in order.
  std::optional<std::string> plan(ir::ParallelLoop& out);

 private:
  std::optional<std::string> control_flow_reason() const;
  void collect_assigned();
  std::optional<ir::Reduction> reduction_of(int local) const;
  std::optional<std::string> reduction_form(ir::ExprId value, int local, ir::Reduction& out) const;
  bool reads(ir::ExprId e, int local) const;
  int count_reads(ir::ExprId e, int local) const;
  void check_reads(ir::ExprId e, const std::set<int>& defined);
  void walk(const std::vector<ir::StmtId>& body, std::set<int>& defined);
  void walk_try(const ir::Stmt& s, std::set<int>& defined);
  std::optional<std::string> shared_list_append() const;
  ir::ExprId strip_casts(ir::ExprId e) const;
  const std::string& name(int local) const { return f_.locals[local].name; }

  const ir::Function& f_;
  const ir::Stmt& loop_;
  std::set<int> assigned_;                       // locals the body assigns
  std::map<int, std::vector<ir::StmtId>> assignments_;  // their assignments
  std::map<int, ir::Reduction> reductions_;
  std::optional<int> carried_;                   // a non-reduction read before its assignment
};

ir::ExprId LoopPlanner::strip_casts(ir::ExprId e) const {
  while (f_[e].kind == ExprKind::cast) e = f_[e].args[0];
  return e;
}

std::optional<std::string> LoopPlanner::control_flow_reason() const {
  if (loop_.loop_has_else) return std::string("it has an else branch");
  std::optional<std::string> reason;
  each_stmt(f_, loop_.body, [&](ir::StmtId, const ir::Stmt& s) {
    if (reason) return;
    if (s.kind == StmtKind::return_) reason = "it returns from inside the loop";
    if (s.kind == StmtKind::break_ && s.loop_id == loop_.loop_id) reason = "it breaks out of the loop";
  });
  return reason;
}

void LoopPlanner::collect_assigned() {
  assigned_ = assigned_locals(f_, loop_.body);
  assigned_.insert(loop_.local);
  each_stmt(f_, loop_.body, [&](ir::StmtId id, const ir::Stmt& s) {
    if (s.kind == StmtKind::assign && f_[s.target].kind == ExprKind::local) assignments_[f_[s.target].local].push_back(id);
  });
}

bool LoopPlanner::reads(ir::ExprId e, int local) const { return count_reads(e, local) > 0; }

int LoopPlanner::count_reads(ir::ExprId e, int local) const {
  const ir::Expr& x = f_[e];
  int n = x.kind == ExprKind::local && x.local == local ? 1 : 0;
  for (ir::ExprId a : x.args) n += count_reads(a, local);
  return n;
}

// `local = local op x` (x + local for + and *) or `local = min(local, x)` / max, x free of it.
std::optional<std::string> LoopPlanner::reduction_form(ir::ExprId value, int local, ir::Reduction& out) const {
  const ir::Expr& v = f_[strip_casts(value)];
  auto is_local = [&](ir::ExprId e) {
    const ir::Expr& x = f_[strip_casts(e)];
    return x.kind == ExprKind::local && x.local == local;
  };
  if (v.kind == ExprKind::binary && v.args.size() == 2 &&
      (v.op == ir::Op::add || v.op == ir::Op::sub || v.op == ir::Op::mul || v.op == ir::Op::truediv)) {
    bool commutes = v.op == ir::Op::add || v.op == ir::Op::mul;
    bool left = is_local(v.args[0]) && !reads(v.args[1], local);
    bool right = commutes && is_local(v.args[1]) && !reads(v.args[0], local);
    if (!left && !right) return std::string("not a reduction");
    out.combine = v.op == ir::Op::add || v.op == ir::Op::sub ? ir::Op::add : ir::Op::mul;
    out.starts_at_identity = true;
    return std::nullopt;
  }
  if (v.kind == ExprKind::call && ir::call_has(v.op, ir::call_flag::reduction) && v.args.size() == 2) {
    bool left = is_local(v.args[0]) && !reads(v.args[1], local);
    bool right = is_local(v.args[1]) && !reads(v.args[0], local);
    if (!left && !right) return std::string("not a reduction");
    out.combine = v.op;
    out.starts_at_identity = false;
    return std::nullopt;
  }
  return std::string("not a reduction");
}

// A reduction: every assignment of `local` in the body has one reduction form, and the body
// reads it nowhere else.
std::optional<ir::Reduction> LoopPlanner::reduction_of(int local) const {
  auto found = assignments_.find(local);
  if (found == assignments_.end() || local == loop_.local) return std::nullopt;
  ir::Reduction reduction;
  reduction.local = local;
  for (ir::StmtId id : found->second) {
    ir::Reduction form;
    if (reduction_form(f_[id].value, local, form)) return std::nullopt;
    if (id == found->second.front()) reduction.combine = form.combine;
    if (form.combine != reduction.combine) return std::nullopt;  // s += x here, s *= y there
    reduction.starts_at_identity = form.starts_at_identity;
  }
  int reads_in_reductions = static_cast<int>(found->second.size());
  int reads_in_body = 0;
  each_stmt(f_, loop_.body, [&](ir::StmtId, const ir::Stmt& s) {
    for (ir::ExprId e : own_exprs(s))
      if (!(s.kind == StmtKind::assign && e == s.target)) reads_in_body += count_reads(e, local);
  });
  if (reads_in_body != reads_in_reductions) return std::nullopt;
  return reduction;
}

// Reads of body-assigned names before this iteration assigned them carry a value in.
void LoopPlanner::check_reads(ir::ExprId e, const std::set<int>& defined) {
  const ir::Expr& x = f_[e];
  if (x.kind == ExprKind::local && assigned_.count(x.local) && !reductions_.count(x.local) &&
      !defined.count(x.local) && !carried_)
    carried_ = x.local;
  for (ir::ExprId a : x.args) check_reads(a, defined);
}

// Definite assignment through the body: `defined` holds the names every path so far assigned.
void LoopPlanner::walk(const std::vector<ir::StmtId>& body, std::set<int>& defined) {
  for (ir::StmtId id : body) {
    const ir::Stmt& s = f_[id];
    switch (s.kind) {
      case StmtKind::assign:
        check_reads(s.value, defined);
        if (f_[s.target].kind == ExprKind::local) defined.insert(f_[s.target].local);
        else check_reads(s.target, defined);
        break;
      case StmtKind::if_: {
        check_reads(s.condition, defined);
        std::set<int> then_defined = defined, else_defined = defined;
        walk(s.body, then_defined);
        walk(s.orelse, else_defined);
        std::set<int> both;
        std::set_intersection(then_defined.begin(), then_defined.end(), else_defined.begin(), else_defined.end(),
                              std::inserter(both, both.begin()));
        defined = both;
        break;
      }
      case StmtKind::for_range:
      case StmtKind::while_: {
        for (ir::ExprId e : own_exprs(s)) check_reads(e, defined);
        std::set<int> inside = defined;  // the body may run zero times
        if (s.kind == StmtKind::for_range) inside.insert(s.local);
        walk(s.body, inside);
        std::set<int> after = defined;
        walk(s.orelse, after);
        break;
      }
      case StmtKind::declare_array: defined.insert(s.local); break;
      case StmtKind::try_except:
      case StmtKind::try_else:
      case StmtKind::try_finally: walk_try(s, defined); break;
      default:
        for (ir::ExprId e : own_exprs(s)) check_reads(e, defined);
    }
  }
}

// A handler may start from any point of its try block, so it counts on what was assigned
// before the statement; a finally block runs after the body or from any point of it.
void LoopPlanner::walk_try(const ir::Stmt& s, std::set<int>& defined) {
  std::set<int> body = defined, handler = defined;
  walk(s.body, body);
  if (s.kind == StmtKind::try_else) {
    defined = body;
    return;
  }
  walk(s.orelse, handler);
  std::set<int> after;
  if (s.kind == StmtKind::try_except)
    std::set_intersection(body.begin(), body.end(), handler.begin(), handler.end(), std::inserter(after, after.begin()));
  else
    std::set_union(body.begin(), body.end(), handler.begin(), handler.end(), std::inserter(after, after.begin()));
  defined = after;
}

// list.append on a list made before the loop: the parts would race on it.
std::optional<std::string> LoopPlanner::shared_list_append() const {
  std::optional<std::string> reason;
  std::function<void(ir::ExprId)> visit = [&](ir::ExprId e) {
    const ir::Expr& x = f_[e];
    if (x.kind == ExprKind::call && ir::call_has(x.op, ir::call_flag::appends) && !x.args.empty()) {
      const ir::Expr& list = f_[x.args[0]];
      if (list.kind == ExprKind::local && !assigned_.count(list.local) && !reason)
        reason = fmt::format("it appends to the list '{}', which every iteration shares", name(list.local));
    }
    for (ir::ExprId a : x.args) visit(a);
  };
  each_stmt(f_, loop_.body, [&](ir::StmtId, const ir::Stmt& s) {
    for (ir::ExprId e : own_exprs(s)) visit(e);
  });
  return reason;
}

std::optional<std::string> LoopPlanner::plan(ir::ParallelLoop& out) {
  if (auto reason = control_flow_reason()) return reason;
  collect_assigned();
  for (int local : assigned_)
    if (auto reduction = reduction_of(local)) reductions_[local] = *reduction;
  std::set<int> defined = {loop_.local};
  walk(loop_.body, defined);
  if (carried_)
    return fmt::format("'{}' carries a value from one iteration into the next and is not a reduction",
                       name(*carried_));
  if (auto reason = shared_list_append()) return reason;
  out.enabled = true;
  for (int local : assigned_)
    if (!reductions_.count(local)) out.privates.push_back(local);
  for (const auto& [local, reduction] : reductions_) out.reductions.push_back(reduction);
  std::set<int> read;
  std::function<void(ir::ExprId)> collect = [&](ir::ExprId e) {
    const ir::Expr& x = f_[e];
    if (x.kind == ExprKind::local && !assigned_.count(x.local)) read.insert(x.local);
    for (ir::ExprId a : x.args) collect(a);
  };
  each_stmt(f_, loop_.body, [&](ir::StmtId, const ir::Stmt& s) {
    for (ir::ExprId e : own_exprs(s)) collect(e);
  });
  out.shared.assign(read.begin(), read.end());
  return std::nullopt;
}

// The outermost prange loops of a try block run in order, as Numba runs them: an exception
// stops the loop at the iteration that raised it, before the handler runs.
void keep_in_order(const ir::Function& f, const std::vector<ir::StmtId>& body, const SequentialLoopReport& report) {
  for (ir::StmtId id : body) {
    const ir::Stmt& s = f[id];
    if (s.kind == StmtKind::for_range && s.is_prange) {
      report(s.range, "it is inside a try block, where an exception must stop it at the iteration that raised it");
      continue;
    }
    keep_in_order(f, s.body, report);
    keep_in_order(f, s.orelse, report);
  }
}

// The outermost prange loops of `body`: a prange inside one runs in order within its part.
void plan_block(ir::Function& f, const std::vector<ir::StmtId>& body, const SequentialLoopReport& report) {
  for (ir::StmtId id : body) {
    ir::Stmt& s = f.stmts[id];
    if (s.kind == StmtKind::try_except || s.kind == StmtKind::try_finally) {
      keep_in_order(f, s.body, report);
      plan_block(f, s.orelse, report);
      continue;
    }
    if (s.kind == StmtKind::for_range && s.is_prange) {
      ir::ParallelLoop plan;
      if (auto why = LoopPlanner(f, s).plan(plan)) report(s.range, *why);
      else s.parallel = std::move(plan);
      if (s.parallel.enabled) continue;
    }
    plan_block(f, s.body, report);
    plan_block(f, s.orelse, report);
  }
}

}  // namespace

void plan_parallel_loops(ir::Function& function, const SequentialLoopReport& report) {
  plan_block(function, function.body, report);
}

}  // namespace pykern::sema
