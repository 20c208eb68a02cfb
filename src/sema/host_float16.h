// float16 in @jit functions called on the host: Numba 0.68's CPU target has no data model for
// it (any float16 value, an array of them, or a list, dict or tuple holding one fails to compile
// with `NotImplementedError: float16`), so pykern refuses it there, located; kernels and the
// device functions they call keep float16 (numba-cuda's cuda.fp16).
#pragma once
#include <vector>

#include "sema/checker.h"

namespace pykern::sema {

// Whether a type holds float16 anywhere: a scalar, an array's dtype, a list's, dict's, tuple's
// or Optional's items.
bool holds_float16(const Type& type);

// A located error at the first parameter, else the first expression in source order, of a
// host function that holds float16; nothing for other functions.
void refuse_float16_on_cpu(FunctionChecker& c, const ast::Function& function, const std::vector<Type>& arguments,
                           const ir::Function& typed);

}  // namespace pykern::sema
