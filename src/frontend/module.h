// The module model: what a kernel file defines at top level. Imports and aliases resolve names
// to qualified names ("np.float32" → "numpy.float32", "cuda.jit" → "numba.cuda.jit");
// functions and globals are found by a cheap scan and lowered only when something uses them,
// so host code, notebook leftovers and lines that do not parse are ignored unless referred to.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "base/fastmath.h"
#include "frontend/ast.h"
#include "syntax/syntax_tree.h"

namespace pykern::frontend {

enum class FunctionRole { kernel, device, vectorize, guvectorize, reduce, undecorated };
const char* to_string(FunctionRole role);

// Who wrote a function: the user, or pykern, which appends the kernels it generates to the
// user's file (src/compiler/generated_source.cpp). A host call's one-thread kernel may use
// what only the host has (lists, Python's random); a generator's kernel calls the user's
// @vectorize/@guvectorize/@cuda.reduce function as a device function.
enum class Origin { user, host_call, generator };

// What a decorator asks for. Signatures stay expressions: sema evaluates them as types.
struct Decoration {
  FunctionRole role = FunctionRole::undecorated;
  std::vector<ast::ExprId> signatures;  // string literals or type expressions
  bool debug = false;
  FastMath fastmath;  // fastmath=True, or Numba's set of flags
  bool boundscheck = false;  // @jit(boundscheck=True); kernels on the simulator always check
  bool lineinfo = false;
  bool cache = false;
  bool parallel = false;             // @njit(parallel=True): prange loops run on a thread pool
  // @cuda.jit(device=True): the role of a @jit function, but only kernels and other device
  // functions may call it (Numba's host cannot: "device functions can only be invoked from
  // within the device").
  bool device_only = false;
  std::string error_model;           // 'python' or 'numpy'; empty: the target's default
  std::optional<int> opt;            // 0..3
  std::optional<int> max_registers;
  std::string target;                // vectorize/guvectorize: 'cuda', 'cpu', 'parallel'
  std::string gufunc_layout;         // '(m,n),(n)->(m)'
  // @jit(forceobj=True): Numba's object mode, which runs the body in the Python interpreter;
  // refused where the function is typed (pykern has no interpreter).
  std::optional<SourceRange> object_mode;
  SourceRange range;
  // @vectorize(identity=...): "0", "1", "reorderable", or "" for None (Numba's default: a
  // reduction starts from the first element and reduces one axis at a time).
  std::string ufunc_identity;
};

// A value Python would compute at import time, folded where pykern can decide it: the condition
// of a module-level `if`, a constant it reads. nullopt (in the folding functions) is "cannot tell".
struct ImportTimeValue {
  enum class Kind { none, boolean, integer, real, string, tuple, object } kind = Kind::object;
  int64_t integer = 0;  // boolean and integer
  double real = 0;
  std::string text;
  std::vector<ImportTimeValue> items;  // tuple
  bool truthy() const;
};

struct ModuleFunction {
  std::string name;
  TSNode definition{};  // the function_definition node
  Decoration decoration;
  bool lowered = false;
  ast::Function ast;
  // What lowering reported (syntax it refuses): given to every sink that asks for the function,
  // since the first to ask may be a muted one (a tentative round of type inference).
  std::vector<Diagnostic> lowering_diagnostics;
  // A kernel a factory returned (`add = make(operator.add)`): the factory's parameters its body
  // reads, bound to the call's arguments (or the defaults), as Numba freezes closure variables.
  std::map<std::string, ast::ExprId> closure;
  Origin origin = Origin::user;
};

struct ModuleGlobal {
  std::string name;
  TSNode value{};  // right-hand side of `NAME = value`
  SourceRange range;
  bool lowered = false;
  ast::ExprId expr;
  // `TAPS = TAPS / TAPS.sum()`: the value reads the binding before it, kept under this name.
  std::string previous;
};

// `class Color(IntEnum): RED = 1`: an enum class defined at top level. Numba types its members
// by their values (IntEnum members act as integers; Enum, Flag and IntFlag members are compared
// with == and is and read through .value); `value` is each member's expression, `automatic`
// marks `auto()`.
struct ModuleEnum {
  struct Member {
    std::string name;
    ast::ExprId value;
    bool automatic = false;
    SourceRange range;
  };
  std::string name;
  bool is_flag = false;  // Flag, IntFlag: auto() takes the next power of two
  std::vector<Member> members;
  SourceRange range;
};

// What refusals call the kind of function they are in: "kernels", or "@jit functions" for
// Numba's CPU functions (@jit, @njit).
std::string refusal_place(const ModuleFunction& function);

class Module {
 public:
  // Scans a parsed file. Decorators are read here (reporting malformed ones).
  static Module build(const syntax::SyntaxTree& tree, Diagnostics& diagnostics);

  const SourceFile& file() const { return tree_->file(); }
  const syntax::SyntaxTree& tree() const { return *tree_; }
  ast::Ast& ast() { return ast_; }
  const ast::Ast& ast() const { return ast_; }

  // The qualified name an expression refers to through imports, e.g. "numba.cuda.grid";
  // nullopt for anything else (locals, module functions, expressions).
  std::optional<std::string> qualified_name(ast::ExprId expr) const;
  std::optional<std::string> imported(const std::string& local_name) const;

