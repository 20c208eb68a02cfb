#include "sema/index_facts.h"

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
  std::set<std::pair<int, int>> within;  // (array, axis): the stop is at most its extent
};

class IndexFacts {
 public:
  explicit IndexFacts(ir::Function& f) : f_(f) {}
  void block(const std::vector<ir::StmtId>& body);

 private:
  ir::ExprId strip_widening(ir::ExprId e) const;
  std::optional<int64_t> constant(ir::ExprId e) const;
  std::optional<LoopFact> fact_of(const ir::Stmt& loop) const;
  void extents_of(ir::ExprId stop, const std::set<int>& assigned, std::set<std::pair<int, int>>& out) const;
  void mark(ir::ExprId e);
  bool non_negative(ir::ExprId index) const;
  bool in_bounds(ir::ExprId index, int array, int axis) const;

  ir::Function& f_;
  std::vector<LoopFact> facts_;  // of the loops around the statement being visited
};

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

std::optional<LoopFact> IndexFacts::fact_of(const ir::Stmt& loop) const {
  auto start = constant(loop.start), step = constant(loop.step);
  if (!start || *start < 0 || !step || *step < 1) return std::nullopt;
  LoopFact fact;
  fact.indices.insert(loop.local);
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
  } else if (e.kind == ExprKind::call && e.name == "pk::min") {
    for (ir::ExprId a : e.args) extents_of(a, assigned, out);
  }
}

bool IndexFacts::non_negative(ir::ExprId index) const {
  const ir::Expr& x = f_[strip_widening(index)];
  if (x.kind == ExprKind::local) {
    for (const LoopFact& fact : facts_)
      if (fact.indices.count(x.local)) return true;
    return false;
  }
  if (x.kind == ExprKind::binary && x.name == "+" && x.args.size() == 2) {
    auto c0 = constant(x.args[0]), c1 = constant(x.args[1]);
    return (c1 && *c1 >= 0 && non_negative(x.args[0])) || (c0 && *c0 >= 0 && non_negative(x.args[1]));
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
  if (e.kind != ExprKind::element || facts_.empty()) return;
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
  for (ir::StmtId id : body) {
    const ir::Stmt& s = f_[id];
    for (ir::ExprId e : own_exprs(s)) mark(e);
    std::optional<LoopFact> fact;
    if (s.kind == StmtKind::for_range) fact = fact_of(s);
    if (fact) facts_.push_back(*fact);
    block(s.body);
    if (fact) facts_.pop_back();
    block(s.orelse);
  }
}

}  // namespace

void mark_index_facts(ir::Function& function) { IndexFacts(function).block(function.body); }

}  // namespace pykern::sema
