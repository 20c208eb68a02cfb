// pykern runtime: NumPy's array building and reshaping functions in @jit functions on the host
// (np.array of literals and lists, np.linspace, np.eye, a.ravel(), a.flatten(), a.astype(),
// np.expand_dims, np.concatenate and the stacks, np.repeat, np.flip, np.roll), computed as
// Numba's numba/np/arrayobj.py computes them. Host builds only, like owned_array.cuh: the ones
// that make arrays allocate; the views (expand_dims, flip) share their parent's storage.
#ifndef PYKERN_ARRAY_SHAPES_CUH
#define PYKERN_ARRAY_SHAPES_CUH
#include "pykern/list.cuh"
#include "pykern/owned_array.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

template <class T, int N, Layout L>
void byte_strides(const Array<T, N, L>& a, i64 (&strides)[N]) {
  for (int axis = 0; axis < N; ++axis) strides[axis] = a.stride(axis);
}

// Element `flat` (C order) of a view whose byte strides are `strides`.
template <class T, int N, Layout L>
T& item_in_c_order(const Array<T, N, L>& a, const i64 (&strides)[N], i64 flat) {
  return a.at_offset(flat_offset(flat, a.shape, strides));
}

// Numba's messages name an axis by its number: "...dimension 1 ...". `text` has room.
inline void append_number(char* text, i64 value) {
  while (*text) ++text;
  char digits[24];
  int n = 0;
  u64 v = value < 0 ? static_cast<u64>(-(value + 1)) + 1 : static_cast<u64>(value);
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  if (value < 0) *text++ = '-';
  while (n) *text++ = digits[--n];
  *text = 0;
}

// Numba's _normalize_axis: a negative axis counts from the end; outside is an IndexError
// naming the function.
inline i64 normalized_axis(const char* file, int line, const char* message, i64 axis, int ndim) {
  if (axis < 0) axis += ndim;
  if (axis < 0 || axis >= ndim) report_failure(file, line, "IndexError", message);
  return axis;
}

// np.array([[1, 2], [3, 4]]): the literal's items, already of T, in C order into `a` (made
// with the literal's shape).
template <class T, int N, class... V>
OwnedArray<T, N, layout_c> array_items(OwnedArray<T, N, layout_c> a, V... items) {
  const T values[] = {static_cast<T>(items)...};
  for (i64 k = 0; k < static_cast<i64>(sizeof...(V)); ++k) a.data[k] = values[k];
  return a;
}

// np.array(l) of a list of numbers: a new 1-d array of its items converted to T.
template <class T, class U>
OwnedArray<T, 1, layout_c> array_from_list(const char* file, int line, T, const list<U>& l) {
  const i64 shape[1] = {list_len(l)};
  auto made = new_array<T, 1, layout_c>(file, line, shape);
  for (i64 k = 0; k < shape[0]; ++k) made.data[k] = static_cast<T>(l.storage->items[k]);
  return made;
}

// np.linspace(start, stop, num): Numba's loop (start + i * step, the last item exactly stop).
inline OwnedArray<double, 1, layout_c> linspace(const char* file, int line, double start, double stop, i64 num) {
  const i64 shape[1] = {num};
  auto made = new_array<double, 1, layout_c>(file, line, shape);
  if (num == 0) return made;
  i64 div = num - 1;
  if (div > 0) {
    double step = (stop - start) / static_cast<double>(div);
    for (i64 i = 0; i < num; ++i) made.data[i] = start + static_cast<double>(i) * step;
  } else {
    made.data[0] = start;
  }
  if (num > 1) made.data[num - 1] = stop;
  return made;
}

// np.eye(N, M, k) and np.identity(n): zeros with ones on the k-th diagonal.
template <class T>
OwnedArray<T, 2, layout_c> eye(const char* file, int line, T, i64 n, i64 m, i64 k) {
  const i64 shape[2] = {n, m};
  auto made = new_array<T, 2, layout_c>(file, line, shape);
  if (made.storage->bytes > 0) __builtin_memset(made.data, 0, static_cast<unsigned long>(made.storage->bytes));
  i64 count = k >= 0 ? (n < m - k ? n : m - k) : (n + k < m ? n + k : m);
  for (i64 i = 0; i < count; ++i) {
    i64 row = k >= 0 ? i : i - k, column = k >= 0 ? i + k : i;
    made.data[row * m + column] = T(1);
  }
  return made;
}