  ModuleFunction* function(const std::string& name);
  std::vector<ModuleFunction*> functions_in_order();
  // Marks every function defined at or after byte `offset` of the file as pykern's.
  void mark_generated(uint32_t offset, Origin origin);
  // Lowers a function on first use: reports its syntax errors and unsupported constructs.
  const ast::Function* lowered_function(const std::string& name, Diagnostics& diagnostics);
  // A fresh lowering of a function, its closure bound, as lowered_function makes it but not
  // kept: for a pass that reads functions typing may never reach, and must not decide which of
  // their errors typing reports (sema/name_resolution.cpp). Its syntax errors and unsupported
  // constructs go to `diagnostics`, the caller's own: reporting them is lowered_function's.
  ast::Function lowered_copy(const std::string& name, Diagnostics& diagnostics);
  // Every name bound at top level: imports, functions, constants, enums, and the names bound by
  // statements pykern does not evaluate. After `from M import *` (has_star_import), any name may be.
  std::vector<std::string> top_level_names() const;
  bool has_star_import() const { return star_import_; }
  // What an expression of module names is at import time (a kernel's `if DEBUG:`); nullopt
  // where pykern cannot tell.
  std::optional<ImportTimeValue> import_time_value(ast::ExprId expr) { return fold(expr, 0); }
  // The expression a module global is bound to, lowered on first use; invalid if none.
  ast::ExprId global_value(const std::string& name, Diagnostics& diagnostics);
  bool has_global(const std::string& name) const { return globals_.count(name) > 0 || enums_.count(name) > 0; }
  // The enum class a module name is bound to; nullptr for anything else.
  const ModuleEnum* enum_class(const std::string& name) const;
  // Where a module-level statement pykern does not evaluate (`N += 1`, a for loop, an if
  // block) binds `name`; a kernel that reads the name cannot be given its value.
  std::optional<SourceRange> opaque_binding(const std::string& name) const;
  // Where module-level code pykern does not evaluate changes the object `name` is bound to in
  // place (X[0] = 1, X.fill(0)): a frozen copy of X would not be what Numba sees.
  std::optional<SourceRange> mutation(const std::string& name) const;

 private:
  static bool holds_definition(const syntax::SyntaxTree& tree, TSNode node);
  void scan_statement(TSNode node, Diagnostics& diagnostics);
  void scan_block(TSNode block, Diagnostics& diagnostics);
  void scan_try(TSNode node, Diagnostics& diagnostics);
  void scan_if(TSNode node, Diagnostics& diagnostics);
  bool catches_import_error(TSNode except_clause) const;
  void scan_undecided(TSNode statement, TSNode header, Diagnostics& diagnostics);
  std::optional<ImportTimeValue> fold(TSNode node, int depth);
  std::optional<ImportTimeValue> fold(ast::ExprId id, int depth);
  std::optional<ImportTimeValue> fold_global(const std::string& name, int depth);
  std::string dotted_name(TSNode node) const;
  void scan_import(TSNode node);
  void scan_import_from(TSNode node);
  // prefix: "Helper." for a class's static methods.
  void scan_function(TSNode definition, const std::vector<TSNode>& decorators, Diagnostics& diagnostics,
                     const std::string& prefix = "");
  void scan_class(TSNode node, Diagnostics& diagnostics);
  bool scan_enum(TSNode node);  // false: not an enum class pykern reads
  bool scan_assignment(TSNode node);  // false: not a `NAME = value` pykern can fold
  bool reads_name(TSNode node, const std::string& name) const;
  void note_bindings(TSNode statement);
  Decoration read_decorators(const std::vector<TSNode>& decorators, Diagnostics& diagnostics);
  static std::optional<FunctionRole> decorator_role(const std::string& qualified);
  static void default_ufunc_target(const std::string& qualified, Decoration& decoration);
  bool scan_decorator_call(TSNode assignment, Diagnostics& diagnostics);
  bool scan_factory_call(TSNode assignment);
  void bind_closure(const ModuleFunction& function, ast::Function& lowered, size_t first_expr);
  void report_unresolved_decorator(TSNode decorator, ast::ExprId callee, Diagnostics& diagnostics) const;
  void read_decorator_call(ast::ExprId call, Decoration& decoration, Diagnostics& diagnostics);
  void read_fastmath(const ast::Keyword& keyword, FastMath& out, Diagnostics& diagnostics) const;
  ast::Keyword through_constant(const ast::Keyword& keyword, Diagnostics& diagnostics);

  const syntax::SyntaxTree* tree_ = nullptr;
  ast::Ast ast_;
  std::map<std::string, std::string> imports_;  // local name → qualified name
  std::map<std::string, ModuleFunction> functions_;
  std::vector<std::string> function_order_;
  std::map<std::string, ModuleGlobal> globals_;
  std::map<std::string, ModuleEnum> enums_;
  std::map<std::string, SourceRange> opaque_bindings_;  // the first such statement for each name
  std::map<std::string, SourceRange> mutations_;        // likewise
  // Names bound under an import-time condition pykern cannot decide, with that condition.
  std::map<std::string, SourceRange> undecided_;
  bool star_import_ = false;  // `from M import *`
};

}  // namespace pykern::frontend
