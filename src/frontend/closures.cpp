// Inner functions (a `def` inside a kernel or device function) as Numba compiles them: each is a
// function of its own, and the enclosing functions' variables it reads (its free variables) are
// passed in at every call where it is defined. Numba inlines such a closure at its call, which
// reads the variables' values there; f(x) becoming f(x, s=s) does the same.
#include "frontend/closures.h"

#include <functional>
#include <map>
#include <set>

namespace pykern::frontend {
namespace {

using namespace ast;

// One function of the nest: the one lowered, or an inner function (an index in Ast::functions).
struct Scope {
  Function* function = nullptr;
  int parent = -1;  // in the scope list; -1 for the outermost function
  std::set<std::string> bound;     // its parameters, assigned names and inner functions' names
  std::set<std::string> captured;  // inner functions: the enclosing scopes' variables it reads
};

class ClosureAnalysis {
 public:
  ClosureAnalysis(Ast& ast, const SourceFile& file, Diagnostics& diagnostics)
      : ast_(ast), file_(file), diagnostics_(diagnostics) {}

  void run(Function& outermost) {
    add_scope(&outermost, -1);
    if (scopes_.size() == 1) return;
    // Passing the captured variables at the calls reads them where the call is: in a sibling
    // that calls the function, they become that sibling's free variables too. Until stable.
    bool changed = true;
    while (changed) {
      changed = false;
      for (size_t i = 1; i < scopes_.size(); ++i) changed = capture(static_cast<int>(i)) || changed;
      for (size_t i = 1; i < scopes_.size(); ++i) pass_captured_at_calls(static_cast<int>(i));
    }
    for (size_t i = 1; i < scopes_.size(); ++i) {
      Function& f = *scopes_[i].function;
      for (const std::string& name : scopes_[i].captured) {
        f.captured.push_back(name);
        Parameter parameter;
        parameter.name = name;
        parameter.range = f.name_range;
        f.parameters.push_back(parameter);
      }
    }
  }

 private:
  void add_scope(Function* function, int parent) {
    int index = static_cast<int>(scopes_.size());
    scopes_.push_back({function, parent, {}, {}});
    for (const Parameter& p : function->parameters) scopes_[index].bound.insert(p.name);
    std::map<std::string, SourceRange> defined;
    collect_scope(function->body, index, defined);
  }

  // The names a scope binds, and the inner functions defined in it (each a scope of its own).
  void collect_scope(const std::vector<StmtId>& body, int scope, std::map<std::string, SourceRange>& defined) {
    for (StmtId id : body) {
      const Stmt& s = ast_[id];
      if (s.kind == StmtKind::function_def) {
        Function* inner = &ast_.functions[s.function];
        if (!defined.emplace(inner->name, inner->name_range).second) {
          diagnostics_.error(DiagKind::unsupported_syntax, file_, inner->name_range,
                             "inner function '" + inner->name + "' is defined a second time in '" +
                                 scopes_[scope].function->name + "'; pykern takes one definition per name",
                             "give each definition its own name");
        }
        scopes_[scope].bound.insert(inner->name);
        add_scope(inner, scope);
        continue;
      }
      if (s.kind == StmtKind::assign || s.kind == StmtKind::for_ || s.kind == StmtKind::aug_assign)
        for (ExprId target : s.targets) bind_target(target, scope);
      collect_scope(s.body, scope, defined);
      collect_scope(s.orelse, scope, defined);
    }
  }

  void bind_target(ExprId target, int scope) {
    const Expr& e = ast_[target];
    if (e.kind == ExprKind::name) scopes_[scope].bound.insert(e.text);
    if (e.kind == ExprKind::tuple || e.kind == ExprKind::list)
      for (ExprId part : e.operands) bind_target(part, scope);
  }

  // Every expression a scope's own statements hold (an inner function's default values belong
  // to the scope that defines it, not to its body).
  void each_expr(const std::vector<StmtId>& body, const std::function<void(ExprId)>& visit) {
    std::function<void(ExprId)> walk = [&](ExprId id) {
      if (!id.valid()) return;
      visit(id);
      for (ExprId operand : ast_[id].operands) walk(operand);
      for (const Keyword& keyword : ast_[id].keywords) walk(keyword.value);
    };
    for (StmtId id : body) {
      const Stmt& s = ast_[id];
      if (s.kind == StmtKind::function_def) {
        for (const Parameter& p : ast_.functions[s.function].parameters) walk(p.default_value);
        continue;
      }
      for (ExprId target : s.targets) walk(target);
      walk(s.value);
      walk(s.message);
      each_expr(s.body, visit);
      each_expr(s.orelse, visit);
    }
  }

