#include "sema/webs.h"

#include <map>
#include <numeric>
#include <set>
#include <vector>

namespace pykern::sema {

namespace {

using ast::ExprKind;
using ast::StmtKind;

// Which definitions of each name may reach a point; `reachable` is false after return, break
// or continue, until a join brings a path back.
struct State {
  bool reachable = true;
  std::map<std::string, std::set<int>> defs;

  friend bool operator==(const State& a, const State& b) { return a.reachable == b.reachable && a.defs == b.defs; }
};

State unreachable() {
  State s;
  s.reachable = false;
  return s;
}

State join(const State& a, const State& b) {
  if (!a.reachable) return b;
  if (!b.reachable) return a;
  State out = a;
  for (const auto& [name, ids] : b.defs) out.defs[name].insert(ids.begin(), ids.end());
  return out;
}

struct Loop {
  State breaks = unreachable();
  State continues = unreachable();
};

class WebFinder {
 public:
  WebFinder(const ast::Ast& tree, const ast::Function& function) : tree_(tree), function_(function) {}

  Webs run() {
    State entry;
    for (const ast::Parameter& p : function_.parameters) {
      locals_.insert(p.name);
      entry.defs[p.name] = {new_def(p.name, ast::ExprId())};
    }
    collect_names(function_.body);
    walk(function_.body, entry, nullptr);
    return number();
  }

 private:
  // Every name bound in the body is a local (Python's scoping); other names are globals.
  void collect_names(const std::vector<ast::StmtId>& body) {
    for (ast::StmtId id : body) {
      const ast::Stmt& stmt = tree_[id];
      if (stmt.kind == StmtKind::assign || stmt.kind == StmtKind::for_ || stmt.kind == StmtKind::aug_assign)
        for (ast::ExprId target : stmt.targets) collect_target(target);
      collect_names(stmt.body);
      collect_names(stmt.orelse);
    }
  }
  void collect_target(ast::ExprId target) {
    const ast::Expr& e = tree_[target];
    if (e.kind == ExprKind::name) locals_.insert(e.text);
    if (e.kind == ExprKind::tuple || e.kind == ExprKind::list)
      for (ast::ExprId part : e.operands) collect_target(part);
  }

  int new_def(const std::string& name, ast::ExprId at) {
    if (at.valid()) {
      auto found = def_at_.find(at.index);
      if (found != def_at_.end()) return found->second;  // a loop body walked again
    }
    int id = static_cast<int>(def_names_.size());
    def_names_.push_back(name);
    def_sites_.push_back(at);
    parent_.push_back(id);
    if (at.valid()) def_at_[at.index] = id;
    return id;
  }
  int root(int d) {
    while (parent_[d] != d) d = parent_[d] = parent_[parent_[d]];
    return d;
  }
  void unite(int a, int b) { parent_[root(a)] = root(b); }

  // A read of `name` at `at`: every definition reaching it is one web.
  void use(const std::string& name, ast::ExprId at, const State& s) {
    auto found = s.defs.find(name);
    if (found == s.defs.end() || found->second.empty()) return;
    int first = *found->second.begin();
    for (int d : found->second) unite(d, first);
    use_def_[at.index] = first;
  }

  void reads(ast::ExprId id, const State& s) {
    if (!id.valid()) return;
    const ast::Expr& e = tree_[id];
    if (e.kind == ExprKind::name) {
      if (locals_.count(e.text)) use(e.text, id, s);
      return;
    }
    for (ast::ExprId operand : e.operands) reads(operand, s);
    for (const ast::Keyword& keyword : e.keywords) reads(keyword.value, s);
  }

  // An assignment target: names are defined; subscripts and attributes read their parts.
  void define(ast::ExprId target, State& s) {
    const ast::Expr& e = tree_[target];
    if (e.kind == ExprKind::name) {
      s.defs[e.text] = {new_def(e.text, target)};
    } else if (e.kind == ExprKind::tuple || e.kind == ExprKind::list) {
      for (ast::ExprId part : e.operands) define(part, s);
    } else {
      reads(target, s);
    }
  }

  State walk(const std::vector<ast::StmtId>& body, State s, Loop* loop) {
    raises_from(s);
    for (ast::StmtId id : body) {
      s = statement(tree_[id], std::move(s), loop);
      raises_from(s);
    }
    return s;
  }

  // An exception may leave a try block at any point of it: each point's definitions reach the
  // handler (or finally block) of every try statement around it.
  void raises_from(const State& s) {
    for (State* handler_entry : handler_entries_) *handler_entry = join(*handler_entry, s);
  }

  // The handler starts from any point of the body; after the statement, the body's end or the
  // handler's (the else block is the body's last statement).
  State try_except(const ast::Stmt& stmt, State entry, Loop* loop) {
    State handler_entry = entry;
    handler_entries_.push_back(&handler_entry);
    State end = walk(stmt.body, std::move(entry), loop);
    handler_entries_.pop_back();
    handler_entry.reachable = true;
    return join(end, walk(stmt.orelse, handler_entry, loop));
  }

