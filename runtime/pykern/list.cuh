// pykern runtime: Python lists in @jit functions called on the host (Numba's reflected lists
// and numba.typed.List, which behave alike here). Host builds only: a kernel cannot hold one
// (sema refuses). A list is a counted reference to its storage, as a Python name refers to a
// list object: l2 = l1 shares it, and so does a list held in another list (rows[i].append(x)
// grows the row the outer list holds). Items are numbers, tuples, arrays (pk::OwnedArray in a
// program that makes arrays: the list keeps their storage alive) or lists.
//
// The operations follow numba/cpython/listobj.py: Python's index rules, its errors and
// messages (IndexError: pop from empty list, ValueError: list.remove(x): x not in list),
// Numba's quicksort for l.sort() and sorted(), and Python's item-by-item comparisons.
#ifndef PYKERN_LIST_CUH
#define PYKERN_LIST_CUH
#include "pykern/base.cuh"
#include "pykern/errors.cuh"
#include "pykern/thread.cuh"

#if !PK_DEVICE_BUILD
#include "pykern/sorting.cuh"

namespace pk {

template <class T> struct list {
  struct Storage {
    T* items;
    i64 size, capacity, references;
  };
  Storage* storage = nullptr;

  list() = default;
  list(const list& other) : storage(other.storage) {
    if (storage) ++storage->references;
  }
  list& operator=(const list& other) {
    if (other.storage) ++other.storage->references;
    release();
    storage = other.storage;
    return *this;
  }
  ~list() { release(); }
  void release() {
    if (storage && --storage->references == 0) {
      delete[] storage->items;
      delete storage;
    }
    storage = nullptr;
  }
  i64 size() const { return storage ? storage->size : 0; }
  T* items() const { return storage ? storage->items : nullptr; }
  // l[i]: Python's negative indices; out of range is Python's IndexError.
  T& at(const char* file, int line, i64 i) const {
    i64 n = size();
    if (i < 0) i += n;
    if (i < 0 || i >= n) report_failure(file, line, "IndexError", "list index out of range");
    return storage->items[i];
  }
};

template <class T> list<T> empty_list() {
  list<T> l;
  l.storage = new typename list<T>::Storage{nullptr, 0, 0, 1};
  return l;
}
// Room for `count` items (storage made if the list has none).
template <class T> void list_reserve(const list<T>& l, i64 count) {
  auto* s = l.storage;
  if (count <= s->capacity) return;
  i64 capacity = s->capacity < 4 ? 4 : s->capacity * 2;
  if (capacity < count) capacity = count;
  T* grown = new T[capacity];
  for (i64 i = 0; i < s->size; ++i) grown[i] = s->items[i];
  delete[] s->items;
  s->items = grown;
  s->capacity = capacity;
}
template <class T> void list_append(const list<T>& l, T item) {
  list_reserve(l, l.storage->size + 1);
  l.storage->items[l.storage->size++] = item;
}
// [] or [a, b, ...]; `like` only names the items' type.
template <class T, class... I> list<T> new_list(T like, I... items) {
  (void)like;
  list<T> l = empty_list<T>();
  (list_append(l, static_cast<T>(items)), ...);
  return l;
}
template <class T> i64 list_len(const list<T>& l) { return l.size(); }
template <class T> bool list_truth(const list<T>& l) { return l.size() > 0; }

// ---- items compared as Python compares them: numbers by value, tuples and lists item by item ----

template <class A, class B> inline bool item_equal(const A& a, const B& b) { return a == b; }
inline bool item_equal(const tuple<>&, const tuple<>&) { return true; }
template <class H, class... T, class G, class... U>
inline bool item_equal(const tuple<H, T...>& a, const tuple<G, U...>& b) {
  if constexpr (sizeof...(T) != sizeof...(U)) return false;
  else return item_equal(a.head, b.head) && item_equal(a.tail, b.tail);
}
template <class A, class B> inline bool item_equal(const list<A>& a, const list<B>& b);

// -1, 0 or 1; `unordered` where a NaN made every comparison false.
template <class A, class B> inline int item_order(const A& a, const B& b) { return a < b ? -1 : b < a ? 1 : 0; }
inline int item_order(const tuple<>&, const tuple<>&) { return 0; }
template <class H, class... T, class G, class... U>
inline int item_order(const tuple<H, T...>& a, const tuple<G, U...>& b) {
  if (!item_equal(a.head, b.head)) return item_order(a.head, b.head);
  if constexpr (sizeof...(T) == 0 || sizeof...(U) == 0) return sizeof...(T) < sizeof...(U) ? -1 : sizeof...(T) > sizeof...(U) ? 1 : 0;
  else return item_order(a.tail, b.tail);
}
template <class A, class B> inline int item_order(const list<A>& a, const list<B>& b);

template <class A, class B> inline bool item_equal(const list<A>& a, const list<B>& b) {
  if (a.size() != b.size()) return false;
  for (i64 i = 0; i < a.size(); ++i)
    if (!item_equal(a.items()[i], b.items()[i])) return false;
  return true;
}
// Python's sequence order: the first items that differ decide; else the shorter is less.
template <class A, class B> inline int item_order(const list<A>& a, const list<B>& b) {
  i64 n = a.size() < b.size() ? a.size() : b.size();
  for (i64 i = 0; i < n; ++i)
    if (!item_equal(a.items()[i], b.items()[i])) return item_order(a.items()[i], b.items()[i]);
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}
template <class A, class B> bool list_eq(const list<A>& a, const list<B>& b) { return item_equal(a, b); }
template <class A, class B> bool list_ne(const list<A>& a, const list<B>& b) { return !item_equal(a, b); }
template <class A, class B> bool list_lt(const list<A>& a, const list<B>& b) { return item_order(a, b) < 0; }
template <class A, class B> bool list_le(const list<A>& a, const list<B>& b) { return item_order(a, b) <= 0 && (item_order(a, b) < 0 || item_equal(a, b)); }
template <class A, class B> bool list_gt(const list<A>& a, const list<B>& b) { return item_order(a, b) > 0; }
template <class A, class B> bool list_ge(const list<A>& a, const list<B>& b) { return item_order(a, b) >= 0 && (item_order(a, b) > 0 || item_equal(a, b)); }

// ---- what reads a list ----

template <class T, class U> bool list_contains(const list<T>& l, const U& item) {
  for (i64 i = 0; i < l.size(); ++i)
    if (item_equal(l.items()[i], item)) return true;
  return false;
}
template <class T, class U> i64 list_count(const list<T>& l, const U& item) {
  i64 count = 0;
  for (i64 i = 0; i < l.size(); ++i) count += item_equal(l.items()[i], item) ? 1 : 0;
  return count;
}
// l.index(x, start, stop): Python's slice bounds (negative from the end, clamped).
template <class T, class U>
i64 list_index(const char* file, int line, const list<T>& l, const U& item, i64 start = 0, i64 stop = 9223372036854775807LL) {
  i64 n = l.size();
  auto clamp = [n](i64 v) { return v < 0 ? (v + n < 0 ? 0 : v + n) : v > n ? n : v; };
  for (i64 i = clamp(start); i < clamp(stop); ++i)
    if (item_equal(l.items()[i], item)) return i;
  report_failure(file, line, "ValueError", "value not in list");
  return -1;
}
#define PK_LIST_INDEX(...) (::pk::list_index(__FILE__, __LINE__, __VA_ARGS__))

// l[start:stop:step]: a new list, by Python's slice rules (none_index where a bound is absent).
// A step of 0 is list_slice_at's ValueError (list_slices.cuh), checked before this runs.
template <class T> list<T> list_slice(const list<T>& l, i64 start, i64 stop, i64 step) {
  slice_bounds b = slice_indices(l.size(), start, stop, step);
  list<T> out = empty_list<T>();
  for (i64 k = 0, i = b.start; k < b.length; ++k, i += b.step) list_append(out, l.items()[i]);
  return out;
}
template <class T> list<T> list_copy(const list<T>& l) { return list_slice(l, none_index, none_index, 1); }

// l1 + l2 (items converted to the result's), l * n and n * l (n <= 0: empty).
template <class T, class A, class B> list<T> list_concat(T like, const list<A>& a, const list<B>& b) {
  (void)like;
  list<T> out = empty_list<T>();
  list_reserve(out, a.size() + b.size());
  for (i64 i = 0; i < a.size(); ++i) list_append(out, static_cast<T>(a.items()[i]));
  for (i64 i = 0; i < b.size(); ++i) list_append(out, static_cast<T>(b.items()[i]));
  return out;
}
template <class T> list<T> list_repeat(const list<T>& l, i64 times) {
  list<T> out = empty_list<T>();
  i64 n = l.size();
  for (i64 k = 0; k < times; ++k)
    for (i64 i = 0; i < n; ++i) list_append(out, l.items()[i]);
  return out;
}

// ---- what changes a list ----

template <class T> T list_pop(const char* file, int line, const list<T>& l, i64 i = -1) {
  i64 n = l.size();
  if (n == 0) report_failure(file, line, "IndexError", "pop from empty list");
  if (i < 0) i += n;
  if (i < 0 || i >= n) report_failure(file, line, "IndexError", "pop index out of range");
  T item = l.items()[i];
  for (i64 k = i; k + 1 < n; ++k) l.items()[k] = l.items()[k + 1];
  l.items()[n - 1] = T{};  // an array or list left behind would keep its storage alive
  --l.storage->size;
  return item;
}
#define PK_LIST_POP(...) (::pk::list_pop(__FILE__, __LINE__, __VA_ARGS__))

// del l[i]: Numba's is l.pop(i), with pop's errors.
template <class T> void list_delete(const char* file, int line, const list<T>& l, i64 i) { (void)list_pop(file, line, l, i); }
#define PK_LIST_DELETE(...) (::pk::list_delete(__FILE__, __LINE__, __VA_ARGS__))

// l.insert(i, x): i counts from the end when negative and is clamped to the list, as Python's.
template <class T> void list_insert(const list<T>& l, i64 i, T item) {
  i64 n = l.size();
  if (i < 0) i = i + n < 0 ? 0 : i + n;
  if (i > n) i = n;
  list_reserve(l, n + 1);
  for (i64 k = n; k > i; --k) l.items()[k] = l.items()[k - 1];
  l.items()[i] = item;
  ++l.storage->size;
}

// l.extend(other), l += other: another list (itself included), a 1-d array or a range.
template <class T, class U> void list_extend(const list<T>& l, const list<U>& other) {
  i64 n = other.size();  // l.extend(l) adds the items it had
  list_reserve(l, l.size() + n);
  for (i64 i = 0; i < n; ++i) list_append(l, static_cast<T>(other.items()[i]));
}
template <class T, class U, Layout L> void list_extend(const list<T>& l, const Array<U, 1, L>& a) {
  list_reserve(l, l.size() + a.shape[0]);
  for (i64 i = 0; i < a.shape[0]; ++i) list_append(l, static_cast<T>(a.at_offset(i * a.stride(0))));
}
template <class T, class U> void list_extend(const list<T>& l, const range<U>& r) {
  i64 n = range_len(r);
  list_reserve(l, l.size() + n);
  for (i64 i = 0; i < n; ++i) list_append(l, static_cast<T>(range_item(r, i)));
}
// l *= n: the items repeated in place.
template <class T> void list_repeat_in_place(const list<T>& l, i64 times) {
  list<T> repeated = list_repeat(l, times);
  list_clear(l);
  list_extend(l, repeated);
}

template <class T, class U> void list_remove(const char* file, int line, const list<T>& l, const U& item) {
  for (i64 i = 0; i < l.size(); ++i) {
    if (item_equal(l.items()[i], item)) {
      (void)list_pop(file, line, l, i);
      return;
    }
  }
  report_failure(file, line, "ValueError", "list.remove(x): x not in list");
}
#define PK_LIST_REMOVE(...) (::pk::list_remove(__FILE__, __LINE__, __VA_ARGS__))

template <class T> void list_clear(const list<T>& l) {
  for (i64 i = 0; i < l.size(); ++i) l.items()[i] = T{};
  if (l.storage) l.storage->size = 0;
}
template <class T> void list_reverse(const list<T>& l) {
  for (i64 a = 0, b = l.size() - 1; a < b; ++a, --b) {
    T t = l.items()[a];
    l.items()[a] = l.items()[b];
    l.items()[b] = t;
  }
}

// l.sort(reverse=r): Numba's quicksort, ordered by Python's `<` (NaN last, as Numba's lt), or
// with reverse by `>` (Numba sorts again with lt=gt rather than reversing the result).
template <class T> struct SortKey {
  const T* item;
  friend bool operator<(const SortKey& a, const SortKey& b) {
    if constexpr (sorting::is_float<T>::value) return sorting::less(*a.item, *b.item);
    else return item_order(*a.item, *b.item) < 0;
  }
};
template <class T> struct ReversedKey {
  const T* item;
  friend bool operator<(const ReversedKey& a, const ReversedKey& b) {
    if constexpr (sorting::is_float<T>::value) return *a.item > *b.item;
    else return item_order(*a.item, *b.item) > 0;
  }
};
template <class T> void list_sort(const list<T>& l, bool reverse = false) {
  // Indices are sorted by the items they name (the same comparisons and swaps as sorting the
  // items, so the same order), then the items placed: a key never points at a moving item.
  i64 n = l.size();
  if (n < 2) return;
  const T* items = l.items();
  i64* order = new i64[n];
  for (i64 i = 0; i < n; ++i) order[i] = i;
  if (reverse) sorting::quicksort(order, n, [items](i64 i) { return ReversedKey<T>{&items[i]}; });
  else sorting::quicksort(order, n, [items](i64 i) { return SortKey<T>{&items[i]}; });
  T* placed = new T[n];
  for (i64 i = 0; i < n; ++i) placed[i] = items[order[i]];
  for (i64 i = 0; i < n; ++i) l.items()[i] = placed[i];
  delete[] placed;
  delete[] order;
}
// sorted(l), sorted(a): a new sorted list.
template <class T> list<T> list_sorted(const list<T>& l, bool reverse = false) {
  list<T> out = list_copy(l);
  list_sort(out, reverse);
  return out;
}

// list(x), List(x): a new list of a list's, a 1-d array's or a range's items.
template <class T> list<T> list_from(const list<T>& l) { return list_copy(l); }
template <class U, Layout L> list<U> list_from(const Array<U, 1, L>& a) {
  list<U> out = empty_list<U>();
  list_extend(out, a);
  return out;
}
template <class U> list<U> list_from(const range<U>& r) {
  list<U> out = empty_list<U>();
  list_extend(out, r);
  return out;
}
template <class U, Layout L> list<U> sorted_array(const Array<U, 1, L>& a, bool reverse = false) {
  list<U> out = list_from(a);
  list_sort(out, reverse);
  return out;
}

// np.array(l) of a list of tuples of numbers or of lists of numbers: a new 2-d C array, one row
// per item (rows of unequal lengths: Numba's ValueError).
template <class T> void put_row(T*, const tuple<>&) {}
template <class T, class H, class... R> void put_row(T* out, const tuple<H, R...>& t) {
  *out = static_cast<T>(t.head);
  put_row(out + 1, t.tail);
}
template <class T, class U> void put_row(T* out, const list<U>& row) {
  for (i64 j = 0; j < row.size(); ++j) out[j] = static_cast<T>(row.items()[j]);
}
template <class U> i64 row_length(const list<U>& row) { return row.size(); }
template <class... U> i64 row_length(const tuple<U...>&) { return static_cast<i64>(sizeof...(U)); }
template <class T, class Row> OwnedArray<T, 2, layout_c> array_from_rows(const char* file, int line, T, const list<Row>& l) {
  i64 n = l.size(), m = n > 0 ? row_length(l.items()[0]) : 0;
  for (i64 i = 0; i < n; ++i)
    if (row_length(l.items()[i]) != m) report_failure(file, line, "ValueError", "incompatible sequence shape");
  const i64 shape[2] = {n, m};
  auto made = new_array<T, 2, layout_c>(file, line, shape);
  for (i64 i = 0; i < n; ++i) put_row(made.data + i * m, l.items()[i]);
  return made;
}
#define PK_ARRAY_FROM_ROWS(...) (::pk::array_from_rows(__FILE__, __LINE__, __VA_ARGS__))

// A list a host call returns: its items are handed to the engine, which gives them to the caller.
template <class T> void export_list(const list<T>& l) {
  sim::hooks->export_items(l.storage ? l.storage->items : nullptr, static_cast<u64>(list_len(l)), sizeof(T));
}

}  // namespace pk
#include "pykern/list_slices.cuh"
#endif
#endif  // PYKERN_LIST_CUH
