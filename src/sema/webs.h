// Variables as Numba types them: each SSA version of a name has a type of its own, so a name
// may hold an int64 in one loop and a float64 or a 1-d view in another, as long as no value of
// one reaches a use of the other. pykern finds the webs of a function's names (the classic
// def-use webs: definitions joined by the uses they reach together) and gives each web a
// local of its own; within a web, types unify as before.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>

#include "frontend/ast.h"

namespace pykern::sema {

class Webs {
 public:
  // The web of a name's occurrence (an assignment target, a loop target or a read): 0 for the
  // name's first web, which its parameter (if any) starts, then 1, 2, ... in source order.
  int web_of(ast::ExprId occurrence) const {
    auto found = web_.find(occurrence.index);
    return found == web_.end() ? 0 : found->second;
  }
  void set(ast::ExprId occurrence, int web) { web_[occurrence.index] = web; }

 private:
  std::unordered_map<uint32_t, int> web_;
};

// Reaching definitions over the function's structured control flow (if, for, while, break,
// continue, return), then union-find over definitions that reach a common use.
Webs find_webs(const ast::Ast& tree, const ast::Function& function);

// The key a web's local is found under: the name itself for web 0, "name#web" otherwise ('#'
// never appears in a Python name).
std::string web_key(const std::string& name, int web);

}  // namespace pykern::sema
