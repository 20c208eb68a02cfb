#include "frontend/module.h"

#include "frontend/lower.h"
#include "syntax/nfkc.h"
#include "syntax/source_checks.h"

namespace pykern::frontend {

using syntax::Field;
using syntax::Node;

const char* to_string(FunctionRole role) {
  switch (role) {
    case FunctionRole::kernel: return "kernel";
    case FunctionRole::device: return "device function";
    case FunctionRole::vectorize: return "@vectorize ufunc";
    case FunctionRole::guvectorize: return "@guvectorize gufunc";
    case FunctionRole::reduce: return "@cuda.reduce reduction";
    case FunctionRole::undecorated: return "plain Python function";
  }
  return "function";
}

Module Module::build(const syntax::SyntaxTree& tree, Diagnostics& diagnostics) {
  Module module;
  module.tree_ = &tree;
  // Nothing below may read bytes CPython would not decode, recurse into a tree nested past the
  // limit, or trust a mis-indented one; nor translate a file CPython refuses to compile.
  if (!syntax::check_source_text(tree.file(), diagnostics) || !syntax::check_nesting(tree, diagnostics) ||
      !syntax::check_indentation(tree, diagnostics) || !syntax::check_python_rules(tree, diagnostics))
    return module;
  for (TSNode node : tree.named_children(tree.root())) {
    switch (tree.kind(node)) {
      case Node::import_statement: module.scan_import(node); break;
      case Node::import_from_statement: module.scan_import_from(node); break;
      case Node::function_definition: module.scan_function(node, {}, diagnostics); break;
      case Node::decorated_definition: {
        TSNode definition = tree.field(node, Field::definition);
        std::vector<TSNode> decorators;
        for (TSNode child : tree.named_children(node))
          if (tree.kind(child) == Node::decorator) decorators.push_back(child);
        if (tree.kind(definition) == Node::function_definition)
          module.scan_function(definition, decorators, diagnostics);
        break;
      }
      case Node::expression_statement: {
        TSNode inner = ts_node_named_child(node, 0);
        if (tree.kind(inner) == Node::assignment && module.scan_assignment(inner)) break;
        module.note_bindings(node);  // `N += 1`, `a, b = 1, 2`, `x = y = 3`
        break;
      }
      case Node::error:
        // Lines that do not parse are ignored (notebook magics, Python 2 prints), unless they
        // hold a definition: then a kernel is broken and the user must hear of it.
        if (holds_definition(tree, node)) tree.report_syntax_errors(node, diagnostics);
        break;
      default:
        // Host code, classes, `if __name__ == "__main__":` blocks: not evaluated, so a kernel
        // may not depend on a name they bind.
        module.note_bindings(node);
        break;
    }
  }
  return module;
}

bool Module::holds_definition(const syntax::SyntaxTree& tree, TSNode node) {
  for (TSNode child : syntax::SyntaxTree::children(node)) {
    if (tree.kind(child) == Node::decorator || tree.kind(child) == Node::function_definition ||
        tree.token(child) == syntax::Token::kw_def)
      return true;
    if (tree.kind(child) == Node::error && holds_definition(tree, child)) return true;
  }
  return false;
}

// `numba.cuda`, or a relative `.kernels`, with each name NFKC-normalised as Python binds it.
std::string Module::dotted_name(TSNode node) const { return syntax::nfkc_identifier(tree_->text(node)); }

// import_statement = 'import' (dotted_name | aliased_import) (',' ...)*
void Module::scan_import(TSNode node) {
  for (TSNode name : tree_->fields(node, Field::name)) {
    if (tree_->kind(name) == Node::aliased_import) {
      std::string qualified = dotted_name(tree_->field(name, Field::name));
      imports_[tree_->name(tree_->field(name, Field::alias))] = qualified;
    } else {
      // `import numba.cuda` binds `numba`; the attribute path resolves the rest.
      std::string dotted = dotted_name(name);
      std::string head = dotted.substr(0, dotted.find('.'));
      imports_[head] = head;
    }
  }
}

// import_from_statement = 'from' module_name 'import' (wildcard_import | name (',' name)*)
void Module::scan_import_from(TSNode node) {
  std::string module = dotted_name(tree_->field(node, Field::module_name));
  for (TSNode name : tree_->fields(node, Field::name)) {
    if (tree_->kind(name) == Node::aliased_import) {
      std::string member = dotted_name(tree_->field(name, Field::name));
      imports_[tree_->name(tree_->field(name, Field::alias))] = module + "." + member;
    } else {
      std::string member = dotted_name(name);
      imports_[member] = module + "." + member;
    }
  }
}

bool Module::scan_assignment(TSNode node) {
  TSNode left = tree_->field(node, Field::left);
  TSNode right = tree_->field(node, Field::right);
  if (tree_->kind(left) != Node::identifier || ts_node_is_null(right)) return false;
  if (tree_->kind(right) == Node::assignment) return false;  // chained: not a constant we fold
  ModuleGlobal global;
  global.name = tree_->name(left);
  global.value = right;
  global.range = syntax::SyntaxTree::range(node);
  // A later assignment rebinds: the last one wins, as Python's would at import time.
  globals_[global.name] = global;
  return true;
}

// The names a statement pykern does not evaluate binds at module level: assignment and loop
// targets, and functions and classes it defines (their bodies bind locals, not globals).
// Subscripts and attributes (`a[0] = 1`) mutate objects and bind nothing.
void Module::note_bindings(TSNode statement) {
  std::vector<std::pair<TSNode, bool>> stack = {{statement, false}};  // node, is a target
  while (!stack.empty()) {
    auto [node, target] = stack.back();
    stack.pop_back();
    Node kind = tree_->kind(node);
    if (kind == Node::error) continue;
    // `X[0] = 1`, `X.flat = ...` and `X.fill(0)` change the array X names without rebinding it.
    bool method_call = kind == Node::call && tree_->kind(tree_->field(node, Field::function)) == Node::attribute;
    if ((target && (kind == Node::subscript || kind == Node::attribute)) || method_call) {
      TSNode base = method_call ? tree_->field(tree_->field(node, Field::function), Field::object) : node;
      while (tree_->kind(base) == Node::subscript || tree_->kind(base) == Node::attribute)
        base = tree_->kind(base) == Node::subscript ? tree_->field(base, Field::value) : tree_->field(base, Field::object);
      if (tree_->kind(base) == Node::identifier)
        mutations_.emplace(tree_->name(base), syntax::SyntaxTree::range(statement));
      if (!method_call) continue;
    }
    if (kind == Node::subscript || kind == Node::attribute) continue;
    if (target && kind == Node::identifier) {
      opaque_bindings_.emplace(tree_->name(node), syntax::SyntaxTree::range(statement));
      continue;
    }
    if (kind == Node::function_definition || kind == Node::class_definition) {
      stack.push_back({tree_->field(node, Field::name), true});
      continue;
    }
    bool binds = kind == Node::assignment || kind == Node::augmented_assignment || kind == Node::for_statement;
    for (TSNode child : tree_->named_children(node)) {
      bool is_target = target || (binds && ts_node_eq(child, tree_->field(node, Field::left)));
      stack.push_back({child, is_target});
    }
  }
}

std::optional<SourceRange> Module::mutation(const std::string& name) const {
  auto found = mutations_.find(name);
  if (found == mutations_.end()) return std::nullopt;
  return found->second;
}

std::optional<SourceRange> Module::opaque_binding(const std::string& name) const {
  auto found = opaque_bindings_.find(name);
  if (found == opaque_bindings_.end()) return std::nullopt;
  return found->second;
}

void Module::scan_function(TSNode definition, const std::vector<TSNode>& decorators,
                           Diagnostics& diagnostics) {
  ModuleFunction function;
  function.name = tree_->name(tree_->field(definition, Field::name));
  function.definition = definition;
  function.decoration = read_decorators(decorators, diagnostics);
  if (!functions_.count(function.name)) function_order_.push_back(function.name);
  functions_[function.name] = std::move(function);
  globals_.erase(function.name);
}

std::optional<std::string> Module::imported(const std::string& local_name) const {
  auto found = imports_.find(local_name);
  if (found == imports_.end()) return std::nullopt;
  return found->second;
}

std::optional<std::string> Module::qualified_name(ast::ExprId id) const {
  if (!id.valid()) return std::nullopt;
  const ast::Expr& expr = ast_[id];
  if (expr.kind == ast::ExprKind::name) return imported(expr.text);
  if (expr.kind == ast::ExprKind::attribute) {
    auto base = qualified_name(expr.operands[0]);
    if (base) return *base + "." + expr.text;
  }
  return std::nullopt;
}

Decoration Module::read_decorators(const std::vector<TSNode>& decorators, Diagnostics& diagnostics) {
  Decoration decoration;
  for (TSNode decorator : decorators) {
    TSNode expression = ts_node_named_child(decorator, 0);
    if (ts_node_is_null(expression)) continue;
    ast::ExprId expr = lower_expression(*tree_, expression, ast_, diagnostics);
    bool is_call = ast_[expr].kind == ast::ExprKind::call;
    ast::ExprId callee = is_call ? ast_[expr].operands[0] : expr;
    auto name = qualified_name(callee);
    if (!name) continue;  // someone else's decorator: not ours to judge
    static const std::pair<const char*, FunctionRole> known[] = {
        {"numba.cuda.jit", FunctionRole::kernel},          {"numba.jit", FunctionRole::device},
        {"numba.njit", FunctionRole::device},              {"numba.vectorize", FunctionRole::vectorize},
        {"numba.guvectorize", FunctionRole::guvectorize},  {"numba.cuda.reduce", FunctionRole::reduce},
        {"numba.cuda.vectorize", FunctionRole::vectorize}, {"numba.cuda.guvectorize", FunctionRole::guvectorize},
        {"numba.core.decorators.jit", FunctionRole::device}};
    for (auto [qualified, role] : known) {
      if (*name != qualified) continue;
      decoration.role = role;
      decoration.range = syntax::SyntaxTree::range(decorator);
      if (is_call) read_decorator_call(expr, decoration, diagnostics);
    }
  }
  return decoration;
}

void Module::read_decorator_call(ast::ExprId call, Decoration& decoration, Diagnostics& diagnostics) {
  const ast::Expr& expr = ast_[call];
  // First positional argument: a signature, or a list of them.
  for (size_t i = 1; i < expr.operands.size(); ++i) {
    const ast::Expr& argument = ast_[expr.operands[i]];
    if (i == 1 && argument.kind == ast::ExprKind::list) {
      decoration.signatures = argument.operands;
    } else if (i == 1) {
      decoration.signatures.push_back(expr.operands[i]);
    } else if (i == 2 && decoration.role == FunctionRole::guvectorize &&
               argument.kind == ast::ExprKind::string) {
      decoration.gufunc_layout = argument.text;
    } else {
      diagnostics.error(DiagKind::bad_decorator, file(), argument.range,
                        "unexpected positional argument to the decorator",
                        "pass options by keyword, e.g. debug=True");
    }
  }
  auto flag = [&](const ast::Keyword& keyword, bool& out) {
    const ast::Expr& value = ast_[keyword.value];
    if (value.kind == ast::ExprKind::boolean) {
      out = value.int_value != 0;
    } else {
      diagnostics.error(DiagKind::bad_decorator, file(), value.range,
                        "'" + keyword.name + "' must be True or False");
    }
  };
  auto integer = [&](const ast::Keyword& keyword, std::optional<int>& out) {
    const ast::Expr& value = ast_[keyword.value];
    if (value.kind == ast::ExprKind::integer && value.int_value >= 0 && value.int_value < 1024) {
      out = static_cast<int>(value.int_value);
    } else if (value.kind == ast::ExprKind::boolean) {
      out = value.int_value ? 3 : 0;
    } else {
      diagnostics.error(DiagKind::bad_decorator, file(), value.range,
                        "'" + keyword.name + "' must be a small non-negative integer");
    }
  };
  for (const ast::Keyword& keyword : expr.keywords) {
    const ast::Expr& value = ast_[keyword.value];
    if (keyword.name == "device") {
      bool device = false;
      flag(keyword, device);
      if (device && decoration.role == FunctionRole::kernel) decoration.role = FunctionRole::device;
    } else if (keyword.name == "debug") {
      flag(keyword, decoration.debug);
    } else if (keyword.name == "fastmath") {
      flag(keyword, decoration.fastmath);
    } else if (keyword.name == "lineinfo") {
      flag(keyword, decoration.lineinfo);
    } else if (keyword.name == "cache") {
      flag(keyword, decoration.cache);
    } else if (keyword.name == "opt") {
      integer(keyword, decoration.opt);
    } else if (keyword.name == "max_registers") {
      integer(keyword, decoration.max_registers);
    } else if (keyword.name == "target" && value.kind == ast::ExprKind::string) {
      decoration.target = value.text;
    } else if (keyword.name == "signature" || keyword.name == "sig") {
      decoration.signatures.push_back(keyword.value);
    } else if (keyword.name == "inline" || keyword.name == "nopython" || keyword.name == "nogil" ||
               keyword.name == "forceinline" || keyword.name == "boundscheck") {
      // Accepted and without effect here: NVRTC inlines device functions on its own.
    } else if (keyword.name == "parallel") {
      flag(keyword, decoration.parallel);  // prange loops on a thread pool (sema/parallel_loops.h)
    } else if (keyword.name == "error_model") {
      // 'numpy': a division by zero gives inf, nan or 0 in host calls too (kernels always do).
      if (value.kind == ast::ExprKind::string && (value.text == "python" || value.text == "numpy"))
        decoration.error_model = value.text;
      else
        diagnostics.error(DiagKind::bad_decorator, file(), value.range, "error_model must be 'python' or 'numpy'");
    } else if (keyword.name == "_dbg_optnone" || keyword.name == "_dbg_extend_lifetimes" || keyword.name == "lto" ||
               keyword.name == "launch_bounds") {
      // numba-cuda's testing and tuning options: a kernel file that uses them still runs.
      diagnostics.warning(DiagKind::bad_decorator, file(), keyword.range,
                          "'" + keyword.name + "' is accepted and has no effect in pykern");
    } else {
      diagnostics.error(DiagKind::bad_decorator, file(), keyword.range,
                        "unsupported decorator option '" + keyword.name + "'",
                        "supported: device, debug, fastmath, lineinfo, opt, max_registers, cache, "
                        "inline, target");
    }
  }
}

ModuleFunction* Module::function(const std::string& name) {
  auto found = functions_.find(name);
  return found == functions_.end() ? nullptr : &found->second;
}

std::vector<ModuleFunction*> Module::functions_in_order() {
  std::vector<ModuleFunction*> result;
  for (const std::string& name : function_order_) result.push_back(&functions_.at(name));
  return result;
}

const ast::Function* Module::lowered_function(const std::string& name, Diagnostics& diagnostics) {
  ModuleFunction* function = this->function(name);
  if (function == nullptr) return nullptr;
  if (!function->lowered) {
    function->lowered = true;
    tree_->report_syntax_errors(function->definition, diagnostics);
    function->ast = lower_function(*tree_, function->definition, ast_, diagnostics);
  }
  return &function->ast;
}

ast::ExprId Module::global_value(const std::string& name, Diagnostics& diagnostics) {
  auto found = globals_.find(name);
  if (found == globals_.end()) return {};
  ModuleGlobal& global = found->second;
  if (!global.lowered) {
    global.lowered = true;
    tree_->report_syntax_errors(global.value, diagnostics);
    global.expr = lower_expression(*tree_, global.value, ast_, diagnostics);
  }
  return global.expr;
}

}  // namespace pykern::frontend
