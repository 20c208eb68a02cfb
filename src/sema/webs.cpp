#include "sema/webs.h"

#include <map>
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
    if (at.valid()) def_at_[at.index] = id;
    return id;
  }

  // A read of `name` at `at` sees the definitions reaching it. A loop body is walked until its
  // head is stable; the last walk, with the most definitions, is the one kept.
  void use(const std::string& name, ast::ExprId at, const State& s) {
    auto found = s.defs.find(name);
    if (found == s.defs.end() || found->second.empty()) return;
    use_defs_[at.index] = found->second;
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
        // x += v reads x, then defines a new version of it at the same target (int += float
        // is a float64 version, as in Numba).
        reads(stmt.value, s);
        ast::ExprId target = stmt.targets[0];
        const ast::Expr& t = tree_[target];
        if (t.kind != ExprKind::name) {
          reads(target, s);
          return s;
        }
        if (locals_.count(t.text) && !s.defs[t.text].empty()) update_reads_[target.index] = s.defs[t.text];
        s.defs[t.text] = {new_def(t.text, target)};
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

  // Web numbers per name: its definitions first (the parameter's first), in the order they were
  // found, then its merges, in the order of the reads that need them. A definition that no read
  // sees alone and that belongs to one merge writes that merge directly (x = a in one branch and
  // x = a[::2] in the other is one variable of the merged layout): its own version could not be
  // told apart.
  Webs number() {
    std::vector<std::set<int>> reaches;  // each read's definitions, then each update's
    for (const auto& [occurrence, defs] : use_defs_) reaches.push_back(defs);
    for (const auto& [target, defs] : update_reads_) reaches.push_back(defs);
    std::vector<bool> read_alone(def_names_.size(), false);
    std::map<std::set<int>, int> merge_index;  // definitions (all of one name) -> their merge
    std::vector<const std::set<int>*> merges;
    std::vector<std::vector<int>> merges_of_def(def_names_.size());
    for (const std::set<int>& defs : reaches) {
      if (defs.size() == 1) {
        read_alone[*defs.begin()] = true;
        continue;
      }
      auto [found, added] = merge_index.emplace(defs, static_cast<int>(merges.size()));
      if (!added) continue;
      merges.push_back(&found->first);
      for (int d : defs) merges_of_def[d].push_back(found->second);
    }
    auto into_merge = [&](size_t d) {
      return def_sites_[d].valid() && !read_alone[d] && merges_of_def[d].size() == 1;
    };

    Webs webs;
    std::map<std::string, int> webs_of_name;
    std::vector<int> web_of_def(def_names_.size(), -1);
    for (size_t d = 0; d < def_names_.size(); ++d)
      if (!into_merge(d)) web_of_def[d] = webs_of_name[def_names_[d]]++;
    std::vector<int> web_of_merge(merges.size());
    for (size_t m = 0; m < merges.size(); ++m) web_of_merge[m] = webs_of_name[def_names_[*merges[m]->begin()]]++;
    for (size_t d = 0; d < def_names_.size(); ++d) {
      if (into_merge(d)) {
        web_of_def[d] = web_of_merge[merges_of_def[d][0]];
      } else {
        for (int m : merges_of_def[d]) {
          if (def_sites_[d].valid()) webs.add_feed(def_sites_[d], web_of_merge[m]);
          else webs.add_parameter_feed(def_names_[d], web_of_merge[m]);
        }
      }
      if (def_sites_[d].valid()) webs.set(def_sites_[d], web_of_def[d]);
    }
    auto web_of_reach = [&](const std::set<int>& defs) {
      return defs.size() == 1 ? web_of_def[*defs.begin()] : web_of_merge[merge_index.at(defs)];
    };
    for (const auto& [occurrence, defs] : use_defs_) webs.set(ast::ExprId(occurrence), web_of_reach(defs));
    for (const auto& [target, defs] : update_reads_) webs.set_update_read(ast::ExprId(target), web_of_reach(defs));
    for (const auto& [name, count] : webs_of_name) webs.count(name, count);
    return webs;
  }

  const ast::Ast& tree_;
  const ast::Function& function_;
  std::set<std::string> locals_;
  std::vector<std::string> def_names_;
  std::vector<ast::ExprId> def_sites_;  // invalid for a parameter
  std::map<uint32_t, int> def_at_;                // a target's ExprId index -> its definition
  std::map<uint32_t, std::set<int>> use_defs_;     // a read's ExprId index -> the definitions reaching it
  std::map<uint32_t, std::set<int>> update_reads_;  // an `x op= v` target -> the definitions its read sees
  std::vector<State*> handler_entries_;  // of the try statements around the walk, innermost last
};

}  // namespace

Webs find_webs(const ast::Ast& tree, const ast::Function& function) { return WebFinder(tree, function).run(); }

std::string web_key(const std::string& name, int web) {
  return web == 0 ? name : name + "#" + std::to_string(web);
}

}  // namespace pykern::sema
