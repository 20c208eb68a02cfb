// The name pass (name_resolution.h). Each function is read from a fresh lowering
// (Module::lowered_copy), so the pass decides nothing about what typing later lowers and reports;
// its findings use the type checker's words, so a mistake both find is reported once
// (Diagnostics drops a repeat at the same place).
#include "sema/name_resolution.h"

#include <deque>
#include <set>

#include <fmt/format.h>

#include "base/suggest.h"
#include "sema/builtins.h"

namespace pykern::sema {

namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.compare(0, prefix.size(), prefix) == 0; }

bool is_known(const std::string& qualified) { return known_qualified_names().count(qualified) > 0; }

// Whether the tables hold names below `qualified`: a module ("numba.cuda", "numpy.random") or
// a namespace of one ("numba.cuda.threadIdx", "numba.cuda.atomic").
bool is_namespace(const std::string& qualified) {
  const std::set<std::string>& known = known_qualified_names();
  std::string prefix = qualified + ".";
  auto next = known.lower_bound(prefix);
  return next != known.end() && starts_with(*next, prefix);
}

// The names the tables hold directly below a namespace: "numba.cuda" → atomic, grid, threadIdx...
std::vector<std::string> members(const std::string& qualified) {
  const std::set<std::string>& known = known_qualified_names();
  std::string prefix = qualified + ".";
  std::vector<std::string> names;
  for (auto it = known.lower_bound(prefix); it != known.end() && starts_with(*it, prefix); ++it) {
    std::string member = it->substr(prefix.size(), it->find('.', prefix.size()) - prefix.size());
    if (names.empty() || names.back() != member) names.push_back(member);
  }
  return names;
}

std::string top_package(const std::string& qualified) { return qualified.substr(0, qualified.find('.')); }

// A library pykern gives a meaning to some of (its top-level package has names in the tables):
// what it does not know of one is a mistake. Of any other library it knows nothing to judge by.
bool is_modelled(const std::string& qualified) { return is_namespace(top_package(qualified)); }

// The names a function binds: its parameters and every name it assigns anywhere in its body
// (Python decides a name is local at compile time, wherever the assignment is), the loop
// variables, and the inner functions it defines.
class LocalNames {
 public:
  explicit LocalNames(const ast::Ast& ast) : ast_(ast) {}

  std::set<std::string> of(const ast::Function& function) {
    names_.clear();
    for (const ast::Parameter& parameter : function.parameters) names_.insert(parameter.name);
    block(function.body);
    return std::move(names_);
  }

 private:
  void block(const std::vector<ast::StmtId>& body) {
    for (ast::StmtId id : body) {
      const ast::Stmt& stmt = ast_[id];
      for (ast::ExprId target : stmt.targets) bound_by(target);
      if (stmt.kind == ast::StmtKind::function_def && stmt.function >= 0)
        names_.insert(ast_.functions[static_cast<size_t>(stmt.function)].name);
      block(stmt.body);
      block(stmt.orelse);
    }
  }

  void bound_by(ast::ExprId target) {
    if (!target.valid()) return;
    const ast::Expr& e = ast_[target];
    if (e.kind == ast::ExprKind::name) names_.insert(e.text);
    if (e.kind == ast::ExprKind::tuple || e.kind == ast::ExprKind::list || e.kind == ast::ExprKind::starred)
      for (ast::ExprId operand : e.operands) bound_by(operand);
  }

  const ast::Ast& ast_;
  std::set<std::string> names_;
};

struct Scope {
  std::set<std::string> names;
  const Scope* enclosing = nullptr;  // the function this one is defined in

  bool binds(const std::string& name) const {
    for (const Scope* scope = this; scope != nullptr; scope = scope->enclosing)
      if (scope->names.count(name)) return true;
    return false;
  }
};

// Checks one function: reports what it reads that nothing defines, and collects the module
// functions it names (called, or passed on as values), which the pass checks next.
class FunctionNames {
 public:
  FunctionNames(frontend::Module& module, const std::set<std::string>& module_names, Diagnostics& found,
                std::vector<std::string>& reached, bool in_jit_function)
      : module_(module), ast_(module.ast()), module_names_(module_names), found_(found), reached_(reached),
        in_jit_function_(in_jit_function) {}

  void check(const ast::Function& function, const Scope* enclosing) {
    Scope scope{LocalNames(ast_).of(function), enclosing};
    block(function.body, scope);
  }

