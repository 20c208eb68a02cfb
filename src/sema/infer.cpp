// Inference of functions and statements. Expressions are in check_expr.cpp, calls of known
// functions in builtins.cpp (one builtins_*.cpp per family, runtime operations in calls.def),
// constant folding in constants.cpp.
#include <algorithm>
#include <utility>
#include <limits>

#include <fmt/format.h>

#include "sema/checker.h"
#include "sema/dictionaries.h"
#include "sema/text.h"
#include "sema/omitted_arguments.h"
#include "sema/branch_pruning.h"
#include "sema/fancy_index.h"
#include "sema/lists.h"
#include "sema/zero_d.h"
#include "sema/sequence_store.h"
#include "sema/host_float16.h"

namespace pykern::sema {

using ast::StmtKind;

std::string to_string(const Signature& signature) {
  std::string text = signature.return_type ? to_string(*signature.return_type) : "";
  text += "(";
  for (size_t i = 0; i < signature.arguments.size(); ++i)
    text += (i ? ", " : "") + to_string(signature.arguments[i]);
  return text + ")";
}

// ---------------------------------------------------------------- ProgramBuilder

namespace {

void visit_callees_first(const ir::Program& program, int index, std::vector<char>& visited, std::vector<int>& order) {
  if (visited[index]) return;
  visited[index] = 1;
  const ir::Function& f = program.functions[index];
  for (size_t i = 0; i < f.exprs.size(); ++i) {
    const ir::Expr& e = f.exprs[ir::ExprId(static_cast<uint32_t>(i))];
    if (e.kind == ir::ExprKind::device_call && e.callee >= 0) visit_callees_first(program, e.callee, visited, order);
  }
  order.push_back(index);
}

// A function's place is taken when its inference starts (a recursive call names it), so its
// callees come after it; the passes after inference and the emitted code want callees first.
// Within a recursion, the function called back comes after its caller: the C++ declares it.
void order_callees_first(ir::Program& program) {
  std::vector<char> visited(program.functions.size(), 0);
  std::vector<int> order;
  for (size_t i = 0; i < program.functions.size(); ++i) visit_callees_first(program, static_cast<int>(i), visited, order);
  std::vector<int> new_index(program.functions.size());
  for (size_t i = 0; i < order.size(); ++i) new_index[order[i]] = static_cast<int>(i);
  std::vector<ir::Function> ordered;
  ordered.reserve(order.size());
  for (int old : order) ordered.push_back(std::move(program.functions[old]));
  for (ir::Function& f : ordered)
    for (size_t i = 0; i < f.exprs.size(); ++i) {
      ir::Expr& e = f.exprs[ir::ExprId(static_cast<uint32_t>(i))];
      if (e.kind == ir::ExprKind::device_call && e.callee >= 0) e.callee = new_index[e.callee];
    }
  for (int& kernel : program.kernels) kernel = new_index[kernel];
  program.functions = std::move(ordered);
}

}  // namespace

ir::Program ProgramBuilder::take() {
  order_callees_first(program_);
  for (const ir::Function& f : program_.functions)
    for (size_t i = 0; i < f.exprs.size() && program_.host_calls; ++i) {
      const ir::Expr& e = f.exprs[ir::ExprId(static_cast<uint32_t>(i))];
      if (e.kind == ir::ExprKind::call && ir::call_has(e.op, ir::call_flag::allocates)) program_.owning_arrays = true;
    }
  return std::move(program_);
}


namespace {
std::string specialization_key(const std::string& name, const Signature& signature, bool is_kernel) {
  return name + (is_kernel ? "!k" : "!d") + to_string(signature);
}

// How many specialisations of one function may be in progress at once: a recursion whose
// argument types change at every call (f(x) calling f((x, x))) would never end.
constexpr int max_nested_specializations = 5;
// How many specialisations may be in progress at once in all: each is a level of inference's
// own recursion, and a chain of 1000 functions each calling the next overflowed the stack (of
// 8 MiB; 200 did in a sanitizer build, whose frames are several times larger).
constexpr size_t max_call_depth = 100;
}  // namespace

int ProgramBuilder::specialize(const std::string& name, const Signature& signature, bool is_kernel,
                               SourceRange call_range) {
  std::string key = specialization_key(name, signature, is_kernel);
  if (auto found = done_.find(key); found != done_.end()) return found->second;
  for (const Active& active : active_) {
    if (active.key != key) continue;
    ++active_stack_reads_;
    return active.index;  // recursion: the function being inferred
  }
  if (active_.size() >= max_call_depth) {
    diagnostics_.error(DiagKind::recursion, module_.file(), call_range,
                       fmt::format("calling '{}' nests {} function calls, each calling the next; pykern follows "
                                   "at most {}", name, active_.size() + 1, max_call_depth),
                       "fold some of the chain's functions together");
    return -1;
  }
  long nested = std::count_if(active_.begin(), active_.end(), [&](const Active& a) { return a.name == name; });
  if (nested > 0) ++active_stack_reads_;
  if (nested >= max_nested_specializations) {
    diagnostics_.error(DiagKind::recursion, module_.file(), call_range,
                       fmt::format("'{}' calls itself with argument types that change at every call; "
                                   "after {} levels they are still not resolved",
                                   name, nested),
                       "pass arguments of the same types to the recursive call");
    return -1;
  }
  frontend::ModuleFunction* function = this->function(name);
  const ast::Function* ast = function ? lowered_function(name) : nullptr;
  if (ast == nullptr) {
    diagnostics_.error(DiagKind::internal_error, module_.file(), call_range,
                       "no function named '" + name + "' in " + module_.file().display_name());
    return -1;
  }
  if (function->decoration.object_mode) {
    diagnostics_.error(DiagKind::unsupported_operation, module_.file(), *function->decoration.object_mode,
                       "'" + name + "' asks for Numba's object mode (forceobj=True), which runs it in the Python "
                       "interpreter; pykern compiles without one",
                       "drop forceobj=True so that it compiles in nopython mode, or keep it out of the code pykern runs");
    return -1;
  }
  for (const ast::Parameter& parameter : ast->parameters) {
    if (!is_kernel || !parameter.star) continue;
    diagnostics_.error(DiagKind::unsupported_syntax, module_.file(), parameter.range,
                       "parameter '*" + parameter.name + "' is not supported in a kernel: a launch passes a fixed "
                       "list of arguments",
                       "name each parameter; *args works in a device function (or a kernel called from one)");
    return -1;
  }
  // Numba's dead-branch pruning, before anything is typed: `if hi is None:` for hi=None.
  std::vector<ArgumentFact> facts = argument_facts(*this, module_.ast(), *ast, signature);
  if (auto pruned = prune_dead_branches(module_.ast(), *ast, facts)) ast = &with_defaults_.emplace_back(std::move(*pruned));
  if (auto renamed = rebound_none_parameters(module_.ast(), *ast, facts, signature.arguments.size()))
    ast = &with_defaults_.emplace_back(std::move(*renamed));
  if (!is_kernel && signature.arguments.size() < ast->parameters.size() &&
      omitted_have_defaults(*ast, signature.arguments.size())) {
    // A host call leaving parameters to their defaults (only entries are typed with fewer).
    ast = &with_defaults_.emplace_back(with_defaults_bound(module_.ast(), *ast, signature.arguments.size()));
  }
  if (signature.arguments.size() != ast->parameters.size()) {
    diagnostics_.error(DiagKind::signature_mismatch, module_.file(), call_range,
                       fmt::format("'{}' takes {} argument{} but the signature gives {}", name,
                                   ast->parameters.size(), ast->parameters.size() == 1 ? "" : "s",
                                   signature.arguments.size()));
    return -1;
  }
  // The function's place is taken now, so that a recursive call inside it can name it; its
  // callees come after it.
  int index = static_cast<int>(program_.functions.size());
  program_.functions.emplace_back();
  program_.functions.back().python_name = name;
  program_.functions.back().return_type = Type::void_();
  size_t errors_before = diagnostics_.error_count();
  FunctionChecker checker(*this, *function, *ast, signature, is_kernel);
  active_.push_back({key, name, index, &checker});
  bool types_only = std::exchange(types_only_, false);  // for this function, not its callees
  ir::Function result = checker.run(types_only);
  active_.pop_back();
  // Reported already: the callers stay silent rather than report what follows from it. The
  // reserved place stays an empty function, since the callees after it keep their indices.
  bool failed = diagnostics_.error_count() > errors_before;
  done_[key] = failed ? -1 : index;
  if (!failed) program_.functions[index] = std::move(result);
  program_.functions[index].specialization = specialization_count_[name]++;
  return failed ? -1 : index;
}

bool ProgramBuilder::is_being_inferred(const std::string& name) {
  bool active = std::any_of(active_.begin(), active_.end(), [&](const Active& a) { return a.name == name; });
  if (active) ++active_stack_reads_;
  return active;
}

std::optional<ProgramBuilder::RecursiveCall> ProgramBuilder::recursive_call(const std::string& name,
                                                                              const Signature& signature) {
  std::string key = specialization_key(name, signature, false);
  for (const Active& active : active_)
    if (active.key == key) {
      ++recursive_calls_;
      ++active_stack_reads_;
      return RecursiveCall{active.index, active.checker->partial_return_type()};
    }
  return std::nullopt;
}

frontend::ModuleFunction* ProgramBuilder::function(const std::string& name) {
  if (auto inner = inner_functions_.find(name); inner != inner_functions_.end()) return &inner->second;
  return module_.function(name);
}

const ast::Function* ProgramBuilder::lowered_function(const std::string& name) {
  if (auto inner = inner_functions_.find(name); inner != inner_functions_.end()) return &inner->second.ast;
  return module_.lowered_function(name, diagnostics_);
}

std::string ProgramBuilder::inner_function(const frontend::ModuleFunction& enclosing, const ast::Function& enclosing_ast,
                                           int index) {
  const ast::Function& definition = module_.ast().functions[index];
  std::string name = enclosing_ast.name + ".<locals>." + definition.name;
  if (inner_functions_.count(name)) return name;
  frontend::ModuleFunction inner;
  inner.name = name;
  inner.decoration = enclosing.decoration;
  inner.decoration.role = frontend::FunctionRole::device;
  inner.decoration.signatures.clear();
  inner.lowered = true;
  inner.ast = definition;
  inner.ast.name = name;
  inner_functions_.emplace(name, std::move(inner));
  return name;
}

std::string ProgramBuilder::frozen_inner_function(const std::string& name,
                                                  const std::vector<FrozenVariable>& values) {
  std::vector<std::string> parts;
  for (const FrozenVariable& v : values)
    parts.push_back(v.is_bool ? fmt::format("{}={}", v.name, v.value.as_int() ? "True" : "False")
                              : fmt::format("{}={}", v.name, v.value.as_int()));
  std::string frozen_name = fmt::format("{}[{}]", name, fmt::join(parts, ", "));
  if (inner_functions_.count(frozen_name)) return frozen_name;
  frontend::ModuleFunction frozen = inner_functions_.at(name);
  frozen.name = frozen_name;
  frozen.ast.name = frozen_name;
  for (const FrozenVariable& v : values) {
    for (ast::Parameter& parameter : frozen.ast.parameters) {
      if (parameter.name != v.name) continue;
      ast::Expr literal;
      literal.kind = v.is_bool ? ast::ExprKind::boolean : ast::ExprKind::integer;
      literal.int_value = v.value.as_int();
      literal.range = parameter.range;
      parameter.default_value = module_.ast().exprs.add(std::move(literal));
    }
  }
  frozen.ast.captured.clear();  // the values go with it now
  inner_functions_.emplace(frozen_name, std::move(frozen));
  return frozen_name;
}

std::optional<Type> ProgramBuilder::tentative_return_type(const std::string& name,
                                                          const Signature& signature,
                                                          SourceRange call_range) {
  // The type depends only on the function and its argument types, unless the functions being
  // inferred (a recursion) had a say: without the cache, each round of each caller in a chain
  // of calls would infer the whole chain below it again, exponentially in its length.
  std::string key = specialization_key(name, signature, false);
  if (auto cached = tentative_types_.find(key); cached != tentative_types_.end()) return cached->second;
  size_t stack_reads = active_stack_reads_;
  size_t functions = program_.functions.size();
  auto done = done_;
  auto counts = specialization_count_;
  // Its rounds alone give the type; its reporting pass would infer its callees for good, each
  // of them again in the caller's own reporting pass: in a chain of calls, quadratic work.
  types_only_ = true;
  int index = specialize(name, signature, false, call_range);
  types_only_ = false;
  std::optional<Type> type;
  if (index >= 0) type = program_.functions[index].return_type;
  program_.functions.resize(functions);
  done_ = std::move(done);
  specialization_count_ = std::move(counts);
  if (active_stack_reads_ == stack_reads) tentative_types_[key] = type;
  return type;
}

// ---------------------------------------------------------------- FunctionChecker

FunctionChecker::FunctionChecker(ProgramBuilder& program, const frontend::ModuleFunction& function,
                                 const ast::Function& ast, const Signature& signature, bool is_kernel)
    : program_(program), module_function_(function), ast_(ast), signature_(signature),
      is_kernel_(is_kernel) {}

Diagnostics& FunctionChecker::diagnostics() { return program_.diagnostics(); }
frontend::Module& FunctionChecker::module() { return program_.module(); }
const SourceFile& FunctionChecker::file() { return program_.module().file(); }

void FunctionChecker::error(DiagKind kind, SourceRange range, std::string message, std::string hint) {
  diagnostics().error(kind, file(), range, std::move(message), std::move(hint));
}

uint32_t FunctionChecker::line_of(SourceRange range) { return file().position(range.begin).line; }

namespace {
// Whether control can reach the end of `body` (and so return None there). Loops count as
// reachable ends; only return, raise and an if whose branches both end so do not.
bool has_break(const ast::Ast& tree, const std::vector<ast::StmtId>& body) {
  for (ast::StmtId id : body) {
    const ast::Stmt& stmt = tree[id];
    if (stmt.kind == StmtKind::break_) return true;
    bool nested_loop = stmt.kind == StmtKind::for_ || stmt.kind == StmtKind::while_;
    if ((!nested_loop && has_break(tree, stmt.body)) || has_break(tree, stmt.orelse)) return true;
  }
  return false;
}

bool may_fall_off(const ast::Ast& tree, const std::vector<ast::StmtId>& body) {
  if (body.empty()) return true;
  const ast::Stmt& last = tree[body.back()];
  if (last.kind == StmtKind::return_ || last.kind == StmtKind::raise) return false;
  if (last.kind == StmtKind::if_ && !last.orelse.empty())
    return may_fall_off(tree, last.body) || may_fall_off(tree, last.orelse);
  // The handler may run from any point of a try block; a finally block runs after the body.
  if (last.kind == StmtKind::try_except) return may_fall_off(tree, last.body) || may_fall_off(tree, last.orelse);
  if (last.kind == StmtKind::try_else) return may_fall_off(tree, last.body);
  if (last.kind == StmtKind::try_finally) return may_fall_off(tree, last.body) && may_fall_off(tree, last.orelse);
  bool loop = last.kind == StmtKind::for_ || last.kind == StmtKind::while_;
  if (loop && !has_break(tree, last.body)) {
    // The loop ends through its else branch, or (while True) not at all.
    if (!last.orelse.empty() && !may_fall_off(tree, last.orelse)) return false;
    const ast::Expr& condition = tree[last.value];
    bool forever = last.kind == StmtKind::while_ &&
                   ((condition.kind == ast::ExprKind::boolean || condition.kind == ast::ExprKind::integer) &&
                    condition.int_value != 0);
    if (forever) return false;
  }
  return true;
}
}  // namespace

ir::Function FunctionChecker::run(bool types_only) {
  const frontend::Decoration& decoration = module_function_.decoration;
  function_.python_name = ast_.name;
  function_.role = module_function_.decoration.role;
  function_.is_kernel = is_kernel_;
  function_.argument_types = signature_.arguments;
  function_.range = ast_.range;
  function_.first_line = line_of(ast_.name_range);
  function_.options.debug = decoration.debug || program_.force_debug();
  // Numba compiles a ufunc's function with the 'numpy' error model: x / 0 is inf or nan.
  bool ufunc_body = decoration.role == frontend::FunctionRole::vectorize ||
                    decoration.role == frontend::FunctionRole::guvectorize;
  function_.options.checks_division =
      function_.options.debug || (program_.host_calls() && decoration.error_model != "numpy" && !ufunc_body);
  function_.options.raises = function_.options.debug || program_.host_calls();
  function_.options.fastmath = decoration.fastmath;
  function_.options.boundscheck = decoration.boundscheck;
  function_.options.lineinfo = decoration.lineinfo;
  function_.options.opt = decoration.opt.value_or(3);
  function_.options.max_registers = decoration.max_registers.value_or(0);
  function_.parallel = decoration.parallel && !is_kernel_;
  for (size_t i = 0; i < ast_.parameters.size(); ++i) {
    if (signature_.arguments[i].is(TypeKind::static_value)) {
      static_parameters_[ast_.parameters[i].name] = program_.static_value(signature_.arguments[i]);
      continue;
    }
    ir::Local local{ast_.parameters[i].name, signature_.arguments[i], true, false};
    local_index_[local.name] = static_cast<int>(function_.locals.size());
    function_.parameters.push_back(static_cast<int>(function_.locals.size()));
    function_.locals.push_back(local);
  }
  if (!program_.host_calls()) refuse_zero_d_parameters(*this, ast_, signature_.arguments);
  webs_ = find_webs(module().ast(), ast_);
  collect_inner_defs(ast_.body);
  if (!is_kernel_ && may_fall_off(module().ast(), ast_.body)) returns_none_ = true;
  collect_locals(ast_.body);
  make_merge_locals();
  size_t named_locals = function_.locals.size();

  // Rounds with diagnostics muted until the local types stop changing, then one that reports.
  // Webs of one name that came out with one type are one variable again (fewer names in the
  // CUDA), and the rounds run again on the merged locals.
  bool was_muted = diagnostics().muted();
  diagnostics().set_muted(true);
  bool settled = true;
  size_t recursive_calls_before = program_.recursive_calls();
  auto type_rounds = [&] {
    settled = false;
    for (int round = 0; round < 32 && !settled; ++round) {
      changed_ = false;
      function_.exprs = {};
      function_.stmts = {};
      function_.body.clear();
      function_.locals.resize(named_locals);
      temporaries_ = 0;
      next_loop_id_ = 0;
      check_function_body();
      settled = !changed_;
    }
  };
  type_rounds();
  function_.locals.resize(named_locals);
  if (merge_equal_webs()) {
    named_locals = function_.locals.size();
    type_rounds();
  }
  diagnostics().set_muted(was_muted);
  // A recursion whose return type holds the type before it (return (n, f(n - 1))) grows a new
  // type every round; Numba refuses it ("does not converge").
  if (!settled && program_.recursive_calls() > recursive_calls_before) {
    error(DiagKind::recursion, ast_.name_range,
          "the return type of recursive '" + ast_.name + "' does not converge: every recursive call returns a type "
          "that holds the one before it",
          "return values of one type on every path");
    function_.return_type = Type::void_();
    return std::move(function_);
  }
  if (types_only) {
    function_.return_type = is_kernel_ ? Type::void_() : signature_.return_type.value_or(return_type_now());
    return std::move(function_);
  }
  final_round_ = true;
  assigned_.assign(function_.locals.size(), false);
  poisoned_.assign(function_.locals.size(), false);
  for (int parameter : function_.parameters) assigned_[parameter] = true;
  function_.exprs = {};
  function_.stmts = {};
  function_.body.clear();
  function_.locals.resize(named_locals);
  temporaries_ = 0;
  next_loop_id_ = 0;
  check_function_body();
  if (program_.host_calls() && origin() == frontend::Origin::user && !is_kernel_)
    refuse_float16_on_cpu(*this, ast_, signature_.arguments, function_);
  if (is_kernel_) {
    function_.return_type = Type::void_();
  } else if (signature_.return_type) {
    function_.return_type = *signature_.return_type;
  } else {
    function_.return_type = return_type_now();
  }
  return std::move(function_);
}

void FunctionChecker::collect_inner_defs(const std::vector<ast::StmtId>& body) {
  const ast::Ast& tree = module().ast();
  for (ast::StmtId id : body) {
    const ast::Stmt& stmt = tree[id];
    if (stmt.kind == StmtKind::function_def) inner_defs_.emplace(tree.functions[stmt.function].name, stmt.function);
    collect_inner_defs(stmt.body);
    collect_inner_defs(stmt.orelse);
  }
}

// Python scoping: every name bound anywhere in the body is a local of the whole function.
void FunctionChecker::collect_locals(const std::vector<ast::StmtId>& body) {
  const ast::Ast& tree = module().ast();
  for (ast::StmtId id : body) {
    const ast::Stmt& stmt = tree[id];
    if (stmt.kind == StmtKind::assign || stmt.kind == StmtKind::for_ || stmt.kind == StmtKind::aug_assign)
      for (ast::ExprId target : stmt.targets) collect_target_names(target);
    collect_locals(stmt.body);
    collect_locals(stmt.orelse);
  }
}

void FunctionChecker::collect_target_names(ast::ExprId target) {
  const ast::Expr& e = module().ast()[target];
  int web = webs_.web_of(target);
  std::string key = web_key(e.text, web);
  if (e.kind == ast::ExprKind::name && !local_index_.count(key)) {
    local_index_[key] = static_cast<int>(function_.locals.size());
    function_.locals.push_back({e.text, Type::unknown(), false, false, web});
  } else if (e.kind == ast::ExprKind::tuple) {
    for (ast::ExprId element : e.operands) collect_target_names(element);
  }
}

// Merges (sema/webs.h) have no target that names them: their locals are made here, after the
// definitions' (a static parameter has no local: its first web is its value).
void FunctionChecker::make_merge_locals() {
  for (const auto& [name, count] : webs_.web_counts())
    for (int web = 0; web < count; ++web) {
      std::string key = web_key(name, web);
      if (local_index_.count(key) || (web == 0 && static_parameters_.count(name))) continue;
      local_index_[key] = static_cast<int>(function_.locals.size());
      function_.locals.push_back({name, Type::unknown(), false, false, web});
    }
}

// The body, after each parameter has written the merges it reaches (def f(n): if n < 0: n = 0.5
// converts n to the float64 merge on entry, as Numba's phi node does).
void FunctionChecker::check_function_body() {
  std::vector<ir::StmtId>* saved = current_block_;
  current_block_ = &function_.body;
  for (const ast::Parameter& parameter : ast_.parameters) {
    int local = local_named(parameter.name);
    if (local >= 0 && function_.locals[local].is_parameter)
      feed_merges(parameter.name, webs_.merges_fed_by_parameter(parameter.name), local, parameter.range);
  }
  current_block_ = saved;
  check_block(ast_.body, function_.body);
}

// A definition also writes each merge it belongs to, converted to the merge's type, so a read of
// the merge sees the latest definition whichever path led there.
void FunctionChecker::feed_merges(const std::string& name, const std::vector<int>& merges, int version,
                                  SourceRange range) {
  for (int web : merges) {
    int merge = local_of_web(name, web);
    if (merge < 0 || merge == version || !function_.locals[version].type.known()) continue;
    Type from = function_.locals[version].type;
    set_local_type(merge, from, range);
    const Type& to = function_.locals[merge].type;
    if (!to.known() || !unify(to, from)) continue;  // reported by set_local_type
    ir::Expr target;
    target.kind = ir::ExprKind::local;
    target.local = merge;
    target.type = to;
    target.range = range;
    ir::Stmt store;
    store.kind = ir::StmtKind::assign;
    store.range = range;
    store.target = add(std::move(target));
    store.value = cast_expr(read_local(version, range).expr, to);
    emit_stmt(std::move(store));
  }
}

int FunctionChecker::local_of_web(const std::string& name, int web) {
  auto found = local_index_.find(web_key(name, web));
  if (found == local_index_.end()) return -1;
  auto renamed = local_renames_.find(found->second);  // a version of a literal_unroll body (sema/unroll.cpp)
  return renamed == local_renames_.end() ? found->second : renamed->second;
}

int FunctionChecker::local_named(const std::string& name) const {
  auto found = local_index_.find(name);
  return found == local_index_.end() ? -1 : found->second;
}

// After typing: the webs (versions and merges) of a name that have one type become one local
// again, so a variable is split only where Numba's SSA versions really differ in type. Sharing a
// variable is safe: every definition writes its version's and its merges' variables, so each
// holds the latest definition where it is read. Returns whether anything merged; locals are
// renumbered then.
bool FunctionChecker::merge_equal_webs() {
  std::map<std::string, std::vector<int>> webs_of_name;
  for (size_t i = 0; i < function_.locals.size(); ++i) webs_of_name[function_.locals[i].name].push_back(static_cast<int>(i));
  std::vector<int> representative(function_.locals.size());
  bool merged = false;
  for (const auto& [name, indices] : webs_of_name) {
    // The first local of each type represents it: a parameter's, as it was made first.
    std::vector<int> firsts;
    for (int i : indices) {
      auto same = std::find_if(firsts.begin(), firsts.end(),
                               [&](int f) { return function_.locals[f].type == function_.locals[i].type; });
      bool first_of_type = same == firsts.end();
      representative[i] = first_of_type ? i : *same;
      merged = merged || !first_of_type;
      if (first_of_type) firsts.push_back(i);
    }
  }
  if (!merged) return false;
  std::vector<ir::Local> kept;
  std::vector<int> renumbered(function_.locals.size(), -1);
  for (size_t i = 0; i < function_.locals.size(); ++i) {
    if (representative[i] != static_cast<int>(i)) continue;
    renumbered[i] = static_cast<int>(kept.size());
    kept.push_back(function_.locals[i]);
  }
  for (auto& [key, index] : local_index_) index = renumbered[representative[index]];
  for (int& parameter : function_.parameters) parameter = renumbered[representative[parameter]];
  // Versions count the webs that stayed apart: 0, 1, 2, ... per name.
  std::map<std::string, int> versions;
  for (ir::Local& local : kept) local.version = versions[local.name]++;
  function_.locals = std::move(kept);
  literal_locals_.clear();
  return true;
}

int FunctionChecker::local_at(ast::ExprId occurrence) {
  const ast::Expr& e = module().ast()[occurrence];
  auto found = local_index_.find(web_key(e.text, webs_.web_of(occurrence)));
  int local = found == local_index_.end() ? local_named(e.text) : found->second;
  auto renamed = local_renames_.find(local);  // a version of a literal_unroll body (sema/unroll.cpp)
  return renamed == local_renames_.end() ? local : renamed->second;
}

int FunctionChecker::new_temporary(const Type& type) {
  ir::Local local{fmt::format("tmp{}", temporaries_++), type, false, true};
  function_.locals.push_back(local);
  return static_cast<int>(function_.locals.size() - 1);
}

Value FunctionChecker::read_local(int local, SourceRange range) {
  ir::Expr read;
  read.kind = ir::ExprKind::local;
  read.local = local;
  read.type = function_.locals[local].type;
  read.range = range;
  return value_of(add(std::move(read)));
}

Value FunctionChecker::store_in_temporary(const Value& value, SourceRange range) {
  int temp = new_temporary(value.type);
  ir::Stmt store;
  store.kind = ir::StmtKind::assign;
  store.range = range;
  store.target = read_local(temp, range).expr;
  store.value = value.expr;
  emit_stmt(std::move(store));
  return read_local(temp, range);
}

void FunctionChecker::check_loop_body(const ir::Stmt& loop, const std::vector<ast::StmtId>& body,
                                      std::vector<ir::StmtId>& out) {
  loop_stack_.push_back(loop.loop_id);
  loop_else_stack_.push_back(loop.loop_has_else);
  check_block(body, out);
  loop_stack_.pop_back();
  loop_else_stack_.pop_back();
}

void FunctionChecker::learn_list_type(const Value& list, const Type& type) {
  if (list.kind != Value::Kind::expr || expr(list.expr).kind != ir::ExprKind::local) return;
  set_local_type(expr(list.expr).local, type, expr(list.expr).range);
}

void FunctionChecker::set_local_type(int local, const Type& type, SourceRange range) {
  ir::Local& target = function_.locals[local];
  if (final_round_ && static_cast<size_t>(local) < assigned_.size()) assigned_[local] = true;
  if (!type.known()) return;
  if (target.is_parameter) {
    // A parameter's own version keeps its argument's type (a value of another type assigned to
    // the name is a version of its own, sema/webs.h); only versions of its type share its local.
    if (!unify(target.type, type) || *unify(target.type, type) != target.type)
      error(DiagKind::type_mismatch, range,
            fmt::format("cannot assign a value of type '{}' to parameter '{}' of type '{}'",
                        to_string(type), target.name, to_string(target.type)));
    return;
  }
  auto unified = unify(target.type, type);
  if (!unified) {
    error(DiagKind::type_mismatch, range,
          fmt::format("'{}' is assigned a '{}' here but a '{}' elsewhere", target.name,
                      to_string(type), to_string(target.type)),
          "where both values can reach one use (after an if or around a loop) a variable has one type, as "
          "in Numba; use a new name for the other value");
    return;
  }
  if (*unified != target.type) {
    target.type = *unified;
    changed_ = true;
  }
}

void FunctionChecker::emit_stmt(ir::Stmt stmt) {
  if (stmt.line == 0) stmt.line = line_of(stmt.range);
  current_block_->push_back(add(std::move(stmt)));
}

void FunctionChecker::check_block(const std::vector<ast::StmtId>& body, std::vector<ir::StmtId>& out) {
  std::vector<ir::StmtId>* saved = current_block_;
  current_block_ = &out;
  // What follows a statement that always leaves the block (a return, or an `if lo is None:
  // return x` whose condition is known) is dead: Numba removes it with the pruned branch before
  // typing, so `min(x, hi)` after `if hi is None: return x` is never typed for hi=None.
  block_left_ = false;
  for (ast::StmtId id : body) {
    check_stmt(id);
    if (block_left_) break;
  }
  current_block_ = saved;
}

void FunctionChecker::check_stmt(ast::StmtId id) {
  const ast::Stmt& stmt = module().ast()[id];
  block_left_ = stmt.kind == StmtKind::return_ || stmt.kind == StmtKind::raise || stmt.kind == StmtKind::break_ ||
                stmt.kind == StmtKind::continue_;
  switch (stmt.kind) {
    case StmtKind::expr: check_expr_stmt(stmt); return;
    case StmtKind::assign: check_assign(stmt); return;
    case StmtKind::aug_assign: check_aug_assign(stmt); return;
    case StmtKind::if_: check_if(stmt); return;
    case StmtKind::for_: check_for(stmt); block_left_ = false; return;
    case StmtKind::while_: check_while(stmt); block_left_ = false; return;
    case StmtKind::return_: check_return(stmt); return;
    case StmtKind::assert_: check_assert(stmt); return;
    case StmtKind::pass:
    case StmtKind::function_def:  // compiled where it is called (ProgramBuilder::inner_function)
    case StmtKind::error: return;
    case StmtKind::break_:
    case StmtKind::continue_: {
      if (loop_stack_.empty()) {
        error(DiagKind::syntax_error, stmt.range,
              std::string("'") + (stmt.kind == StmtKind::break_ ? "break" : "continue") + "' outside a loop");
        return;
      }
      ir::Stmt out;
      out.kind = stmt.kind == StmtKind::break_ ? ir::StmtKind::break_ : ir::StmtKind::continue_;
      out.range = stmt.range;
      out.loop_id = loop_stack_.back();
      out.loop_has_else = loop_else_stack_.back();
      emit_stmt(std::move(out));
      return;
    }
    case StmtKind::raise: {
      ir::Stmt out = raised(stmt);
      emit_stmt(std::move(out));
      return;
    }
    case StmtKind::try_except:
    case StmtKind::try_else:
    case StmtKind::try_finally:  // its blocks' own leaving says nothing of the statement's: never dead after
      check_try(stmt);
      block_left_ = false;
      return;
  }
}

// One value of a print() call, as numba-cuda formats it: integers with %lld/%llu, floats with
// %f, booleans as True/False (%s), tuples as (a, b) or (a,).
void FunctionChecker::print_pieces(const Value& value, SourceRange range, std::vector<PrintPiece>& out) {
  const Type& type = value.type;
  if (type.is(TypeKind::boolean)) {
    out.push_back({"", "%s", make_call(ir::Op::bool_text, {value.expr}, Type::string(), range).expr, range});
  } else if (type.is(TypeKind::integer)) {
    out.push_back({"", type.is_signed ? "%lld" : "%llu", cast_expr(value.expr, type.is_signed ? Type::i64() : Type::u64()),
                   range});
  } else if (is_text(value)) {  // a string value (host only): its bytes
    out.push_back({"", "%s", value.expr, range});
  } else if (type.is(TypeKind::floating) && on_host()) {  // Numba's CPU print: Python's repr
    out.push_back({"", "%s", make_call(ir::Op::repr_float, {cast_expr(value.expr, Type::f64())}, Type::string(), range).expr,
                   range});
  } else if (type.is(TypeKind::floating)) {
    out.push_back({"", "%f", cast_expr(value.expr, Type::f64()), range});
  } else if (type.is(TypeKind::tuple) && !type.elements.empty()) {
    out.push_back({"(", "", {}, range});
    for (size_t i = 0; i < type.elements.size(); ++i) {
      if (i > 0) out.push_back({", ", "", {}, range});
      Value item = element_of_tuple(value, i, range);
      if (is_text(item)) item = make_call(ir::Op::repr_str, {item.expr}, Type::string(), range);  // ('a', 1)
      print_pieces(item, range, out);
    }
    out.push_back({type.elements.size() == 1 ? ",)" : ")", "", {}, range});
  } else if (type.is(TypeKind::list) && on_host() && printable_list(type)) {  // ['a', 1.5] (text_methods.cuh)
    out.push_back({"", "%s", make_call(ir::Op::list_repr, {value.expr}, Type::string(), range).expr, range});
  } else if (on_host()) {
    print_on_host(*this, value, range, out);  // None, complex, dicts, lists of tuples (sema/text_print.cpp)
  } else {
    error(DiagKind::unsupported_operation, range,
          "print() in a kernel takes numbers, booleans, tuples of them and string literals, not '" +
              to_string(type) + "'");
  }
}

namespace {

// CUDA's printf formats at most this many values; it prints the conversions of the others as
// they are. numba-cuda's print() of more items than this prints its whole format raw instead.
constexpr size_t cuda_printf_values = 32;

std::string printf_text(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

// The value piece after `n` others, if there is one.
const PrintPiece* value_after(const std::vector<PrintPiece>& pieces, size_t n) {
  for (const PrintPiece& piece : pieces)
    if (!piece.conversion.empty() && n-- == 0) return &piece;
  return nullptr;
}

// `pieces` as one printf: the first `formatted` values converted, the conversions of the others
// printed as text, their values evaluated only.
ir::Stmt printf_statement(const std::vector<PrintPiece>& pieces, size_t formatted, SourceRange range) {
  ir::Stmt out;
  out.kind = ir::StmtKind::print;
  out.range = range;
  std::vector<ir::ExprId> evaluated_only;
  size_t values = 0;
  for (const PrintPiece& piece : pieces) {
    if (piece.conversion.empty()) {
      out.message += printf_text(piece.text);
    } else if (values++ >= formatted) {
      out.message += printf_text(piece.conversion);
      if (piece.value.valid()) evaluated_only.push_back(piece.value);
    } else if (!piece.value.valid()) {
      out.message += printf_text(piece.text);  // a string literal: its text, as %s prints it
    } else {
      out.message += piece.conversion;
      out.args.push_back(piece.value);
    }
  }
  out.printed_args = out.args.size();
  out.args.insert(out.args.end(), evaluated_only.begin(), evaluated_only.end());
  return out;
}

}  // namespace

std::vector<PrintPiece> FunctionChecker::print_line(const ast::Expr& call, SourceRange range) {
  std::vector<PrintPiece> pieces;
  for (size_t i = 1; i < call.operands.size(); ++i) {
    if (i > 1) pieces.push_back({" ", "", {}, range});
    const ast::Expr& argument = module().ast()[call.operands[i]];
    if (argument.kind == ast::ExprKind::string) {
      pieces.push_back({argument.text, "%s", {}, argument.range});
      continue;
    }
    Value value = as_runtime(check_expr(call.operands[i]), argument.range);
    if (value.ok()) print_pieces(value, argument.range, pieces);
  }
  pieces.push_back({"\n", "", {}, range});
  return pieces;
}

// print(...): one printf per call, as numba-cuda makes one vprintf, so lines of different
// threads do not interleave. Its output is numba-cuda's on a GPU, in the simulator too: past 32
// items the raw format (printimpl.py), else the first 32 values formatted and the conversions
// of the others printed as they are (CUDA's printf). Every value is evaluated. On the host (a
// @jit function's host call) there is no limit, as in Numba's CPU target.
void FunctionChecker::check_print(const ast::Expr& call, SourceRange range) {
  std::vector<PrintPiece> pieces = print_line(call, range);
  size_t items = call.operands.size() - 1;
  size_t formatted = std::numeric_limits<size_t>::max();
  if (!program_.host_calls() && items > cuda_printf_values) {
    formatted = 0;
    diagnostics().warning(DiagKind::print_limit, file(), module().ast()[call.operands[cuda_printf_values + 1]].range,
                          fmt::format("print() of {} items prints its raw format, not the values: CUDA's printf takes "
                                      "at most {}, and numba-cuda prints the format instead",
                                      items, cuda_printf_values),
                          "split it into print() calls of at most 32 items each");
  } else if (!program_.host_calls()) {
    formatted = cuda_printf_values;
    if (const PrintPiece* cut = value_after(pieces, cuda_printf_values))
      diagnostics().warning(DiagKind::print_limit, file(), cut->range,
                            fmt::format("print() prints '{}' here and after, not the values: CUDA's printf formats at "
                                        "most {} values (each string and each tuple element counts as one)",
                                        cut->conversion, cuda_printf_values),
                            "split it into print() calls of at most 32 values each");
  }
  function_.prints = true;
  emit_stmt(printf_statement(pieces, formatted, range));
}

void FunctionChecker::check_expr_stmt(const ast::Stmt& stmt) {
  const ast::Expr& e = module().ast()[stmt.value];
  // print(...) is a statement-like call: strings are allowed as arguments.
  if (e.kind == ast::ExprKind::call && module().ast()[e.operands[0]].kind == ast::ExprKind::name &&
      module().ast()[e.operands[0]].text == "print" && local_named("print") < 0) {
    check_print(e, stmt.range);
    return;
  }
  if (e.kind == ast::ExprKind::string) return;  // a bare string is a comment
  Value value = check_expr(stmt.value);
  if (value.kind != Value::Kind::expr) return;
  if (expr(value.expr).kind == ir::ExprKind::local) return;  // np.add(a, b, out): its work is done
  if (expr(value.expr).kind == ir::ExprKind::constant) return;  // a gufunc call's None: its loop is emitted
  ir::Stmt out;
  out.kind = ir::StmtKind::expr;
  out.range = stmt.range;
  out.value = value.expr;
  emit_stmt(std::move(out));
}

void FunctionChecker::check_assign(const ast::Stmt& stmt) {
  // `sA = cuda.shared.array(...)` declares storage rather than assigning a value.
  if (stmt.targets.size() == 1 && check_array_declaration(stmt.targets[0], stmt.value, stmt.range))
    return;
  Value value = as_runtime(check_expr(stmt.value), module().ast()[stmt.value].range);
  if (!value.ok()) {
    // Reported already: reads of the targets stay silent rather than call them unassigned.
    if (final_round_)
      for (ast::ExprId target : stmt.targets) poison_names(target);
    return;
  }
  if (stmt.targets.size() > 1) {
    value = store_in_temporary(value, stmt.range);  // a = b = v: evaluate v once
  }
  for (ast::ExprId target : stmt.targets) assign_to(target, value, stmt.range);
}

namespace {

int bindings_in_target(const ast::Ast& tree, ast::ExprId target, const std::string& name) {
  const ast::Expr& e = tree[target];
  int count = e.kind == ast::ExprKind::name && e.text == name ? 1 : 0;
  if (e.kind == ast::ExprKind::tuple)
    for (ast::ExprId part : e.operands) count += bindings_in_target(tree, part, name);
  return count;
}

}  // namespace

int bindings_of(const ast::Ast& tree, const std::vector<ast::StmtId>& body, const std::string& name) {
  int count = 0;
  for (ast::StmtId id : body) {
    const ast::Stmt& stmt = tree[id];
    if (stmt.kind == StmtKind::assign || stmt.kind == StmtKind::for_ || stmt.kind == StmtKind::aug_assign)
      for (ast::ExprId target : stmt.targets) count += bindings_in_target(tree, target, name);
    count += bindings_of(tree, stmt.body, name) + bindings_of(tree, stmt.orelse, name);
  }
  return count;
}

// `N = 100`, the only binding of N in the function: N is a literal, as Numba types it, so it can
// size a shared or local array and specialise a device function.
void FunctionChecker::remember_if_literal(int local, const Value& value) {
  const ir::Local& variable = function_.locals[local];
  if (variable.is_parameter || variable.is_temporary) return;
  if (!(value.type == Type::i64() || value.type.is(TypeKind::boolean)) || variable.type != value.type) return;
  auto folded = fold(value.expr);
  if (!folded) return;
  if (bindings_of(module().ast(), ast_.body, variable.name) == 1) literal_locals_[local] = *folded;
}

void FunctionChecker::poison_names(ast::ExprId target) {
  const ast::Expr& t = module().ast()[target];
  if (t.kind == ast::ExprKind::tuple)
    for (ast::ExprId part : t.operands) poison_names(part);
  if (t.kind != ast::ExprKind::name) return;
  // The merges it would have written stay silent too.
  std::vector<int> locals{local_at(target)};
  for (int web : webs_.merges_fed_by(target)) locals.push_back(local_of_web(t.text, web));
  for (int local : locals)
    if (local >= 0 && static_cast<size_t>(local) < poisoned_.size()) poisoned_[local] = true;
}

// `cuda.p = 1`, `np.random.x = 2`: the target is an attribute of an imported module (whose
// name no local shadows).
bool FunctionChecker::assigns_module_attribute(const ast::Expr& target) {
  if (target.kind != ast::ExprKind::attribute || !module().qualified_name(target.operands[0])) return false;
  ast::ExprId root = target.operands[0];
  while (module().ast()[root].kind == ast::ExprKind::attribute) root = module().ast()[root].operands[0];
  return local_at(root) < 0;
}

void FunctionChecker::assign_to(ast::ExprId target, Value value, SourceRange range) {
  const ast::Expr& t = module().ast()[target];
  switch (t.kind) {
    case ast::ExprKind::name: {
      int local = local_at(target);
      if (local < 0) {  // a global's expression cannot assign; anything else is a pykern bug
        error(DiagKind::bad_assignment, t.range, "cannot assign to '" + t.text + "' here");
        return;
      }
      if (value.type.is(TypeKind::record) && value.kind == Value::Kind::expr) {
        ir::ExprKind kind = expr(value.expr).kind;
        if (kind != ir::ExprKind::element && kind != ir::ExprKind::member && kind != ir::ExprKind::local) {
          error(DiagKind::bad_assignment, range,
                "cannot bind '" + t.text + "' to this record: a record variable refers to a record that lives in an "
                "array (r = a[i]; r.x = 1 writes a[i].x), as in Numba",
                "index the array where the record is needed");
          if (final_round_) poison_names(target);
          return;
        }
      }
      set_local_type(local, value.type, t.range);
      const Type& type = function_.locals[local].type;
      if (final_round_ && type.known() && value.type.known() && !unify(type, value.type)) return;
      remember_if_literal(local, value);
      ir::Expr target_expr;
      target_expr.kind = ir::ExprKind::local;
      target_expr.local = local;
      target_expr.type = type;
      target_expr.range = t.range;
      ir::Stmt store;
      store.kind = ir::StmtKind::assign;
      store.range = range;
      store.target = add(std::move(target_expr));
      store.value = cast_expr(value.expr, type);
      emit_stmt(std::move(store));
      feed_merges(t.text, webs_.merges_fed_by(target), local, t.range);
      return;
    }
    case ast::ExprKind::tuple: {
      if (value.type.is(TypeKind::array) && value.kind == Value::Kind::expr) {
        unpack_array(t, value, range);  // x, y, z = a[i]
        return;
      }
      if (!value.type.is(TypeKind::tuple)) {
        error(DiagKind::bad_assignment, range,
              fmt::format("cannot unpack a value of type '{}' into {} names", to_string(value.type),
                          t.operands.size()));
        return;
      }
      if (value.type.elements.size() != t.operands.size()) {
        error(DiagKind::bad_assignment, range,
              fmt::format("cannot unpack {} values into {} names", value.type.elements.size(),
                          t.operands.size()));
        return;
      }
      // Evaluate the whole right side first (a, b = b, a swaps), then assign each part.
      Value tuple = store_in_temporary(value, range);
      for (size_t i = 0; i < t.operands.size(); ++i) {
        Value part = element_of_tuple(tuple, i, range);
        assign_to(t.operands[i], part, range);
      }
      return;
    }
    case ast::ExprKind::subscript:
    case ast::ExprKind::attribute: {
      if (assigns_module_attribute(t)) {  // said before the attribute is looked up: none is read
        error(DiagKind::bad_assignment, t.range, "cannot assign to '" + std::string(file().slice(t.range)) + "'",
              "only array elements and local variables can be assigned");
        return;
      }
      // A subscript target is checked here, the value it stores pending: one picking elements
      // by an array (a[mask] = v) stores them itself (sema/fancy_index.cpp).
      PendingStore pending{value, range};
      Value place;
      if (t.kind == ast::ExprKind::subscript) {
        Value base = check_expr(t.operands[0]);
        if (!base.ok()) return;
        if (base.kind == Value::Kind::expr && base.type.is(TypeKind::dict)) {  // d[k] = v (sema/dictionaries.cpp)
          store_into_dict(*this, base, std::vector<ast::ExprId>(t.operands.begin() + 1, t.operands.end()), value, range);
          return;
        }
        place = subscript(base, std::vector<ast::ExprId>(t.operands.begin() + 1, t.operands.end()), t.range, &pending);
        if (pending.done) return;
      } else {
        place = check_expr(target);
      }
      if (!place.ok()) return;
      if (place.kind == Value::Kind::expr && t.kind == ast::ExprKind::subscript && place.type.is(TypeKind::array)) {
        assign_to_view(place, value, t, range);  // a[:] = 0, a[i:j] = b, m[:, k] = v
        return;
      }
      if (place.kind != Value::Kind::expr) {  // cuda.p = 1, math.pi = 3: a module, not a value
        error(DiagKind::bad_assignment, t.range, "cannot assign to '" + std::string(file().slice(t.range)) + "'",
              "only array elements and local variables can be assigned");
        return;
      }
      const ir::Expr& lvalue = expr(place.expr);
      if (lvalue.kind != ir::ExprKind::element &&
          !(lvalue.kind == ir::ExprKind::member && expr(lvalue.args[0]).type.is(TypeKind::record))) {
        error(DiagKind::bad_assignment, t.range,
              "cannot assign to '" + std::string(file().slice(t.range)) + "'",
              "only array elements and local variables can be assigned");
        return;
      }
      if (lvalue.kind == ir::ExprKind::element && expr(lvalue.args[0]).type.readonly) {
        error(DiagKind::bad_assignment, t.range,
              "cannot assign to an element of '" + std::string(file().slice(module().ast()[t.operands[0]].range)) +
                  "': a module-level array is frozen into the kernel, read-only (as in Numba)",
              "copy it into a cuda.local.array, or pass the array as an argument");
        return;
      }
      if (place.type.is(TypeKind::record) && value.type.known() && !(value.type == place.type)) {
        error(DiagKind::type_mismatch, range,
              fmt::format("cannot store a '{}' into an array element of type '{}'", to_string(value.type),
                          to_string(place.type)),
              "assign a record's fields one by one, e.g. s[i].s0 = ...");
        return;
      }
      const Type& stored = value.type.is(TypeKind::optional) ? value.type.elements[0] : value.type;
      if ((!stored.is_scalar() || stored.is(TypeKind::record)) && value.type.known() &&
          !place.type.is(TypeKind::record)) {
        error(DiagKind::type_mismatch, range,
              fmt::format("cannot store a '{}' into an array element of type '{}'",
                          to_string(value.type), to_string(place.type)));
        return;
      }
      ir::Stmt store;
      store.kind = ir::StmtKind::assign;
      store.range = range;
      store.target = place.expr;
      store.value = cast_expr(value.expr, place.type);
      emit_stmt(std::move(store));
      return;
    }
    default:
      error(DiagKind::bad_assignment, t.range,
            "cannot assign to '" + std::string(file().slice(t.range)) + "'");
      return;
  }
}

// x, y, z = a: the array's first items, as Numba iterates it (elements of a 1-d array, rows of a
// 2-d one). Fewer items than names is Numba's ValueError; more are left, as Numba leaves them.
void FunctionChecker::unpack_array(const ast::Expr& target, const Value& value, SourceRange range) {
  Value array = store_in_temporary(value, range);
  auto index = [&](size_t i) { return make_constant({int64_t(i)}, Type::i64(), range); };
  ir::Stmt check;
  check.kind = ir::StmtKind::expr;
  check.range = range;
  check.value = make_call(ir::Op::check_unpack, {array.expr, index(target.operands.size()).expr}, Type::void_(), range).expr;
  emit_stmt(std::move(check));
  for (size_t i = 0; i < target.operands.size(); ++i) {
    IndexItem item;
    item.value = index(i);
    Value part = index_into(array, {item}, range);
    if (!part.ok()) return;
    assign_to(target.operands[i], part, range);
  }
}

// a[s] = v where a[s] is a view of the array (slices, or fewer indices than axes): a scalar
// fills it, an array is broadcast into it (numba's setitem on an array).
void FunctionChecker::assign_to_view(const Value& view, const Value& value, const ast::Expr& target,
                                     SourceRange range) {
  std::string shown(file().slice(target.range));
  if (view.type.readonly) {
    error(DiagKind::bad_assignment, target.range,
          "cannot assign to '" + shown + "': a module-level array is frozen into the kernel, read-only (as in Numba)",
          "copy it into a cuda.local.array, or pass the array as an argument");
    return;
  }
  Type dtype = view.type.dtype();
  Value source = as_runtime(value, range);
  if (!source.ok()) return;
  if (store_tuple_into_view(*this, view, source, range)) return;  // a[i] = (x, y, z)
  const Type& given = source.type.is(TypeKind::array) ? source.type.dtype() : source.type;
  bool converts = given.is_scalar() && !given.is(TypeKind::record) && !dtype.is(TypeKind::record) &&
                  (dtype.is(TypeKind::complex) || !given.is(TypeKind::complex));
  if (!converts) {
    error(DiagKind::type_mismatch, range,
          fmt::format("cannot assign a '{}' to '{}', a view of type '{}'", to_string(source.type), shown,
                      to_string(view.type)),
          "assign a number, or an array of numbers, that converts to the array's type");
    return;
  }
  ir::Stmt out;
  out.kind = ir::StmtKind::expr;
  out.range = range;
  if (source.type.is(TypeKind::array) && assign_expression_to_view(view, source, range)) return;
  if (source.type.is(TypeKind::array))
    out.value = make_call(ir::Op::copy_view, {view.expr, source.expr}, Type::void_(), range).expr;
  else
    out.value = make_call(ir::Op::fill_view, {view.expr, cast_expr(source.expr, dtype)}, Type::void_(), range).expr;
  emit_stmt(std::move(out));
}

void FunctionChecker::check_aug_assign(const ast::Stmt& stmt) {
  // x[i] op= v reads and writes the same place: check the target once as a value.
  ast::ExprId target = stmt.targets[0];
  const ast::Expr& t = module().ast()[target];
  if (t.kind != ast::ExprKind::name && t.kind != ast::ExprKind::subscript &&
      t.kind != ast::ExprKind::attribute) {
    error(DiagKind::bad_assignment, t.range, "cannot assign to '" + std::string(file().slice(t.range)) + "'");
    return;
  }
  // A name's update reads its version (or merge) before the statement and defines a new version.
  bool name = t.kind == ast::ExprKind::name;
  int read_local = name && global_depth_ == 0 ? local_of_web(t.text, webs_.read_web_of_update(target)) : -1;
  Value current = as_runtime(name ? check_name_as(target, read_local) : check_expr(target), t.range);
  Value operand = as_runtime(check_expr(stmt.value), module().ast()[stmt.value].range);
  if (!current.ok() || !operand.ok()) return;
  if (advanced_aug_assign(*this, current, operand, stmt.binary_op, stmt.range)) return;  // a[mask] += v
  // a += b updates the array itself, in its type; l += other extends the list itself. The new
  // version is the same object.
  bool in_place = on_array_path(current, current) || current.type.is(TypeKind::list);
  if (in_place) {
    if (current.type.is(TypeKind::list)) list_aug_assign(*this, stmt.binary_op, current, operand, stmt.range);
    else assign_in_place(stmt.binary_op, current, operand, stmt.range);
    if (name && local_at(target) != read_local) assign_to(target, current, stmt.range);
    return;
  }
  Value result = binary(stmt.binary_op, current, operand, stmt.range);
  if (!result.ok()) return;
  if (t.kind == ast::ExprKind::name) {
    assign_to(target, result, stmt.range);
    return;
  }
  ir::Stmt store;
  store.kind = ir::StmtKind::assign;
  store.range = stmt.range;
  store.target = current.expr;
  store.value = cast_expr(result.expr, current.type);
  emit_stmt(std::move(store));
}

void FunctionChecker::check_if(const ast::Stmt& stmt) {
  Value condition = truth(check_expr(stmt.value), module().ast()[stmt.value].range);
  ir::Stmt out;
  out.kind = ir::StmtKind::if_;
  out.range = stmt.range;
  out.condition = condition.ok() ? condition.expr : ir::ExprId();
  // A condition known at compile time (a literal argument, a module constant) prunes the branch
  // not taken before it is typed, as Numba's dead-branch pruning does: a device function
  // called with neg_idx=False never types the code under `if neg_idx:`.
  std::optional<ir::Constant> known = condition.ok() ? fold(condition.expr) : std::nullopt;
  // But not `if x is None:` on a variable x of another type that is not a constant: Numba
  // prunes only on arguments that are None or literals (sema/branch_pruning.cpp, before typing)
  // and on constants, so it types both arms and x's assignments unify (x = f(); if x is None:
  // x = 0.5 makes x a float64). A parameter keeps its type here: its dead arm is not typed.
  if (auto test = known ? none_test(module().ast(), stmt.value) : std::nullopt;
      test && (known->as_int() != 0) != test->true_when_none &&
      module().ast()[test->operand].kind == ast::ExprKind::name) {
    int local = local_at(test->operand);
    if (local >= 0 && !function_.locals[local].is_parameter && !literal_locals_.count(local)) known.reset();
  }
  // Numba does not decide `if flag:` or `if axis == 0:` on a literal argument of a @jit function.
  if (known && on_host() && reads_literal_parameter(stmt.value)) known.reset();
  bool body_leaves = false, orelse_leaves = false;
  if (!known || known->as_int() != 0) {
    check_block(stmt.body, out.body);
    body_leaves = block_left_;
  }
  if (!known || known->as_int() == 0) {
    check_block(stmt.orelse, out.orelse);
    orelse_leaves = block_left_ && !stmt.orelse.empty();
  }
  if (condition.ok()) emit_stmt(std::move(out));
  block_left_ = known ? (known->as_int() != 0 ? body_leaves : orelse_leaves) : body_leaves && orelse_leaves;
}

void FunctionChecker::check_while(const ast::Stmt& stmt) {
  ir::Stmt out;
  out.kind = ir::StmtKind::while_;
  out.range = stmt.range;
  out.loop_id = next_loop_id_++;
  out.loop_has_else = !stmt.orelse.empty();
  // The condition is re-evaluated each iteration; its helper statements must not escape the
  // loop, so conditions are plain expressions.
  Value condition = truth(check_expr(stmt.value), module().ast()[stmt.value].range);
  out.condition = condition.ok() ? condition.expr : ir::ExprId();
  check_loop_body(out, stmt.body, out.body);
  check_block(stmt.orelse, out.orelse);
  if (condition.ok()) emit_stmt(std::move(out));
}

void FunctionChecker::check_return(const ast::Stmt& stmt) {
  ir::Stmt out;
  out.kind = ir::StmtKind::return_;
  out.range = stmt.range;
  bool returns_none = true;
  if (stmt.value.valid()) {
    Value value = as_runtime(check_expr(stmt.value), module().ast()[stmt.value].range);
    if (!value.ok()) return;
    if (is_kernel_ && !value.type.is(TypeKind::none)) {
      error(DiagKind::kernel_return_value, stmt.range,
            "a kernel cannot return a value (it returns " + to_string(value.type) + ")",
            "write results into an array argument");
      return;
    }
    if (!value.type.is(TypeKind::none)) {
      returns_none = false;
      Type value_type = value.type.is(TypeKind::optional) ? value.type.elements[0] : value.type;
      if (value.type.is(TypeKind::optional)) note_none_return();
      auto unified = unify(inferred_return_.value_or(Type::unknown()), value_type);
      if (!unified) {
        error(DiagKind::type_mismatch, stmt.range,
              fmt::format("this returns '{}' but another return gives '{}'", to_string(value.type),
                          to_string(*inferred_return_)));
        return;
      }
      if (!inferred_return_ || *inferred_return_ != *unified) changed_ = true;
      inferred_return_ = *unified;
      out.value = cast_expr(value.expr, signature_.return_type.value_or(return_type_now()));
    }
  }
  if (returns_none && !is_kernel_) {
    note_none_return();
    // In a function that also returns values, None is the Optional's empty state.
    if (inferred_return_ && !signature_.return_type)
      out.value = make_call(ir::Op::optional_none, {}, return_type_now(), stmt.range).expr;
  }
  emit_stmt(std::move(out));
}

void FunctionChecker::note_none_return() {
  if (!returns_none_) changed_ = true;
  returns_none_ = true;
}

std::optional<Type> FunctionChecker::partial_return_type() const {
  if (signature_.return_type) return signature_.return_type;
  if (!inferred_return_ && !returns_none_) return std::nullopt;
  return return_type_now();
}

// Numba types a function that returns a value on some paths and None on others (or falls off
// its end) as returning Optional(value).
Type FunctionChecker::return_type_now() const {
  if (!inferred_return_) return Type::none();
  return returns_none_ ? Type::optional_of(*inferred_return_) : *inferred_return_;
}



// What `raise` raises, as Python prints it: `raise ValueError("bad")` is ValueError with the
// message "bad", `raise ValueError` has none. Other forms keep their source text as the message.
ir::Stmt FunctionChecker::raised(const ast::Stmt& stmt) {
  ir::Stmt out;
  out.kind = ir::StmtKind::raise_;
  out.range = stmt.range;
  out.exception = "Exception";
  out.message = std::string(file().slice(stmt.range));
  if (!stmt.value.valid()) return out;
  const ast::Expr& value = module().ast()[stmt.value];
  const ast::Expr* callee = &value;
  if (value.kind == ast::ExprKind::call) callee = &module().ast()[value.operands[0]];
  if (callee->kind != ast::ExprKind::name) return out;
  size_t arguments = value.kind == ast::ExprKind::call ? value.operands.size() - 1 : 0;
  // On the host, a message of values made at run time, as Python shows it (sema/text.cpp).
  if (on_host() && arguments > 0 && !(arguments == 1 && module().ast()[value.operands[1]].kind == ast::ExprKind::string)) {
    out.exception = callee->text;
    out.message.clear();
    out.value = exception_message(*this, out.exception, {value.operands.begin() + 1, value.operands.end()}, stmt.range);
    return out;
  }
  if (arguments == 0) {
    out.exception = callee->text;
    out.message.clear();
  } else if (arguments == 1 && module().ast()[value.operands[1]].kind == ast::ExprKind::string) {
    out.exception = callee->text;
    out.message = module().ast()[value.operands[1]].text;
  }
  return out;
}

void FunctionChecker::check_assert(const ast::Stmt& stmt) {
  Value condition = truth(check_expr(stmt.value), module().ast()[stmt.value].range);
  if (!condition.ok()) return;
  if (on_host() && stmt.message.valid() && module().ast()[stmt.message].kind != ast::ExprKind::string)
    return check_assert_message(stmt, condition);  // a message made at run time (sema/text.cpp)
  ir::Stmt out;
  out.kind = ir::StmtKind::assert_;
  out.range = stmt.range;
  out.condition = condition.expr;
  if (stmt.message.valid() && module().ast()[stmt.message].kind == ast::ExprKind::string)
    out.message = module().ast()[stmt.message].text;
  else if (!program_.host_calls())  // a kernel's report names the condition; Python's has no message
    out.message = std::string(file().slice(module().ast()[stmt.value].range));
  emit_stmt(std::move(out));
}

}  // namespace pykern::sema
