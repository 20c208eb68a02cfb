// pykern runtime: NumPy-style array views. The launcher passes each array argument by value
// with this layout (the kernel ABI):
//     T* data; i64 shape[N]; i64 strides[N];   strides in bytes, as NumPy's
// Indexing wraps negative indices as Python does; debug builds (PK_DEBUG) check bounds and
// report like Numba: "IndexError: ... index 10 is out of bounds for axis 0 with size 10".
#ifndef PYKERN_ARRAY_CUH
#define PYKERN_ARRAY_CUH
#include "pykern/base.cuh"
#include "pykern/complex.cuh"
#include "pykern/errors.cuh"

namespace pk {

enum Layout { layout_c, layout_f, layout_a };

template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { using type = T; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;

template <class T, int N, Layout L = layout_a> struct Array {
  static constexpr Layout layout = L;
  T* data;
  i64 shape[N];
  i64 strides[N];

  // A C or F array where either may be held (a variable both reach, typed layout A by sema):
  // the same view, its strides all written out.
  template <Layout K, class = enable_if_t<K == layout_a && L != layout_a>> PK_DEVICE operator Array<T, N, K>() const {
    Array<T, N, K> view;
    view.data = data;
    for (int axis = 0; axis < N; ++axis) {
      view.shape[axis] = shape[axis];
      view.strides[axis] = stride(axis);
    }
    return view;
  }

  // The byte stride of an axis; C arrays know their last one at compile time.
  PK_DEVICE i64 stride(int axis) const {
    if (L == layout_c && axis == N - 1) return static_cast<i64>(sizeof(T));
    if (L == layout_f && axis == 0) return static_cast<i64>(sizeof(T));
    return strides[axis];
  }

  // The byte offset of `index` on `axis`: wrapped if it may be negative, checked (in debug and
  // simulator builds) if it may lie outside, unless bit `axis` of the facts says otherwise.
  PK_DEVICE i64 offset(const char* file, int line, i64 index, int axis, unsigned non_negative, unsigned in_bounds) const {
    i64 i = index;
    if (!(((non_negative | in_bounds) >> axis) & 1u) && i < 0) i += shape[axis];
#if defined(PK_DEBUG) || defined(PK_BOUNDSCHECK)
    // One unsigned compare covers both ends: a still-negative i is a huge unsigned value.
    if (!((in_bounds >> axis) & 1u) && static_cast<u64>(i) >= static_cast<u64>(shape[axis]))
      report_index_error(file, line, index, axis, shape[axis]);
#endif
    (void)file;
    (void)line;
    return i * stride(axis);
  }
  PK_DEVICE T& at_offset(i64 bytes) const { return *reinterpret_cast<T*>(reinterpret_cast<char*>(data) + bytes); }

  // a[i, j, ...]: a negative index wraps as in Python and, in debug and simulator builds, an
  // index outside its axis is Numba's IndexError. Where sema proved facts about the indices
  // (sema/index_facts.h), bit k of NonNegative says index k is never negative (no wrap-around),
  // of InBounds that it lies in the axis (no check). Indices are int64 (sema casts them).
  // Arrays of 1 to 3 dimensions have an overload each, plain sums with no index array or loop:
  // NVRTC optimises those 5 ms faster per kernel than the general form (BENCHMARKS.md).
  template <unsigned NonNegative, unsigned InBounds>
  PK_DEVICE T& at_known(const char* file, int line, i64 i) const {
    static_assert(N == 1, "one index per dimension");
    return at_offset(offset(file, line, i, 0, NonNegative, InBounds));
  }
  template <unsigned NonNegative, unsigned InBounds>
  PK_DEVICE T& at_known(const char* file, int line, i64 i, i64 j) const {
    static_assert(N == 2, "one index per dimension");
    return at_offset(offset(file, line, i, 0, NonNegative, InBounds) + offset(file, line, j, 1, NonNegative, InBounds));
  }
  template <unsigned NonNegative, unsigned InBounds>
  PK_DEVICE T& at_known(const char* file, int line, i64 i, i64 j, i64 k) const {
    static_assert(N == 3, "one index per dimension");
    return at_offset(offset(file, line, i, 0, NonNegative, InBounds) + offset(file, line, j, 1, NonNegative, InBounds) +
                     offset(file, line, k, 2, NonNegative, InBounds));
  }
  template <unsigned NonNegative, unsigned InBounds, class... I>
  PK_DEVICE T& at_known(const char* file, int line, i64 i, i64 j, i64 k, i64 l, I... rest) const {
    static_assert(sizeof...(I) + 4 == N, "one index per dimension");
    const i64 indices[N] = {i, j, k, l, static_cast<i64>(rest)...};
    i64 bytes = 0;
PK_UNROLL
    for (int axis = 0; axis < N; ++axis) bytes += offset(file, line, indices[axis], axis, NonNegative, InBounds);
    return at_offset(bytes);
  }
  // a[i, j, ...] with nothing known about the indices: each wraps if negative and is checked.
  template <class... I> PK_DEVICE T& at(const char* file, int line, I... index) const {
    return at_known<0u, 0u>(file, line, static_cast<i64>(index)...);
  }
};

#define PK_AT(array, ...) ((array).at(__FILE__, __LINE__, __VA_ARGS__))
#define PK_AT_KNOWN(array, non_negative, in_bounds, ...) \
  ((array).template at_known<non_negative, in_bounds>(__FILE__, __LINE__, __VA_ARGS__))

template <class T, int N, Layout L> PK_DEVICE i64 size(const Array<T, N, L>& a) {
  i64 n = 1;
  for (int axis = 0; axis < N; ++axis) n *= a.shape[axis];
  return n;
}

// a[..., i, ...]: fix one axis, drop it. The index wraps and is checked as an element's is
// (Array::offset), and an error names the kernel's line (PK_INDEX_AXIS passes it).
template <int Axis, class T, int N, Layout L>
PK_DEVICE Array<T, N - 1, (L == layout_c && Axis == 0) ? layout_c : layout_a> index_axis(const char* file, int line,
                                                                                        const Array<T, N, L>& a, i64 i) {
  Array<T, N - 1, (L == layout_c && Axis == 0) ? layout_c : layout_a> view;
  view.data = reinterpret_cast<T*>(reinterpret_cast<char*>(a.data) + a.offset(file, line, i, Axis, 0u, 0u));
  for (int axis = 0, out = 0; axis < N; ++axis) {
    if (axis == Axis) continue;
    view.shape[out] = a.shape[axis];
    view.strides[out] = a.stride(axis);
    ++out;
  }
  return view;
}
#define PK_INDEX_AXIS(axis, array, index) (::pk::index_axis<axis>(__FILE__, __LINE__, array, index))

// The byte offset of element `flat` (C order over the view's shape; 0 <= flat < its size) of an
// array whose strides are `strides`, for a random access; a walk over every element takes
// each_row below. What is left of `flat` after the inner axes is the index along axis 0
// itself, so that axis takes no division: a 1-d view's offset is one multiply.
template <int N>
PK_DEVICE i64 flat_offset(i64 flat, const i64 (&shape)[N], const i64 (&strides)[N]) {
  i64 offset = 0;
  for (int axis = N - 1; axis >= 1; --axis) {
    i64 extent = shape[axis] > 0 ? shape[axis] : 1;
    offset += (flat % extent) * strides[axis];
    flat /= extent;
  }
  return offset + flat * strides[0];
}

// Walks `shape` in C order a row (its last axis) at a time (last row first when Backwards),
// keeping the row's first byte offset under two sets of strides by an odometer over the other
// axes: no division per element, as flat_offset takes. visit(first, second) does one row.
template <bool Backwards, int N, class Visit>
PK_DEVICE void each_row(const i64 (&shape)[N], const i64 (&first)[N], const i64 (&second)[N], Visit visit) {
  for (int axis = 0; axis < N; ++axis)
    if (shape[axis] == 0) return;
  i64 index[N] = {};
  i64 a = 0, b = 0;
  if (Backwards)
    for (int axis = 0; axis + 1 < N; ++axis) {
      index[axis] = shape[axis] - 1;
      a += index[axis] * first[axis];
      b += index[axis] * second[axis];
    }
  for (;;) {
    visit(a, b);
    int axis = N - 2;
    for (; axis >= 0; --axis) {
      const i64 last = shape[axis] - 1;
      if (Backwards ? index[axis] > 0 : index[axis] < last) {
        const i64 step = Backwards ? -1 : 1;
        index[axis] += step;
        a += step * first[axis];
        b += step * second[axis];
        break;
      }
      index[axis] = Backwards ? last : 0;  // this axis wraps round; the next one out moves
      a += (Backwards ? last : -last) * first[axis];
      b += (Backwards ? last : -last) * second[axis];
    }
    if (axis < 0) return;
  }
}

#if !PK_DEVICE_BUILD
template <class T>
void copy_apart(T* __restrict__ to, const T* __restrict__ from, i64 length) {
  for (i64 k = 0; k < length; ++k) to[k] = from[k];
}

// A contiguous row of `length` elements copied to another: a loop the compiler vectorises
// where the two do not overlap (np.concatenate's pieces into a new array; it ran faster than
// the C library's memmove for rows of megabytes here), memmove where they do (a[:-1] = a[1:]).
template <class T>
void copy_row(T* to, const T* from, i64 length) {
  const char *to_low = reinterpret_cast<const char*>(to), *from_low = reinterpret_cast<const char*>(from);
  const i64 bytes = length * static_cast<i64>(sizeof(T));
  if (to_low + bytes <= from_low || from_low + bytes <= to_low) {
    copy_apart(to, from, length);
    return;
  }
  __builtin_memmove(to, from, static_cast<unsigned long>(bytes));
}
#endif

// The elements of `shape` at `from` (byte strides `from_strides`; 0 repeats) into `to`, each
// converted to T, in C order (the last element first when Backwards).
template <bool Backwards = false, class T, class U, int N>
PK_DEVICE void copy_elements(T* to, const i64 (&to_strides)[N], const U* from, const i64 (&from_strides)[N],
                             const i64 (&shape)[N]) {
  char* to_bytes = reinterpret_cast<char*>(to);
  const char* from_bytes = reinterpret_cast<const char*>(from);
  const i64 length = shape[N - 1], to_step = to_strides[N - 1], from_step = from_strides[N - 1];
  each_row<Backwards>(shape, to_strides, from_strides, [&](i64 to_row, i64 from_row) {
    char* out = to_bytes + to_row;
    const char* in = from_bytes + from_row;
    if (Backwards) {
      for (i64 k = length - 1; k >= 0; --k)
        *reinterpret_cast<T*>(out + k * to_step) = static_cast<T>(*reinterpret_cast<const U*>(in + k * from_step));
    } else if (to_step == static_cast<i64>(sizeof(T))) {  // a C-ordered target: a plain index
#if !PK_DEVICE_BUILD
      // Both rows contiguous and of one type (np.concatenate's pieces, copies of C arrays).
      if constexpr (__is_same(T, U))
        if (from_step == static_cast<i64>(sizeof(U))) {
          copy_row(reinterpret_cast<T*>(out), reinterpret_cast<const T*>(in), length);
          return;
        }
#endif
      T* row = reinterpret_cast<T*>(out);
      for (i64 k = 0; k < length; ++k) row[k] = static_cast<T>(*reinterpret_cast<const U*>(in + k * from_step));
    } else {
      for (i64 k = 0; k < length; ++k)
        *reinterpret_cast<T*>(out + k * to_step) = static_cast<T>(*reinterpret_cast<const U*>(in + k * from_step));
    }
  });
}

// a[s] = v where a[s] is a view (slices, or indices that leave axes): every element of the view
// set. a[s] = scalar: the scalar (already of the array's type) into every element.
template <class T, int N, Layout L>
PK_DEVICE void fill_view(const Array<T, N, L>& view, T value) {
  i64 strides[N];
  for (int axis = 0; axis < N; ++axis) strides[axis] = view.stride(axis);
  char* base = reinterpret_cast<char*>(view.data);
  const i64 length = view.shape[N - 1], step = strides[N - 1];
  each_row<false>(view.shape, strides, strides, [&](i64 row, i64) {
    for (i64 k = 0; k < length; ++k) *reinterpret_cast<T*>(base + row + k * step) = value;
  });
}

// a[s] = b: b broadcast to the view's shape as NumPy does (its axes align with the view's last
// ones; an extent of 1 repeats), each element converted to the view's type. Shapes that do not
// broadcast are Numba's ValueError. Where the two overlap in memory and the view starts after
// the source (a[1:] = a[:-1]), the elements are copied last first, so each is read before it is
// overwritten, as NumPy's copy through a temporary gives for such shifts.
template <class T, int N, Layout L, class U, int M, Layout K>
PK_DEVICE void copy_view(const char* file, int line, const Array<T, N, L>& view, const Array<U, M, K>& source) {
  bool fits = M <= N;
  i64 view_strides[N], source_strides[N];
  for (int axis = 0; axis < N; ++axis) {
    view_strides[axis] = view.stride(axis);
    int from = axis - (N - M);  // the source's axis that lines up with this one, if any
    source_strides[axis] = 0;
    if (from < 0 || from >= M) continue;
    if (source.shape[from] == view.shape[axis])
      source_strides[axis] = source.stride(from);
    else if (source.shape[from] != 1)
      fits = false;
  }
  if (!fits) report_failure(file, line, "ValueError", "cannot assign slice from input of different size");
  bool backwards = reinterpret_cast<const char*>(view.data) > reinterpret_cast<const char*>(source.data);
  if (backwards)
    copy_elements<true>(view.data, view_strides, source.data, source_strides, view.shape);
  else
    copy_elements<false>(view.data, view_strides, source.data, source_strides, view.shape);
}
#define PK_COPY_VIEW(view, source) (::pk::copy_view(__FILE__, __LINE__, view, source))

// x, y, z = a: Numba iterates the array for as many items as there are names, and raises a
// ValueError (without a message) when it runs out; items past them are left.
template <class T, int N, Layout L>
PK_DEVICE void check_unpack(const char* file, int line, const Array<T, N, L>& a, i64 names) {
  if (a.shape[0] < names) report_failure(file, line, "ValueError", "");
}
#define PK_CHECK_UNPACK(array, names) (::pk::check_unpack(__FILE__, __LINE__, array, names))

// a[..., start:stop:step, ...]: Python's slice rules (negative bounds, clamping).
template <int Axis, class T, int N, Layout L>
PK_DEVICE Array<T, N, layout_a> slice_axis(const Array<T, N, L>& a, i64 start, i64 stop, i64 step) {
  if (step == 0) step = 1;  // Python raises; a kernel cannot, so treat it as 1
  slice_bounds b = slice_indices(a.shape[Axis], start, stop, step);
  start = b.start, step = b.step;
  i64 length = b.length;
  Array<T, N, layout_a> view;
  view.data = reinterpret_cast<T*>(reinterpret_cast<char*>(a.data) + (length > 0 ? start * a.stride(Axis) : 0));
  for (int axis = 0; axis < N; ++axis) {
    view.shape[axis] = a.shape[axis];
    view.strides[axis] = a.stride(axis);
  }
  view.shape[Axis] = length;
  view.strides[Axis] = a.stride(Axis) * step;
  return view;
}

// A 1-d array is its own transpose, of its own layout (sema calls every 1-d contiguous array C).
template <class T, int N, Layout L>
using TransposedLayout = Array<T, N, N == 1 ? L : L == layout_c ? layout_f : L == layout_f ? layout_c : layout_a>;
template <class T, int N, Layout L>
PK_DEVICE TransposedLayout<T, N, L> transpose(const Array<T, N, L>& a) {
  TransposedLayout<T, N, L> t;
  t.data = a.data;
  for (int axis = 0; axis < N; ++axis) {
    t.shape[axis] = a.shape[N - 1 - axis];
    t.strides[axis] = a.stride(N - 1 - axis);
  }
  return t;
}

// Storage made in the kernel (cuda.shared.array, cuda.local.array): C order. Ranks 1 to 3 have
// plain overloads (NVRTC folds them with less work than the loop).
template <class T, int N> PK_DEVICE Array<T, 1, layout_c> make_array(T* data, i64 n) {
  static_assert(N == 1, "one extent per dimension");
  return {data, {n}, {static_cast<i64>(sizeof(T))}};
}
template <class T, int N> PK_DEVICE Array<T, 2, layout_c> make_array(T* data, i64 n, i64 m) {
  static_assert(N == 2, "one extent per dimension");
  return {data, {n, m}, {m * static_cast<i64>(sizeof(T)), static_cast<i64>(sizeof(T))}};
}
template <class T, int N> PK_DEVICE Array<T, 3, layout_c> make_array(T* data, i64 n, i64 m, i64 k) {
  static_assert(N == 3, "one extent per dimension");
  return {data, {n, m, k}, {m * k * static_cast<i64>(sizeof(T)), k * static_cast<i64>(sizeof(T)), static_cast<i64>(sizeof(T))}};
}
template <class T, int N, class... E> PK_DEVICE Array<T, N, layout_c> make_array(T* data, i64 e0, i64 e1, i64 e2, i64 e3, E... extents) {
  static_assert(sizeof...(E) + 4 == N, "one extent per dimension");
  Array<T, N, layout_c> a;
  a.data = data;
  const i64 shape[N] = {e0, e1, e2, e3, static_cast<i64>(extents)...};
  i64 stride = sizeof(T);
  for (int axis = N - 1; axis >= 0; --axis) {
    a.shape[axis] = shape[axis];
    a.strides[axis] = stride;
    stride *= shape[axis];
  }
  return a;
}

// Whether an F array of shape `from` (byte strides `strides`) reads in C order as one of shape
// `to` without a copy, as NumPy's _attempt_nocopy_reshape decides (Numba calls it in C order
// for every layout): groups of old axes that multiply to groups of new ones, each group
// contiguous in C order. The new view must also be F-ordered (extent-1 axes aside), as its
// type says; only splits and merges of extent-1 axes pass both.
template <int N, int M>
PK_DEVICE bool f_reshapes_without_copy(const i64 (&from)[N], const i64 (&strides)[N], const i64 (&to)[M], i64 item,
                                       i64 (&out)[M]) {
  i64 olddims[N > 0 ? N : 1], oldstrides[N > 0 ? N : 1];
  int oldnd = 0;
  for (int k = 0; k < N; ++k) {
    if (from[k] == 1) continue;
    olddims[oldnd] = from[k];
    oldstrides[oldnd++] = strides[k];
  }
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < M && oi < oldnd) {
    i64 np = to[ni], op = olddims[oi];
    while (np != op) {
      if (np < op) {
        if (nj >= M) return false;
        np *= to[nj++];
      } else {
        if (oj >= oldnd) return false;
        op *= olddims[oj++];
      }
    }
    for (int ok = oi; ok < oj - 1; ++ok)
      if (oldstrides[ok] != olddims[ok + 1] * oldstrides[ok + 1]) return false;
    out[nj - 1] = oldstrides[oj - 1];
    for (int nk = nj - 1; nk > ni; --nk) out[nk - 1] = out[nk] * to[nk];
    ni = nj++;
    oi = oj++;
  }
  i64 last = ni >= 1 ? out[ni - 1] : item;
  for (int nk = ni; nk < M; ++nk) out[nk] = last;
  i64 expected = item;
  for (int k = 0; k < M; ++k) {
    if (to[k] != 1 && out[k] != expected) return false;
    expected *= to[k];
  }
  return true;
}

// a.reshape(...): a view with new extents of a C or F array (which the sema requires), read in
// C order as Numba reads it; one negative extent is inferred. Sizes that do not match stop the
// thread with Numba's ValueError; an F array whose elements are not in the new shape's order
// without a copy, with Numba's NotImplementedError.
template <int M, class T, int N, Layout L, class... E>
PK_DEVICE Array<T, M, M == 0 ? layout_c : L> reshape(const char* file, int line, const Array<T, N, L>& a, E... extents) {
  static_assert(L != layout_a, "reshape needs a contiguous array");
  i64 dims[M > 0 ? M : 1] = {static_cast<i64>(extents)...};  // M == 0: a.reshape(()), one element
  // Numba's normalize_reshape_value: one negative extent is inferred.
  i64 known = 1;
  int negative = 0, inferred = 0;
  for (int axis = 0; axis < M; ++axis) {
    if (dims[axis] < 0) {
      ++negative;
      inferred = axis;
    } else {
      known *= dims[axis];
    }
  }
  i64 n = size(a);
  if (negative > 1) report_failure(file, line, "ValueError", "multiple negative shape values");
  if (negative == 1) {
    bool ok = known == 0 ? n == 0 : n % known == 0;
    if (!ok) report_failure(file, line, "ValueError", "total size of new array must be unchanged");
    dims[inferred] = known == 0 ? 0 : n / known;
  } else if (known != n) {
    report_failure(file, line, "ValueError", "total size of new array must be unchanged");
  }
  Array<T, M, M == 0 ? layout_c : L> view;
  view.data = a.data;
  i64 stride = static_cast<i64>(sizeof(T));
  for (int k = 0; k < M; ++k) {
    int axis = L == layout_c ? M - 1 - k : k;
    view.shape[axis] = dims[axis];
    view.strides[axis] = stride;
    stride *= dims[axis];
  }
  if (L == layout_f && n > 1) {
    i64 strides[N];
    for (int axis = 0; axis < N; ++axis) strides[axis] = a.stride(axis);
    i64 unused[M > 0 ? M : 1];
    if (!f_reshapes_without_copy(a.shape, strides, dims, static_cast<i64>(sizeof(T)), unused))
      report_failure(file, line, "NotImplementedError", "incompatible shape for array");
  }
  return view;
}
#define PK_RESHAPE(ndim, ...) (::pk::reshape<ndim>(__FILE__, __LINE__, __VA_ARGS__))  // array, extents

// a.view(dtype): the same bytes as U. A different itemsize rescales the last axis, which must
// be contiguous and hold a whole number of U (NumPy's rules; a ValueError otherwise).
template <class U, class T, int N, Layout L>
PK_DEVICE Array<U, N, (sizeof(U) == sizeof(T) || L == layout_c) ? L : layout_a> view_as(const char* file, int line,
                                                                                   const Array<T, N, L>& a, U) {
  Array<U, N, (sizeof(U) == sizeof(T) || L == layout_c) ? L : layout_a> view;
  view.data = reinterpret_cast<U*>(a.data);
  for (int axis = 0; axis < N; ++axis) {
    view.shape[axis] = a.shape[axis];
    view.strides[axis] = a.stride(axis);
  }
  if (sizeof(U) != sizeof(T)) {
    if (a.stride(N - 1) != static_cast<i64>(sizeof(T)) && a.shape[N - 1] > 1)
      report_failure(file, line, "ValueError", "To change to a dtype of a different size, the last axis must be contiguous");
    i64 bytes = a.shape[N - 1] * static_cast<i64>(sizeof(T));
    if (bytes % static_cast<i64>(sizeof(U)) != 0)
      report_failure(file, line, "ValueError",
                     "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the "
                     "last axis of the array.");
    view.shape[N - 1] = bytes / static_cast<i64>(sizeof(U));
    view.strides[N - 1] = static_cast<i64>(sizeof(U));
  }
  return view;
}
#define PK_VIEW(array, like) (::pk::view_as(__FILE__, __LINE__, array, like))

// A complex array's .real and .imag: views of one part of each element.
template <class T, int N, Layout L> PK_DEVICE Array<T, N, layout_a> complex_part(const Array<complex<T>, N, L>& a, int part) {
  Array<T, N, layout_a> view;
  view.data = reinterpret_cast<T*>(a.data) + part;
  for (int axis = 0; axis < N; ++axis) {
    view.shape[axis] = a.shape[axis];
    view.strides[axis] = a.stride(axis);
  }
  return view;
}
template <class T, int N, Layout L> PK_DEVICE Array<T, N, layout_a> real_part(const Array<complex<T>, N, L>& a) {
  return complex_part(a, 0);
}
template <class T, int N, Layout L> PK_DEVICE Array<T, N, layout_a> imag_part(const Array<complex<T>, N, L>& a) {
  return complex_part(a, 1);
}

// `a is b` on two arrays of one type: the same memory, viewed the same way (Numba's array_is).
template <class T, int N, Layout L> PK_DEVICE bool same_array(const Array<T, N, L>& a, const Array<T, N, L>& b) {
  if (a.data != b.data) return false;
  for (int axis = 0; axis < N; ++axis)
    if (a.shape[axis] != b.shape[axis] || a.stride(axis) != b.stride(axis)) return false;
  return true;
}

// A record's subarray field (a C array member, flattened): a C-ordered view of its elements.
template <int N, class T, decltype(sizeof(int)) K, class... E> PK_DEVICE Array<T, N, layout_c> subarray(T (&data)[K], E... extents) {
  return make_array<T, N>(data, extents...);
}

// A bool element read as the byte it is stored in: NumPy and Numba take any non-zero byte for
// True (an array from user memory may hold 2 or 255), where a C++ bool holding anything but 0
// or 1 is undefined behaviour. Reading it through unsigned char is always defined.
PK_DEVICE bool stored_bool(const bool& element) { return *reinterpret_cast<const unsigned char*>(&element) != 0; }

}  // namespace pk

