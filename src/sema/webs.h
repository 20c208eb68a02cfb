// Variables as Numba types them: each SSA version of a name has a type of its own, so a name
// may hold an int64 before an `if` and a float64 after it (x = n * 7; y = x // 2; if c: x = 0.5
// keeps y an int64, as in Numba). pykern gives every definition of a name a version of its own,
// and every set of definitions that reach one use together a merge (Numba's phi node), whose
// type unifies theirs. A definition also writes each merge it belongs to, converted, so a read
// of a merge sees the latest definition. Versions and merges of one type share one variable in
// the end (sema/infer.cpp merge_equal_webs), so code without such type changes has one
// variable per name, as written.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/ast.h"

namespace pykern::sema {

class Webs {
 public:
  // The web (version or merge) of a name's occurrence (an assignment target, a loop target or a
  // read): 0 for the name's first definition (its parameter, if any), then the other
  // definitions in source order, then the merges.
  int web_of(ast::ExprId occurrence) const {
    auto found = web_.find(occurrence.index);
    return found == web_.end() ? 0 : found->second;
  }
  // `x op= v` reads x's version or merge before it defines a new version at the same target.
  int read_web_of_update(ast::ExprId target) const {
    auto found = update_read_.find(target.index);
    return found == update_read_.end() ? web_of(target) : found->second;
  }
  // The merges a definition (a target, or a parameter by name) writes besides its own version.
  const std::vector<int>& merges_fed_by(ast::ExprId target) const { return fed(def_feeds_, target.index); }
  const std::vector<int>& merges_fed_by_parameter(const std::string& name) const {
    auto found = parameter_feeds_.find(name);
    return found == parameter_feeds_.end() ? none_ : found->second;
  }
  // How many webs each name has: every one needs a local, including merges, which no target names.
  const std::map<std::string, int>& web_counts() const { return counts_; }

  void set(ast::ExprId occurrence, int web) { web_[occurrence.index] = web; }
  void set_update_read(ast::ExprId target, int web) { update_read_[target.index] = web; }
  void add_feed(ast::ExprId target, int merge) { def_feeds_[target.index].push_back(merge); }
  void add_parameter_feed(const std::string& name, int merge) { parameter_feeds_[name].push_back(merge); }
  void count(const std::string& name, int webs) { counts_[name] = webs; }

 private:
  const std::vector<int>& fed(const std::unordered_map<uint32_t, std::vector<int>>& feeds, uint32_t key) const {
    auto found = feeds.find(key);
    return found == feeds.end() ? none_ : found->second;
  }

  std::unordered_map<uint32_t, int> web_;
  std::unordered_map<uint32_t, int> update_read_;
  std::unordered_map<uint32_t, std::vector<int>> def_feeds_;
  std::unordered_map<std::string, std::vector<int>> parameter_feeds_;
  std::map<std::string, int> counts_;  // ordered: locals are made in this order
  std::vector<int> none_;
};

// Reaching definitions over the function's structured control flow (if, for, while, break,
// continue, return, try): each use's set of reaching definitions names its version or merge.
Webs find_webs(const ast::Ast& tree, const ast::Function& function);

// The key a web's local is found under: the name itself for web 0, "name#web" otherwise ('#'
// never appears in a Python name).
std::string web_key(const std::string& name, int web);

}  // namespace pykern::sema
