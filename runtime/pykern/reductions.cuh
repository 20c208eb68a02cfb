// pykern runtime: NumPy's whole-array reductions and predicates in @jit functions on the host
// (np.sum, a.mean(), np.argmin, np.median, np.all, ...), computed as Numba's CPU target computes
// them (numba/np/arraymath.py): the same order of elements, accumulator types, NaN rules and
// errors. Host builds only: sema refuses them in kernels, as numba-cuda does.
//
// Orders: Numba's np.nditer and its sum's order='K' walk an array typed F-contiguous in memory
// order (first axis fastest) and every other array in C order; .flat (argmin, argmax, median's
// copy) is always C order. Float sums are plain loops in that order (no pairwise summation), so
// results match Numba's bit for bit.
//
// Each reduction is a small function object made at the call's Python line (PK_REDUCTION), so
// that an error names that line; the result type is sema's, passed as `like` where it is not the
// element type.
#ifndef PYKERN_REDUCTIONS_CUH
#define PYKERN_REDUCTIONS_CUH
#include "pykern/array.cuh"
#include "pykern/complex.cuh"
#include "pykern/errors.cuh"
#include "pykern/math.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
namespace reduce {

// Calls visit(element) for each element in C order (or, with FortranOrder, first axis
// fastest) until it returns false; returns whether it ran to the end.
template <bool FortranOrder, class T, int N, Layout L, class Visit>
inline bool each(const Array<T, N, L>& a, Visit&& visit) {
  if constexpr (N == 0) {
    return visit(*a.data);
  } else {
  if (size(a) == 0) return true;
  const int inner = FortranOrder ? 0 : N - 1;
  const i64 inner_extent = a.shape[inner], inner_stride = a.stride(inner);
  i64 index[N] = {};
  const char* base = reinterpret_cast<const char*>(a.data);
  for (;;) {
    const char* p = base;
    for (i64 i = 0; i < inner_extent; ++i, p += inner_stride)
      if (!visit(*reinterpret_cast<const T*>(p))) return false;
    // The odometer over the other axes, the one next to the inner axis fastest.
    int axis = FortranOrder ? 1 : N - 2;
    for (;; axis += FortranOrder ? 1 : -1) {
      if (axis < 0 || axis >= N) return true;
      base += a.stride(axis);
      if (++index[axis] < a.shape[axis]) break;
      base -= a.stride(axis) * a.shape[axis];
      index[axis] = 0;
    }
  }
  }
}
// np.nditer's order (and sum's order='K'): memory order for F arrays, else C order.
template <class T, int N, Layout L, class Visit> inline bool nditer(const Array<T, N, L>& a, Visit&& visit) {
  return each<L == layout_f && (N > 1)>(a, visit);
}
template <class T, int N, Layout L, class Visit> inline bool flat(const Array<T, N, L>& a, Visit&& visit) {
  return each<false>(a, visit);
}

template <class T> inline bool is_nan(const T& v) { return v != v; }
template <class T> inline bool is_nan(const complex<T>& z) { return z.re != z.re || z.im != z.im; }
template <class T> inline bool truthy(const T& v) { return v != T(0); }
template <class T> inline bool truthy(const complex<T>& z) { return z.re != T(0) || z.im != T(0); }
template <class T> inline T square_magnitude(const T& v) { return v * v; }
template <class T> inline T square_magnitude(const complex<T>& z) { return z.re * z.re + z.im * z.im; }
template <class R> struct not_a_number { static R value() { return R(nan<f64>()); } };
template <class T> struct not_a_number<complex<T>> {
  static complex<T> value() { return complex<T>(nan<T>(), nan<T>()); }
};
// A sum divided by a count, as Numba divides: a float by an int in float64 (then converted to
// R), a complex by the count as a complex.
template <class R, class C> inline R divide(C total, i64 n) { return static_cast<R>(static_cast<f64>(total) / static_cast<f64>(n)); }
template <class R, class T> inline R divide(complex<T> total, i64 n) {
  return R(complex<f64>(total) / complex<f64>(static_cast<f64>(n)));
}

// The mean as Numba's a.mean() computes it: an accumulator of the result's type (float64 for
// integers and booleans), NaN for an empty array.
template <class R, class T, int N, Layout L> inline R mean_of(const Array<T, N, L>& a) {
  i64 n = size(a);
  if (n == 0) return not_a_number<R>::value();
  R total = R(0);
  nditer(a, [&](const T& v) { total = total + R(v); return true; });
  return divide<R>(total, n);
}

// Numba's median: Hoare partitioning around the median of three, then selection; NaN compares
// false everywhere, so with NaNs the result is whatever that scheme leaves, as in Numba.
template <class T> inline i64 partition(T* v, i64 low, i64 high) {
  auto swap = [&](i64 i, i64 j) { T t = v[i]; v[i] = v[j]; v[j] = t; };
  i64 mid = (low + high) >> 1;
  if (v[mid] < v[low]) swap(low, mid);
  if (v[high] < v[mid]) swap(high, mid);
  if (v[mid] < v[low]) swap(low, mid);
  T pivot = v[mid];
  swap(high, mid);
  i64 i = low, j = high - 1;
  for (;;) {
    while (i < high && v[i] < pivot) ++i;
    while (j >= low && pivot < v[j]) --j;
    if (i >= j) break;
    swap(i, j);
    ++i;
    --j;
  }
  swap(i, high);
  return i;
}
template <class T> inline T select(T* v, i64 k, i64 low, i64 high) {
  i64 i = partition(v, low, high);
  while (i != k) {
    if (i < k) low = i + 1;
    else high = i - 1;
    i = partition(v, low, high);
  }
  return v[k];
}
// The k'th and k+1'th smallest of v[low..high], as Numba's _select_two finds them.
template <class T> inline void select_two(T* v, i64 k, i64 low, i64 high) {
  for (;;) {
    i64 i = partition(v, low, high);
    if (i < k) {
      low = i + 1;
    } else if (i > k + 1) {
      high = i - 1;
    } else if (i == k) {
      select(v, k + 1, i + 1, high);
      return;
    } else {
      select(v, k, low, i - 1);
      return;
    }
  }
}
// ---- whole-array min, max, argmin, argmax over one run of memory, in vectors ----
// Numba's loops compare element by element (floats with a NaN test first, which LLVM leaves
// scalar); these give the same element: the first NaN met, else the first element equal to the
// extreme. Each vector lane keeps `v < lane ? v : lane` (minpd's own rule) and a block's NaNs
// are noted; equal values differ only in a zero's sign, so a zero result is looked up again in
// order. g++ does not vectorise these loops from scalar code (the NaN test, the float select),
// so they are written with GNU vector types (g++ and clang++ both take them).

// The element types the vectors take: numbers the compiler compares natively (not bool, not
// half floats).
template <class T> struct lane_number { static constexpr bool value = false; };
#define PK_LANE_NUMBER(T) template <> struct lane_number<T> { static constexpr bool value = true; };
PK_LANE_NUMBER(i8) PK_LANE_NUMBER(i16) PK_LANE_NUMBER(i32) PK_LANE_NUMBER(i64)
PK_LANE_NUMBER(u8) PK_LANE_NUMBER(u16) PK_LANE_NUMBER(u32) PK_LANE_NUMBER(u64) PK_LANE_NUMBER(f32) PK_LANE_NUMBER(f64)
#undef PK_LANE_NUMBER

// One register of T: AVX-512's 64 bytes, AVX's 32, else SSE's (or NEON's) 16. Never wider than
// the target's registers: a wider vector passed by value changes the ABI (g++'s -Wpsabi).
#if defined(__AVX512F__)
constexpr int vector_bytes = 64;
#elif defined(__AVX__)
constexpr int vector_bytes = 32;
#else
constexpr int vector_bytes = 16;
#endif
template <class T> struct lanes {
  typedef T vector __attribute__((vector_size(vector_bytes)));
  static constexpr int width = vector_bytes / sizeof(T);
  static vector load(const T* p) {
    vector v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
  }
  static vector splat(T x) {
    vector v;
    for (int k = 0; k < width; ++k) v[k] = x;
    return v;
  }
  template <class Mask> static bool any(const Mask& m) {
    bool hit = false;
    for (int k = 0; k < width; ++k) hit |= m[k] != 0;
    return hit;
  }
};

// The elements in `FortranOrder`'s order (see each()) as one run of memory from a.data, when they
// lie so (axes of extent 1 aside), else null.
template <bool FortranOrder, class T, int N, Layout L> inline const T* run_of(const Array<T, N, L>& a) {
  if constexpr (N == 0) {
    return nullptr;
  } else {
    i64 expected = static_cast<i64>(sizeof(T));
    for (int k = 0; k < N; ++k) {
      int axis = FortranOrder ? k : N - 1 - k;
      if (a.shape[axis] != 1 && a.stride(axis) != expected) return nullptr;
      expected *= a.shape[axis];
    }
    return a.data;
  }
}
template <class T, int N, Layout L> inline const T* nditer_run(const Array<T, N, L>& a) {
  return run_of<L == layout_f && (N > 1)>(a);
}
template <class T, int N, Layout L> inline const T* flat_run(const Array<T, N, L>& a) { return run_of<false>(a); }

// v beats best: v < best for a minimum, v > best for a maximum (of numbers or of vectors).
template <bool Max, class V> inline auto beats(const V& v, const V& best) {
  if constexpr (Max) return v > best;
  else return v < best;
}

// Vectors read between two tests of a mask: reading a vector's lanes out costs more than
// comparing several vectors.
constexpr int vectors_per_test = 8;

// The index of the first of p[0..n) that `match` takes (n when none), a group of vectors at a
// time; `match` takes a number or a vector.
template <class T, class Match> inline i64 first_match(const T* p, i64 n, Match match) {
  using V = lanes<T>;
  constexpr int step = vectors_per_test * V::width;
  i64 i = 0;
  for (; i + step <= n; i += step) {
    auto hit = match(V::load(p + i));
    for (int g = 1; g < vectors_per_test; ++g) hit |= match(V::load(p + i + g * V::width));
    if (V::any(hit)) break;
  }
  for (; i < n; ++i)
    if (match(p[i])) return i;
  return n;
}

// The minimum (Max: maximum) of p[0..n), n > 0, as Numba's loop finds it: the first NaN, else
// the first element equal to the extreme.
template <bool Max, class T> inline T extreme_of_run(const T* p, i64 n) {
  if constexpr (static_cast<T>(0.5) == T(0)) {
    // Integers: no NaN, and equal is identical; g++ vectorises this loop itself (vpminsd).
    T best = p[0];
    for (i64 i = 1; i < n; ++i) best = beats<Max>(p[i], best) ? p[i] : best;
    return best;
  }
  using V = lanes<T>;
  constexpr int chains = 4;  // accumulators, to overlap the latency of a compare and a select
  typename V::vector best_of[chains];
  for (int c = 0; c < chains; ++c) best_of[c] = V::splat(p[0]);
  constexpr int step = vectors_per_test * V::width;
  i64 i = 0;
  for (; i + step <= n; i += step) {
    auto nan = best_of[0] != best_of[0];  // all false
    for (int g = 0; g < vectors_per_test; ++g) {
      typename V::vector v = V::load(p + i + g * V::width);
      typename V::vector& b = best_of[g % chains];
      b = beats<Max>(v, b) ? v : b;
      nan |= v != v;
    }
    if (V::any(nan)) break;  // the loop below meets the NaN
  }
  T best = p[0];
  for (int c = 0; c < chains; ++c)
    for (int k = 0; k < V::width; ++k)
      if (beats<Max>(best_of[c][k], best)) best = best_of[c][k];
  for (; i < n; ++i) {
    T v = p[i];
    if (v != v) return v;
    if (beats<Max>(v, best)) best = v;
  }
  if (best == T(0)) best = p[first_match(p, n, [&](const auto& v) { return v == best; })];  // +0.0 or -0.0
  return best;
}

// The index of the minimum (Max: maximum) of p[0..n), n > 0: the first NaN's, else the first
// element's equal to the extreme.
template <bool Max, class T> inline i64 argextreme_of_run(const T* p, i64 n) {
  T best = extreme_of_run<Max>(p, n);
  if (best != best) return first_match(p, n, [](const auto& v) { return v != v; });
  return first_match(p, n, [&](const auto& v) { return v == best; });
}

// What Numba's a + b gives for two elements: integers (and booleans) in 64 bits, floats in their
// own type.
template <class T> struct pair_sum { using type = T; };
template <> struct pair_sum<bool> { using type = i64; };
template <> struct pair_sum<i8> { using type = i64; };
template <> struct pair_sum<i16> { using type = i64; };
template <> struct pair_sum<i32> { using type = i64; };
template <> struct pair_sum<u8> { using type = u64; };
template <> struct pair_sum<u16> { using type = u64; };
template <> struct pair_sum<u32> { using type = u64; };

// The median of v[0..n) (n > 0), selected in place as Numba's _median_inner selects it.
template <class T> inline f64 median_in_place(T* v, i64 n) {
  i64 half = n >> 1;
  if (n % 2 == 1) return static_cast<f64>(select(v, half, 0, n - 1));
  select_two(v, half - 1, 0, n - 1);
  // Numba adds the two as Python adds them (integers in 64 bits) and divides as floats.
  using Sum = typename pair_sum<T>::type;
  return static_cast<f64>(static_cast<Sum>(static_cast<Sum>(v[half - 1]) + static_cast<Sum>(v[half]))) / 2.0;
}

}  // namespace reduce