#if PK_DEVICE_BUILD
// A module-level array a kernel reads (read-only: sema refuses writes).
#define PK_CONSTANT_ARRAY(type, name, count) __constant__ type name[count]
#define PK_SHARED_STORAGE(type, name, count) __shared__ type name[count]
#define PK_LOCAL_STORAGE(type, name, count) type name[count]
// Dynamic shared memory (cuda.shared.array(0, dtype)): every such array views the launch's
// dynamic shared bytes from their start.
#define PK_DYNAMIC_SHARED_STORAGE(type, name) \
  extern __shared__ __align__(16) unsigned char pk_dynamic_shared[]; \
  type* name = reinterpret_cast<type*>(pk_dynamic_shared)
#else
#define PK_CONSTANT_ARRAY(type, name, count) static type name[count]
// The simulator gives each block its own shared memory (src/sim/engine.cpp).
#define PK_SHARED_STORAGE(type, name, count) \
  type* name = static_cast<type*>(::pk::sim::shared_storage(__COUNTER__, sizeof(type) * (count), alignof(type)))
#define PK_LOCAL_STORAGE(type, name, count) type name[count]
#define PK_DYNAMIC_SHARED_STORAGE(type, name) type* name = static_cast<type*>(::pk::sim::dynamic_shared())
#endif
#endif  // PYKERN_ARRAY_CUH
