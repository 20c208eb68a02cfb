// pykern runtime: np.histogram's two loops over a contiguous run of elements (sorting.cuh's
// histogram calls them; other views walk element by element there), with Numba's results and
// fewer cycles an element:
//   - the range, when none is given: Numba's `if bin_min > v: bin_min = v` (and the max), a
//     chain of one scalar compare-and-select per element, here kept in vectors of lanes that
//     follow the same rule (a NaN never replaces); equal values differ only in a zero's sign,
//     so a zero result is looked up again in order, as Numba's loop keeps the first zero met;
//   - the counts: each element's bin computed for a block of elements at a time (a loop the
//     compiler vectorises: subtract, multiply, compare, convert), then counted, so the counting
//     loop holds only the increments. The counts are integers: any order gives the same.
// Host builds only, like sorting.cuh.
#ifndef PYKERN_HISTOGRAM_LOOPS_CUH
#define PYKERN_HISTOGRAM_LOOPS_CUH
#include "pykern/reductions.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
namespace histogram_loops {

// The smallest and largest of p[0..n) as float64, NaNs skipped, as Numba's loop finds them:
// +inf and -inf when every element is a NaN (or n is 0).
template <class T> inline void range_of_run(const T* p, i64 n, f64& lo, f64& hi) {
  lo = inf<f64>();
  hi = -inf<f64>();
  i64 i = 0;
  if constexpr (reduce::lane_number<T>::value) {
    using V = reduce::lanes<T>;
    constexpr int chains = 4;  // accumulators, to overlap a compare-and-select's latency
    constexpr i64 step = chains * V::width;
    if (n >= step) {
      // Seeds no element can lose to: infinities for floats, the first element for integers.
      T low_seed = p[0], high_seed = p[0];
      if constexpr (static_cast<T>(0.5) != T(0)) low_seed = inf<T>(), high_seed = -inf<T>();
      typename V::vector low[chains], high[chains];
      for (int c = 0; c < chains; ++c) low[c] = V::splat(low_seed), high[c] = V::splat(high_seed);
      for (; i + step <= n; i += step)
        for (int c = 0; c < chains; ++c) {
          typename V::vector v = V::load(p + i + c * V::width);
          low[c] = v < low[c] ? v : low[c];  // a NaN lane of v compares false: kept out
          high[c] = v > high[c] ? v : high[c];
        }
      for (int c = 0; c < chains; ++c)
        for (int k = 0; k < V::width; ++k) {
          f64 l = static_cast<f64>(low[c][k]), h = static_cast<f64>(high[c][k]);
          if (lo > l) lo = l;
          if (hi < h) hi = h;
        }
    }
  }
  for (; i < n; ++i) {
    f64 x = static_cast<f64>(p[i]);
    if (lo > x) lo = x;
    if (hi < x) hi = x;
  }
  // Numba's loop keeps the first element equal to each extreme; only zeros differ when equal.
  if (lo == 0.0 || hi == 0.0) {
    bool low_zero = lo == 0.0, high_zero = hi == 0.0;
    for (i64 k = 0; k < n; ++k)
      if (static_cast<f64>(p[k]) == 0.0) {
        if (low_zero) lo = static_cast<f64>(p[k]);
        if (high_zero) hi = static_cast<f64>(p[k]);
        break;
      }
  }
}

// Counts p[0..n) into counts[0..bins). Numba's bin is b = floor(y) for y = (v - lo) * ratio
// (position(v) gives y), counted where 0 <= b < bins; since bins is a whole number, that is
// 0 <= y < bins, and then b is y truncated: no floor, which g++ leaves out of vector loops.
// An element outside equal to the top edge (top(v)) counts in the last bin.
template <class T, class Position, class Top>
inline void count_run(const T* p, i64 n, i64 bins, i64* counts, Position position, Top top) {
  constexpr i64 block = 256;
  i64 at[block];
  const f64 limit = static_cast<f64>(bins);
  for (i64 start = 0; start < n; start += block) {
    const i64 m = n - start < block ? n - start : block;
    const T* q = p + start;
    for (i64 k = 0; k < m; ++k) {
      const f64 y = position(q[k]);
      const bool inside = (0.0 <= y) & (y < limit);  // no branch: the loop stays one of vectors
      at[k] = static_cast<i64>(inside ? y : -1.0);
    }
    for (i64 k = 0; k < m; ++k) {
      if (at[k] >= 0) ++counts[at[k]];
      else if (top(q[k])) ++counts[bins - 1];
    }
  }
}

}  // namespace histogram_loops
}  // namespace pk
#endif
#endif  // PYKERN_HISTOGRAM_LOOPS_CUH