// Where the call is, for its errors.
struct reduction_site {
  const char* file;
  int line;
};

// np.sum(a), a.sum(): R is NumPy's accumulator type (int64 for booleans and narrower signed
// integers, uint64 for narrower unsigned ones, else the dtype); it wraps as Numba's does.
struct array_sum : reduction_site {
  template <class R, class T, int N, Layout L> R operator()(R, const Array<T, N, L>& a) const {
    R total = R(0);
    reduce::nditer(a, [&](const T& v) { total = total + R(v); return true; });
    return total;
  }
};
// np.nansum(a): the sum of the elements that are not NaN.
struct array_nansum : reduction_site {
  template <class R, class T, int N, Layout L> R operator()(R, const Array<T, N, L>& a) const {
    R total = R(0);
    reduce::nditer(a, [&](const T& v) { if (!reduce::is_nan(v)) total = total + R(v); return true; });
    return total;
  }
};
// np.prod(a), a.prod(): as the sum, multiplied from 1.
struct array_prod : reduction_site {
  template <class R, class T, int N, Layout L> R operator()(R, const Array<T, N, L>& a) const {
    R product = R(1);
    reduce::nditer(a, [&](const T& v) { product = product * R(v); return true; });
    return product;
  }
};
// np.mean(a), a.mean(): float64 for integers and booleans, else the dtype; NaN when empty.
struct array_mean : reduction_site {
  template <class R, class T, int N, Layout L> R operator()(R, const Array<T, N, L>& a) const {
    return reduce::mean_of<R>(a);
  }
};
// np.nanmean(a): float64 (complex128 for complex) over the elements that are not NaN; NaN when
// there are none.
struct array_nanmean : reduction_site {
  template <class R, class T, int N, Layout L> R operator()(R, const Array<T, N, L>& a) const {
    R total = R(0);
    i64 count = 0;
    reduce::nditer(a, [&](const T& v) {
      if (!reduce::is_nan(v)) total = total + R(v), ++count;
      return true;
    });
    return reduce::divide<R>(total, count);
  }
};
// np.var(a), a.var() (ddof 0): float64; the squared deviations from the mean (in the mean's type)
// summed in float64. An empty array divides by zero: ZeroDivisionError, as Numba's.
struct array_var : reduction_site {
  template <class M, class T, int N, Layout L> f64 operator()(M, const Array<T, N, L>& a) const {
    M mean = reduce::mean_of<M>(a);
    f64 total = 0;
    reduce::nditer(a, [&](const T& v) {
      M deviation = M(v) - mean;
      total += static_cast<f64>(reduce::square_magnitude(deviation));
      return true;
    });
    i64 n = size(a);
    if (n == 0) report_failure(file, line, "ZeroDivisionError", "division by zero");
    return total / static_cast<f64>(n);
  }
};
// np.std(a), a.std(): the variance ** 0.5, as Numba computes it.
struct array_std : reduction_site {
  template <class M, class T, int N, Layout L> f64 operator()(M like, const Array<T, N, L>& a) const {
    return __builtin_pow(array_var{{file, line}}(like, a), 0.5);
  }
};

