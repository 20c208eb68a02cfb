// pykern runtime: NumPy's sorting, searching and counting in @jit functions on the host
// (np.sort, a.sort(), np.argsort, np.searchsorted, np.unique, np.bincount, np.histogram,
// np.digitize, np.nonzero, np.flatnonzero, np.argwhere), computed as Numba's CPU target computes
// them (numba/misc/quicksort.py, mergesort.py, numba/np/arraymath.py, arrayobj.py).
//
// The sorts are Numba's own algorithms, step for step: its quicksort (median of three, Hoare
// partition, insertion sort below 16 elements, the larger part stacked) is not stable, so the
// order it leaves equal keys in (argsort's indices, -0.0 beside 0.0) is Numba's only if the
// algorithm is the same. NaNs sort last (Numba's lt_floats). Large arrays whose result cannot
// depend on the algorithm (no equal keys that differ) take a radix sort instead, three to four
// times faster (see "the fast path"). A strided row is copied into a contiguous buffer, sorted
// there and copied back: the result is the same, the sort faster.
//
// Each operation is a small function object made at the call's Python line (PK_SORTING), so
// that an error names that line. Host builds only: sema refuses these in kernels.
#ifndef PYKERN_SORTING_CUH
#define PYKERN_SORTING_CUH
#include "pykern/array.cuh"
#include "pykern/errors.cuh"
#include "pykern/histogram_loops.cuh"
#include "pykern/owned_array.cuh"
#include "pykern/reductions.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
namespace sorting {

template <class T> struct is_float { static constexpr bool value = false; };
template <> struct is_float<f32> { static constexpr bool value = true; };
template <> struct is_float<f64> { static constexpr bool value = true; };

// Whether a key is an array (searchsorted's and digitize's array overloads) or a number.
template <class T> struct is_array { static constexpr bool value = false; };
template <class T, int N, Layout L> struct is_array<Array<T, N, L>> { static constexpr bool value = true; };
template <class T, int N, Layout L> struct is_array<OwnedArray<T, N, L>> { static constexpr bool value = true; };

template <class T> struct is_complex_number { static constexpr bool value = false; };
template <class T> struct is_complex_number<complex<T>> { static constexpr bool value = true; };

// Numba's lt_complex (numba/np/numpy_support.py), NumPy's order: by real part, then imaginary
// part, a NaN in either after every number (one with a NaN real part after one with a NaN
// imaginary part alone).
template <class T> inline bool less_complex(const complex<T>& a, const complex<T>& b) {
  bool a_re = a.re != a.re, b_re = b.re != b.re, a_im = a.im != a.im, b_im = b.im != b.im;
  if (a_re) return b_re && !a_im && (b_im || a.im < b.im);
  if (b_re) return true;
  if (a_im) return b_im && a.re < b.re;
  if (b_im) return true;
  return a.re < b.re || (a.re == b.re && a.im < b.im);
}

// Numba's lt_floats for floats (NaN after every number), lt_complex for complex numbers, `<`
// for the rest.
template <class T> inline bool less(const T& a, const T& b) {
  if constexpr (is_float<T>::value) return a < b || (b != b && a == a);
  else if constexpr (is_complex_number<T>::value) return less_complex(a, b);
  else return a < b;
}
// A float key of an array known to hold no NaN, where lt_floats is `<` alone.
template <class T> struct NumberKey {
  T v;
};
template <class T> inline bool less(const NumberKey<T>& a, const NumberKey<T>& b) { return a.v < b.v; }
template <class T> inline bool has_nan(const T* v, i64 n) {
  if constexpr (is_float<T>::value) {
    bool nan = false;
    for (i64 i = 0; i < n; ++i) nan |= v[i] != v[i];
    return nan;
  } else {
    return false;
  }
}

// Two numbers as Numba compares them: integers of one signedness (and booleans) and floats as
// they are, integers of both signednesses narrower than 64 bits in int64, any other pair in
// float64 (int64 against uint64, an integer against a float), where C++ would convert one to
// the other's type.
template <class T> struct is_signed_integer { static constexpr bool value = !is_float<T>::value && T(-1) < T(0); };
template <class A, class B> struct comparison {
  static constexpr bool floats = is_float<A>::value && is_float<B>::value;
  static constexpr bool integers = !is_float<A>::value && !is_float<B>::value;
  static constexpr bool same_sign = is_signed_integer<A>::value == is_signed_integer<B>::value;
  // 0: as they are, 1: in int64, 2: in float64
  static constexpr int how = floats || (integers && same_sign) ? 0 : integers && sizeof(A) < 8 && sizeof(B) < 8 ? 1 : 2;
};
template <class A, class B> inline bool less_than(const A& a, const B& b) {
  constexpr int how = comparison<A, B>::how;
  if constexpr (how == 0) return a < b;
  else if constexpr (how == 1) return static_cast<i64>(a) < static_cast<i64>(b);
  else return static_cast<f64>(a) < static_cast<f64>(b);
}
template <class A, class B> inline bool less_equal(const A& a, const B& b) { return !less_than(b, a) && a == a && b == b; }
template <class A, class B> inline bool equal(const A& a, const B& b) { return less_equal(a, b) && less_equal(b, a); }

// Numba's searchsorted comparisons: the NaN rules follow the key's type (the second operand).
template <class A, class B> inline bool search_less(const A& a, const B& b) {
  if constexpr (is_float<B>::value) return less_than(a, b) || (b != b && a == a);
  else return less_than(a, b);
}
template <class A, class B> inline bool search_less_equal(const A& a, const B& b) {
  if constexpr (is_float<B>::value) return b != b || less_equal(a, b);
  else return less_equal(a, b);
}

// Scratch memory that frees itself; a MemoryError at the call's line when there is none.
template <class T> struct Buffer {
  T* items = nullptr;
  Buffer(const char* file, int line, i64 count) {
    if (count <= 0) return;
    items = static_cast<T*>(__builtin_malloc(static_cast<unsigned long>(count) * sizeof(T)));
    if (!items) report_failure(file, line, "MemoryError", "Allocation failed (probably too large).");
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { __builtin_free(items); }
};

// Numba's quicksort of `items[0..n)`, ordered by key(item): the values themselves for a sort,
// indices into the values for an argsort.
constexpr i64 small_quicksort = 15;
template <class Item, class Key> inline void insertion_sort(Item* r, i64 low, i64 high, Key key) {
  for (i64 i = low + 1; i <= high; ++i) {
    Item k = r[i];
    auto v = key(k);
    i64 j = i;
    while (j > low && less(v, key(r[j - 1]))) {
      r[j] = r[j - 1];
      --j;
    }
    r[j] = k;
  }
}
template <class Item, class Key> inline i64 partition(Item* r, i64 low, i64 high, Key key) {
  auto swap = [r](i64 i, i64 j) { Item t = r[i]; r[i] = r[j]; r[j] = t; };
  i64 mid = (low + high) >> 1;
  if (less(key(r[mid]), key(r[low]))) swap(low, mid);
  if (less(key(r[high]), key(r[mid]))) swap(high, mid);
  if (less(key(r[mid]), key(r[low]))) swap(low, mid);
  auto pivot = key(r[mid]);
  swap(high, mid);
  i64 i = low, j = high - 1;
  for (;;) {
    while (i < high && less(key(r[i]), pivot)) ++i;
    while (j >= low && less(pivot, key(r[j]))) --j;
    if (i >= j) break;
    swap(i, j);
    ++i;
    --j;
  }
  swap(i, high);
  return i;
}
template <class Item, class Key> inline void quicksort(Item* r, i64 n, Key key) {
  if (n < 2) return;
  // The smaller part is sorted first and the larger stacked, so the stack holds at most log2(n).
  struct Part { i64 low, high; };
  Part stack[128];
  int depth = 0;
  stack[depth++] = {0, n - 1};
  while (depth > 0) {
    Part part = stack[--depth];
    i64 low = part.low, high = part.high;
    while (high - low >= small_quicksort) {
      i64 i = partition(r, low, high, key);
      if (high - i > i - low) {
        if (high > i) stack[depth++] = {i + 1, high};
        high = i - 1;
      } else {
        if (i > low) stack[depth++] = {low, i - 1};
        low = i + 1;
      }
    }
    insertion_sort(r, low, high, key);
  }
}

// Numba's mergesort (NumPy's, stable): halves sorted recursively, the left half copied to the
// workspace and merged back; insertion sort (by swaps) at 20 elements and below.
constexpr i64 small_mergesort = 20;
template <class Item, class Key> inline void mergesort(Item* arr, i64 n, Item* ws, Key key) {
  if (n > small_mergesort) {
    i64 mid = n / 2;
    mergesort(arr, mid, ws, key);
    mergesort(arr + mid, n - mid, ws, key);
    for (i64 i = 0; i < mid; ++i) ws[i] = arr[i];
    const Item* right = arr + mid;
    i64 i = 0, j = 0, k = 0, right_n = n - mid;
    while (i < mid && j < right_n) {
      if (!less(key(right[j]), key(ws[i]))) arr[k++] = ws[i++];
      else arr[k++] = right[j++];
    }
    while (i < mid) arr[k++] = ws[i++];
    while (j < right_n) arr[k++] = right[j++];
  } else {
    for (i64 i = 1; i < n; ++i)
      for (i64 j = i; j > 0 && less(key(arr[j]), key(arr[j - 1])); --j) {
        Item t = arr[j - 1];
        arr[j - 1] = arr[j];
        arr[j] = t;
      }
  }
}

// ---- the fast path: an LSD radix sort, used only where its result is Numba's bit for bit ----
//
// A sort's result depends on its algorithm only through keys that compare equal yet differ:
// -0.0 beside 0.0, NaNs of different bits (values), equal keys' indices (argsort). Where there
// are none, every correct sort gives Numba's result, and a radix sort gives it several times
// faster than a comparison sort. Values: no -0.0 together with 0.0 and one NaN bit pattern.
// A stable argsort (mergesort) is the one stable order whatever the keys, once -0.0 and 0.0
// are not both present; a quicksort argsort needs distinct keys (checked after sorting, the
// quicksort run if two are equal).
constexpr i64 radix_threshold = 512;

template <int Bytes> struct unsigned_of;
template <> struct unsigned_of<1> { using type = u8; };
template <> struct unsigned_of<2> { using type = u16; };
template <> struct unsigned_of<4> { using type = u32; };
template <> struct unsigned_of<8> { using type = u64; };

// An unsigned key whose order is the values' (NaNs all last, as the largest key).
template <class T> struct radix_key {
  using K = typename unsigned_of<sizeof(T)>::type;
  static constexpr K top = K(K(1) << (sizeof(T) * 8 - 1));
  static K of(const T& v) {
    K bits;
    __builtin_memcpy(&bits, &v, sizeof(T));
    if constexpr (is_float<T>::value) {
      if (v != v) return K(~K(0));
      return (bits & top) ? K(~bits) : K(bits | top);
    } else if constexpr (T(-1) < T(0)) {
      return K(bits ^ top);
    } else {
      return bits;
    }
  }
  // The value of a key that is not a NaN's.
  static T value(K key) {
    K bits = key;
    if constexpr (is_float<T>::value) bits = (key & top) ? K(key & ~top) : K(~key);
    else if constexpr (T(-1) < T(0)) bits = K(key ^ top);
    T v;
    __builtin_memcpy(&v, &bits, sizeof(T));
    return v;
  }
};

// Whether the values hold no distinct-but-equal pair: not both zeros' signs, one NaN pattern.
template <class T> inline bool equal_values_identical(const T* v, i64 n, T* nan_bits) {
  if constexpr (!is_float<T>::value) {
    return true;
  } else {
    bool negative_zero = false, positive_zero = false, have_nan = false;
    for (i64 i = 0; i < n; ++i) {
      const T x = v[i];
      if (x == T(0)) (__builtin_signbit(x) ? negative_zero : positive_zero) = true;
      else if (x != x) {
        if (!have_nan) *nan_bits = x, have_nan = true;
        else if (__builtin_memcmp(&x, nan_bits, sizeof(T)) != 0) return false;
      }
    }
    return !(negative_zero && positive_zero);
  }
}
template <class T> inline bool zeros_of_one_sign(const T* v, i64 n) {
  if constexpr (!is_float<T>::value) {
    return true;
  } else {
    bool negative_zero = false, positive_zero = false;
    for (i64 i = 0; i < n; ++i)
      if (v[i] == T(0)) (__builtin_signbit(v[i]) ? negative_zero : positive_zero) = true;
    return !(negative_zero && positive_zero);
  }
}

// Stable LSD radix sort of records by their `key` member, a byte at a time, skipping the bytes
// all keys share. `spare` holds n records; the result ends in `items`.
template <class R> inline void radix_sort(R* items, R* spare, i64 n) {
  using K = decltype(items[0].key);
  constexpr int bytes = sizeof(K);
  i64 counts[bytes][256] = {};
  for (i64 i = 0; i < n; ++i)
    for (int b = 0; b < bytes; ++b) ++counts[b][(items[i].key >> (8 * b)) & 0xff];
  R* from = items;
  R* to = spare;
  for (int b = 0; b < bytes; ++b) {
    i64* count = counts[b];
    if (count[(from[0].key >> (8 * b)) & 0xff] == n) continue;  // every key has this byte
    i64 offset = 0;
    for (int d = 0; d < 256; ++d) {
      i64 c = count[d];
      count[d] = offset;
      offset += c;
    }
    for (i64 i = 0; i < n; ++i) to[count[(from[i].key >> (8 * b)) & 0xff]++] = from[i];
    R* t = from;
    from = to;
    to = t;
  }
  if (from != items)
    for (i64 i = 0; i < n; ++i) items[i] = from[i];
}

template <class K> struct KeyOnly { K key; };
template <class K> struct KeyIndex { K key; i64 index; };

// Sorts the values v[0..n) by radix where that gives Numba's result; false (v untouched) where
// it might not.
template <class T> inline bool radix_sort_values(const char* file, int line, T* v, i64 n) {
  if (n < radix_threshold) return false;
  T nan_bits{};
  if (!equal_values_identical(v, n, &nan_bits)) return false;
  using Key = radix_key<T>;
  using R = KeyOnly<typename Key::K>;
  Buffer<R> items(file, line, n), spare(file, line, n);
  for (i64 i = 0; i < n; ++i) items.items[i].key = Key::of(v[i]);
  radix_sort(items.items, spare.items, n);
  for (i64 i = 0; i < n; ++i) {
    auto key = items.items[i].key;
    v[i] = (is_float<T>::value && key == typename Key::K(~typename Key::K(0))) ? nan_bits : Key::value(key);
  }
  return true;
}

// The argsort of v[0..n) into indices by radix where that gives Numba's result.
// Whether integer keys must repeat: fewer possible values between the smallest and largest than
// keys (so a quicksort argsort need not try the radix sort first).
template <class T> inline bool integers_must_repeat(const T* v, i64 n) {
  if constexpr (is_float<T>::value) {
    return false;
  } else {
    T lo = v[0], hi = v[0];
    for (i64 i = 1; i < n; ++i) {
      lo = v[i] < lo ? v[i] : lo;
      hi = v[i] > hi ? v[i] : hi;
    }
    u64 span = static_cast<u64>(radix_key<T>::of(hi)) - static_cast<u64>(radix_key<T>::of(lo));
    return span < static_cast<u64>(n - 1);
  }
}

// Whether keys drawn from v[0..n) already repeat: one position from each of `samples` equal
// stretches, picked by a fixed hash (so every run draws the same), their keys sorted and
// compared. A repeat found this way is certain; none found says nothing. It spares a
// quicksort argsort the radix sort that would find the repeat only after sorting.
constexpr i64 repeat_samples = 1024;
template <class T> inline bool sampled_keys_repeat(const T* v, i64 n) {
  if (n < 2 * repeat_samples) return false;
  using K = typename radix_key<T>::K;
  K keys[repeat_samples];
  const i64 stretch = n / repeat_samples;
  u64 hash = 0x9e3779b97f4a7c15ull;
  for (i64 j = 0; j < repeat_samples; ++j) {
    hash = hash * 6364136223846793005ull + 1442695040888963407ull;
    keys[j] = radix_key<T>::of(v[j * stretch + static_cast<i64>((hash >> 33) % static_cast<u64>(stretch))]);
  }
  quicksort(keys, repeat_samples, [](K k) { return k; });
  for (i64 j = 1; j < repeat_samples; ++j)
    if (keys[j] == keys[j - 1]) return true;
  return false;
}

template <class T> inline bool radix_argsort(const char* file, int line, const T* v, i64 n, i64* indices, bool stable) {
  if (n < radix_threshold || !zeros_of_one_sign(v, n)) return false;
  if (!stable && (integers_must_repeat(v, n) || sampled_keys_repeat(v, n))) return false;
  using Key = radix_key<T>;
  using R = KeyIndex<typename Key::K>;
  Buffer<R> items(file, line, n), spare(file, line, n);
  for (i64 i = 0; i < n; ++i) items.items[i] = {Key::of(v[i]), i};
  radix_sort(items.items, spare.items, n);
  if (!stable)  // Numba's quicksort leaves equal keys in its own order: only distinct keys agree
    for (i64 i = 1; i < n; ++i)
      if (items.items[i].key == items.items[i - 1].key) return false;
  for (i64 i = 0; i < n; ++i) indices[i] = items.items[i].index;
  return true;
}

// An argsort's item: the key beside its index, so that the sort compares keys it holds rather
// than keys it looks up by index in the values (a cache miss each, once the indices are
// shuffled). The sort's comparisons and moves are the same as on the indices alone, so the
// indices end in the same order.
template <class T> struct Keyed {
  T key;
  i64 index;
};
// Complex numbers have no key of one word: they take the comparison sorts.
template <class T> inline bool radix_sort_values(const char*, int, complex<T>*, i64) { return false; }
template <class T> inline bool radix_argsort(const char*, int, const complex<T>*, i64, i64*, bool) { return false; }

// Sorts items[0..n) by key with the kind sema passes: 0 quicksort, 1 mergesort (and 'stable').
template <class Item, class Key>
inline void sort_items(const char* file, int line, Item* items, i64 n, int kind, Key key) {
  if (kind == 0) {
    quicksort(items, n, key);
  } else {
    Buffer<Item> workspace(file, line, n / 2);
    mergesort(items, n, workspace.items, key);
  }
}

// Sorts each row along the last axis of `a` in place (a contiguous row directly, a strided one
// through a buffer).
template <class T, int N, Layout L> inline void sort_rows(const char* file, int line, const Array<T, N, L>& a, int kind) {
  i64 count = size(a);
  if (count == 0) return;
  const i64 row_length = a.shape[N - 1], row_stride = a.stride(N - 1);
  const i64 rows = count / row_length;
  const bool contiguous = row_stride == static_cast<i64>(sizeof(T));
  Buffer<T> buffer(file, line, contiguous ? 0 : row_length);
  auto identity = [](const T& v) { return v; };
  i64 index[N > 1 ? N - 1 : 1] = {};
  for (i64 row = 0; row < rows; ++row) {
    char* base = reinterpret_cast<char*>(a.data);
    for (int axis = 0; axis + 1 < N; ++axis) base += index[axis] * a.stride(axis);
    T* items = reinterpret_cast<T*>(base);
    if (!contiguous) {
      for (i64 i = 0; i < row_length; ++i) buffer.items[i] = *reinterpret_cast<T*>(base + i * row_stride);
      items = buffer.items;
    }
    if (!radix_sort_values(file, line, items, row_length)) sort_items(file, line, items, row_length, kind, identity);
    if (!contiguous)
      for (i64 i = 0; i < row_length; ++i) *reinterpret_cast<T*>(base + i * row_stride) = buffer.items[i];
    for (int axis = N - 2; axis >= 0; --axis) {  // the next row, in C order
      if (++index[axis] < a.shape[axis]) break;
      index[axis] = 0;
    }
  }
}

// The elements of `a` in C order, into `out` (size(a) of them).
template <class T, int N, Layout L> inline void gather(const Array<T, N, L>& a, T* out) {
  i64 k = 0;
  reduce::flat(a, [&](const T& v) { out[k++] = v; return true; });
}

using Indices = OwnedArray<i64, 1, layout_c>;
inline Indices new_indices(const char* file, int line, i64 n) {
  const i64 shape[1] = {n};
  return new_array<i64, 1, layout_c>(file, line, shape);
}

// A tuple of N index arrays (np.nonzero's result).
template <class T, int N, class... Acc> struct repeated { using type = typename repeated<T, N - 1, T, Acc...>::type; };
template <class T, class... Acc> struct repeated<T, 0, Acc...> { using type = tuple<Acc...>; };
template <class T, class... R> inline void fill_tuple(tuple<T, R...>& t, const T* items) {
  t.head = items[0];
  if constexpr (sizeof...(R) > 0) fill_tuple(t.tail, items + 1);
}

// Numba's binary search for searchsorted: the first index in [low, high) where `before` fails.
template <class A, class V, class Before> inline i64 bisect(const A& a, const V& key, i64 low, i64 high, Before before) {
  while (low < high) {
    i64 mid = low + ((high - low) >> 1);
    if (before(a.at_offset(mid * a.stride(0)), key)) low = mid + 1;
    else high = mid;
  }
  return low;
}

// Numba's _monotonicity for np.digitize: 1 increasing (or all equal, or empty), -1 decreasing,
// 0 neither.
template <class T, Layout L> inline int monotonicity(const Array<T, 1, L>& bins) {
  i64 n = bins.shape[0];
  auto at = [&](i64 i) { return bins.at_offset(i * bins.stride(0)); };
  if (n == 0) return 1;
  T last = at(0);
  i64 i = 1;
  while (i < n && at(i) == last) ++i;
  if (i == n) return 1;
  T next = at(i);
  bool increasing = last < next;
  for (++i; i < n; ++i) {
    last = next;
    next = at(i);
    if (increasing ? last > next : last < next) return 0;
  }
  return increasing ? 1 : -1;
}

// Whether Numba computes v - lo (np.histogram) in int64: both integers.
template <class V, class Lo> struct integer_pair {
  static constexpr bool value = !is_float<V>::value && !is_float<Lo>::value;
};

}  // namespace sorting

// Where the call is, for its errors.
struct sorting_site {
  const char* file;
  int line;
};

// a.sort(kind=...): in place along the last axis; kind 0 quicksort, 1 mergesort.
struct sort_in_place : sorting_site {
  template <class T, int N, Layout L> void operator()(const Array<T, N, L>& a, i64 kind) const {
    sorting::sort_rows(file, line, a, static_cast<int>(kind));
  }
};

// np.sort(a): a sorted C-ordered copy (Numba's a.copy() then quicksort along the last axis).
struct sort_copy : sorting_site {
  template <class T, int N, Layout L> OwnedArray<T, N, layout_c> operator()(const Array<T, N, L>& a) const {
    auto made = copy_array(file, line, a);
    sorting::sort_rows(file, line, made, 0);
    return made;
  }
};

// np.argsort(a, kind=...), a.argsort(): int64 indices of a 1-D array in sorted order.
struct argsort : sorting_site {
  template <class T, Layout L> sorting::Indices operator()(const Array<T, 1, L>& a, i64 kind) const {
    i64 n = a.shape[0];
    auto indices = sorting::new_indices(file, line, n);
    const T* values = a.data;
    sorting::Buffer<T> copy(file, line, a.stride(0) == static_cast<i64>(sizeof(T)) ? 0 : n);
    if (copy.items) {
      sorting::gather(a, copy.items);
      values = copy.items;
    }
    if (!sorting::radix_argsort(file, line, values, n, indices.data, kind != 0)) {
      sorting::Buffer<sorting::Keyed<T>> items(file, line, n);
      for (i64 i = 0; i < n; ++i) items.items[i] = {values[i], i};
      auto by_key = [](const sorting::Keyed<T>& r) { return r.key; };
      if constexpr (sorting::is_float<T>::value) {  // complex keys have no `<` of their own
        if (!sorting::has_nan(values, n))
          sorting::sort_items(file, line, items.items, n, static_cast<int>(kind),
                              [](const sorting::Keyed<T>& r) { return sorting::NumberKey<T>{r.key}; });
        else
          sorting::sort_items(file, line, items.items, n, static_cast<int>(kind), by_key);
      } else {
        sorting::sort_items(file, line, items.items, n, static_cast<int>(kind), by_key);
      }
      for (i64 i = 0; i < n; ++i) indices.data[i] = items.items[i].index;
    }
    return indices;
  }
};

// np.searchsorted(a, v, side=...): Side 0 'left', 1 'right'. A scalar key gives an int64; an
// array of keys an int64 array of its shape, searched as Numba searches them (each search
// narrowed by the last key's result, which matters only where `a` is not sorted).
template <int Side> struct searchsorted : sorting_site {
  template <class A, class V> static bool before(const A& a, const V& v) {
    return Side == 0 ? sorting::search_less(a, v) : sorting::search_less_equal(a, v);
  }
  template <class T, Layout L, class V, class = enable_if_t<!sorting::is_array<V>::value>>
  i64 operator()(const Array<T, 1, L>& a, V key) const {
    return sorting::bisect(a, key, 0, a.shape[0], before<T, V>);
  }
  template <class T, Layout L, class V, int N, Layout K>
  OwnedArray<i64, N, layout_c> operator()(const Array<T, 1, L>& a, const Array<V, N, K>& keys) const {
    i64 shape[N];
    for (int axis = 0; axis < N; ++axis) shape[axis] = keys.shape[axis];
    auto out = new_array<i64, N, layout_c>(file, line, shape);
    const i64 n = a.shape[0];
    if (size(keys) == 0) return out;
    i64 low = 0, high = n, k = 0;
    V last{};
    bool first = true;
    reduce::flat(keys, [&](const V& key) {
      if (first) last = key, first = false;
      if (Side == 0 ? sorting::search_less(last, key) : sorting::search_less_equal(last, key)) {
        high = n;
      } else {
        low = 0;
        high = high < n ? high + 1 : n;
      }
      last = key;
      low = sorting::bisect(a, key, low, high, before<T, V>);
      high = low;  // Numba's _impl returns (min_idx, max_idx), equal when the loop ends
      out.data[k++] = low;
      return true;
    });
    return out;
  }
};
using searchsorted_left = searchsorted<0>;
using searchsorted_right = searchsorted<1>;

// np.digitize(x, bins, right=False): Numba's, through searchsorted (bins reversed when they
// decrease); bins neither increasing nor decreasing are its ValueError.
struct digitize : sorting_site {
  template <class T, Layout L> int direction(const Array<T, 1, L>& bins) const {
    int mono = sorting::monotonicity(bins);
    if (mono == 0) report_failure(file, line, "ValueError", "bins must be monotonically increasing or decreasing");
    return mono;
  }
  template <class T, Layout L> static Array<T, 1, layout_a> reversed(const Array<T, 1, L>& bins) {
    Array<T, 1, layout_a> view;
    i64 n = bins.shape[0];
    view.data = n > 0 ? reinterpret_cast<T*>(reinterpret_cast<char*>(bins.data) + (n - 1) * bins.stride(0)) : bins.data;
    view.shape[0] = n;
    view.strides[0] = -bins.stride(0);
    return view;
  }
  // right=True searches 'left', right=False 'right' (the arguments are swapped, as in NumPy).
  template <class X, class T, Layout L> i64 one(const X& x, const Array<T, 1, L>& bins, int mono, bool right) const {
    i64 n = bins.shape[0];
    if (mono == -1)
      return n - (right ? searchsorted_left{{file, line}}(reversed(bins), x) : searchsorted_right{{file, line}}(reversed(bins), x));
    return right ? searchsorted_left{{file, line}}(bins, x) : searchsorted_right{{file, line}}(bins, x);
  }
  template <class X, class T, Layout L, class = enable_if_t<!sorting::is_array<X>::value>>
  i64 operator()(X x, const Array<T, 1, L>& bins, bool right) const {
    return one(x, bins, direction(bins), right);
  }
  template <class X, int N, Layout K, class T, Layout L>
  OwnedArray<i64, N, layout_c> operator()(const Array<X, N, K>& x, const Array<T, 1, L>& bins, bool right) const {
    int mono = direction(bins);
    i64 n = bins.shape[0];
    OwnedArray<i64, N, layout_c> out;
    if (mono == -1) {
      out = right ? searchsorted_left{{file, line}}(reversed(bins), x) : searchsorted_right{{file, line}}(reversed(bins), x);
      i64 count = size(out);
      for (i64 i = 0; i < count; ++i) out.data[i] = n - out.data[i];
    } else {
      out = right ? searchsorted_left{{file, line}}(bins, x) : searchsorted_right{{file, line}}(bins, x);
    }
    return out;
  }
};

// np.unique(a): the sorted distinct elements of a flattened (NaNs as one, last).
struct unique : sorting_site {
  template <class T, int N, Layout L> OwnedArray<T, 1, layout_c> operator()(const Array<T, N, L>& a) const {
    i64 n = size(a);
    sorting::Buffer<T> sorted(file, line, n);
    sorting::gather(a, sorted.items);
    if (!sorting::radix_sort_values(file, line, sorted.items, n))
      sorting::sort_items(file, line, sorted.items, n, 0, [](const T& v) { return v; });
    i64 kept = 0;
    for (i64 i = 0; i < n; ++i) {
      const T& x = sorted.items[i];
      if (i > 0) {
        const T& previous = sorted.items[kept - 1];
        if (!(previous != x) || (previous != previous && x != x)) continue;
      }
      sorted.items[kept++] = x;
    }
    const i64 shape[1] = {kept};
    auto out = new_array<T, 1, layout_c>(file, line, shape);
    for (i64 i = 0; i < kept; ++i) out.data[i] = sorted.items[i];
    return out;
  }
};

// np.bincount(x, weights=None, minlength=0): int64 counts, or float64 sums of the weights.
// Numba's checks in its order: the weights' length, a negative minlength, a negative value
// (Numba skips the first element there, and then indexes out of bounds; pykern checks it too).
struct bincount : sorting_site {
  template <class T, Layout L> i64 length(const Array<T, 1, L>& x, i64 minlength) const {
    if (minlength < 0) report_failure(file, line, "ValueError", "'minlength' must not be negative");
    i64 n = x.shape[0], top = -1;
    for (i64 i = 0; i < n; ++i) {
      i64 v = static_cast<i64>(x.at_offset(i * x.stride(0)));
      if (v < 0) report_failure(file, line, "ValueError", "bincount(): first argument must be non-negative");
      if (v > top) top = v;
    }
    return top + 1 > minlength ? top + 1 : minlength;
  }
  template <class T, Layout L> sorting::Indices operator()(const Array<T, 1, L>& x, i64 minlength) const {
    auto out = sorting::new_indices(file, line, length(x, minlength));
    for (i64 i = 0; i < out.shape[0]; ++i) out.data[i] = 0;
    for (i64 i = 0; i < x.shape[0]; ++i) ++out.data[static_cast<i64>(x.at_offset(i * x.stride(0)))];
    return out;
  }
  template <class T, Layout L, class W, Layout K>
  OwnedArray<f64, 1, layout_c> operator()(const Array<T, 1, L>& x, const Array<W, 1, K>& weights, i64 minlength) const {
    if (x.shape[0] != weights.shape[0])
      report_failure(file, line, "ValueError", "bincount(): weights and list don't have the same length");
    const i64 shape[1] = {length(x, minlength)};
    auto out = new_array<f64, 1, layout_c>(file, line, shape);
    for (i64 i = 0; i < shape[0]; ++i) out.data[i] = 0.0;
    for (i64 i = 0; i < x.shape[0]; ++i)
      out.data[static_cast<i64>(x.at_offset(i * x.stride(0)))] += static_cast<f64>(weights.at_offset(i * weights.stride(0)));
    return out;
  }
};

// np.histogram(a, bins, range): int64 counts and the edges. An integer count of bins spaces the
// edges evenly (Numba's np.linspace from lo to hi), the last bin closed; without a range it is
// the elements' smallest and largest (NaNs skipped). An array of edges is searched by bisection
// and returned as the edges.
struct histogram : sorting_site {
  using Counts = sorting::Indices;
  using Edges = OwnedArray<f64, 1, layout_c>;
  template <class T, int N, Layout L, class Lo, class Hi>
  tuple<Counts, Edges> operator()(const Array<T, N, L>& a, i64 bins, Lo lo, Hi hi) const {
    if (bins <= 0) report_failure(file, line, "ValueError", "histogram(): `bins` should be a positive integer");
    if (!sorting::less_equal(lo, hi)) report_failure(file, line, "ValueError", "histogram(): max must be larger than min in range parameter");
    auto counts = sorting::new_indices(file, line, bins);
    for (i64 i = 0; i < bins; ++i) counts.data[i] = 0;
    if (sorting::less_than(lo, hi)) {
      // Numba computes hi - lo and v - lo as Python would: in int64 for integers.
      f64 span;
      if constexpr (sorting::integer_pair<Lo, Hi>::value) span = static_cast<f64>(static_cast<i64>(hi) - static_cast<i64>(lo));
      else span = static_cast<f64>(hi) - static_cast<f64>(lo);
      f64 ratio = static_cast<f64>(bins) / span;
      auto position = [lo, ratio](const T& v) {  // the bin is its floor
        f64 offset;
        if constexpr (sorting::integer_pair<T, Lo>::value) offset = static_cast<f64>(static_cast<i64>(v) - static_cast<i64>(lo));
        else if constexpr (sizeof(T) == 4 && sizeof(Lo) == 4 && sorting::is_float<T>::value && sorting::is_float<Lo>::value)
          offset = static_cast<f64>(v - lo);
        else offset = static_cast<f64>(v) - static_cast<f64>(lo);
        return offset * ratio;
      };
      auto top = [hi](const T& v) { return sorting::equal(v, hi); };
      if (const T* run = reduce::nditer_run(a)) {
        histogram_loops::count_run(run, size(a), bins, counts.data, position, top);
      } else {
        reduce::nditer(a, [&](const T& v) {
          f64 b = __builtin_floor(position(v));
          if (0 <= b && b < static_cast<f64>(bins)) ++counts.data[static_cast<i64>(b)];
          else if (top(v)) ++counts.data[bins - 1];
          return true;
        });
      }
    }
    const i64 shape[1] = {bins + 1};
    auto edges = new_array<f64, 1, layout_c>(file, line, shape);
    f64 start = static_cast<f64>(lo), stop = static_cast<f64>(hi);
    i64 div = bins;
    f64 step = (stop - start) / static_cast<f64>(div);
    for (i64 i = 0; i <= bins; ++i) edges.data[i] = start + static_cast<f64>(i) * step;
    edges.data[bins] = stop;
    return make_tuple(counts, edges);
  }
  // Without a range: the smallest and largest elements, as float64.
  template <class T, int N, Layout L> tuple<Counts, Edges> operator()(const Array<T, N, L>& a, i64 bins) const {
    f64 lo = inf<f64>(), hi = -inf<f64>();
    if (const T* run = reduce::nditer_run(a)) {
      histogram_loops::range_of_run(run, size(a), lo, hi);
    } else {
      reduce::nditer(a, [&](const T& v) {
        f64 x = static_cast<f64>(v);
        if (lo > x) lo = x;
        if (hi < x) hi = x;
        return true;
      });
    }
    return (*this)(a, bins, lo, hi);
  }
  template <class T, int N, Layout L, class B>
  tuple<Counts, B> operator()(const Array<T, N, L>& a, const B& edges) const {
    i64 bins = edges.shape[0] - 1;
    auto edge = [&](i64 i) { return edges.at_offset(i * edges.stride(0)); };
    for (i64 i = 0; i < bins; ++i)
      if (!(edge(i) <= edge(i + 1)))
        report_failure(file, line, "ValueError", "histogram(): bins must increase monotonically");
    const i64 shape[1] = {bins};
    auto counts = new_array<i64, 1, layout_c>(file, line, shape);  // a negative count: Numba's ValueError
    for (i64 i = 0; i < bins; ++i) counts.data[i] = 0;
    if (bins > 0) {
      auto lo = edge(0), hi = edge(bins);
      reduce::nditer(a, [&](const T& v) {
        if (!(sorting::less_equal(lo, v) && sorting::less_equal(v, hi))) return true;  // outside, or NaN
        i64 low = 0, high = bins - 1;
        while (low < high) {
          i64 mid = (low + high + 1) >> 1;
          if (sorting::less_than(v, edge(mid))) high = mid - 1;
          else low = mid;
        }
        ++counts.data[low];
        return true;
      });
    }
    return make_tuple(counts, edges);
  }
};

// np.nonzero(a), a.nonzero(): one int64 array per axis, the indices of the true elements in C
// order.
struct nonzero : sorting_site {
  template <class T, int N, Layout L> typename sorting::repeated<sorting::Indices, N>::type operator()(const Array<T, N, L>& a) const {
    i64 count = 0;
    reduce::flat(a, [&](const T& v) { count += reduce::truthy(v) ? 1 : 0; return true; });
    sorting::Indices axes[N];
    for (int axis = 0; axis < N; ++axis) axes[axis] = sorting::new_indices(file, line, count);
    i64 index[N] = {}, k = 0;
    reduce::flat(a, [&](const T& v) {
      if (reduce::truthy(v)) {
        for (int axis = 0; axis < N; ++axis) axes[axis].data[k] = index[axis];
        ++k;
      }
      for (int axis = N - 1; axis >= 0; --axis) {
        if (++index[axis] < a.shape[axis]) break;
        index[axis] = 0;
      }
      return true;
    });
    typename sorting::repeated<sorting::Indices, N>::type result;
    sorting::fill_tuple(result, axes);
    return result;
  }
};

// np.flatnonzero(a): the C-order flat indices of the true elements.
struct flatnonzero : sorting_site {
  template <class T, int N, Layout L> sorting::Indices operator()(const Array<T, N, L>& a) const {
    i64 count = 0;
    reduce::flat(a, [&](const T& v) { count += reduce::truthy(v) ? 1 : 0; return true; });
    auto out = sorting::new_indices(file, line, count);
    i64 flat = 0, k = 0;
    reduce::flat(a, [&](const T& v) {
      if (reduce::truthy(v)) out.data[k++] = flat;
      ++flat;
      return true;
    });
    return out;
  }
};

// np.argwhere(a): a (count, ndim) int64 array of the true elements' indices, C order.
struct argwhere : sorting_site {
  template <class T, int N, Layout L> OwnedArray<i64, 2, layout_c> operator()(const Array<T, N, L>& a) const {
    i64 count = 0;
    reduce::flat(a, [&](const T& v) { count += reduce::truthy(v) ? 1 : 0; return true; });
    const i64 shape[2] = {count, N};
    auto out = new_array<i64, 2, layout_c>(file, line, shape);
    i64 index[N] = {}, k = 0;
    reduce::flat(a, [&](const T& v) {
      if (reduce::truthy(v))
        for (int axis = 0; axis < N; ++axis) out.data[k++] = index[axis];
      for (int axis = N - 1; axis >= 0; --axis) {
        if (++index[axis] < a.shape[axis]) break;
        index[axis] = 0;
      }
      return true;
    });
    return out;
  }
};

}  // namespace pk
#define PK_SORTING(name) (::pk::name{{__FILE__, __LINE__}})
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_SORTING_CUH
