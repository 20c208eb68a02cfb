// pykern runtime: NumPy's reductions along an axis and its array-returning reductions in @jit
// functions on the host, as Numba's CPU target computes them (numba/np/arraymath.py):
// np.sum(a, axis=k) and a.sum(k, dtype=...), np.argmin/np.argmax(a, axis=k), np.cumsum and
// np.cumprod (flattened or along an axis), np.nancumsum/np.nancumprod and np.diff. Results are
// new C-ordered owning arrays (owned_array.cuh). Host builds only, as reductions.cuh.
//
// Speed: a reduction along axis k walks the array in C order with axis k placed between the
// axes before it and those after it, so the inner loop runs along the last axis (contiguous in
// a C array) and adds into one row of the result; each result element still meets its inputs
// in increasing index along k, the order Numba adds them in, so float sums match bit for bit.
#ifndef PYKERN_REDUCTIONS_AXIS_CUH
#define PYKERN_REDUCTIONS_AXIS_CUH
#include "pykern/owned_array.cuh"
#include "pykern/reductions.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
namespace reduce {

// Calls visit(byte offset) for each index of the `count` axes (extents and byte strides) in C
// order, from `base`; the last axis is the tight inner loop.
template <class Visit>
inline void walk(const i64* shape, const i64* strides, int count, i64 base, Visit&& visit) {
  for (int d = 0; d < count; ++d)
    if (shape[d] == 0) return;
  if (count == 0) {
    visit(base);
    return;
  }
  i64 index[32] = {};
  const i64 inner_extent = shape[count - 1], inner_stride = strides[count - 1];
  for (;;) {
    i64 p = base;
    for (i64 i = 0; i < inner_extent; ++i, p += inner_stride) visit(p);
    int d = count - 2;
    for (;; --d) {
      if (d < 0) return;
      base += strides[d];
      if (++index[d] < shape[d]) break;
      base -= strides[d] * shape[d];
      index[d] = 0;
    }
  }
}

// Calls visit(result index, j, element) for each element of `a`, where j is its index along
// `axis` and the result index is the C-order position of its other indices: the axes before
// `axis` outermost, then `axis`, then the rest (memory order for a C array).
template <class T, int N, Layout L, class Visit>
inline void along_axis(const Array<T, N, L>& a, int axis, Visit&& visit) {
  i64 outer_shape[N], outer_strides[N], inner_shape[N], inner_strides[N];
  int outer = 0, inner = 0;
  i64 inner_count = 1;
  for (int d = 0; d < N; ++d) {
    if (d < axis) outer_shape[outer] = a.shape[d], outer_strides[outer++] = a.stride(d);
    if (d > axis) inner_shape[inner] = a.shape[d], inner_strides[inner++] = a.stride(d), inner_count *= a.shape[d];
  }
  const i64 extent = a.shape[axis], stride = a.stride(axis);
  i64 row = 0;
  walk(outer_shape, outer_strides, outer, 0, [&](i64 outer_offset) {
    for (i64 j = 0; j < extent; ++j) {
      i64 k = row * inner_count;
      walk(inner_shape, inner_strides, inner, outer_offset + j * stride,
           [&](i64 offset) { visit(k++, j, a.at_offset(offset)); });
    }
    ++row;
  });
}

// The axis as Numba checks it (a negative one counts from the end); out of range is `kind`
// with Numba's message for that function.
inline int checked_axis(const char* file, int line, i64 axis, int ndim, const char* kind, bool names_axis) {
  if (axis < -ndim || axis >= ndim) {
    char message[96];
    if (names_axis) __builtin_snprintf(message, sizeof message, "axis %lld is out of bounds for array of dimension %d",
                                       static_cast<long long>(axis), ndim);
    else __builtin_snprintf(message, sizeof message, "axis is out of bounds");
    report_failure(file, line, kind, message);
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

// A new C array of a's shape without `axis`.
template <class R, class T, int N, Layout L>
OwnedArray<R, N - 1, layout_c> without_axis(const char* file, int line, const Array<T, N, L>& a, int axis) {
  i64 shape[N - 1];
  for (int d = 0, k = 0; d < N; ++d)
    if (d != axis) shape[k++] = a.shape[d];
  return new_array<R, N - 1, layout_c>(file, line, shape);
}

}  // namespace reduce

// np.sum(a, axis=k), a.sum(k): R is the accumulator (or dtype=) type. A 1-D array gives the
// whole sum; a wider one a new array of one dimension less. Out of range: NumPy's AxisError.
struct array_sum_axis : reduction_site {
  template <class R, class T, Layout L> R operator()(R like, const Array<T, 1, L>& a, i64 axis) const {
    reduce::checked_axis(file, line, axis, 1, "AxisError", true);
    return array_sum{{file, line}}(like, a);
  }
  template <class R, class T, int N, Layout L>
  OwnedArray<R, N - 1, layout_c> operator()(R, const Array<T, N, L>& a, i64 axis) const {
    int k = reduce::checked_axis(file, line, axis, N, "AxisError", true);
    auto out = reduce::without_axis<R>(file, line, a, k);
    R* items = out.data;
    if (k == N - 1) {
      // Along the last axis each row adds up in a register, then is stored once.
      i64 strides[N];
      for (int d = 0; d < N; ++d) strides[d] = a.stride(d);
      const i64 extent = a.shape[k], stride = strides[k];
      i64 row = 0;
      reduce::walk(a.shape, strides, N - 1, 0, [&](i64 base) {
        R total = R(0);
        for (i64 j = 0; j < extent; ++j) total = total + R(a.at_offset(base + j * stride));
        items[row++] = total;
      });
      return out;
    }
    for (i64 i = 0, n = size(out); i < n; ++i) items[i] = R(0);
    reduce::along_axis(a, k, [&](i64 o, i64, const T& v) { items[o] = items[o] + R(v); });
    return out;
  }
};
// np.count_nonzero(a, axis=k): the true elements along k as int64 (Numba sums a.astype(bool)
// along the axis), with sum's checks.
struct array_count_nonzero_axis : reduction_site {
  template <class T, Layout L> i64 operator()(const Array<T, 1, L>& a, i64 axis) const {
    reduce::checked_axis(file, line, axis, 1, "AxisError", true);
    return array_count_nonzero{{file, line}}(a);
  }
  template <class T, int N, Layout L> OwnedArray<i64, N - 1, layout_c> operator()(const Array<T, N, L>& a, i64 axis) const {
    int k = reduce::checked_axis(file, line, axis, N, "AxisError", true);
    auto out = reduce::without_axis<i64>(file, line, a, k);
    i64* items = out.data;
    for (i64 i = 0, n = size(out); i < n; ++i) items[i] = 0;
    reduce::along_axis(a, k, [&](i64 o, i64, const T& v) { items[o] += reduce::truthy(v) ? 1 : 0; });
    return out;
  }
};
// np.sum(a, dtype=D) over the whole array: the sum in D.
struct array_sum_as : reduction_site {
  template <class R, class T, int N, Layout L> R operator()(R like, const Array<T, N, L>& a) const {
    return array_sum{{file, line}}(like, a);
  }
};

// np.argmin(a, axis=k), a.argmax(axis=k): for each position of the other axes, the index along
// k of the first extreme element, or of the first NaN (Numba's per-slice scan). A 1-D array
// gives one int64. Out of range is Numba's ValueError; an empty axis its ZeroDivisionError.
template <bool Max> struct array_argextreme_axis : reduction_site {
  template <class T, Layout L> i64 operator()(const Array<T, 1, L>& a, i64 axis) const {
    reduce::checked_axis(file, line, axis, 1, "ValueError", false);
    return array_argextreme<Max>{{file, line}}(a);
  }
  template <class T, int N, Layout L> OwnedArray<i64, N - 1, layout_c> operator()(const Array<T, N, L>& a, i64 axis) const {
    int k = reduce::checked_axis(file, line, axis, N, "ValueError", false);
    // Numba splits the raveled array into slices of a.shape[k] elements with a modulo first.
    if (a.shape[k] == 0) report_failure(file, line, "ZeroDivisionError", "integer modulo by zero");
    auto out = reduce::without_axis<i64>(file, line, a, k);
    i64 count = size(out);
    if (count == 0) return out;
    T* best = static_cast<T*>(__builtin_malloc(static_cast<unsigned long>(count) * sizeof(T)));
    if (!best) report_failure(file, line, "MemoryError", "Allocation failed (probably too large).");
    i64* where = out.data;
    reduce::along_axis(a, k, [&](i64 o, i64 j, const T& v) {
      if (j == 0) {
        best[o] = v, where[o] = 0;
      } else if (!reduce::is_nan(best[o]) && (reduce::is_nan(v) || (Max ? v > best[o] : v < best[o]))) {
        best[o] = v, where[o] = j;
      }
    });
    __builtin_free(best);
    return out;
  }
};
using array_argmin_axis = array_argextreme_axis<false>;
using array_argmax_axis = array_argextreme_axis<true>;

// np.cumsum(a), a.cumsum(): the running sums of the C-order flattening, in R (the accumulator or
// dtype= type), a new 1-D array. np.cumprod(a): the running products. NaN-skipping forms
// (np.nancumsum, np.nancumprod of floats) leave the running value as it was at a NaN.
template <bool Product, bool SkipNan> struct array_cumulative : reduction_site {
  template <class R, class T, int N, Layout L> OwnedArray<R, 1, layout_c> operator()(R, const Array<T, N, L>& a) const {
    const i64 shape[1] = {size(a)};
    auto out = new_array<R, 1, layout_c>(file, line, shape);
    R running = R(Product ? 1 : 0);
    R* items = out.data;
    i64 k = 0;
    reduce::flat(a, [&](const T& v) {
      if (!(SkipNan && reduce::is_nan(v))) running = Product ? R(running * R(v)) : R(running + R(v));
      items[k++] = running;
      return true;
    });
    return out;
  }
};
using array_cumsum = array_cumulative<false, false>;
using array_cumprod = array_cumulative<true, false>;
using array_nancumsum = array_cumulative<false, true>;
using array_nancumprod = array_cumulative<true, true>;

// np.cumsum(a, axis=k): the running sums along k, a new C array of a's shape (a 1-D array's
// flattened form); out of range is Numba's ValueError naming the axis.
struct array_cumsum_axis : reduction_site {
  template <class R, class T, int N, Layout L> OwnedArray<R, N, layout_c> operator()(R like, const Array<T, N, L>& a, i64 axis) const {
    int k = reduce::checked_axis(file, line, axis, N, "ValueError", true);
    if constexpr (N == 1) {
      (void)k;
      return array_cumsum{{file, line}}(like, a);
    } else {
      i64 shape[N];
      for (int d = 0; d < N; ++d) shape[d] = a.shape[d];
      auto out = new_array<R, N, layout_c>(file, line, shape);
      // The result's C layout: index (outer, j, inner) sits at (outer * extent + j) * inner + inner.
      i64 inner_count = 1;
      for (int d = k + 1; d < N; ++d) inner_count *= a.shape[d];
      const i64 extent = a.shape[k];
      R* items = out.data;
      reduce::along_axis(a, k, [&](i64 o, i64 j, const T& v) {
        i64 outer = inner_count > 0 ? o / inner_count : 0, within = o - outer * inner_count;
        i64 at = (outer * extent + j) * inner_count + within;
        items[at] = j == 0 ? R(v) : R(items[at - inner_count] + R(v));
      });
      return out;
    }
  }
};

// np.diff(a, n): the n-th differences along the last axis, in a's dtype (each difference taken
// as Numba takes it: in the promoted type, stored back). n == 0 copies; n < 0 is Numba's error.
struct array_diff : reduction_site {
  template <class T, int N, Layout L> OwnedArray<T, N, layout_c> operator()(const Array<T, N, L>& a, i64 n) const {
    if (n == 0) return copy_array(file, line, a);
    if (n < 0) report_failure(file, line, "ValueError", "diff(): order must be non-negative");
    const i64 extent = a.shape[N - 1];
    i64 shape[N];
    for (int d = 0; d < N; ++d) shape[d] = a.shape[d];
    shape[N - 1] = extent - n > 0 ? extent - n : 0;
    auto out = new_array<T, N, layout_c>(file, line, shape);
    if (size(out) == 0) return out;
    T* work = static_cast<T*>(__builtin_malloc(static_cast<unsigned long>(extent) * sizeof(T)));
    if (!work) report_failure(file, line, "MemoryError", "Allocation failed (probably too large).");
    T* items = out.data;
    const i64 stride = a.stride(N - 1);
    i64 outer_strides[N], row = 0;
    for (int d = 0; d < N; ++d) outer_strides[d] = a.stride(d);
    reduce::walk(a.shape, outer_strides, N - 1, 0, [&](i64 base) {
      for (i64 i = 0; i + 1 < extent; ++i)
        work[i] = T(a.at_offset(base + (i + 1) * stride) - a.at_offset(base + i * stride));
      for (i64 pass = 1; pass < n; ++pass)
        for (i64 i = 0; i < extent - pass - 1; ++i) work[i] = T(work[i + 1] - work[i]);
      T* target = items + row * shape[N - 1];
      for (i64 i = 0; i < shape[N - 1]; ++i) target[i] = work[i];
      ++row;
    });
    __builtin_free(work);
    return out;
  }
};

}  // namespace pk
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_REDUCTIONS_AXIS_CUH
