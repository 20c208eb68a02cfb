// Internal to sema: the state of inferring one program, and one function within it.
#pragma once
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "frontend/module.h"
#include "sema/infer.h"
#include "sema/array_exprs.h"
#include "sema/ir.h"
#include "sema/webs.h"

namespace pykern::sema {

// What an expression denotes while it is checked: a run-time value (an IR expression), or a
// compile-time entity that only makes sense as a callee or attribute base.
struct Value {
  enum class Kind { expr, qualified, function, type, error };
  Kind kind = Kind::error;
  ir::ExprId expr;          // Kind::expr
  Type type;                // Kind::expr: its type; Kind::type: the type denoted
  std::string name;         // Kind::qualified: "numba.cuda.grid"; Kind::function: module function

  static Value error() { return {}; }
  // A NumPy dtype as a value (np.dtype(...), "float64", a.dtype): the type it denotes.
  static Value dtype(Type type) {
    Value v;
    v.kind = Kind::type;
    v.type = std::move(type);
    v.name = "numpy.dtype";
    return v;
  }
  // A string literal passed to a builtin that takes one (side="left", kind="mergesort"): a
  // compile-time value of type string whose name is its text, as Numba's StringLiteral.
  static Value string_literal(std::string text) {
    Value v;
    v.kind = Kind::type;
    v.type = Type::string();
    v.name = std::move(text);
    return v;
  }
  bool is_string_literal() const { return kind == Kind::type && type.is(TypeKind::string); }
  bool ok() const { return kind != Kind::error; }
};

// A device function's compile-time argument (TypeKind::static_value): what reading the parameter
// gives in the callee. kind: type, qualified or function for those entities (type, name), expr
// for an integer/bool literal or a tuple of them (type, literal: the value or the elements).
struct StaticValue {
  Value::Kind kind = Value::Kind::error;
  Type type;
  std::string name;
  std::vector<ir::Constant> literal;
};

// One piece of a print() line, in numba-cuda's terms (printimpl.py): a value printed with its
// printf conversion ("%lld", "%llu", "%f", "%s" for booleans and string literals), or text
// between values (" ", "(", ", ", "\n"). A string literal is a value to numba-cuda: it counts
// towards printf's 32 values, though pykern writes its text into the format.
struct PrintPiece {
  std::string text;        // what prints: the separator, or the string literal's own text
  std::string conversion;  // empty for a separator
  ir::ExprId value;        // the value converted; invalid for a string literal and a separator
  SourceRange range;       // the argument the value belongs to
};

// How many times the statements of `body` (and the blocks they hold) bind `name`: as an
// assignment or for-loop target, or by an augmented assignment.
int bindings_of(const ast::Ast& tree, const std::vector<ast::StmtId>& body, const std::string& name);

class ProgramBuilder;
struct LoopItem;

// A captured variable of an inner function, frozen to its constant value (an int or a bool).
struct FrozenVariable {
  std::string name;
  ir::Constant value;
  bool is_bool = false;
};  // check_loops.cpp: what one iteration of a for loop yields

// range(start, stop, step) as Numba types it: one integer type for the three (the loop index's),
// start 0 and step 1 when not given; step_sign +1/-1 when the step is a constant, else 0.
struct RangeBounds {
  Type type;
  ir::ExprId start, stop, step;
  int step_sign = 1;
};

class FunctionChecker {
 public:
  FunctionChecker(ProgramBuilder& program, const frontend::ModuleFunction& function,
                  const ast::Function& ast, const Signature& signature, bool is_kernel);
  // Runs inference to a fixed point, then the reporting pass. Returns the finished function;
  // with `types_only`, the function after the fixed point, without the reporting pass (whose
  // calls infer every callee for good): what a caller still finding its own types asks.
  ir::Function run(bool types_only = false);
  // The return type known so far: the signature's, or what the return statements checked up
  // to now give (None for a function seen only to return None); nullopt when nothing yet.
  std::optional<Type> partial_return_type() const;

