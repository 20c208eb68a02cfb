// Walks over the typed IR shared by the passes that run after inference (parallel_loops,
// index_facts): statements in order, the expressions a statement evaluates itself, and the
// locals a block assigns.
#pragma once
#include <set>
#include <vector>

#include "sema/ir.h"

namespace pykern::sema {

// Visits every statement of `body`, nested ones included, in order.
template <class Visit> void each_stmt(const ir::Function& f, const std::vector<ir::StmtId>& body, const Visit& visit) {
  for (ir::StmtId id : body) {
    visit(id, f[id]);
    each_stmt(f, f[id].body, visit);
    each_stmt(f, f[id].orelse, visit);
  }
}

// The expressions a statement evaluates itself (not those of its nested statements).
inline std::vector<ir::ExprId> own_exprs(const ir::Stmt& s) {
  std::vector<ir::ExprId> out;
  for (ir::ExprId e : {s.target, s.value, s.condition, s.start, s.stop, s.step})
    if (e.valid()) out.push_back(e);
  out.insert(out.end(), s.args.begin(), s.args.end());
  return out;
}

// The local a statement binds: an assignment's local target, a loop's counter, a declared
// array; -1 for none.
inline int bound_local(const ir::Function& f, const ir::Stmt& s) {
  if (s.kind == ir::StmtKind::assign && f[s.target].kind == ir::ExprKind::local) return f[s.target].local;
  if (s.kind == ir::StmtKind::for_range || s.kind == ir::StmtKind::declare_array) return s.local;
  return -1;
}

// Every local `body` binds, nested statements included.
inline std::set<int> assigned_locals(const ir::Function& f, const std::vector<ir::StmtId>& body) {
  std::set<int> out;
  each_stmt(f, body, [&](ir::StmtId, const ir::Stmt& s) {
    if (int local = bound_local(f, s); local >= 0) out.insert(local);
  });
  return out;
}

}  // namespace pykern::sema
