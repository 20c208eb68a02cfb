// pykern runtime: NumPy's order statistics and NaN-skipping moments in @jit functions on the
// host, as Numba's CPU target computes them (numba/np/arraymath.py): np.ptp, np.nanprod,
// np.nanvar/np.nanstd (with ddof), np.nanmedian and np.percentile/np.nanpercentile/
// np.quantile/np.nanquantile with a number or an array of q. Host builds only.
#ifndef PYKERN_STATISTICS_CUH
#define PYKERN_STATISTICS_CUH
#include "pykern/owned_array.cuh"
#include "pykern/reductions.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
namespace reduce {

// A scratch buffer of n elements, freed when it goes out of scope.
template <class T> struct Scratch {
  T* items;
  Scratch(const char* file, int line, i64 n) {
    items = static_cast<T*>(__builtin_malloc(static_cast<unsigned long>(n > 0 ? n : 1) * sizeof(T)));
    if (!items) report_failure(file, line, "MemoryError", "Allocation failed (probably too large).");
  }
  ~Scratch() { __builtin_free(items); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

inline bool is_finite(f64 v) { return v - v == 0.0; }

// Numba's _collect_percentiles_inner for one percentile p (0..100) of v[0..n) (no NaN; n > 1):
// the extremes directly (with NumPy's heuristics for infinities), else linear interpolation
// between the two closest ranks, selected in place.
inline f64 percentile_of(const char* file, int line, f64* v, i64 n, f64 p) {
  bool all_finite = true;
  for (i64 i = 0; i < n; ++i) all_finite &= is_finite(v[i]);
  if (p == 100) {
    if (n == 0) report_failure(file, line, "ValueError", "zero-size array to reduction operation maximum which has no identity");
    f64 best = v[0];
    for (i64 i = 1; i < n; ++i) if (v[i] > best) best = v[i];
    return !all_finite && !is_finite(best) ? nan<f64>() : best;
  }
  if (p == 0) {
    if (n == 0) report_failure(file, line, "ValueError", "zero-size array to reduction operation minimum which has no identity");
    f64 best = v[0];
    for (i64 i = 1; i < n; ++i) if (v[i] < best) best = v[i];
    if (all_finite) return best;
    i64 positive = 0, negative = 0;
    for (i64 i = 0; i < n; ++i) positive += v[i] == __builtin_inf(), negative += v[i] == -__builtin_inf();
    i64 finite = n - (negative + positive);
    if (finite == 0 || (positive == 1 && n == 2) || negative > 1 || (finite == 1 && positive > 1 && negative != 1))
      return nan<f64>();
    return best;
  }
  // _select_two asserts high > low.
  if (n < 2) report_failure(file, line, "AssertionError", "");
  f64 rank = 1 + static_cast<f64>(n - 1) * (p / 100.0);
  i64 floor = static_cast<i64>(__builtin_floor(rank));
  f64 m = rank - static_cast<f64>(floor);
  select_two(v, floor - 1, 0, n - 1);
  return v[floor - 1] * (1 - m) + v[floor] * m;
}

}  // namespace reduce

// np.ptp(a): max - min over the C-order flattening, R the result (float64 for floats, int64 for
// signed integers: Numba subtracts in its arithmetic); the first NaN is the result; an empty
// array is Numba's ValueError.
struct array_ptp : reduction_site {
  template <class R, class T, int N, Layout L> R operator()(R, const Array<T, N, L>& a) const {
    if (size(a) == 0) report_failure(file, line, "ValueError", "zero-size array reduction not possible");
    bool first = true, met_nan = false;
    T low{}, high{};
    reduce::flat(a, [&](const T& v) {
      if (reduce::is_nan(v)) {
        met_nan = true;
        return false;
      }
      if (first || v > high) high = v;
      if (first || v < low) low = v;
      first = false;
      return true;
    });
    if (met_nan) return R(nan<f64>());
    using Difference = typename reduce::pair_sum<T>::type;
    return R(static_cast<Difference>(static_cast<Difference>(high) - static_cast<Difference>(low)));
  }
  // Complex numbers as Numba's np_ptp takes them: the largest and smallest by real part, then
  // imaginary part; the first element whose real part is NaN ends it, nan+0j (nan+nanj when its
  // imaginary part is NaN too). A NaN imaginary part alone compares false, as it does there.
  template <class R, class T, int N, Layout L> R operator()(R, const Array<complex<T>, N, L>& a) const {
    if (size(a) == 0) report_failure(file, line, "ValueError", "zero-size array reduction not possible");
    bool first = true;
    R stop{};
    complex<T> low{}, high{};
    reduce::flat(a, [&](const complex<T>& v) {
      if (v.re != v.re) {
        stop = R(nan<f64>(), v.im != v.im ? nan<f64>() : 0.0);
        return false;
      }
      if (first) low = high = v;
      if (v.re > high.re || (v.re == high.re && v.im > high.im)) high = v;
      if (v.re < low.re || (v.re == low.re && v.im < low.im)) low = v;
      first = false;
      return true;
    });
    if (stop.re != stop.re) return stop;
    T re = high.re - low.re, im = high.im - low.im;  // in the elements' type, then widened, as Numba's
    return R(static_cast<f64>(re), static_cast<f64>(im));
  }
};

// np.nanprod(a): the product (in the accumulator R) of the elements that are not NaN.
struct array_nanprod : reduction_site {
  template <class R, class T, int N, Layout L> R operator()(R, const Array<T, N, L>& a) const {
    R product = R(1);
    reduce::nditer(a, [&](const T& v) { if (!reduce::is_nan(v)) product = product * R(v); return true; });
    return product;
  }
};

// np.nanvar(a, ddof=0): float64; the squared deviations of the non-NaN elements from their
// mean, over count - ddof (NaN when count <= ddof). np.nanstd: its ** 0.5.
struct array_nanvar : reduction_site {
  template <class T, int N, Layout L> f64 operator()(const Array<T, N, L>& a, i64 ddof) const {
    f64 total = 0;
    i64 count = 0;
    reduce::nditer(a, [&](const T& v) {
      if (!reduce::is_nan(v)) total += static_cast<f64>(v), ++count;
      return true;
    });
    f64 mean = total / static_cast<f64>(count);
    f64 squares = 0;
    reduce::nditer(a, [&](const T& v) {
      if (!reduce::is_nan(v)) {
        f64 d = static_cast<f64>(v) - mean;
        squares += d * d;
      }
      return true;
    });
    if (count <= ddof) return nan<f64>();
    return squares / static_cast<f64>(count - ddof);
  }
  // Complex elements as Numba's nanvar takes them: the squared magnitudes of the deviations from
  // the complex nanmean (summed in complex128), an element NaN when either part is.
  template <class T, int N, Layout L> f64 operator()(const Array<complex<T>, N, L>& a, i64 ddof) const {
    complex<f64> total(0.0, 0.0);
    i64 count = 0;
    auto is_nan = [](const complex<T>& v) { return v.re != v.re || v.im != v.im; };
    reduce::nditer(a, [&](const complex<T>& v) {
      if (!is_nan(v)) total.re += static_cast<f64>(v.re), total.im += static_cast<f64>(v.im), ++count;
      return true;
    });
    complex<f64> mean(total.re / static_cast<f64>(count), total.im / static_cast<f64>(count));
    f64 squares = 0;
    reduce::nditer(a, [&](const complex<T>& v) {
      if (!is_nan(v)) {
        f64 re = static_cast<f64>(v.re) - mean.re, im = static_cast<f64>(v.im) - mean.im;
        squares += re * re + im * im;
      }
      return true;
    });
    if (count <= ddof) return nan<f64>();
    return squares / static_cast<f64>(count - ddof);
  }
};
struct array_nanstd : reduction_site {
  template <class T, int N, Layout L> f64 operator()(const Array<T, N, L>& a, i64 ddof) const {
    return __builtin_pow(array_nanvar{{file, line}}(a, ddof), 0.5);
  }
};

// np.nanmedian(a): float64, the median of the non-NaN elements (nditer order, selected in place
// as np.median); NaN when there are none.
struct array_nanmedian : reduction_site {
  template <class T, int N, Layout L> f64 operator()(const Array<T, N, L>& a) const {
    reduce::Scratch<T> kept(file, line, size(a));
    i64 n = 0;
    reduce::nditer(a, [&](const T& v) {
      if (!reduce::is_nan(v)) kept.items[n++] = v;
      return true;
    });
    if (n == 0) return nan<f64>();
    return reduce::median_in_place(kept.items, n);
  }
};

// np.percentile(a, q) and its NaN-skipping and quantile forms (Factor 1 for percentiles, 100
// for quantiles): each q checked against [0, 100 / Factor]; the elements as float64 in C order;
// with a NaN among them (or all NaN when skipping) every result is NaN, as Numba's.
template <bool SkipNan, int Factor> struct array_percentile : reduction_site {
  // One q: a float64.
  template <class T, int N, Layout L> f64 operator()(const Array<T, N, L>& a, f64 q) const {
    f64 result;
    collect(a, &q, 1, &result);
    return result;
  }
  // An array of q: a new 1-D float64 array, one result per q in C order.
  template <class T, int N, Layout L, class Q, int M, Layout K>
  OwnedArray<f64, 1, layout_c> operator()(const Array<T, N, L>& a, const Array<Q, M, K>& q) const {
    const i64 shape[1] = {size(q)};
    reduce::Scratch<f64> qs(file, line, shape[0]);
    i64 k = 0;
    reduce::flat(q, [&](const Q& v) { qs.items[k++] = static_cast<f64>(v); return true; });
    auto out = new_array<f64, 1, layout_c>(file, line, shape);
    collect(a, qs.items, shape[0], out.data);
    return out;
  }

 private:
  template <class T, int N, Layout L> void collect(const Array<T, N, L>& a, const f64* q, i64 count, f64* out) const {
    const f64 upper = Factor == 1 ? 100.0 : 1.0;
    for (i64 i = 0; i < count; ++i)
      if (q[i] < 0.0 || q[i] > upper || q[i] != q[i])
        report_failure(file, line, "ValueError",
                       Factor == 1 ? "Percentiles must be in the range [0, 100]" : "Quantiles must be in the range [0, 1]");
    reduce::Scratch<f64> v(file, line, size(a));
    i64 n = 0;
    bool met_nan = false;
    reduce::flat(a, [&](const T& x) {
      f64 value = static_cast<f64>(x);
      if (value != value) met_nan = true;
      else v.items[n++] = value;
      return true;
    });
    bool can = SkipNan ? n > 0 : !met_nan;
    if (can && n == 1) can = reduce::is_finite(v.items[0]);
    for (i64 i = 0; i < count; ++i) {
      f64 p = q[i] * static_cast<f64>(Factor == 1 ? 1.0 : 100.0);
      out[i] = !can ? nan<f64>() : n == 1 ? v.items[0] : reduce::percentile_of(file, line, v.items, n, p);
    }
  }
};
using array_percentile_q = array_percentile<false, 1>;
using array_nanpercentile = array_percentile<true, 1>;
using array_quantile = array_percentile<false, 100>;
using array_nanquantile = array_percentile<true, 100>;

// np.average(a, weights=w) as Numba computes it: np.sum(np.multiply(a, w)) / np.sum(w). P is
// the product's element type (NumPy's promotion of the two dtypes), S its accumulator, V the
// weights' accumulator, R the quotient's type. The products are summed in the C order of their
// broadcast shape; weights of another shape must be 1-D and broadcast along a's last axis
// (Numba's TypeError, or its broadcasting ValueError, otherwise); weights summing to zero are
// its ZeroDivisionError.
struct array_average : reduction_site {
  template <class R, class P, class S, class V, class T, int N, Layout L, class W, int M, Layout K>
  R operator()(R, P, S, V, const Array<T, N, L>& a, const Array<W, M, K>& w) const {
    bool same = N == M;
    for (int d = 0; same && d < N; ++d) same = a.shape[d] == w.shape[d < M ? d : 0];
    if (!same && M != 1)
      report_failure(file, line, "TypeError", "1D weights expected when shapes of a and weights differ.");
    const i64 last = a.shape[N - 1], count = w.shape[0];
    if (!same && last != count && last != 1 && count != 1)
      report_failure(file, line, "ValueError", "unable to broadcast argument 1 to output array");
    V weights_total = array_sum{{file, line}}(V(0), w);
    if (weights_total == V(0))
      report_failure(file, line, "ZeroDivisionError", "Weights sum to zero, can't be normalized.");
    S total = S(0);
    auto add = [&](const T& x, const W& y) { total = total + S(P(P(x) * P(y))); };
    if (same) {
      i64 strides[M];
      for (int d = 0; d < M; ++d) strides[d] = w.stride(d);
      i64 k = 0;
      if constexpr (N == M)
        reduce::flat(a, [&](const T& x) {
          add(x, w.at_offset(flat_offset(k++, w.shape, strides)));
          return true;
        });
    } else {
      // 1-D weights along the last axis: each of a's rows meets them in order.
      const i64 stride = w.stride(0);
      i64 j = 0;
      reduce::flat(a, [&](const T& x) {
        if (last == 1) {
          for (i64 i = 0; i < count; ++i) add(x, w.at_offset(i * stride));
        } else {
          add(x, w.at_offset((count == 1 ? 0 : j) * stride));
          j = j + 1 == last ? 0 : j + 1;
        }
        return true;
      });
    }
    return static_cast<R>(static_cast<R>(total) / static_cast<R>(weights_total));
  }
};

}  // namespace pk
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_STATISTICS_CUH