  // ---- used by the builtins (builtins*.cpp) and constants.cpp ----
  Diagnostics& diagnostics();
  frontend::Module& module();
  const SourceFile& file();
  void error(DiagKind kind, SourceRange range, std::string message, std::string hint = {});

  ir::ExprId add(ir::Expr expr) { return function_.exprs.add(std::move(expr)); }
  ir::StmtId add(ir::Stmt stmt) { return function_.stmts.add(std::move(stmt)); }
  const ir::Expr& expr(ir::ExprId id) const { return function_.exprs[id]; }
  Value value_of(ir::ExprId id) const;

  Value make_constant(ir::Constant constant, Type type, SourceRange range);
  // A call of a runtime operation; its flags mark the function (barriers, host only).
  Value make_call(ir::Op op, std::vector<ir::ExprId> args, Type type, SourceRange range, int op_arg = -1);
  Value cast(const Value& value, const Type& to, SourceRange range);
  ir::ExprId cast_expr(ir::ExprId id, const Type& to);
  // What only a @jit function on the host may do; in a user's kernel an error (with `hint`, or
  // one for lists and random).
  bool allow_host_only(SourceRange range, const std::string& what, const std::string& hint = {});
  // A kernel the user wrote, not the one-thread kernel pykern generates for a host call
  // (Origin::host_call), which may use what only the host has.
  bool is_user_kernel() const;
  frontend::Origin origin() const { return module_function_.origin; }
  // The local a list method reads (l.append(x)): its type learns the items' type.
  void learn_list_type(const Value& list, const Type& type);

  // The value as a run-time expression; reports an error for compile-time entities.
  Value as_runtime(const Value& value, SourceRange range);

  Value check_expr(ast::ExprId id);
  Value check_call(ast::ExprId id);
  // An argument where Python passes a type or dtype: a string literal is the dtype it names.
  Value check_type_argument(ast::ExprId id);
  // An argument of a builtin that takes string literals: a literal is Value::string_literal.
  Value check_string_or_expr(ast::ExprId id);
  Value binary(ast::BinaryOp op, Value left, Value right, SourceRange range);
  // Evaluates `value` once into a new temporary and returns a read of it.
  Value store_in_temporary(const Value& value, SourceRange range);
  Value read_local(int local, SourceRange range);
  Value truth(const Value& value, SourceRange range);  // Python truthiness as bool
  Value attribute_of(const Value& base, const std::string& attr, SourceRange range);
  // An assignment `a[index] = value` in progress: where the index picks elements by an array
  // (a mask, positions), index_into stores the value itself (sema/fancy_index.cpp), emits
  // the statement and sets `done`; otherwise it returns the place as for a read.
  struct PendingStore {
    Value value;
    SourceRange range;
    bool done = false;
    bool deletes = false;  // del base[index] (a list's slice): value becomes the deleting call
  };
  Value subscript(const Value& base, const std::vector<ast::ExprId>& indices, SourceRange range,
                  PendingStore* store = nullptr);
  // One index of a subscript: an integer value, a slice (parts invalid where omitted), an
  // Ellipsis (`...`), or an array (a boolean mask or integer positions: advanced indexing).
  struct IndexItem {
    bool is_slice = false;
    bool is_ellipsis = false;
    Value value;
    ir::ExprId start, stop, step;
    SourceRange range;  // the index as written (for messages about it)
  };
  Value index_into(const Value& base, std::vector<IndexItem> items, SourceRange range, PendingStore* store = nullptr);
  void assign_to_view(const Value& view, const Value& value, const ast::Expr& target, SourceRange range);
  void unpack_array(const ast::Expr& target, const Value& value, SourceRange range);
  Value subscript_value(const Value& base, std::vector<Value> indices, SourceRange range);
  // The bounds of range(...) from its 1 to 3 checked arguments; nullopt after reporting.
  std::optional<RangeBounds> range_bounds(const std::vector<Value>& bounds);
  // Element i of a tuple value: the part itself when the tuple was built here, else pk::get<i>.
  Value element_of_tuple(const Value& tuple, size_t i, SourceRange range);
  std::optional<ir::Constant> fold(ir::ExprId id);
  Value check_global_expr(ast::ExprId id);

