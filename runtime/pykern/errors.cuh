// pykern runtime: how a kernel reports an error (debug builds: bounds, assert, raise).
// On the device: printf the message as Numba does, then trap so the launch fails.
// In the simulator: the host runtime records it and stops the launch.
#pragma once
#include "pykern/base.cuh"

namespace pk {

#if PK_DEVICE_BUILD
PK_NOINLINE_DEVICE void report_index_error(const char* file, int line, i64 index, int axis, i64 size) {
  printf("%s:%d: IndexError: tid=[%d, %d, %d] ctaid=[%d, %d, %d]: index %lld is out of bounds for axis %d with size %lld\n",
         file, line, (int)threadIdx.x, (int)threadIdx.y, (int)threadIdx.z, (int)blockIdx.x, (int)blockIdx.y,
         (int)blockIdx.z, index, axis, size);
  __trap();
}
PK_NOINLINE_DEVICE void report_failure(const char* file, int line, const char* kind, const char* message) {
  printf("%s:%d: %s: tid=[%d, %d, %d] ctaid=[%d, %d, %d]: %s\n", file, line, kind, (int)threadIdx.x,
         (int)threadIdx.y, (int)threadIdx.z, (int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z, message);
  __trap();
}
#else
// Defined after thread.cuh declares the hooks (both are included by runtime.cuh).
[[noreturn, gnu::cold]] inline void report_index_error(const char* file, int line, i64 index, int axis, i64 size);
[[noreturn, gnu::cold]] inline void report_failure(const char* file, int line, const char* kind, const char* message);
#endif

}  // namespace pk

#ifdef PK_DEBUG
#define PK_ASSERT(condition, message) \
  do { if (!(condition)) ::pk::report_failure(__FILE__, __LINE__, "AssertionError", message); } while (0)
#define PK_RAISE(message) ::pk::report_failure(__FILE__, __LINE__, "Exception", message)
#else
// As in Numba: assert is checked only with debug=True, and raise stops nothing without it.
#define PK_ASSERT(condition, message) do { } while (0)
#define PK_RAISE(message) do { } while (0)
#endif
