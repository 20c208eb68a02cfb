// 0-d arrays in @jit functions on the host (np.array(3.0), np.zeros(())), as Numba 0.68 has
// them: z[()] reads and stores the element, z[...] = v stores it, element-wise operations on
// 0-d arrays give numbers (Numba's ufuncs do), and the reductions and reshapes Numba takes
// them to see the element as a 1-element 1-d view (the same results). Other calls that would
// get one are refused at the call, naming the function. Runtime: runtime/pykern/zero_d.cuh.
#pragma once
#include <optional>

#include "sema/builtins.h"
#include "sema/checker.h"

namespace pykern::sema {

// Whether the value is a 0-d array.
bool is_zero_d(const Value& v);

// z[()]: the element of a 0-d array, as a place (read or stored).
Value zero_d_element(FunctionChecker& c, const Value& array, SourceRange range);

// An operand of an element-wise operation: a 0-d array as its element, anything else as is.
Value zero_d_as_operand(FunctionChecker& c, const Value& operand, SourceRange range);

// np.array(x) / np.asarray(x) of a number: a new 0-d array holding it, of `dtype` if given
// (converted), else of the number's type.
Value zero_d_of_number(FunctionChecker& c, const Value& number, const std::optional<Type>& dtype, SourceRange range);

// z op= v on a 0-d array: the element computed (`computed`, already of z's dtype) and stored.
void store_zero_d(FunctionChecker& c, const Value& array, const Value& computed, SourceRange range);

// A builtin call with a 0-d array among its arguments, as the builtin's rule takes it: as
// given (the rule handles it), with the array seen as a 1-element 1-d view, or nullopt after
// a located error where pykern does not take a 0-d array there.
std::optional<CallSite> zero_d_call(FunctionChecker& c, const CallSite& call);

// Kernels and device functions: a 0-d array parameter (from a signature's Array(f8, 0, 'C'))
// is refused at the parameter, as pykern passes kernels none.
void refuse_zero_d_parameters(FunctionChecker& c, const ast::Function& function, const std::vector<Type>& arguments);

}  // namespace pykern::sema
