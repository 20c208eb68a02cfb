// pykern runtime: NumPy's axis permutations (np.transpose / a.transpose with axes, np.swapaxes,
// np.moveaxis) and np.round / np.around with decimals in @jit functions on the host, as Numba
// 0.68 computes them (numba/np/arrayobj.py permute_arrays, numpy_swapaxes, numpy_moveaxis;
// numba/np/arraymath.py round_ndigits), with Numba's checks and messages. The permutations are
// views that share their array's storage. Host builds only (sema/builtins_numpy_misc.cpp).
#ifndef PYKERN_NUMPY_MISC_CUH
#define PYKERN_NUMPY_MISC_CUH
#include "pykern/owned_array.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
namespace misc {

// The view of `a` whose axis k is a's axis axes[k] (already in range).
template <class T, int N, Layout L> Array<T, N, layout_a> permuted(const Array<T, N, L>& a, const i64 (&axes)[N]) {
  Array<T, N, layout_a> view;
  view.data = a.data;
  for (int k = 0; k < N; ++k) {
    view.shape[k] = a.shape[axes[k]];
    view.strides[k] = a.stride(static_cast<int>(axes[k]));
  }
  return view;
}

// An axis as Numba's normalize_axis reads it: negative from the end; out of range, `message`.
inline i64 normalized(const char* file, int line, i64 axis, int ndim, const char* message) {
  if (axis < 0) axis += ndim;
  if (axis < 0 || axis >= ndim) report_failure(file, line, "ValueError", message);
  return axis;
}

// a.transpose(axes): Numba's permute_arrays checks the axes as given (so -1 and 2 of a 3-d
// array are not "repeated"), then reads negative ones from the end.
template <class T, int N, Layout L, class... I>
Array<T, N, layout_a> transpose_axes(const char* file, int line, const Array<T, N, L>& a, I... given) {
  static_assert(sizeof...(I) == N && N > 0, "one axis per dimension");
  i64 axes[N] = {static_cast<i64>(given)...};
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j)
      if (axes[i] == axes[j]) report_failure(file, line, "ValueError", "repeated axis in transpose");
  for (int k = 0; k < N; ++k) {
    if (axes[k] >= N || axes[k] < -N)
      report_failure(file, line, "ValueError", "axis is out of bounds for array of given dimension");
    if (axes[k] < 0) axes[k] += N;
  }
  return permuted(a, axes);
}

// np.swapaxes(a, axis1, axis2).
template <class T, int N, Layout L>
Array<T, N, layout_a> swapaxes(const char* file, int line, const Array<T, N, L>& a, i64 axis1, i64 axis2) {
  static_assert(N > 0, "an array with axes");
  axis1 = normalized(file, line, axis1, N, "np.swapaxes: Argument axis1 out of bounds for dimensions of the array");
  axis2 = normalized(file, line, axis2, N, "np.swapaxes: Argument axis2 out of bounds for dimensions of the array");
  i64 axes[N];
  for (int k = 0; k < N; ++k) axes[k] = k;
  axes[axis1] = axis2;
  axes[axis2] = axis1;
  return permuted(a, axes);
}

// np.moveaxis(a, source, destination): `sources` axes, then as many destinations (a count
// that differs is Numba's run-time ValueError); the other axes keep their order.
template <class T, int N, Layout L, class... I>
Array<T, N, layout_a> moveaxis(const char* file, int line, const Array<T, N, L>& a, i64 sources, I... given) {
  static_assert(N > 0, "an array with axes");
  constexpr int count = static_cast<int>(sizeof...(I));
  i64 ends[count] = {static_cast<i64>(given)...};
  int destinations = count - static_cast<int>(sources);
  const char* side[2] = {"np.moveaxis: Argument source out of bounds for dimensions of the array",
                         "np.moveaxis: Argument destination out of bounds for dimensions of the array"};
  const char* repeated[2] = {"np.moveaxis: repeated axis in source argument",
                             "np.moveaxis: repeated axis in destination argument"};
  for (int part = 0; part < 2; ++part) {
    int from = part == 0 ? 0 : static_cast<int>(sources), to = part == 0 ? static_cast<int>(sources) : count;
    for (int k = from; k < to; ++k) ends[k] = normalized(file, line, ends[k], N, side[part]);
    for (int i = from; i < to; ++i)
      for (int j = i + 1; j < to; ++j)
        if (ends[i] == ends[j]) report_failure(file, line, "ValueError", repeated[part]);
  }
  if (destinations != sources)
    report_failure(file, line, "ValueError",
                   "`source` and `destination` arguments must have the same number of parameters");
  // The axes not moved, in order; each moved one inserted at its destination, smallest first.
  i64 order[N];
  bool moved[N] = {};
  for (int k = 0; k < sources; ++k) moved[ends[k]] = true;
  int kept = 0;
  for (int k = 0; k < N; ++k)
    if (!moved[k]) order[kept++] = k;
  bool placed[count > 0 ? count : 1] = {};
  for (int round = 0; round < sources; ++round) {
    int best = -1;
    for (int k = 0; k < sources; ++k)
      if (!placed[k] && (best < 0 || ends[sources + k] < ends[sources + best] ||
                         (ends[sources + k] == ends[sources + best] && ends[k] < ends[best])))
        best = k;
    placed[best] = true;
    i64 at = ends[sources + best];
    if (at > kept) at = kept;  // list.insert past the end appends
    for (int k = kept; k > at; --k) order[k] = order[k - 1];
    order[at] = ends[best];
    ++kept;
  }
  return permuted(a, order);
}

