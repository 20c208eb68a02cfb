// a[i] = (x, y, z): the length check of a store from a sequence into a 1-d view; the items are
// stored one by one after it (sema/sequence_store.cpp).
#pragma once

#include "pykern/array.cuh"

namespace pk {

// Numba's CPU target names both shapes; its generic target (numba-cuda) says only that they differ.
template <class T, int N, Layout L>
PK_DEVICE void check_sequence_store(const char* file, int line, const Array<T, N, L>& view, i64 items, bool cpu_wording) {
  if (view.shape[0] == items) return;
  if (!cpu_wording || PK_DEVICE_BUILD)
    report_failure(file, line, "ValueError", "cannot assign slice from input of different size");
#if !PK_DEVICE_BUILD  // a host call (a GPU build has no snprintf, and never the CPU's wording)
  char message[120];
  __builtin_snprintf(message, sizeof message, "cannot assign slice of shape (%lld,) from input of shape (%lld,)",
                     static_cast<long long>(view.shape[0]), static_cast<long long>(items));
  report_failure(file, line, "ValueError", message);
#endif
}
#define PK_CHECK_SEQUENCE_STORE(view, items, cpu_wording) \
  (::pk::check_sequence_store(__FILE__, __LINE__, view, items, cpu_wording))

}  // namespace pk
