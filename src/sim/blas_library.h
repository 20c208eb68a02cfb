// The BLAS/LAPACK library that np.dot, `a @ b` and np.linalg call in @jit functions on the host
// (runtime/pykern/linalg.cuh), as Numba calls SciPy's. It is found at run time, so builds need
// no link flags and a machine without one still translates and runs everything else: OpenBLAS
// first (Debian's libopenblas0-pthread), then the reference libblas.so.3 + liblapack.so.3, or the
// libraries PYKERN_BLAS names. The routines are the Fortran ones (dgemm_, dgesv_, ...), with
// 32-bit integers (LP64, as SciPy's).
#pragma once
#include <string>
#include <vector>

namespace pykern::sim {

// The environment variable that names the libraries: one path, or several joined by ':'
// (BLAS and LAPACK in separate files), each an absolute path or a bare file name.
inline constexpr const char* blas_environment_variable = "PYKERN_BLAS";

// The sets of libraries to try in turn, each loaded together. `named` is PYKERN_BLAS's value
// (null when unset); a value that is not a list of library names (empty parts, relative
// paths, control characters, too long) is refused: an empty list and `error` set.
std::vector<std::vector<std::string>> blas_candidates(const char* named, std::string& error);

// The routine `symbol` ("dgemm_") of the first candidate set that loads, found once per
// process from PYKERN_BLAS; nullptr and `error` set (saying what to install) when none loads
// or it lacks the routine.
void* blas_routine(const char* symbol, std::string& error);

// What blas_routine does, without the process-wide cache: load `candidates` and look up
// `symbol` in them (the handles stay loaded). For tests.
void* blas_routine_from(const std::vector<std::vector<std::string>>& candidates, const char* symbol,
                        std::string& error);

}  // namespace pykern::sim
