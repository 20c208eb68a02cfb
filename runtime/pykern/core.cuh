// pykern runtime: what every emitted kernel may use. The emitter adds cmath.cuh (complex math)
// and fp16.cuh (float16) only to programs with complex or float16 values: NVRTC spends about
// 4 ms per compile parsing those two, and most kernels use neither (BENCHMARKS.md, issue 14).
// Include guards, not #pragma once: a precompiled header keeps macros, and the simulator
// uses one (src/sim/simulator.cpp).
#ifndef PYKERN_CORE_CUH
#define PYKERN_CORE_CUH
#include "pykern/base.cuh"
#include "pykern/complex.cuh"
#include "pykern/math.cuh"
#include "pykern/arith.cuh"
#include "pykern/errors.cuh"
#include "pykern/array.cuh"
#include "pykern/thread.cuh"
#include "pykern/random.cuh"
#include "pykern/list.cuh"
#include "pykern/dict.cuh"
#include "pykern/owned_array.cuh"
#include "pykern/fancy_index.cuh"
#include "pykern/array_shapes.cuh"
#include "pykern/host_random.cuh"
#include "pykern/parallel.cuh"
#include "pykern/reductions.cuh"
#include "pykern/iterables.cuh"
#include "pykern/linalg.cuh"
#include "pykern/reductions_axis.cuh"
#include "pykern/statistics.cuh"
#include "pykern/sorting.cuh"
#include "pykern/array_expr.cuh"
#include "pykern/text.cuh"
#include "pykern/exceptions.cuh"
#include "pykern/linalg_more.cuh"
#include "pykern/numpy_misc.cuh"
#include "pykern/fused_index.cuh"
#include "pykern/host_values.cuh"
#include "pykern/zero_d.cuh"
#include "pykern/fancy_several.cuh"
#include "pykern/fancy_mixed.cuh"
#include "pykern/ufunc_methods.cuh"
#include "pykern/text_methods.cuh"
#include "pykern/heapq.cuh"
#include "pykern/diag_windows.cuh"
#include "pykern/dict_lists.cuh"
#include "pykern/sequence_store.cuh"
#include "pykern/text_search.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
// The engine's reports never return (they unwind the thread); saying so keeps every checked
// access a cold branch the optimiser can set aside.
[[noreturn, gnu::cold]] inline void report_index_error(const char* file, int line, i64 index, int axis, i64 size) {
  sim::hooks->report_index_error(file, line, index, axis, size);
  __builtin_unreachable();
}
[[noreturn, gnu::cold]] inline void report_failure(const char* file, int line, const char* kind, const char* message) {
  sim::hooks->report_failure(file, line, kind, message);
  __builtin_unreachable();
}
}  // namespace pk
#endif
#endif  // PYKERN_CORE_CUH