  // The finally block runs after the body ends, or from any point of it (an exception, a
  // return, a break or continue); a break or continue in the body leaves the loop after it.
  State try_finally(const ast::Stmt& stmt, State entry, Loop* loop) {
    State finally_entry = entry;
    Loop before = loop ? *loop : Loop();
    handler_entries_.push_back(&finally_entry);
    State end = walk(stmt.body, std::move(entry), loop);
    handler_entries_.pop_back();
    finally_entry = join(finally_entry, end);
    finally_entry.reachable = true;
    State after = walk(stmt.orelse, finally_entry, loop);
    if (loop && !(loop->breaks == before.breaks)) loop->breaks = join(loop->breaks, after);
    if (loop && !(loop->continues == before.continues)) loop->continues = join(loop->continues, after);
    return after;
  }

  State statement(const ast::Stmt& stmt, State s, Loop* loop) {
    switch (stmt.kind) {
      case StmtKind::assign:
        reads(stmt.value, s);
        for (ast::ExprId target : stmt.targets) define(target, s);
        return s;
      case StmtKind::aug_assign: {
        // x += v reads and writes x through one local: the new definition joins the old web.
        reads(stmt.value, s);
        ast::ExprId target = stmt.targets[0];
        const ast::Expr& t = tree_[target];
        if (t.kind != ExprKind::name) {
          reads(target, s);
          return s;
        }
        std::set<int> before = s.defs[t.text];
        int def = new_def(t.text, target);
        for (int d : before) unite(d, def);
        s.defs[t.text] = {def};
        return s;
      }
      case StmtKind::if_: {
        reads(stmt.value, s);
        return join(walk(stmt.body, s, loop), walk(stmt.orelse, s, loop));
      }
      case StmtKind::for_:
      case StmtKind::while_: return loop_statement(stmt, std::move(s));
      case StmtKind::break_:
        if (loop) loop->breaks = join(loop->breaks, s);
        return unreachable();
      case StmtKind::continue_:
        if (loop) loop->continues = join(loop->continues, s);
        return unreachable();
      case StmtKind::return_:
        reads(stmt.value, s);
        return unreachable();
      case StmtKind::try_except: return try_except(stmt, std::move(s), loop);
      case StmtKind::try_else: return walk(stmt.body, std::move(s), loop);
      case StmtKind::try_finally: return try_finally(stmt, std::move(s), loop);
      default:
        reads(stmt.value, s);
        reads(stmt.message, s);
        return s;
    }
  }

  // The loop head joins the entry with every way back (the body's end, continue); the loop
  // leaves from the head (its else branch) or by break. Iterated until the head is stable.
  State loop_statement(const ast::Stmt& stmt, State entry) {
    bool is_for = stmt.kind == StmtKind::for_;
    if (is_for) reads(stmt.value, entry);
    State head = entry;
    Loop loop;
    for (int pass = 0; pass < 64; ++pass) {
      if (!is_for) reads(stmt.value, head);
      State body = head;
      if (is_for) define(stmt.targets[0], body);
      loop = Loop();
      State end = walk(stmt.body, body, &loop);
      State next = join(entry, join(end, loop.continues));
      if (next == head) break;
      head = next;
    }
    return join(walk(stmt.orelse, head, nullptr), loop.breaks);
  }

  // Web numbers per name: the parameter's web first, then in the order definitions appear.
  Webs number() {
    Webs webs;
    std::map<std::string, std::map<int, int>> web_of_root;
    std::vector<int> web_of_def(def_names_.size());
    for (size_t d = 0; d < def_names_.size(); ++d) {
      auto& roots = web_of_root[def_names_[d]];
      int r = root(static_cast<int>(d));
      auto found = roots.find(r);
      if (found == roots.end()) found = roots.emplace(r, static_cast<int>(roots.size())).first;
      web_of_def[d] = found->second;
      if (def_sites_[d].valid()) webs.set(def_sites_[d], found->second);
    }
    for (const auto& [occurrence, def] : use_def_) webs.set(ast::ExprId(occurrence), web_of_def[def]);
    return webs;
  }

  const ast::Ast& tree_;
  const ast::Function& function_;
  std::set<std::string> locals_;
  std::vector<std::string> def_names_;
  std::vector<ast::ExprId> def_sites_;  // invalid for a parameter
  std::vector<int> parent_;
  std::map<uint32_t, int> def_at_;   // a target's ExprId index -> its definition
  std::map<uint32_t, int> use_def_;  // a read's ExprId index -> a definition reaching it
  std::vector<State*> handler_entries_;  // of the try statements around the walk, innermost last
};

}  // namespace

Webs find_webs(const ast::Ast& tree, const ast::Function& function) { return WebFinder(tree, function).run(); }

std::string web_key(const std::string& name, int web) {
  return web == 0 ? name : name + "#" + std::to_string(web);
}

}  // namespace pykern::sema