// a.flatten(), np.ravel of a non-C array: a new 1-d array of a's elements in C order.
template <class T, int N, Layout L>
OwnedArray<T, 1, layout_c> flatten(const char* file, int line, const Array<T, N, L>& a) {
  const i64 shape[1] = {size(a)};
  auto made = new_array<T, 1, layout_c>(file, line, shape);
  i64 strides[N], to[N];
  byte_strides(a, strides);
  i64 step = static_cast<i64>(sizeof(T));  // a's shape in C order, in the 1-d result's memory
  for (int axis = N - 1; axis >= 0; --axis) {
    to[axis] = step;
    step *= a.shape[axis];
  }
  copy_elements(made.data, to, a.data, strides, a.shape);
  return made;
}

// a.ravel(), np.ravel(a): a C array's 1-d view (sharing its storage), else a C-order copy.
template <class T, int N, Layout L>
OwnedArray<T, 1, layout_c> ravel(const char* file, int line, const OwnedArray<T, N, L>& a) {
  if (L != layout_c) return flatten(file, line, a);
  Array<T, 1, layout_c> view;
  view.data = a.data;
  view.shape[0] = size(a);
  view.strides[0] = static_cast<i64>(sizeof(T));
  return OwnedArray<T, 1, layout_c>(view, a.storage);
}

// a.astype(dtype): a new array of U in a's order (C for an A array), each element converted.
template <class U, class T, int N, Layout L>
OwnedArray<U, N, L == layout_f ? layout_f : layout_c> astype(const char* file, int line, const Array<T, N, L>& a,
                                                            U like) {
  auto made = empty_like(file, line, like, a);
  if constexpr (N == 0) {  // a 0-d array: its one element
    made.data[0] = static_cast<U>(a.data[0]);
  } else {
    i64 from[N], to[N];
    byte_strides(a, from);
    byte_strides(made, to);
    copy_elements(made.data, to, a.data, from, a.shape);
  }
  return made;
}

// np.expand_dims(a, axis): a view with an axis of extent 1 inserted at `axis` (of the result).
// A 0-d or 1-d array keeps its layout (Numba's rule); others are A.
template <class T, int N, Layout L>
Array<T, N + 1, N <= 1 ? L : layout_a> expand_dims(const char* file, int line, const Array<T, N, L>& a, i64 axis) {
  axis = normalized_axis(file, line, "np.expand_dims(): axis out of bounds", axis, N + 1);
  Array<T, N + 1, N <= 1 ? L : layout_a> view;
  view.data = a.data;
  for (int k = 0, from = 0; k < N + 1; ++k) {
    if (k == axis) {
      view.shape[k] = 1;
      view.strides[k] = from < N ? a.stride(from) * (a.shape[from] > 0 ? a.shape[from] : 1)
                                 : static_cast<i64>(sizeof(T));
      continue;
    }
    view.shape[k] = a.shape[from];
    view.strides[k] = a.stride(from);
    ++from;
  }
  return view;
}
template <class T, int N, Layout L>
OwnedArray<T, N + 1, N <= 1 ? L : layout_a> expand_dims(const char* file, int line, const OwnedArray<T, N, L>& a,
                                                        i64 axis) {
  return {expand_dims(file, line, static_cast<const Array<T, N, L>&>(a), axis), a.storage};
}
#define PK_EXPAND_DIMS(...) (::pk::expand_dims(__FILE__, __LINE__, __VA_ARGS__))

// np.flip(a) (every axis reversed, Axis -1), np.flipud (axis 0), np.fliplr (axis 1): views.
template <int Axis, class T, int N, Layout L>
Array<T, N, layout_a> flip(const Array<T, N, L>& a) {
  Array<T, N, layout_a> view;
  i64 offset = 0;
  for (int axis = 0; axis < N; ++axis) {
    view.shape[axis] = a.shape[axis];
    view.strides[axis] = a.stride(axis);
    if ((Axis < 0 || axis == Axis) && a.shape[axis] > 0) {
      offset += (a.shape[axis] - 1) * a.stride(axis);
      view.strides[axis] = -a.stride(axis);
    }
  }
  view.data = size(a) > 0 ? reinterpret_cast<T*>(reinterpret_cast<char*>(a.data) + offset) : a.data;
  return view;
}
template <int Axis, class T, int N, Layout L>
OwnedArray<T, N, layout_a> flip(const OwnedArray<T, N, L>& a) {
  return {flip<Axis>(static_cast<const Array<T, N, L>&>(a)), a.storage};
}

// The result's order: F where every input is F, else C (Numba's _choose_concatenation_layout).
template <class... A>
constexpr Layout concatenation_layout() {
  return ((A::layout == layout_f) && ...) ? layout_f : layout_c;
}

