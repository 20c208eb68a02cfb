// pykern runtime: Python's sum(), min() and max() over one iterable in @jit functions on the host
// (a list, a 1-D array or a range object), as Numba's overloads compute them
// (numba/cpython/builtins.py): sum adds each item to the running total, left to right, from
// `start`; min and max keep the first of equal items and raise on an empty iterable. The
// total's type R is sema's (the type of start + item).
#ifndef PYKERN_ITERABLES_CUH
#define PYKERN_ITERABLES_CUH
#include "pykern/arith.cuh"
#include "pykern/array.cuh"
#include "pykern/errors.cuh"
#include "pykern/list.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

// Item i of each iterable, and how many there are.
template <class T> i64 iterable_size(const list<T>& l) { return l.storage ? l.storage->size : 0; }
template <class T> T iterable_item(const list<T>& l, i64 i) { return l.storage->items[i]; }
template <class T, Layout L> i64 iterable_size(const Array<T, 1, L>& a) { return a.shape[0]; }
template <class T, Layout L> T iterable_item(const Array<T, 1, L>& a, i64 i) { return a.at_offset(i * a.stride(0)); }
template <class T> i64 iterable_size(const range<T>& r) { return range_len(r); }
template <class T> T iterable_item(const range<T>& r, i64 i) { return range_item(r, i); }

template <class R, class S> R py_sum(R start, const S& items) {
  R total = start;
  for (i64 i = 0, n = iterable_size(items); i < n; ++i) total = total + R(iterable_item(items, i));
  return total;
}

// min(items) (`less`) or max(items): an item replaces the kept one only when strictly beyond
// it, so a NaN kept first stays and NaNs later are passed over, as in Numba.
template <bool less, class S> auto py_extreme(const char* file, int line, const S& items) {
  i64 n = iterable_size(items);
  // Numba's iterator raises StopIteration at next() of an empty iterable.
  if (n == 0) report_failure(file, line, "StopIteration", "");
  auto kept = iterable_item(items, 0);
  for (i64 i = 1; i < n; ++i) {
    auto item = iterable_item(items, i);
    if (less ? item < kept : item > kept) kept = item;
  }
  return kept;
}

}  // namespace pk

#define PK_PY_MIN(items) (::pk::py_extreme<true>(__FILE__, __LINE__, items))
#define PK_PY_MAX(items) (::pk::py_extreme<false>(__FILE__, __LINE__, items))
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_ITERABLES_CUH