 private:
  void block(const std::vector<ast::StmtId>& body, const Scope& scope) {
    for (ast::StmtId id : body) statement(ast_[id], scope);
  }

  void statement(const ast::Stmt& stmt, const Scope& scope) {
    using ast::StmtKind;
    switch (stmt.kind) {
      case StmtKind::assign:
      case StmtKind::for_:
        for (ast::ExprId target : stmt.targets) assigned(target, scope);
        expression(stmt.value, scope);
        break;
      case StmtKind::aug_assign:
        for (ast::ExprId target : stmt.targets) expression(target, scope);  // read, then written
        expression(stmt.value, scope);
        break;
      case StmtKind::if_: {
        expression(stmt.value, scope);
        // A condition of module constants is decided before typing, as Numba prunes the branch
        // not taken (`if DEBUG:`): what that branch reads is never looked up.
        std::optional<bool> taken = decided(stmt.value, scope);
        if (taken.value_or(true)) block(stmt.body, scope);
        if (!taken.value_or(false)) block(stmt.orelse, scope);
        return;
      }
      case StmtKind::expr:
      case StmtKind::return_:
      case StmtKind::while_:
      case StmtKind::assert_: expression(stmt.value, scope); break;  // an assert's message is text
      case StmtKind::function_def:
        check(ast_.functions[static_cast<size_t>(stmt.function)], &scope);
        return;
      // A handler's class is Exception or refused (frontend/try_statement.h): nothing to look up.
      case StmtKind::try_except:
      case StmtKind::try_else:
      case StmtKind::try_finally: break;
      // `raise E(...)` is read as text (the exception's name and message), never looked up.
      case StmtKind::raise:
      case StmtKind::break_:
      case StmtKind::continue_:
      case StmtKind::pass:
      case StmtKind::error: return;
    }
    block(stmt.body, scope);
    block(stmt.orelse, scope);
  }

  std::optional<bool> decided(ast::ExprId condition, const Scope& scope) {
    if (reads_local(condition, scope)) return std::nullopt;
    auto value = module_.import_time_value(condition);
    if (!value) return std::nullopt;
    return value->truthy();
  }

  bool reads_local(ast::ExprId id, const Scope& scope) const {
    if (!id.valid()) return false;
    const ast::Expr& e = ast_[id];
    if (e.kind == ast::ExprKind::name) return scope.binds(e.text);
    for (ast::ExprId operand : e.operands)
      if (reads_local(operand, scope)) return true;
    for (const ast::Keyword& keyword : e.keywords)
      if (reads_local(keyword.value, scope)) return true;
    return false;
  }

  // An assignment's target: a name is bound, not read; `a[i] = v` reads a and i, `r.x = v`
  // reads r (what may be assigned, the type checker says: `cuda.p = 1` is no misspelling).
  void assigned(ast::ExprId target, const Scope& scope) {
    if (!target.valid()) return;
    const ast::Expr& e = ast_[target];
    switch (e.kind) {
      case ast::ExprKind::name: return;
      case ast::ExprKind::tuple:
      case ast::ExprKind::list:
      case ast::ExprKind::starred:
        for (ast::ExprId operand : e.operands) assigned(operand, scope);
        return;
      case ast::ExprKind::attribute: expression(e.operands[0], scope); return;
      default: expression(target, scope);
    }
  }

  void expression(ast::ExprId id, const Scope& scope) {
    if (!id.valid()) return;
    const ast::Expr& e = ast_[id];
    if (e.kind == ast::ExprKind::name) {
      name(e, scope);
      return;
    }
    if (e.kind == ast::ExprKind::attribute) return attribute_chain(id, scope);
    for (ast::ExprId operand : e.operands) expression(operand, scope);
    for (const ast::Keyword& keyword : e.keywords) expression(keyword.value, scope);
  }

