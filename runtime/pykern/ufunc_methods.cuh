// pykern runtime: the pieces of a @vectorize ufunc's .reduce in @jit functions on the host
// (sema/ufunc_methods.cpp), as Numba's DUFunc.reduce computes it (numba/np/ufunc/dufunc.py):
// the axis checked as Numba checks it, the result array started from the first slice along the
// axis (or filled with the initial value), and the slice at each index along the axis, which
// sema folds into the result with one fused loop per index (array_expr.cuh). Host builds only.
#ifndef PYKERN_UFUNC_METHODS_CUH
#define PYKERN_UFUNC_METHODS_CUH
#include "pykern/owned_array.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

struct ufunc_site {
  const char* file;
  int line;
};

// Numba's axis rule for ufunc.reduce: a negative axis counts from the end; one still outside
// the array is "ValueError: Invalid axis".
struct ufunc_reduce_axis : ufunc_site {
  template <class T, int N, Layout L> i64 operator()(const Array<T, N, L>&, i64 axis) const {
    if (axis < 0) axis += N;
    if (axis < 0 || axis >= N) report_failure(file, line, "ValueError", "Invalid axis");
    return axis;
  }
};

// The extent of `axis` (already checked).
struct ufunc_axis_extent : ufunc_site {
  template <class T, int N, Layout L> i64 operator()(const Array<T, N, L>& a, i64 axis) const { return a.shape[axis]; }
};

// The view of `a` at index i along `axis`: one dimension less, sharing a's elements.
struct ufunc_axis_slice : ufunc_site {
  template <class T, int N, Layout L> Array<T, N - 1, layout_a> operator()(const Array<T, N, L>& a, i64 axis, i64 i) const {
    Array<T, N - 1, layout_a> view;
    view.data = reinterpret_cast<T*>(reinterpret_cast<char*>(a.data) + i * a.stride(static_cast<int>(axis)));
    for (int d = 0, k = 0; d < N; ++d) {
      if (d == axis) continue;
      view.shape[k] = a.shape[d];
      view.strides[k++] = a.stride(d);
    }
    return view;
  }
};

// A new C array of a's shape without `axis`, every element `value` converted to R (np.full).
struct ufunc_reduce_start : ufunc_site {
  template <class R, class T, int N, Layout L, class V>
  OwnedArray<R, N - 1, layout_c> operator()(R, const Array<T, N, L>& a, i64 axis, V value) const {
    i64 shape[N - 1];
    for (int d = 0, k = 0; d < N; ++d)
      if (d != axis) shape[k++] = a.shape[d];
    auto out = new_array<R, N - 1, layout_c>(file, line, shape);
    i64 count = 1;
    for (int d = 0; d < N - 1; ++d) count *= shape[d];
    for (i64 i = 0; i < count; ++i) out.data[i] = static_cast<R>(value);
    return out;
  }
};

}  // namespace pk

#define PK_UFUNC(name) (::pk::name{__FILE__, __LINE__})
#endif
#endif  // PYKERN_UFUNC_METHODS_CUH
