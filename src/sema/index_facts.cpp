#include "sema/index_facts.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "sema/ir_walk.h"

namespace pykern::sema {

namespace {

using ir::ExprKind;
using ir::StmtKind;

// What holds for a loop's index names throughout its body.
struct LoopFact {
  std::set<int> indices;                // the loop's counter and the names bound to it
  int64_t lowest = 0;                   // the counter's least value: its start, when known
  std::set<std::pair<int, int>> within;  // (array, axis): the stop is at most its extent
};

class IndexFacts {
 public:
  explicit IndexFacts(ir::Function& f);
  void block(const std::vector<ir::StmtId>& body);

 private:
  ir::ExprId strip_widening(ir::ExprId e) const;
  std::optional<int64_t> constant(ir::ExprId e) const;
  bool at_least(ir::ExprId e, int64_t least, int depth = 0) const;
  std::optional<LoopFact> fact_of(const ir::Stmt& loop) const;
  void extents_of(ir::ExprId stop, const std::set<int>& assigned, std::set<std::pair<int, int>>& out) const;
  void mark(ir::ExprId e);
  bool non_negative(ir::ExprId index) const;
  bool in_bounds(ir::ExprId index, int array, int axis) const;

  ir::Function& f_;
  std::vector<LoopFact> facts_;  // of the loops around the statement being visited
  // Every value each local is assigned anywhere in the function; a local bound any other way
  // (a parameter, a loop counter, a declared array) is in `opaque`: nothing is known of it.
  std::map<int, std::vector<ir::ExprId>> values_;
  std::set<int> opaque_;
  std::map<int, size_t> first_top_level_assignment_;  // index into the function's body
  size_t top_level_index_ = 0;                        // of the statement being visited
};

IndexFacts::IndexFacts(ir::Function& f) : f_(f) {
  opaque_.insert(f.parameters.begin(), f.parameters.end());
  each_stmt(f, f.body, [&](ir::StmtId, const ir::Stmt& s) {
    int local = bound_local(f, s);
    if (local < 0) return;
    if (s.kind == StmtKind::assign) values_[local].push_back(s.value);
    else opaque_.insert(local);
  });
  for (size_t i = 0; i < f.body.size(); ++i) {
    const ir::Stmt& s = f[f.body[i]];
    if (int local = bound_local(f, s); local >= 0 && s.kind == StmtKind::assign)
      first_top_level_assignment_.emplace(local, i);
  }
}

// A cast to int64 from a narrower or same-width signed integer (or a narrower unsigned one)
// keeps the value: the fact about the operand holds for the cast.
ir::ExprId IndexFacts::strip_widening(ir::ExprId e) const {
  while (f_[e].kind == ExprKind::cast) {
    const Type& to = f_[e].type;
    const Type& from = f_[f_[e].args[0]].type;
    bool widening = to.is(TypeKind::integer) && from.is(TypeKind::integer) && to.is_signed && to.bits == 64 &&
                    (from.is_signed || from.bits < 64);
    if (!widening) break;
    e = f_[e].args[0];
  }
  return e;
}

std::optional<int64_t> IndexFacts::constant(ir::ExprId e) const {
  const ir::Expr& x = f_[strip_widening(e)];
  if (x.kind != ExprKind::constant || !x.type.is(TypeKind::integer)) return std::nullopt;
  return x.constant.as_int();
}

// Whether `e` is at least `least` (0 or 1) whenever it is evaluated: a constant, a launch
// position or extent, an array's extent, a sum or product of such, or a local every assignment
// of which is one (a local read before its first assignment holds zero).
bool IndexFacts::at_least(ir::ExprId id, int64_t least, int depth) const {
  if (depth > 8) return false;  // also ends cycles such as n = n + 1
  id = strip_widening(id);
  const ir::Expr& e = f_[id];
  if (auto c = constant(id)) return *c >= least;
  // A tuple is at least `least` when each of its items is (x, y = cuda.grid(2)).
  if (!e.type.is(TypeKind::integer) && !e.type.is(TypeKind::tuple)) return false;
  switch (e.kind) {
    case ExprKind::call:
      if (e.op == ir::Op::get && e.args.size() == 1) return at_least(e.args[0], least, depth + 1);
      // Thread and block positions are never negative, launch extents never below one: Numba's
      // range analysis knows them from their types (the registry's flags).
      if (!e.args.empty()) return false;
      return ir::call_has(e.op, ir::call_flag::positive) ||
             (least <= 0 && ir::call_has(e.op, ir::call_flag::non_negative));
    case ExprKind::member: return least <= 0 && e.name.rfind("shape[", 0) == 0;
    case ExprKind::binary:
      if (e.args.size() != 2 || (e.op != ir::Op::add && e.op != ir::Op::mul)) return false;
      if (e.op == ir::Op::mul) return at_least(e.args[0], least, depth + 1) && at_least(e.args[1], least, depth + 1);
      return at_least(e.args[0], 0, depth + 1) && at_least(e.args[1], 0, depth + 1) &&
             (least <= 0 || at_least(e.args[0], least, depth + 1) || at_least(e.args[1], least, depth + 1));
    case ExprKind::local: {
      auto found = values_.find(e.local);
      if (opaque_.count(e.local) || found == values_.end()) return false;
      // Zero before its first assignment: at least 1 only where a top-level statement before
      // this one assigned it (range(0, n, step) with a step that may be unset would not end).
      if (least > 0) {
        auto first = first_top_level_assignment_.find(e.local);
        if (first == first_top_level_assignment_.end() || first->second >= top_level_index_) return false;
      }
      for (ir::ExprId value : found->second)
        if (!at_least(value, least, depth + 1)) return false;
      return true;
    }
    default: return false;
  }
}

// `loop`'s step_sign is +1 when its step is known to be at least 1 (block() settles it first).
std::optional<LoopFact> IndexFacts::fact_of(const ir::Stmt& loop) const {
  if (loop.step_sign <= 0 || !at_least(loop.start, 0)) return std::nullopt;
  LoopFact fact;
  fact.indices.insert(loop.local);
  // The counter only grows from its start: i - c is never negative for c up to the start
  // (a[i - 1] in `for i in range(1, n)`: stencils and dynamic programming tables).
  if (auto start = constant(loop.start)) fact.lowest = *start;
  else if (at_least(loop.start, 1)) fact.lowest = 1;
  // The names the body binds to the counter before anything else (for i in range(...)).
  size_t bindings = 0;
  for (; bindings < loop.body.size(); ++bindings) {
    const ir::Stmt& s = f_[loop.body[bindings]];
    if (s.kind != StmtKind::assign || f_[s.target].kind != ExprKind::local) break;
    const ir::Expr& value = f_[strip_widening(s.value)];
    if (value.kind != ExprKind::local || value.local != loop.local) break;
    fact.indices.insert(f_[s.target].local);
  }
  // The facts hold only if the rest of the body never assigns those names.
  std::set<int> assigned = assigned_locals(
      f_, std::vector<ir::StmtId>(loop.body.begin() + static_cast<std::ptrdiff_t>(bindings), loop.body.end()));
  for (int l : fact.indices)
    if (assigned.count(l)) return std::nullopt;
  extents_of(loop.stop, assigned, fact.within);
  return fact;
}

// The (array, axis) pairs whose extent `stop` is at most: a.shape[k] (len(a), `for x in a`),
// or the min() of such extents (`for x, y in zip(a, b)`), of arrays the body never reassigns.
void IndexFacts::extents_of(ir::ExprId stop, const std::set<int>& assigned,
                            std::set<std::pair<int, int>>& out) const {
  const ir::Expr& e = f_[stop];
  if (e.kind == ExprKind::member && e.name.rfind("shape[", 0) == 0 && !e.args.empty() &&
      f_[e.args[0]].kind == ExprKind::local && !assigned.count(f_[e.args[0]].local)) {
    out.insert({f_[e.args[0]].local, std::stoi(e.name.substr(6))});
  } else if (e.kind == ExprKind::call && e.op == ir::Op::min) {
    for (ir::ExprId a : e.args) extents_of(a, assigned, out);
  } else if (e.kind == ExprKind::local && !opaque_.count(e.local) && values_.count(e.local) &&
             values_.at(e.local).size() == 1) {
    // n = len(a) before the loop: its one value, read from an array never reassigned anywhere
    // (so the extent it read is the array's extent throughout).
    const ir::Expr& value = f_[values_.at(e.local)[0]];
    if (value.kind == ExprKind::member && !value.args.empty() && f_[value.args[0]].kind == ExprKind::local &&
        !values_.count(f_[value.args[0]].local))
      extents_of(values_.at(e.local)[0], assigned, out);
  }
}

bool IndexFacts::non_negative(ir::ExprId index) const {
  if (constant(index)) return false;  // the C++ compiler folds a constant index's checks itself
  if (at_least(index, 0)) return true;  // i = cuda.grid(1); a[i]
  const ir::Expr& x = f_[strip_widening(index)];
  if (x.kind == ExprKind::local) {
    for (const LoopFact& fact : facts_)
      if (fact.indices.count(x.local)) return true;
    return false;
  }
  if (x.kind == ExprKind::binary && x.op == ir::Op::add && x.args.size() == 2) {
    auto c0 = constant(x.args[0]), c1 = constant(x.args[1]);
    return (c1 && *c1 >= 0 && non_negative(x.args[0])) || (c0 && *c0 >= 0 && non_negative(x.args[1]));
  }
  if (x.kind == ExprKind::binary && x.op == ir::Op::sub && x.args.size() == 2) {
    auto c = constant(x.args[1]);
    const ir::Expr& counter = f_[strip_widening(x.args[0])];
    if (!c || *c < 0 || counter.kind != ExprKind::local) return false;
    for (const LoopFact& fact : facts_)
      if (fact.indices.count(counter.local) && fact.lowest >= *c) return true;
  }
  return false;  // a constant index needs no fact: the C++ compiler folds its checks
}

bool IndexFacts::in_bounds(ir::ExprId index, int array, int axis) const {
  const ir::Expr& x = f_[strip_widening(index)];
  if (x.kind != ExprKind::local) return false;
  for (const LoopFact& fact : facts_)
    if (fact.indices.count(x.local) && fact.within.count({array, axis})) return true;
  return false;
}

void IndexFacts::mark(ir::ExprId id) {
  ir::Expr& e = f_.exprs[id];
  for (ir::ExprId a : std::vector<ir::ExprId>(e.args)) mark(a);
  if (e.kind != ExprKind::element) return;
  const ir::Expr& base = f_[e.args[0]];
  if (!base.type.is(TypeKind::array)) return;  // a list's items: list.cuh checks them its own way
  int array = base.kind == ExprKind::local ? base.local : -1;
  for (size_t axis = 0; axis + 1 < e.args.size() && axis < 32; ++axis) {
    ir::ExprId index = e.args[axis + 1];
    if (non_negative(index)) e.known_non_negative |= 1u << axis;
    if (array >= 0 && in_bounds(index, array, static_cast<int>(axis))) e.known_in_bounds |= 1u << axis;
  }
}

void IndexFacts::block(const std::vector<ir::StmtId>& body) {
  for (size_t k = 0; k < body.size(); ++k) {
    if (&body == &f_.body) top_level_index_ = k;
    ir::StmtId id = body[k];
    const ir::Stmt& s = f_[id];
    for (ir::ExprId e : own_exprs(s)) mark(e);
    std::optional<LoopFact> fact;
    if (s.kind == StmtKind::for_range) {
      // A step known to be positive (cuda.gridsize(1), blockDim.x) lets the loop test i < stop.
      if (s.step_sign == 0 && at_least(s.step, 1)) f_.stmts[id].step_sign = 1;
      fact = fact_of(s);
    }
    if (fact) facts_.push_back(*fact);
    block(s.body);
    if (fact) facts_.pop_back();
    block(s.orelse);
  }
}

}  // namespace

void mark_index_facts(ir::Function& function) { IndexFacts(function).block(function.body); }

}  // namespace pykern::sema
