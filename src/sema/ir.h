// The typed IR that inference produces and the emitter prints. Every expression has its final
// type; every conversion is an explicit cast node; every Python-specific operation (// % **,
// indexing with wraparound, range stepping) is a call into the runtime header chosen here, so
// the emitter never compares types.
#pragma once
#include <complex>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "base/ids.h"
#include "base/source_file.h"
#include "frontend/module.h"
#include "sema/calls.h"
#include "sema/types.h"

namespace pykern::ir {

using sema::Type;
struct ExprTag;
struct StmtTag;
using ExprId = Id<ExprTag>;
using StmtId = Id<StmtTag>;

// A compile-time value: folded module constants, literals.
struct Constant {
  std::variant<bool, int64_t, uint64_t, double, std::complex<double>, std::string> value;
  int64_t as_int() const;
  double as_double() const;
};

enum class ExprKind {
  constant,     // constant, of `type`
  local,        // local variable `local`
  cast,         // args[0] converted to `type`
  unary,        // C++ operator `op` (negate, invert, logical_not) on args[0]
  binary,       // C++ operator `op` on args[0], args[1], both already of the operand type
  logical,      // `op` logical_and or logical_or on two bools (short-circuit, as Python's and/or)
  call,         // the runtime operation `op` (sema/calls.def) applied to args
  device_call,  // the program's function `callee` applied to args
  element,      // array element args[0][args[1..]] (indices int64): an lvalue
  member,       // args[0].`name` (array shape/strides entries, record fields): may be an lvalue
  make_tuple,   // a tuple of args
  select,       // args[0] ? args[1] : args[2]
  constant_array,  // the program's constant array `callee` (a module-level NumPy array), as a view
  // A whole-array expression not yet computed (host @jit functions; sema/array_exprs.cpp): its
  // element is `body` applied to the elements of args (arrays, other array_maps, scalars),
  // broadcast together. Typed as the C array it makes; only an operand of another array_map,
  // of Op::materialize or of Op::assign_expr.
  array_map,
  map_element,  // inside an array_map's body: the element of the map's operand `op_arg`
};

struct Expr {
  ExprKind kind = ExprKind::constant;
  Type type;
  SourceRange range;
  std::string name;  // member: the member's name
  Op op = Op::none;  // call: the runtime operation; unary, binary, logical: the C++ operator
  int op_arg = -1;   // call: the operation's constant argument where its spelling has {n}
  std::vector<ExprId> args;
  Constant constant;
  int local = -1;
  int callee = -1;
  // element: per axis (bit k), the index is known never negative / within the axis
  // (sema/index_facts.h), so the emitted access skips the wrap-around / the bounds check.
  uint32_t known_non_negative = 0;
  uint32_t known_in_bounds = 0;
  ExprId body;  // array_map: the element's scalar expression over map_element operands
};

enum class StmtKind {
  assign,        // target = value (target: local, element or member)
  expr,          // value evaluated for its effects
  if_,           // condition, body, orelse
  for_range,     // local = start, stop, step (int64); step_sign; body, orelse; loop_id
  while_,        // condition, body, orelse; loop_id
  break_,        // loop_id
  continue_,
  return_,       // value (invalid for a bare return)
  declare_array, // local, array_dtype, array_shape, in_shared_memory, dynamic_shared
  assert_,       // condition, message (text)
  raise_,        // exception (class name), message (text)
  print,         // message (printf's format), args: printf's values, then those only evaluated
  // try statements of host calls (sema/check_try.cpp, emit/try_blocks.h); loop_id numbers each
  try_except,    // body (protected), orelse (the handler, which catches every Python exception)
  try_else,      // body: a try's else block, the last statement of its try_except's body
  try_finally,   // body (protected), orelse (the finally block, run however the body is left)
};

// A reduction of a parallel loop: `local` is updated only as `local = local <op> x` (op one of
// + - * /) or `local = min(local, x)` / max. Each part of the loop starts from the identity (0
// for + and -, 1 for * and /) or, for min and max, from the value before the loop; the parts'
// results are then combined in order by `combine`: add for + and -, mul for * and /, or the
// call itself (a row with the reduction flag: pk::min).
struct Reduction {
  int local = -1;
  Op combine = Op::none;
  bool starts_at_identity = true;  // false: each part starts from the value before the loop
};

// A prange loop that runs on the thread pool: its iterations are split into parts, one per
// thread, each with its own copies of `privates` (every local the body assigns, the loop's
// counter included) and of the reductions' accumulators. The part that runs the last
// iteration hands its privates back, so names read after the loop hold the last iteration's
// values, as a sequential loop leaves them.
struct ParallelLoop {
  bool enabled = false;
  std::vector<int> privates;
  std::vector<int> shared;  // read in the body, assigned nowhere in it: each part reads its own copy
  std::vector<Reduction> reductions;
};

struct Stmt {
  StmtKind kind = StmtKind::expr;
  SourceRange range;
  uint32_t line = 0;  // 1-based line in the kernel file, for #line
  ExprId target;
  ExprId value;
  ExprId condition;
  ExprId start, stop, step;
  int step_sign = 0;  // +1 or -1 when known at compile time, 0 when decided at run time
  int local = -1;
  int loop_id = -1;
  bool loop_has_else = false;  // a break in this loop skips the else branch
  bool is_prange = false;      // for_range over numba.prange(...)
  ParallelLoop parallel;       // how a prange loop of a parallel=True function runs (sema/parallel_loops.h)
  std::vector<StmtId> body;
  std::vector<StmtId> orelse;
  std::vector<ExprId> args;
  std::string message;
  std::string exception;  // raise_: the class raised, "ValueError"
  Type array_dtype;
  std::vector<int64_t> array_shape;
  bool in_shared_memory = false;
  bool dynamic_shared = false;  // cuda.shared.array(0, ...): the launch's dynamic shared memory
  // print: how many of args printf formats. The rest are evaluated for their effects only: CUDA's
  // printf formats 32 values at most, and numba-cuda's print prints the conversions of the
  // others (sema/infer.cpp check_print).
  size_t printed_args = 0;
};

struct Local {
  std::string name;  // the Python name
  Type type;
  bool is_parameter = false;
  bool is_temporary = false;  // made by pykern (tuple unpacking), not by the user
  int version = 0;  // the name's web (sema/webs.h): 1, 2, ... where one name holds values of different types
};

struct FunctionOptions {
  bool debug = false;
  // Python's error model: a division or modulo by zero raises ZeroDivisionError (debug=True,
  // and @jit functions called on the host unless error_model='numpy'); else Numba's numpy
  // model gives inf, nan or 0.
  bool checks_division = false;
  // raise and assert stop the call: Numba's CPU target always checks them (@jit functions
  // called on the host), its CUDA target only with debug=True.
  bool raises = false;
  FastMath fastmath;  // the decorator's fastmath: True or a set of flags
  // @jit(boundscheck=True): a host call checks its indices (IndexError); Numba's CPU target
  // checks none unless asked (sim::BuildOptions::boundscheck).
  bool boundscheck = false;
  bool lineinfo = false;
  int opt = 3;
  int max_registers = 0;  // 0: no limit
};

struct Function {
  std::string python_name;
  frontend::FunctionRole role = frontend::FunctionRole::kernel;
  bool is_kernel = false;
  int specialization = 0;  // n-th specialisation of this Python function
  Type return_type = Type::void_();
  std::vector<Type> argument_types;
  std::vector<int> parameters;  // indices into locals
  std::vector<Local> locals;
  std::vector<StmtId> body;
  Store<ExprTag, Expr> exprs;
  Store<StmtTag, Stmt> stmts;
  SourceRange range;
  uint32_t first_line = 0;
  FunctionOptions options;
  // Calls syncthreads, a warp collective, or a function that does: the simulator must run
  // its threads as fibers that meet at barriers.
  bool uses_barriers = false;
  // Calls grid.sync(), or a function that does: a cooperative launch (all blocks resident at
  // once; the simulator runs the whole grid as fibers).
  bool syncs_grid = false;
  // Calls print(), or a function that does: on a GPU its module needs the printf buffer.
  bool prints = false;
  // Makes a list or draws from Python's random module (host only): a user kernel may not call it.
  bool host_only = false;
  // @njit(parallel=True): its outermost prange loops may run on the thread pool.
  bool parallel = false;
  // Bytes of cuda.local.array / cuda.shared.array, its own and its callees' (sema/memory_limits).
  uint64_t local_bytes = 0;
  uint64_t shared_bytes = 0;