  // Typing as Numba's CPU target (a host call and the @jit functions it reaches), not numba-cuda's.
  bool on_host() const;
  std::string refusal_place() const;  // "kernels", or "@jit functions" for a @jit/@njit function
  // Numba's math typing: floats keep their width, integers compute in float64.
  Type float_type_for(const Type& type);

  // The iterable as a range object held in a variable; an invalid value for anything else.
  Value range_value(ast::ExprId iterable);
  // ---- whole-array expressions on the host (sema/array_exprs.cpp, sema/builtins_ufuncs.cpp) ----
  // The ufunc `u` of these operands: an array (fused, sema/ir.h array_map) when one is an
  // array, else the element itself; typed by NumPy's loops as Numba types them. `as_operator`:
  // written as an operator (a + b), whose element Numba computes by the scalar operator's rule.
  Value apply_ufunc(const Ufunc& u, std::vector<Value> operands, SourceRange range, bool as_operator = false);
  // An element-wise operation: `element` computes one element from the operands' elements
  // converted to `element_types`; the result converts to `result`. `what` names it in errors.
  Value elementwise(const std::string& what, std::vector<Value> operands, const std::vector<Type>& element_types,
                    const Type& result, const ElementRule& element, SourceRange range);
  // target op= operand where target is an array: computed in place, into its type.
  void assign_in_place(ast::BinaryOp op, const Value& target, const Value& operand, SourceRange range);
  // view[...] = source where source is an array expression: computed into the view (false
  // when it cannot be, and the caller copies the materialised array).
  bool assign_expression_to_view(const Value& view, const Value& source, SourceRange range);
  // The operators and comparisons on array elements (scalars): the scalar rules.
  Value compare_elements(ast::CompareOp op, Value left, Value right, SourceRange range) {
    return compare(op, std::move(left), std::move(right), range);
  }
  Value unary_element(ast::UnaryOp op, Value operand, SourceRange range) { return unary(op, std::move(operand), range); }
  // An operator with an array operand outside a user's kernel (kernels keep their error).
  bool on_array_path(const Value& left, const Value& right) const;
  Value array_binary(ast::BinaryOp op, const Value& left, const Value& right, SourceRange range);
  Value array_unary(ast::UnaryOp op, const Value& operand, SourceRange range);
  Value array_compare(ast::CompareOp op, const Value& left, const Value& right, SourceRange range);

  // [key(item) for item in list] for l.sort(key=...) and sorted(key=...) (sema/key_sort.cpp).
  Value keys_of(const Value& list, const Value& key, SourceRange range);
  // Statements may emit helper statements (declarations) before the current one.
  void emit_stmt(ir::Stmt stmt);
  uint32_t line_of(SourceRange range);

 private:
  friend class ProgramBuilder;
  friend class UfuncMethods;
  friend class GufuncCall;
  void collect_locals(const std::vector<ast::StmtId>& body);
  void collect_target_names(ast::ExprId target);
  int local_named(const std::string& name) const;
  // The local an occurrence of a name (a target or a read) refers to: its web's.
  int local_at(ast::ExprId occurrence);
  int local_of_web(const std::string& name, int web);
  void make_merge_locals();
  void feed_merges(const std::string& name, const std::vector<int>& merges, int version, SourceRange range);
  void check_function_body();
  bool merge_equal_webs();
  int new_temporary(const Type& type);
  void check_loop_body(const ir::Stmt& loop, const std::vector<ast::StmtId>& body,
                       std::vector<ir::StmtId>& out);
  void set_local_type(int local, const Type& type, SourceRange range);