  // The module-level meaning of a name no function around it binds, in the type checker's
  // order (FunctionChecker::check_name): a module function, an import, any other top-level
  // name, a builtin. An import's qualified name is returned, for its attributes to be checked.
  std::optional<std::string> name(const ast::Expr& e, const Scope& scope) {
    if (scope.binds(e.text)) return std::nullopt;
    if (module_.function(e.text)) {
      reached_.push_back(e.text);
      return std::nullopt;
    }
    if (auto qualified = module_.imported(e.text)) {
      imported_name(*qualified, e.range);
      return qualified;
    }
    if (module_names_.count(e.text) || is_python_builtin(e.text) || module_.has_star_import()) return std::nullopt;
    std::vector<std::string> candidates = module_.top_level_names();
    for (const Scope* s = &scope; s != nullptr; s = s->enclosing) candidates.insert(candidates.end(), s->names.begin(), s->names.end());
    for (const std::string& builtin : python_builtin_names()) candidates.push_back(builtin);
    std::string hint = did_you_mean(e.text, candidates);
    found_.error(DiagKind::unknown_name, module_.file(), e.range, "name '" + e.text + "' is not defined",
                 hint.empty() ? std::string(in_jit_function_ ? "@jit functions" : "kernels") +
                                    " see their parameters, their locals, module-level constants, functions and imports"
                              : hint);
    return std::nullopt;
  }

  // `from numba.cuda import gird`: the import names nothing pykern knows of a module it models.
  void imported_name(const std::string& qualified, SourceRange range) {
    if (!is_modelled(qualified) || is_known(qualified) || is_namespace(qualified)) return;
    size_t dot = qualified.rfind('.');
    if (dot == std::string::npos) return;
    if (auto d = unknown_module_attribute(module_.file(), qualified.substr(0, dot), qualified.substr(dot + 1), range,
                                          in_jit_function_))
      found_.add(std::move(*d));
  }

  // `cuda.atomic.add`, `np.random.uniform`, `a.shape`: rooted in an import, each attribute is
  // looked up while the chain names a module; past a value (a function, a constant), attributes
  // need types, and wait for the type checker.
  void attribute_chain(ast::ExprId id, const Scope& scope) {
    std::vector<ast::ExprId> attributes;
    ast::ExprId root = id;
    while (ast_[root].kind == ast::ExprKind::attribute) {
      attributes.push_back(root);
      root = ast_[root].operands[0];
    }
    if (ast_[root].kind != ast::ExprKind::name) return expression(root, scope);
    std::optional<std::string> qualified = name(ast_[root], scope);
    if (!qualified || !is_modelled(*qualified) || !is_namespace(*qualified)) return;
    std::string module_name = *qualified;
    for (auto it = attributes.rbegin(); it != attributes.rend(); ++it) {
      const ast::Expr& attribute = ast_[*it];
      if (is_known(module_name) || !is_namespace(module_name)) return;
      if (auto d = unknown_module_attribute(module_.file(), module_name, attribute.text, attribute.range,
                                            in_jit_function_)) {
        found_.add(std::move(*d));
        return;
      }
      module_name += "." + attribute.text;
    }
  }

  frontend::Module& module_;
  const ast::Ast& ast_;
  const std::set<std::string>& module_names_;
  Diagnostics& found_;
  std::vector<std::string>& reached_;
  bool in_jit_function_;
};

// How the findings of a walk are reported: as they are (a function compiled now), or as
// warnings that say which kernel or function cannot be compiled when it is.
struct Policy {
  bool as_warnings = false;
  std::string what;  // "kernel 'k'"
};

class Pass {
 public:
  Pass(frontend::Module& module, Diagnostics& out) : module_(module), out_(out) {
    std::vector<std::string> names = module.top_level_names();
    module_names_.insert(names.begin(), names.end());
  }

  // Checks `root` and every function it reaches that no earlier walk checked.
  void walk(const std::string& root, const Policy& policy) {
    std::deque<std::string> queue = {root};
    while (!queue.empty()) {
      std::string name = queue.front();
      queue.pop_front();
      if (!visited_.insert(name).second) continue;
      const frontend::ModuleFunction* function = module_.function(name);
      if (function == nullptr) continue;
      Diagnostics scratch, found;
      std::vector<std::string> reached;
      ast::Function lowered = module_.lowered_copy(name, scratch);
      FunctionNames(module_, module_names_, found, reached, is_jit_function(*function)).check(lowered, nullptr);
      queue.insert(queue.end(), reached.begin(), reached.end());
      // A construct pykern does not lower (`(n := 3)`, `with ... as f`, an import in the body, a
      // line that does not parse) may bind names the AST no longer shows: the lowering's own
      // errors say what is wrong there.
      if (scratch.has_errors()) continue;
      // What pykern writes (a host call's kernel, a ufunc's loop) is not the user's to fix.
      if (function->origin == frontend::Origin::user) report(found, policy);
    }
  }