// np.concatenate(arrays, axis): the arrays, each converted to T, one after another along
// `axis`; the other extents must match (Numba's checks and messages). np.stack passes arrays
// already expanded along `axis`, and `stack` asks its check instead (the same shapes).
template <class T, class U0, int N, Layout L0, class... A>
OwnedArray<T, N, concatenation_layout<Array<U0, N, L0>, A...>()> concatenate(const char* file, int line, T, i64 axis,
                                                                             bool stack, const Array<U0, N, L0>& first,
                                                                             const A&... rest) {
  axis = normalized_axis(file, line, stack ? "np.stack(): axis out of bounds" : "np.concatenate(): axis out of bounds",
                         axis, N);
  i64 shape[N];
  for (int d = 0; d < N; ++d) shape[d] = first.shape[d];
  auto check = [&](const auto& a) {
    for (int d = 0; d < N; ++d) {
      if (d == axis) {
        shape[d] += a.shape[d];
        continue;
      }
      if (a.shape[d] == shape[d]) continue;
      if (stack) report_failure(file, line, "ValueError", "np.stack(): all input arrays must have the same shape");
      char text[80] = "np.concatenate(): input sizes over dimension ";
      append_number(text, d);
      const char* tail = " do not match";
      char* end = text;
      while (*end) ++end;
      while ((*end++ = *tail++)) {
      }
      report_failure(file, line, "ValueError", text);
    }
  };
  (check(rest), ...);
  auto made = new_array<T, N, concatenation_layout<Array<U0, N, L0>, A...>()>(file, line, shape);
  i64 to[N];
  byte_strides(made, to);
  i64 start = 0;  // along the axis
  auto place = [&](const auto& a) {
    i64 from[N];
    byte_strides(a, from);
    T* base = reinterpret_cast<T*>(reinterpret_cast<char*>(made.data) + start * to[axis]);
    copy_elements(base, to, a.data, from, a.shape);
    start += a.shape[axis];
  };
  place(first);
  (place(rest), ...);
  return made;
}
#define PK_CONCATENATE(...) (::pk::concatenate(__FILE__, __LINE__, __VA_ARGS__))

// np.append's scalar values: a 1-element array.
template <class T>
OwnedArray<T, 1, layout_c> one_item(const char* file, int line, T value) {
  return full_array(file, line, value, i64(1));
}

// np.repeat(a, repeats) with an integer count: each element of a (C order), `repeats` times.
template <class T, int N, Layout L>
OwnedArray<T, 1, layout_c> repeat(const char* file, int line, const Array<T, N, L>& a, i64 repeats) {
  if (repeats < 0) report_failure(file, line, "ValueError", "negative dimensions are not allowed");
  i64 shape[1];
  if (__builtin_mul_overflow(size(a), repeats, &shape[0]))
    report_failure(file, line, "ValueError",
                   "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  auto made = new_array<T, 1, layout_c>(file, line, shape);
  i64 strides[N];
  byte_strides(a, strides);
  i64 count = size(a), out = 0;
  for (i64 flat = 0; flat < count; ++flat) {
    T item = item_in_c_order(a, strides, flat);
    for (i64 r = 0; r < repeats; ++r) made.data[out++] = item;
  }
  return made;
}

// np.roll(a, shift): a new C array of a's shape whose flat items are a's, rotated by shift.
template <class T, int N, Layout L>
OwnedArray<T, N, layout_c> roll(const char* file, int line, const Array<T, N, L>& a, i64 shift) {
  i64 shape[N];
  for (int d = 0; d < N; ++d) shape[d] = a.shape[d];
  auto made = new_array<T, N, layout_c>(file, line, shape);
  i64 strides[N];
  byte_strides(a, strides);
  i64 count = size(a);
  if (count == 0) return made;
  i64 r = shift % count;
  if (r < 0) r += count;
  for (i64 flat = 0; flat < count; ++flat) made.data[(flat + r) % count] = item_in_c_order(a, strides, flat);
  return made;
}

}  // namespace pk

#define PK_ARRAY_FROM_LIST(...) (::pk::array_from_list(__FILE__, __LINE__, __VA_ARGS__))
#define PK_LINSPACE(...) (::pk::linspace(__FILE__, __LINE__, __VA_ARGS__))
#define PK_EYE(...) (::pk::eye(__FILE__, __LINE__, __VA_ARGS__))
#define PK_FLATTEN(...) (::pk::flatten(__FILE__, __LINE__, __VA_ARGS__))
#define PK_RAVEL(...) (::pk::ravel(__FILE__, __LINE__, __VA_ARGS__))
#define PK_ASTYPE(...) (::pk::astype(__FILE__, __LINE__, __VA_ARGS__))
#define PK_ONE_ITEM(...) (::pk::one_item(__FILE__, __LINE__, __VA_ARGS__))
#define PK_REPEAT(...) (::pk::repeat(__FILE__, __LINE__, __VA_ARGS__))
#define PK_ROLL(...) (::pk::roll(__FILE__, __LINE__, __VA_ARGS__))
#endif
#endif  // PYKERN_ARRAY_SHAPES_CUH