  void check_block(const std::vector<ast::StmtId>& body, std::vector<ir::StmtId>& out);
  void check_stmt(ast::StmtId id);
  void check_assign(const ast::Stmt& stmt);
  void assign_to(ast::ExprId target, Value value, SourceRange range);
  bool assigns_module_attribute(const ast::Expr& target);
  void poison_names(ast::ExprId target);  // a failed assignment's targets: later reads stay silent
  void remember_if_literal(int local, const Value& value);
  void check_aug_assign(const ast::Stmt& stmt);
  void check_if(const ast::Stmt& stmt);
  void check_for(const ast::Stmt& stmt);
  void bind_loop_item(ast::ExprId target, const LoopItem& item,
                      std::vector<std::pair<ast::ExprId, Value>>& per_iteration);
  Value loop_item_value(const LoopItem& item, SourceRange range);
  void print_pieces(const Value& value, SourceRange range, std::vector<PrintPiece>& out);
  std::vector<PrintPiece> print_line(const ast::Expr& call, SourceRange range);
  void check_print(const ast::Expr& call, SourceRange range);
  void check_while(const ast::Stmt& stmt);
  void check_return(const ast::Stmt& stmt);
  void check_assert(const ast::Stmt& stmt);
  void check_assert_message(const ast::Stmt& stmt, const Value& condition);  // sema/text.cpp
  ir::Stmt raised(const ast::Stmt& stmt);
  void check_try(const ast::Stmt& stmt);  // try_except, try_else and try_finally (check_try.cpp)
  void check_expr_stmt(const ast::Stmt& stmt);
  bool check_array_declaration(ast::ExprId target, ast::ExprId value, SourceRange range);
  void emit_loop_body(const ast::Stmt& stmt, ir::Stmt& loop, ast::ExprId target,
                      const std::vector<std::pair<ast::ExprId, Value>>& per_iteration);

  Value call_device_function(const std::string& name, std::vector<Value> args,
                             std::vector<std::pair<std::string, Value>> keywords, const ast::Expr& e);
  // A @vectorize function called as a ufunc from a @jit function (sema/user_ufuncs.cpp).
  Value call_user_ufunc(const std::string& name, std::vector<Value> args,
                        std::vector<std::pair<std::string, Value>> keywords, const ast::Expr& e);
  std::optional<UfuncLoop> user_ufunc_loop(const std::string& name, const std::vector<Type>& elements, SourceRange range);
  Value user_ufunc_element(const std::string& name, const std::vector<Value>& elements, SourceRange range);
  // name.reduce(...) of a @vectorize function, and the methods Numba refuses (sema/ufunc_methods.cpp);
  // nullopt where `base` is no ufunc.
  std::optional<Value> call_ufunc_method(const Value& base, const std::string& method, const ast::Expr& e);
  Value user_ufunc_into(const std::string& name, std::vector<Value> args, SourceRange range);  // f(a, b, out)
  // A @guvectorize function called from a @jit function with its outputs (sema/gufunc_calls.cpp).
  Value call_user_gufunc(const std::string& name, std::vector<Value> args,
                         std::vector<std::pair<std::string, Value>> keywords, const ast::Expr& e);
  // Whether an expression reads a parameter passed a literal (sema/literal_arguments.cpp).
  bool reads_literal_parameter(ast::ExprId id);
  bool convert_to_declared(const frontend::ModuleFunction& target, Signature& signature,
                           std::vector<ir::ExprId>& call_args, SourceRange range);
  std::optional<std::vector<Value>> bind_arguments(const std::string& name, const ast::Function& definition,
                                                   std::vector<Value> args,
                                                   std::vector<std::pair<std::string, Value>> keywords, SourceRange range);
  bool resolve_device_call(const std::string& name, const Signature& signature, ir::Expr& call, SourceRange range);
  std::optional<Value> escaping_function(const Value& function, const std::string& callee, SourceRange range);
  std::optional<Type> static_argument(const Value& value, const ast::Function& callee, const std::string& parameter);
  Value static_parameter_value(const StaticValue& value, SourceRange range);