  bool visited(const std::string& name) const { return visited_.count(name) > 0; }

 private:
  void report(const Diagnostics& found, const Policy& policy) {
    for (Diagnostic d : found.all()) {
      if (policy.as_warnings) {
        d.severity = Severity::warning;
        d.message = fmt::format("{} cannot be compiled: {}", policy.what, d.message);
      }
      out_.add(std::move(d));
    }
  }

  frontend::Module& module_;
  Diagnostics& out_;
  std::set<std::string> module_names_;
  std::set<std::string> visited_;
};

}  // namespace

bool is_jit_function(const frontend::ModuleFunction& function) {
  return function.decoration.role == frontend::FunctionRole::device && !function.decoration.device_only;
}

std::optional<Diagnostic> unknown_module_attribute(const SourceFile& file, const std::string& module_name,
                                                   const std::string& attr, SourceRange range, bool in_jit_function) {
  std::string qualified = module_name + "." + attr;
  if (!is_modelled(module_name) || !is_namespace(module_name) || is_known(module_name)) return std::nullopt;
  if (is_known(qualified) || is_namespace(qualified)) return std::nullopt;
  Diagnostic d{Severity::error, DiagKind::unknown_attribute, &file, range,
               fmt::format("unknown attribute '{}' of module '{}'", attr, module_name), {}};
  // NumPy 2.0 removed these aliases; Numba 0.68 runs with NumPy 2, where they fail as here.
  static const std::pair<const char*, const char*> removed_in_numpy2[] = {
      {"NINF", "-np.inf"}, {"PINF", "np.inf"},  {"NAN", "np.nan"},       {"Infinity", "np.inf"},
      {"infty", "np.inf"}, {"NZERO", "-0.0"},   {"PZERO", "0.0"},        {"float_", "np.float64"},
      {"Inf", "np.inf"},   {"NaN", "np.nan"}};
  if (module_name == "numpy") {
    for (const auto& [name, instead] : removed_in_numpy2) {
      if (attr != name) continue;
      d.message = fmt::format("np.{} was removed in NumPy 2.0, the NumPy Numba 0.68 runs with", attr);
      d.hint = fmt::format("use {}", instead);
      return d;
    }
  }
  d.hint = did_you_mean(attr, members(module_name));
  if (!d.hint.empty()) return d;  // a misspelling, most likely
  if (top_package(module_name) == "numba") {
    d.hint = fmt::format("{} has no such name, or none pykern supports in {}", module_name,
                         in_jit_function ? "@jit functions" : "kernels");
    return d;
  }
  // A library's function pykern does not support, or one the library does not have: the tables
  // hold what pykern supports, not all a library has, so the message cannot tell the two apart.
  d.kind = DiagKind::unknown_function;
  d.message = fmt::format("'{}' is not supported in {}", qualified, in_jit_function ? "@jit functions" : "kernels");
  if (top_package(module_name) != "numpy")
    d.hint = fmt::format("pykern supports no '{}' in {} (nor may Python have one)", attr, module_name);
  else if (in_jit_function)
    d.hint = "@jit functions support NumPy's array creation, reshaping and joining, ufuncs and array arithmetic, "
             "reductions (with axis=), sorting and searching, and np.linalg; the README lists them";
  else
    d.hint = "kernels support NumPy's scalar math functions and types, not array functions";
  return d;
}

void resolve_names(frontend::Module& module, const NameRoots& roots, Diagnostics& diagnostics) {
  Pass pass(module, diagnostics);
  for (const std::string& root : roots.compiled) pass.walk(root, {});
  // A function a compiled root reaches was checked above, its findings errors.
  for (const std::string& root : roots.deferred) pass.walk(root, {true, fmt::format("kernel '{}'", root)});
  if (!roots.unreached) return;
  // A device or @jit function no kernel calls is one Numba compiles only when it is called
  // (from a kernel, or from Python on the host), so nothing it reads is an error yet: a warning,
  // for the mistake is there when it is called. (Every kernel is a root above.)
  for (frontend::ModuleFunction* function : module.functions_in_order()) {
    if (function->decoration.role == frontend::FunctionRole::undecorated || pass.visited(function->name)) continue;
    pass.walk(function->name, {true, fmt::format("function '{}', which no kernel calls,", function->name)});
  }
}

}  // namespace pykern::sema