  const Expr& operator[](ExprId id) const { return exprs[id]; }
  const Stmt& operator[](StmtId id) const { return stmts[id]; }
};

// A module-level NumPy array a kernel reads (LUT = np.array([...])), frozen at compile time as
// Numba freezes global arrays: constant memory on the GPU.
struct ConstantArray {
  std::string global;  // the Python name
  Type dtype;
  std::vector<int64_t> shape;
  std::vector<Constant> values;  // C order
  // A record, complex or float16 array's elements as NumPy lays them out (values is empty
  // then): C++ has no constant initialiser for those element types, and numba-cuda freezes bytes too.
  std::vector<uint8_t> bytes;
};

// Functions in dependency order: a device function comes before its callers.
struct Program {
  std::vector<Function> functions;
  std::vector<int> kernels;  // indices of the entry points asked for
  std::vector<ConstantArray> constant_arrays;
  // Every entry runs on the host (a host call's kernel, or @jit functions typed for one).
  bool host_calls = false;
  // A host call's program that makes arrays (a call flagged `allocates`): its array values are
  // counted references to their storage (runtime/pykern/owned_array.cuh), so arrays can be
  // held, passed and returned past the names that made them. Elsewhere every array is a view.
  bool owning_arrays = false;
};

}  // namespace pykern::ir