  Value check_name(ast::ExprId id);
  Value check_name_as(ast::ExprId id, int local);  // a read of `local` (an update's read of its target)
  Value check_compare(const ast::Expr& e);
  Value check_bool_op(const ast::Expr& e);
  Value check_if_else(const ast::Expr& e);
  Value check_tuple(const ast::Expr& e);
  Value unary(ast::UnaryOp op, Value operand, SourceRange range);
  Value compare(ast::CompareOp op, Value left, Value right, SourceRange range);
  Value identity(bool is, const Value& left, const Value& right, SourceRange range);  // x is y / x is not y
  Value unary_not(const Value& condition, SourceRange range);  // condition: a bool
  Value membership(bool in, Value item, Value container, SourceRange range);  // x in tuple
  Value unwrap_optional(const Value& value, SourceRange range);
  Value check_list(const ast::Expr& e);
  std::string qualified_callee(const ast::Expr& e);  // a call's callee as numba.prange etc., or ""
  Value new_list(const Type& type, const std::vector<Value>& items, SourceRange range);

  ProgramBuilder& program_;
  const frontend::ModuleFunction& module_function_;
  const ast::Function& ast_;
  Signature signature_;
  bool is_kernel_;
  ir::Function function_;
  std::map<std::string, int> local_index_;  // by web_key(name, web)
  Webs webs_;
  std::map<std::string, StaticValue> static_parameters_;  // parameters known at compile time
  std::map<int, ir::Constant> literal_locals_;  // locals bound once, to an int or bool constant
  std::map<std::string, int> inner_defs_;  // the inner functions defined in the body: Ast::functions index
  void collect_inner_defs(const std::vector<ast::StmtId>& body);
  std::optional<Type> inferred_return_;
  bool returns_none_ = false;  // a bare return, return None, or an end the body can fall off
  Type return_type_now() const;  // the value type, Optional where None is returned too
  void note_none_return();
  std::vector<ir::StmtId>* current_block_ = nullptr;
  std::vector<int> loop_stack_;  // loop ids, innermost last
  std::vector<bool> loop_else_stack_;
  int next_loop_id_ = 0;
  int temporaries_ = 0;
  int global_depth_ = 0;  // > 0 while a module global's expression is checked
  // Final round: which locals have been assigned at some earlier point of the source, so a
  // read before any assignment is reported (Python would raise UnboundLocalError).
  std::vector<bool> assigned_;
  std::vector<bool> poisoned_;  // a failed declaration: uses stay silent (no cascades)
  bool changed_ = false;
  bool final_round_ = false;
  bool block_left_ = false;  // the statement just checked always leaves its block (check_block)
  // for x in literal_unroll(mixed tuple) (sema/unroll.cpp): the body typed once per position.
  void check_plain_for(const ast::Stmt& stmt);
  bool check_unrolled_loop(const ast::Stmt& stmt);
  std::set<int> body_private_locals(const ast::Stmt& loop);
  int unrolling_ = 0;                        // literal_unroll loops being typed (Numba refuses nesting)
  std::map<int, int> local_renames_;         // a versioned local -> this version's temporary (local_at)
  std::map<std::string, Type> version_types_;  // "loop/position/name" -> its type so far, across rounds
};

class ProgramBuilder {
 public:
  ProgramBuilder(frontend::Module& module, Diagnostics& diagnostics, bool force_debug = false,
                 bool host_calls = false)
      : module_(module), diagnostics_(diagnostics), force_debug_(force_debug), host_calls_(host_calls) {
    program_.host_calls = host_calls;
  }
  bool force_debug() const { return force_debug_; }
  // Every entry is a host call's one-thread kernel: the functions run as Numba's CPU target
  // runs them, with its error model.
  bool host_calls() const { return host_calls_; }