  // The names a scope reads that it does not bind, its inner functions' included.
  std::set<std::string> free_names(int scope) {
    std::set<std::string> names;
    each_expr(scopes_[scope].function->body, [&](ExprId id) {
      if (ast_[id].kind == ExprKind::name) names.insert(ast_[id].text);
    });
    for (size_t i = 1; i < scopes_.size(); ++i)
      if (scopes_[i].parent == scope) names.merge(free_names(static_cast<int>(i)));
    std::set<std::string> free;
    for (const std::string& name : names)
      if (!scopes_[scope].bound.count(name)) free.insert(name);
    return free;
  }

  // Finds what an inner function captures: its free names that an enclosing scope binds.
  bool capture(int scope) {
    Scope& s = scopes_[scope];
    bool changed = false;
    for (const std::string& name : free_names(scope)) {
      bool enclosed = false;
      for (int up = s.parent; up >= 0 && !enclosed; up = scopes_[up].parent) enclosed = scopes_[up].bound.count(name) > 0;
      if (!enclosed || s.captured.count(name)) continue;
      if (name == s.function->name && scopes_[s.parent].bound.count(name)) {
        diagnostics_.error(DiagKind::recursion, file_, s.function->name_range,
                           "inner function '" + name + "' calls itself; Numba does not compile a recursive inner "
                           "function",
                           "define it at module level with @cuda.jit(device=True)");
        silence_reads(scope, name);
        continue;
      }
      s.captured.insert(name);
      changed = true;
    }
    return changed;
  }

  // After an error about `name`: its reads in the scope and below are reported already.
  void silence_reads(int scope, const std::string& name) {
    std::vector<ExprId> reads;
    each_expr(scopes_[scope].function->body, [&](ExprId id) {
      if (ast_[id].kind == ExprKind::name && ast_[id].text == name) reads.push_back(id);
    });
    for (ExprId id : reads) ast_.exprs[id].kind = ExprKind::error;
    for (size_t i = 1; i < scopes_.size(); ++i)
      if (scopes_[i].parent == scope) silence_reads(static_cast<int>(i), name);
  }

  // f(x) where f is defined becomes f(x, s=s) for each variable s that f captures: in the
  // defining scope and in the inner functions below it that do not bind the name f themselves.
  void pass_captured_at_calls(int scope) {
    const Scope& callee = scopes_[scope];
    if (callee.captured.empty()) return;
    std::function<void(int)> rewrite_in = [&](int where) {
      if (where != callee.parent && scopes_[where].bound.count(callee.function->name)) return;
      std::vector<ExprId> calls;  // collected first: adding expressions moves the store
      each_expr(scopes_[where].function->body, [&](ExprId id) {
        const Expr& call = ast_[id];
        if (call.kind != ExprKind::call) return;
        const Expr& name = ast_[call.operands[0]];
        if (name.kind == ExprKind::name && name.text == callee.function->name) calls.push_back(id);
      });
      for (ExprId id : calls) {
        for (const std::string& variable : callee.captured) {
          bool given = false;
          for (const Keyword& keyword : ast_[id].keywords) given = given || keyword.name == variable;
          if (given) continue;
          SourceRange range = ast_[id].range;
          Expr read;
          read.kind = ExprKind::name;
          read.text = variable;
          read.range = range;
          ExprId value = ast_.exprs.add(std::move(read));
          ast_.exprs[id].keywords.push_back({variable, value, range});
        }
      }
      for (size_t i = 1; i < scopes_.size(); ++i)
        if (scopes_[i].parent == where) rewrite_in(static_cast<int>(i));
    };
    rewrite_in(callee.parent);
  }

  Ast& ast_;
  const SourceFile& file_;
  Diagnostics& diagnostics_;
  std::vector<Scope> scopes_;
};

}  // namespace

void resolve_inner_functions(Function& function, Ast& ast, const SourceFile& file, Diagnostics& diagnostics) {
  ClosureAnalysis(ast, file, diagnostics).run(function);
}

}  // namespace pykern::frontend
