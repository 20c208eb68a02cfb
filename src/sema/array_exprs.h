// Internal to sema: whole-array expressions in @jit functions on the host (a + b, np.sqrt(a),
// a > 0, np.where(m, a, b), a += b). Each NumPy ufunc is one row of a table
// (sema/builtins_ufuncs.cpp): its name, its loops as NumPy lists them (ufunc.types), and the
// rule that computes one element from elements already converted to the loop's types (the
// scalar rule of the operator or function, so each Python rule stays in one place). Types
// follow Numba (numba/np/numpy_support.py ufunc_find_matching_loop): the first loop every
// operand converts to safely, where integers convert to any float or complex when the operands
// mix integers and floats.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/source_file.h"
#include "sema/types.h"

namespace pykern::sema {

class FunctionChecker;
struct Value;

// The loop NumPy (and Numba) picks for these operand types: each input's type, and the output's.
struct UfuncLoop {
  std::vector<Type> inputs;
  Type output;
};

// `loops`: NumPy's type characters, "ff->f dd->d" (one entry per loop, space separated).
// `explicit_output`: an in-place operation's target element type (a += b), which the loop's
// output must convert to within its kind ('same_kind'). nullopt: no loop fits.
std::optional<UfuncLoop> find_ufunc_loop(std::string_view loops, const std::vector<Type>& inputs,
                                         const std::optional<Type>& explicit_output = std::nullopt);

// One element of a ufunc from its operands' elements, already of the loop's input types.
using ElementRule = std::function<Value(FunctionChecker&, const std::vector<Value>& elements, SourceRange range)>;

struct Ufunc {
  std::string name;   // NumPy's: "add", "sqrt"
  int inputs = 1;
  std::string loops;  // NumPy's ufunc.types, without float16, object, long double and datetimes
  ElementRule element;
};

// The ufunc NumPy calls `name`, or null.
const Ufunc* ufunc_named(std::string_view name);

// NumPy's character for a scalar type ('d' for float64, 'l' for int64), 0 for others.
char numpy_type_char(const Type& type);

}  // namespace pykern::sema
