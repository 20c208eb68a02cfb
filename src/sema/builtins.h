// The functions and values kernels can use without defining them: Python builtins, math,
// NumPy scalar functions and types, numba types, numba.cuda intrinsics and numba.cuda.random.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "sema/checker.h"

namespace pykern::sema {

bool is_python_builtin(const std::string& name);
// The names is_python_builtin accepts.
std::vector<std::string> python_builtin_names();

// Qualified names that statements read themselves (check_loops.cpp), not through the handler
// table: `for i in numba.prange(n)`, `x = cuda.shared.array(shape, dtype)`.
inline constexpr const char* prange_name = "numba.prange";
inline constexpr const char* shared_array_name = "numba.cuda.shared.array";
inline constexpr const char* local_array_name = "numba.cuda.local.array";
inline constexpr const char* newaxis_name = "numpy.newaxis";  // None, as in NumPy

// Every qualified name pykern gives a meaning to, read without types: the handler table's
// (methods aside), the numba.cuda intrinsic values, the math constants, the types and the forms
// above. The name pass (sema/name_resolution.cpp) tells a misspelt module attribute by it.
const std::set<std::string>& known_qualified_names();

// What a qualified name ("numba.cuda.threadIdx.x", "math.pi", "numpy.float32") denotes.
// Unknown names stay `qualified` so an attribute can extend them; they fail when used.
Value resolve_qualified(FunctionChecker& checker, const std::string& name, SourceRange range);

// A call of a qualified name with checked arguments; Value::error() after reporting.
struct CallSite {
  std::string name;
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> keywords;
  SourceRange range;
};
Value call_builtin(FunctionChecker& checker, const CallSite& call);
// float("inf"), float("1e-3"): the literal parsed as Python's float() parses it, a float64.
Value float_of_literal(FunctionChecker& checker, const ast::Expr& literal);
// ord("A"): the literal's one code point, an int64.
Value ord_of_literal(FunctionChecker& checker, const ast::Expr& literal);

// Whether the builtin `name` takes its arguments as they are (types and dtypes stay values)
// rather than as run-time values.
bool builtin_takes_types(const std::string& name);
bool builtin_takes_strings(const std::string& name);

// What a dtype given as a string literal is named, beside numpy.dtype for np.dtype(...).
inline constexpr const char* string_dtype_name = "numpy.dtype(str)";

// A NumPy dtype named by a string, as np.dtype() reads it ("float64", "f8", "<i4", "bool").
std::optional<Type> dtype_named(const std::string& text);

// The scalar dtype a value denotes where Python passes a dtype: a type value (np.float32,
// numba.float32, np.dtype(...), a.dtype, or a dtype's name read by check_type_argument).
std::optional<Type> dtype_of(const Value& value);

// The Numba type a qualified name denotes ("numba.float32", "numpy.int64", "numba.cuda.double",
// "numba.cuda.types.void"), in kernels and in signatures alike.
std::optional<Type> type_value(const std::string& qualified_name);

}  // namespace pykern::sema
