// Internal to the builtins: the handler table that maps a Python name to its typing rule, the
// rules several families share, and one function per family that adds its names
// (builtins_math.cpp, builtins_python.cpp, builtins_numpy.cpp, builtins_cuda.cpp,
// builtins_atomics.cpp, builtins_random.cpp, builtins_host.cpp, builtins_arrays.cpp,
// builtins_reductions.cpp, builtins_shapes.cpp, builtins_sorting.cpp, builtins_linalg.cpp,
// builtins_iterables.cpp). A rule checks the arguments,
// converts them, and makes a call of a runtime operation of sema/calls.def.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "sema/builtins.h"

namespace pykern::sema {

using Handler = std::function<Value(FunctionChecker&, const CallSite&)>;

// A Python name's typing rule. Most rules take run-time values: check_call converts each
// argument before the rule sees it (a type there is an error). A rule that takes_types sees its
// arguments as they are: a type or dtype value (np.float32, np.dtype("f8"), a.dtype) stays one.
struct Builtin {
  Handler rule;
  bool takes_types = false;
  bool takes_strings = false;  // string literal arguments reach the rule (Value::string_literal)

  Builtin() = default;
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, Builtin>>>
  Builtin(F f) : rule(std::move(f)) {}  // NOLINT: a rule is a builtin of run-time values
  static Builtin with_types(Handler rule) {
    Builtin b(std::move(rule));
    b.takes_types = true;
    return b;
  }
  static Builtin with_strings(Handler rule) {
    Builtin b(std::move(rule));
    b.takes_strings = true;
    return b;
  }
};
using HandlerTable = std::map<std::string, Builtin>;

// "numba.cuda.grid" -> "grid", for messages.
std::string short_name(const std::string& qualified);

// The arguments a call takes, counted, with no keywords; reports otherwise.
bool want_args(FunctionChecker& c, const CallSite& call, size_t min, size_t max);
bool want_numeric(FunctionChecker& c, const CallSite& call, const Value& v);

// math.sin and friends: float32 stays float32, integers and float64 compute in float64.
Handler unary_math(ir::Op op);
// math.atan2 and friends: both operands in the wider float type.
Handler binary_math(ir::Op op);
// math.isnan and friends: a bool (constant for an integer).
Handler predicate_math(ir::Op op);
// A call of no arguments with a fixed result type.
Handler nullary(ir::Op op, Type type);
// A call whose arguments convert to fixed types.
Handler fixed(ir::Op op, std::vector<Type> parameters, Type result);
// min/max of two or more numbers, promoted as NumPy promotes.
Value min_max(FunctionChecker& c, const CallSite& call, ir::Op op);
// The absolute value (abs, np.abs): keeps the type; a complex gives its float part's type.
Value absolute(FunctionChecker& c, const CallSite& call);

// NumPy's array functions on the host (builtins_arrays.cpp, builtins_shapes.cpp): the name as the
// user wrote it ("np.zeros"), the arguments bound to parameter names as Python binds them
// (`required` leading ones must be given; nullopt after reporting), and a dtype argument as
// Numba's parse_dtype reads it (Python's float where `takes_float`; a string where `takes_string`).
std::string shown(const CallSite& call);
using Bound = std::vector<std::optional<Value>>;
std::optional<Bound> bind(FunctionChecker& c, const CallSite& call, const std::vector<const char*>& names,
                          size_t required, const std::string& function);
std::optional<Type> dtype_argument(FunctionChecker& c, const Value& value, const CallSite& call, bool takes_float,
                                   bool takes_string = true);

void add_math_builtins(HandlerTable& t);
void add_python_builtins(HandlerTable& t);
void add_numpy_builtins(HandlerTable& t);
void add_cuda_builtins(HandlerTable& t);
void add_atomic_and_warp_builtins(HandlerTable& t);
void add_random_builtins(HandlerTable& t);
void add_host_builtins(HandlerTable& t);
void add_array_builtins(HandlerTable& t);
void add_reduction_builtins(HandlerTable& t);
void add_iterable_builtins(HandlerTable& t);
// min(iterable) / max(iterable) of one list, 1-d array or range (builtins_iterables.cpp).
Value iterable_extreme(FunctionChecker& c, const CallSite& call, ir::Op op);
void add_linalg_builtins(HandlerTable& t);  // builtins_linalg.cpp
void add_shape_builtins(HandlerTable& t);  // builtins_shapes.cpp
// np.array([[1, 2], [3, 4]]) / np.asarray((x, y)): `name` called on a list or tuple display.
Value array_of_display(FunctionChecker& c, const ast::Expr& call_expr, const std::string& name);
void add_sorting_builtins(HandlerTable& t);
// NumPy's ufuncs, np.where and np.clip (builtins_ufuncs.cpp): after add_numpy_builtins, whose
// scalar rules it keeps for numbers.
void add_ufunc_builtins(HandlerTable& t);
void add_list_builtins(HandlerTable& t);  // sema/lists.cpp: list methods, sorted, list(), numba.typed.List
void add_text_builtins(HandlerTable& t);  // str(), len() of strings, str methods (sema/text.cpp)
void add_numba_builtins(HandlerTable& t);  // builtins_numba.cpp: to_fixed_tuple, literal_unroll
// Axis permutations, np.round with decimals, ufuncs' output arrays (builtins_numpy_misc.cpp):
// after add_ufunc_builtins, whose rules it wraps.
void add_numpy_misc_builtins(HandlerTable& t);
// split, join, padding, classes, case mappings, ord/chr/float of strings (sema/text_methods.cpp)
void add_text_method_builtins(HandlerTable& t);
void add_heapq_builtins(HandlerTable& t);  // sema/heapq.cpp: heappush, heappop, heapify, ...
void add_diag_window_builtins(HandlerTable& t);  // sema/diag_windows.cpp: np.diag, np.hanning, ...

// cuda.threadIdx.x and friends: the runtime operation that reads them (int32, as in Numba).
std::optional<ir::Op> cuda_intrinsic_value(const std::string& qualified_name);
std::vector<std::string> cuda_intrinsic_names();

}  // namespace pykern::sema