// np.min/np.amin/a.min() and the max forms: the first NaN met (nditer order) is the result;
// an empty array is NumPy's ValueError.
template <bool Max> struct array_extreme : reduction_site {
  template <class T, int N, Layout L> T operator()(const Array<T, N, L>& a) const {
    if (size(a) == 0)
      report_failure(file, line, "ValueError",
                     Max ? "zero-size array to reduction operation maximum which has no identity"
                         : "zero-size array to reduction operation minimum which has no identity");
    if constexpr (reduce::lane_number<T>::value)
      if (const T* run = reduce::nditer_run(a)) return reduce::extreme_of_run<Max>(run, size(a));
    bool first = true;
    T best{};
    reduce::nditer(a, [&](const T& v) {
      if (reduce::is_nan(v)) {
        best = v;
        return false;
      }
      if (first || (Max ? v > best : v < best)) best = v;
      first = false;
      return true;
    });
    return best;
  }
};
using array_min = array_extreme<false>;
using array_max = array_extreme<true>;

// np.nanmin/np.nanmax: NaNs skipped (all NaN gives NaN); an empty array is Numba's ValueError.
template <bool Max> struct array_nanextreme : reduction_site {
  template <class T, int N, Layout L> T operator()(const Array<T, N, L>& a) const {
    if (size(a) == 0) report_failure(file, line, "ValueError", "zero-size array to reduction operation not possible");
    bool first = true;
    T best{};
    reduce::nditer(a, [&](const T& v) {
      // Numba keeps `best` only while it beats v, so a NaN first value gives way to a number.
      if (first) best = v;
      else if (!reduce::is_nan(v) && !(Max ? best > v : best < v)) best = v;
      first = false;
      return true;
    });
    return best;
  }
};
using array_nanmin = array_nanextreme<false>;
using array_nanmax = array_nanextreme<true>;

