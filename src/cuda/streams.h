// Which stream "the default stream" is: the legacy one (null, which orders with every other
// stream of the context) or, with PYKERN_PER_THREAD_DEFAULT_STREAM=1 (as Numba's
// NUMBA_CUDA_PER_THREAD_DEFAULT_STREAM), each host thread's own, which does not.
#pragma once
#include <cuda.h>

#include "pykern/result.h"

namespace pykern::cuda {

// Whether PYKERN_PER_THREAD_DEFAULT_STREAM asks for the per-thread default stream: unset,
// empty or 0 no, 1 yes; any other value is an error naming the variable.
Result<bool> per_thread_default_stream();
// The same rule on a value (null: unset), for tests.
Result<bool> parse_per_thread_setting(const char* value);
// The stream to queue on for `given`: itself, or for null the default stream chosen above.
Result<CUstream> queue_for(CUstream given);

}  // namespace pykern::cuda
