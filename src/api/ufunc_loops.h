// Internal to the API: how a CPU ufunc (Numba's @vectorize and @guvectorize on targets 'cpu'
// and 'parallel') chooses its loop for a call, as NumPy 2's type resolution does for the
// loops Numba registers: the first loop, in the order they were added, that every input casts
// to safely. Python scalars are "weak" (NEP 50): where an array of the same or a higher kind
// is present, a Python int fits any integer or inexact loop and a Python float any inexact
// one, and the value must then fit the loop's type (OverflowError otherwise). From C++,
// int64_t, double and std::complex<double> scalars are Python's int, float and complex, as
// they are to Numba's typeof; other scalar types are NumPy scalars of that type.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "pykern/module.h"

namespace pykern::detail {

// One loop of a ufunc: the element types of its inputs.
using LoopInputs = std::vector<DType>;

// The index of the loop NumPy would choose for `inputs`, or nullopt when none fits.
std::optional<size_t> choose_cpu_loop(const std::vector<LoopInputs>& loops, const std::vector<Argument>& inputs);

// The element types of the loop a DUFunc (a @vectorize without signatures) compiles for
// `inputs` when none of its loops fits: each array's dtype, each scalar's type.
LoopInputs exact_loop(const std::vector<Argument>& inputs);

// NumPy's TypeError when no loop fits.
std::string no_loop_error(const std::string& ufunc_name);

// A Python int converted to an integer loop type must fit it: NumPy's OverflowError text, or ""
// when every scalar input fits the loop.
std::string scalar_overflow(const std::vector<Argument>& inputs, const LoopInputs& loop);

// A C-contiguous copy of `a` with its elements converted to `dtype` (NumPy's safe casts).
Array converted_copy(const Array& a, const DType& dtype);

}  // namespace pykern::detail