// np.argmin/np.argmax/a.argmin(): the index into the C-order flattening of the first extreme
// element, or of the first NaN; an empty array is Numba's ValueError.
template <bool Max> struct array_argextreme : reduction_site {
  template <class T, int N, Layout L> i64 operator()(const Array<T, N, L>& a) const {
    if (size(a) == 0)
      report_failure(file, line, "ValueError",
                     Max ? "attempt to get argmax of an empty sequence" : "attempt to get argmin of an empty sequence");
    if constexpr (reduce::lane_number<T>::value)
      if (const T* run = reduce::flat_run(a)) return reduce::argextreme_of_run<Max>(run, size(a));
    i64 index = 0, best_index = 0;
    T best{};
    reduce::flat(a, [&](const T& v) {
      if (reduce::is_nan(v)) {
        best_index = index;
        return false;
      }
      if (index == 0 || (Max ? v > best : v < best)) best = v, best_index = index;
      ++index;
      return true;
    });
    return best_index;
  }
};
using array_argmin = array_argextreme<false>;
using array_argmax = array_argextreme<true>;

// np.all / np.any / a.all() / a.any(): Python's truth of each element (NaN is true).
struct array_all : reduction_site {
  template <class T, int N, Layout L> bool operator()(const Array<T, N, L>& a) const {
    return reduce::nditer(a, [](const T& v) { return reduce::truthy(v); });
  }
};
struct array_any : reduction_site {
  template <class T, int N, Layout L> bool operator()(const Array<T, N, L>& a) const {
    return !reduce::nditer(a, [](const T& v) { return !reduce::truthy(v); });
  }
};
// np.count_nonzero(a): an int64.
struct array_count_nonzero : reduction_site {
  template <class T, int N, Layout L> i64 operator()(const Array<T, N, L>& a) const {
    i64 count = 0;
    reduce::nditer(a, [&](const T& v) { count += reduce::truthy(v) ? 1 : 0; return true; });
    return count;
  }
};

// np.median(a): float64, from a C-order copy selected in place as Numba does (the mean of the
// two middle elements, added in the dtype, for an even count); NaN for an empty array.
struct array_median : reduction_site {
  template <class T, int N, Layout L> f64 operator()(const Array<T, N, L>& a) const {
    i64 n = size(a);
    if (n == 0) return nan<f64>();
    T* copy = static_cast<T*>(__builtin_malloc(static_cast<unsigned long>(n) * sizeof(T)));
    if (!copy) report_failure(file, line, "MemoryError", "Allocation failed (probably too large).");
    i64 k = 0;
    reduce::flat(a, [&](const T& v) { copy[k++] = v; return true; });
    f64 result = reduce::median_in_place(copy, n);
    __builtin_free(copy);
    return result;
  }
};

}  // namespace pk
#define PK_REDUCTION(name) (::pk::name{{__FILE__, __LINE__}})
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_REDUCTIONS_CUH
