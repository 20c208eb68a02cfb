// pykern runtime: how a kernel reports an error (debug builds: bounds, assert, raise).
// On the device: the first failing thread fills the module's pk_error_record (error_record.cuh)
// and the failing threads exit; the launcher reads the record and reports it.
// In the simulator: the host runtime records it and stops the launch.
#ifndef PYKERN_ERRORS_CUH
#define PYKERN_ERRORS_CUH
#include "pykern/base.cuh"
#include "pykern/error_record.cuh"

namespace pk {

#if PK_DEVICE_BUILD
}  // namespace pk
// One record per module, zeroed by the launcher before a debug launch and read after it.
extern "C" {
__device__ pk::ErrorRecord pk_error_record;
}
namespace pk {

PK_DEVICE void copy_text(char* to, const char* from, int capacity) {
  int i = 0;
  for (; from && from[i] != 0 && i < capacity - 1; ++i) to[i] = from[i];
  to[i] = 0;
}

// The first failing thread writes the record; every failing thread then stops (PTX `exit`), so
// the context stays usable and the host can read the record, as Numba's exception flag works.
PK_DEVICE bool claim_error_record(const char* file, int line) {
  if (atomicCAS(&pk_error_record.claimed, 0, 1) != 0) return false;
  ErrorRecord& r = pk_error_record;
  r.line = line;
  r.tid[0] = (int)threadIdx.x, r.tid[1] = (int)threadIdx.y, r.tid[2] = (int)threadIdx.z;
  r.ctaid[0] = (int)blockIdx.x, r.ctaid[1] = (int)blockIdx.y, r.ctaid[2] = (int)blockIdx.z;
  copy_text(r.file, file, (int)sizeof r.file);
  return true;
}

PK_NOINLINE_DEVICE void report_index_error(const char* file, int line, i64 index, int axis, i64 size) {
  if (claim_error_record(file, line)) {
    pk_error_record.is_index_error = 1;
    pk_error_record.index = index;
    pk_error_record.axis = axis;
    pk_error_record.size = size;
    __threadfence();
  }
  asm volatile("exit;");
}
PK_NOINLINE_DEVICE void report_failure(const char* file, int line, const char* kind, const char* message) {
  if (claim_error_record(file, line)) {
    copy_text(pk_error_record.kind, kind, (int)sizeof pk_error_record.kind);
    copy_text(pk_error_record.message, message, (int)sizeof pk_error_record.message);
    __threadfence();
  }
  asm volatile("exit;");
}
#else
// Defined after thread.cuh declares the hooks (both are included by runtime.cuh).
[[noreturn, gnu::cold]] inline void report_index_error(const char* file, int line, i64 index, int axis, i64 size);
[[noreturn, gnu::cold]] inline void report_failure(const char* file, int line, const char* kind, const char* message);
#endif

}  // namespace pk

namespace pk {
// An Optional's value where Numba checks it (debug=True, the CPU target): None raises TypeError
// with Numba's message, "expected int64, got None".
struct unwrap_or_raise {
  const char* file;
  int line;
  const char* message;
  template <class T> PK_DEVICE T operator()(const optional<T>& o) const {
    if (!o.has) report_failure(file, line, "TypeError", message);
    return o.value;
  }
};
}  // namespace pk
#define PK_UNWRAP_OR_RAISE(message) (::pk::unwrap_or_raise{__FILE__, __LINE__, message})

// PK_CHECK_ASSERT and PK_RAISE_ERROR always stop the call (Numba's CPU target, and debug=True);
// PK_ASSERT and PK_RAISE only in debug builds: in a kernel without debug=True, numba-cuda checks
// no assert, and raise stops nothing.
#define PK_CHECK_ASSERT(condition, message) \
  do { if (!(condition)) ::pk::report_failure(__FILE__, __LINE__, "AssertionError", message); } while (0)
#define PK_RAISE_ERROR(exception, message) ::pk::report_failure(__FILE__, __LINE__, exception, message)
#ifdef PK_DEBUG
#define PK_ASSERT(condition, message) PK_CHECK_ASSERT(condition, message)
#define PK_RAISE(exception, message) PK_RAISE_ERROR(exception, message)
#else
#define PK_ASSERT(condition, message) do { } while (0)
#define PK_RAISE(exception, message) do { } while (0)
#endif
#endif  // PYKERN_ERRORS_CUH