template <class T, int N, Layout L, class... I>
OwnedArray<T, N, layout_a> transpose_axes(const char* file, int line, const OwnedArray<T, N, L>& a, I... axes) {
  return {transpose_axes(file, line, static_cast<const Array<T, N, L>&>(a), axes...), a.storage};
}
template <class T, int N, Layout L>
OwnedArray<T, N, layout_a> swapaxes(const char* file, int line, const OwnedArray<T, N, L>& a, i64 axis1, i64 axis2) {
  return {swapaxes(file, line, static_cast<const Array<T, N, L>&>(a), axis1, axis2), a.storage};
}
template <class T, int N, Layout L, class... I>
OwnedArray<T, N, layout_a> moveaxis(const char* file, int line, const OwnedArray<T, N, L>& a, i64 sources, I... ends) {
  return {moveaxis(file, line, static_cast<const Array<T, N, L>&>(a), sources, ends...), a.storage};
}

// ---- np.round(x, decimals) ----

// Numba's round_ndigits (CPython's algorithm, without CPython's bounds on the digits): the
// scaling and the half-to-even rounding in float64.
inline f64 round_ndigits(f64 x, i64 digits) {
  if (__builtin_isinf(x) || __builtin_isnan(x)) return x;
  if (digits >= 0) {
    f64 pow1 = __builtin_pow(10.0, static_cast<f64>(digits > 22 ? digits - 22 : digits));
    f64 pow2 = digits > 22 ? 1e22 : 1.0;
    f64 y = (x * pow1) * pow2;
    if (__builtin_isinf(y)) return x;
    return (__builtin_rint(y) / pow2) / pow1;
  }
  f64 pow1 = __builtin_pow(10.0, static_cast<f64>(-digits));
  return __builtin_rint(x / pow1) * pow1;
}

// np.round of one number: a float gives float64, an integer int64 (unchanged for 0 decimals),
// a complex complex128, as Numba's impl_np_round types them.
template <class T> inline f64 round_number(T x, i64 digits, enable_if_t<(T(0.5) != T(0)), int> = 0) {
  return digits == 0 ? static_cast<f64>(__builtin_rint(static_cast<f64>(x))) : round_ndigits(static_cast<f64>(x), digits);
}
template <class T> inline i64 round_number(T x, i64 digits, enable_if_t<(T(0.5) == T(0)), int> = 0) {
  if (digits == 0) return static_cast<i64>(x);
  f64 r = round_ndigits(static_cast<f64>(x), digits);
  // int() of what does not fit (a NaN from a huge negative digit count): x86's integer
  // indefinite, as Numba's fptosi gives there.
  return r != r || r >= 9.2233720368547758e18 || r < -9.2233720368547758e18 ? static_cast<i64>(1ULL << 63)
                                                                             : static_cast<i64>(r);
}
template <class F> inline complex<f64> round_number(const complex<F>& z, i64 digits) {
  return complex<f64>(round_number(z.re, digits), round_number(z.im, digits));
}

// a.item(): the one element of an array of size 1 (Numba's ValueError otherwise).
template <class T, int N, Layout L> T item(const char* file, int line, const Array<T, N, L>& a) {
  if (size(a) != 1)
    report_failure(file, line, "ValueError", "item(): can only convert an array of size 1 to a Python scalar");
  return *a.data;
}

}  // namespace misc
}  // namespace pk
#define PK_ITEM(...) (::pk::misc::item(__FILE__, __LINE__, __VA_ARGS__))
#define PK_TRANSPOSE_AXES(...) (::pk::misc::transpose_axes(__FILE__, __LINE__, __VA_ARGS__))
#define PK_SWAPAXES(...) (::pk::misc::swapaxes(__FILE__, __LINE__, __VA_ARGS__))
#define PK_MOVEAXIS(...) (::pk::misc::moveaxis(__FILE__, __LINE__, __VA_ARGS__))
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_NUMPY_MISC_CUH