  // Index of the specialisation of `name` for these argument types, inferring it if new;
  // -1 after an error (reported at `call_range` in `caller`).
  int specialize(const std::string& name, const Signature& signature, bool is_kernel,
                 SourceRange call_range);
  // The return type `specialize` would give, with everything it adds rolled back (used
  // while the caller's own types are still being found).
  std::optional<Type> tentative_return_type(const std::string& name, const Signature& signature,
                                            SourceRange call_range);
  // A call of a specialisation that is still being inferred (recursion): its index, and the
  // return type its return statements give so far, as Numba types a recursive call from the
  // function's other return paths (absent while none gives one). nullopt: not recursive.
  struct RecursiveCall {
    int index = -1;
    std::optional<Type> return_type;
  };
  std::optional<RecursiveCall> recursive_call(const std::string& name, const Signature& signature);
  bool is_being_inferred(const std::string& name);  // some specialisation of it
  size_t recursive_calls() const { return recursive_calls_; }  // how many recursive_call found
  // A module global folded to a constant: its value expression in the caller.
  Value global_constant(FunctionChecker& caller, const std::string& name, SourceRange range);
  // A module global bound to np.array([...]): a read-only view of a constant array; nullopt
  // when the global is something else.
  std::optional<Value> constant_array(FunctionChecker& caller, const std::string& name, ast::ExprId definition,
                                      SourceRange range);
  Value array_view(FunctionChecker& caller, int index, SourceRange range);

  // The static_value type for a compile-time argument, and back.
  Type static_type(StaticValue value);
  const StaticValue& static_value(const Type& type) const;

  frontend::Module& module() { return module_; }
  Diagnostics& diagnostics() { return diagnostics_; }
  // A module function, or an inner function registered by inner_function; null if neither.
  frontend::ModuleFunction* function(const std::string& name);
  const ast::Function* lowered_function(const std::string& name);
  // The inner function defined at ast().functions[index] inside `enclosing` (whose lowered
  // definition is `enclosing_ast`): a device function named as Python's __qualname__ names it,
  // "kernel.<locals>.inner", compiled with the enclosing function's options.
  std::string inner_function(const frontend::ModuleFunction& enclosing, const ast::Function& enclosing_ast, int index);
  // The inner function `name` with its captured variables frozen to these constants (defaults
  // of those parameters), to be passed to another function: its name, "k.<locals>.f[y=10]".
  std::string frozen_inner_function(const std::string& name,
                                    const std::vector<FrozenVariable>& values);
  ir::Program take();  // the program, callees before their callers
  ir::Program& program() { return program_; }

 private:
  frontend::Module& module_;
  Diagnostics& diagnostics_;
  bool force_debug_ = false;
  bool host_calls_ = false;
  ir::Program program_;
  std::map<std::string, int> done_;          // key: name + argument types
  // The specialisations being inferred, callers first: a recursive call finds its callee here.
  struct Active {
    std::string key;
    std::string name;
    int index;  // its (reserved) place in program_.functions
    const FunctionChecker* checker;
  };
  std::vector<Active> active_;
  size_t recursive_calls_ = 0;
  bool types_only_ = false;  // tentative_return_type's specialisation: its return type is all it needs
  size_t active_stack_reads_ = 0;  // answers that depended on active_ (tentative_types_ not kept then)
  std::map<std::string, std::optional<Type>> tentative_types_;  // tentative_return_type's, by key
  std::map<std::string, int> specialization_count_;
  std::set<std::string> globals_in_progress_;
  std::map<std::string, StaticValue> static_values_;  // by static_key
  std::map<std::string, frontend::ModuleFunction> inner_functions_;  // by qualified name
  std::deque<ast::Function> with_defaults_;  // host entries typed with omitted arguments (a deque: addresses stay)
};

}  // namespace pykern::sema
