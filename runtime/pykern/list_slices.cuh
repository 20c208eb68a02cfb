// pykern runtime: what changes a list through a slice (sema/list_slices.cpp): l[a:b:c] = other
// and del l[a:b:c], by Python's slice rules (base.cuh slice_indices), and the key sort of
// l.sort(key=f) and sorted(x, key=f). Included by list.cuh.
//
// As numba/cpython/listobj.py: a slice of step 1 takes a source of any length (the list grows
// or shrinks); any other step takes exactly as many items as the slice holds, else Numba's
// ValueError; a step of 0 is Python's ValueError. Where Numba copies item by item from a source
// that is the list itself (l[1:] = l), this copies the source first, giving Python's result.
#ifndef PYKERN_LIST_SLICES_CUH
#define PYKERN_LIST_SLICES_CUH

#if !PK_DEVICE_BUILD

namespace pk {

inline void check_slice_step(const char* file, int line, i64 step) {
  if (step == 0) report_failure(file, line, "ValueError", "slice step cannot be zero");
}

// l[start:stop:step]: a new list (none_index where a bound is absent).
template <class T> list<T> list_slice_at(const char* file, int line, const list<T>& l, i64 start, i64 stop, i64 step) {
  check_slice_step(file, line, step);
  return list_slice(l, start, stop, step);
}
#define PK_LIST_SLICE(...) (::pk::list_slice_at(__FILE__, __LINE__, __VA_ARGS__))

// Moves the items [from, size) to start at `to`, then sets the size to size + (to - from).
template <class T> void list_shift_tail(const list<T>& l, i64 from, i64 to) {
  i64 n = l.size(), delta = to - from;
  if (delta > 0) {
    list_reserve(l, n + delta);
    for (i64 i = n - 1; i >= from; --i) l.items()[i + delta] = l.items()[i];
  } else if (delta < 0) {
    for (i64 i = from; i < n; ++i) l.items()[i + delta] = l.items()[i];
    for (i64 i = n + delta; i < n; ++i) l.items()[i] = T{};  // no storage kept alive behind the end
  }
  l.storage->size = n + delta;
}

// l[start:stop:step] = source.
template <class T, class U>
void list_set_slice(const char* file, int line, const list<T>& l, i64 start, i64 stop, i64 step, const list<U>& source) {
  check_slice_step(file, line, step);
  slice_bounds b = slice_indices(l.size(), start, stop, step);
  i64 count = source.size();
  T* items = count > 0 ? new T[count] : nullptr;  // the source read first: it may be the list itself
  for (i64 i = 0; i < count; ++i) items[i] = static_cast<T>(source.items()[i]);
  if (b.step == 1) {
    list_shift_tail(l, b.start + b.length, b.start + count);
    for (i64 i = 0; i < count; ++i) l.items()[b.start + i] = items[i];
  } else {
    if (count != b.length) {
      delete[] items;
      report_failure(file, line, "ValueError", "cannot resize extended list slice with step != 1");
    }
    for (i64 k = 0, i = b.start; k < count; ++k, i += b.step) l.items()[i] = items[k];
  }
  delete[] items;
}
#define PK_LIST_SET_SLICE(...) (::pk::list_set_slice(__FILE__, __LINE__, __VA_ARGS__))

// del l[start:stop:step]: the items the slice names leave; the others keep their order.
template <class T> void list_delete_slice(const char* file, int line, const list<T>& l, i64 start, i64 stop, i64 step) {
  check_slice_step(file, line, step);
  slice_bounds b = slice_indices(l.size(), start, stop, step);
  if (b.length == 0) return;
  if (b.step == 1) {
    list_shift_tail(l, b.start + b.length, b.start);
    return;
  }
  // Walked upwards whatever the step's sign: the lowest index the slice names, then every |step|.
  i64 stride = b.step > 0 ? b.step : -b.step;
  i64 lowest = b.step > 0 ? b.start : b.start + (b.length - 1) * b.step;
  i64 n = l.size(), kept = lowest, removed = 0;
  for (i64 i = lowest; i < n; ++i) {
    bool named = removed < b.length && i == lowest + removed * stride;
    if (named) {
      ++removed;
      continue;
    }
    l.items()[kept++] = l.items()[i];
  }
  for (i64 i = kept; i < n; ++i) l.items()[i] = T{};
  l.storage->size = kept;
}
#define PK_LIST_DELETE_SLICE(...) (::pk::list_delete_slice(__FILE__, __LINE__, __VA_ARGS__))

// l.sort(key=f, reverse=r) once sema has computed keys[i] = f(l[i]): Numba's argsort quicksort of
// the keys (sorted again with lt=gt for reverse), then the items placed in that order. Like
// Numba's, it is not stable past 15 items: equal keys keep no particular order.
template <class T, class K> void list_sort_by_keys(const list<T>& l, const list<K>& keys, bool reverse) {
  i64 n = l.size();
  if (n < 2) return;
  const K* key_items = keys.items();
  i64* order = new i64[n];
  for (i64 i = 0; i < n; ++i) order[i] = i;
  if (reverse) sorting::quicksort(order, n, [key_items](i64 i) { return ReversedKey<K>{&key_items[i]}; });
  else sorting::quicksort(order, n, [key_items](i64 i) { return SortKey<K>{&key_items[i]}; });
  T* placed = new T[n];
  for (i64 i = 0; i < n; ++i) placed[i] = l.items()[order[i]];
  for (i64 i = 0; i < n; ++i) l.items()[i] = placed[i];
  delete[] placed;
  delete[] order;
}

}  // namespace pk

#endif
#endif  // PYKERN_LIST_SLICES_CUH
