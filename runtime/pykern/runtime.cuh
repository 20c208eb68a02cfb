// pykern runtime: the one header emitted kernels include.
#pragma once
#include "pykern/base.cuh"
#include "pykern/complex.cuh"
#include "pykern/math.cuh"
#include "pykern/arith.cuh"
#include "pykern/errors.cuh"
#include "pykern/array.cuh"
#include "pykern/thread.cuh"
#include "pykern/random.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
inline void report_index_error(const char* file, int line, i64 index, int axis, i64 size) {
  sim::hooks->report_index_error(file, line, index, axis, size);
}
inline void report_failure(const char* file, int line, const char* kind, const char* message) {
  sim::hooks->report_failure(file, line, kind, message);
}
}  // namespace pk
#endif
