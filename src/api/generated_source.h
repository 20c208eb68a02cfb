// The Python source of the kernels pykern generates for @vectorize, @guvectorize and
// @cuda.reduce, as Numba generates its own: written in the kernel dialect, appended to the
// user's module and compiled by the same pipeline. Generated names start with __pk_.
#pragma once
#include <string>

namespace pykern::detail {

// Elementwise: out[j...] = function(in0[j...], ...) over `ndim`-d arrays of one shape.
std::string ufunc_source(const std::string& kernel, const std::string& function, int inputs, int ndim);
// The same on the CPU: a one-thread kernel that calls a parallel=True function whose prange
// loop runs the elements on the thread pool (as Numba's target='parallel' ufuncs do).
std::string cpu_ufunc_source(const std::string& kernel, const std::string& function, int inputs, int ndim);
// One call of `function` per index of the `loop_ndim` leading (loop) dimensions.
std::string gufunc_source(const std::string& kernel, const std::string& function, int arguments, int loop_ndim);
// Grid-stride fold, then a tree in shared memory; one partial per block into `out`.
std::string reduce_source(const std::string& kernel, const std::string& function, const std::string& numba_dtype);
// One call of a @jit function from a one-thread kernel: its value (or a tuple's parts) stored
// into 1-element arrays __r0, __r1, ...; an Optional's presence into __has.
// A list's items are handed to the engine instead (__pk_export_list).
std::string call_source(const std::string& kernel, const std::string& function, int arguments, int parts,
                        bool is_tuple, bool is_optional, bool is_list);

}  // namespace pykern::detail
