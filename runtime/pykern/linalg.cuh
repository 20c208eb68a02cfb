// pykern runtime: np.dot, `a @ b`, np.vdot, np.outer, np.trace and np.linalg in @jit functions
// on the host, computed as Numba's CPU target computes them (numba/np/linalg.py): the products
// and factorisations by the BLAS/LAPACK routines Numba calls through SciPy (gemm, gemv, dot,
// nrm2, getrf, getri, gesv, potrf, syevd/heevd, gelsd, gesdd, geqrf, orgqr/ungqr), the rest by
// the same loops, with Numba's checks, messages and result layouts. Host builds only: sema
// refuses these in kernels, as numba-cuda does.
//
// The library is found at run time by the engine (sim/blas_library.h) and each routine looked
// up through the hooks (thread.cuh), so a simulator library needs no link flags and a machine
// without BLAS fails only where a function calls one, with a message saying what to install.
// The routines are Fortran's: every argument by address, 32-bit integers (LP64), and the
// lengths of character arguments passed last, as gfortran expects.
//
// Operands in neither C nor F order are copied to C order first, as Numba's make_contiguous
// does; matrices LAPACK overwrites are copied to F order (Numba's _copy_to_fortran_order).
#ifndef PYKERN_LINALG_CUH
#define PYKERN_LINALG_CUH
#include "pykern/array.cuh"
#include "pykern/complex.cuh"
#include "pykern/errors.cuh"
#include "pykern/owned_array.cuh"
#include "pykern/reductions.cuh"
#include "pykern/thread.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
namespace linalg {

using fint = i32;              // Fortran INTEGER (LP64 libraries, as SciPy's)
using flen = unsigned long;    // a character argument's hidden length

// The element types BLAS takes: its routine prefix, and the real type of its magnitudes.
template <class T> struct kind;
template <> struct kind<f32> { static constexpr char prefix = 's'; using real = f32; static constexpr bool is_complex = false; };
template <> struct kind<f64> { static constexpr char prefix = 'd'; using real = f64; static constexpr bool is_complex = false; };
template <> struct kind<complex<f32>> { static constexpr char prefix = 'c'; using real = f32; static constexpr bool is_complex = true; };
template <> struct kind<complex<f64>> { static constexpr char prefix = 'z'; using real = f64; static constexpr bool is_complex = true; };
template <class T> using real_of = typename kind<T>::real;
template <bool B, class A, class C> struct pick { using type = A; };
template <class A, class C> struct pick<false, A, C> { using type = C; };
template <bool B, class A, class C> using pick_t = typename pick<B, A, C>::type;

struct site {
  const char* file;
  int line;

  [[noreturn]] void fail(const char* kind, const char* message) const { report_failure(file, line, kind, message); }

  // The routine named `prefix` + `rest` ("d" + "gemm_"), or `full` where given.
  template <class F> F routine(char prefix, const char* rest) const {
    char name[32];
    int k = 0;
    if (prefix) name[k++] = prefix;
    for (; *rest && k < 31; ++rest) name[k++] = *rest;
    name[k] = 0;
    return reinterpret_cast<F>(sim::hooks->linalg_routine(file, line, name));
  }

  // The same, looked up once into `slot` (a static of the caller's): the engine loads one library
  // for the process, so the address never changes, and a product of small operands (np.dot of
  // two 3-vectors in a loop) then costs the routine alone, not a symbol lookup as well.
  template <class F> F routine_once(F& slot, char prefix, const char* rest) const {
    F found = __atomic_load_n(&slot, __ATOMIC_RELAXED);
    if (!found) {
      found = routine<F>(prefix, rest);
      __atomic_store_n(&slot, found, __ATOMIC_RELAXED);
    }
    return found;
  }

  // An extent as a Fortran integer: Numba's OverflowError past a C int.
  fint to_fint(i64 n) const {
    if (n > 2147483647LL) fail("OverflowError", "array size too large to fit in C int");
    return static_cast<fint>(n);
  }
};

template <class T> inline T magnitude(const T& v) { return v < T(0) ? -v : v; }
template <class T> inline T magnitude(const complex<T>& z) {
  if constexpr (sizeof(T) == 4) return __builtin_hypotf(z.re, z.im);
  else return __builtin_hypot(z.re, z.im);
}
template <class T> inline bool finite(const T& v) { return v - v == T(0); }
template <class T> inline bool finite(const complex<T>& z) { return finite(z.re) && finite(z.im); }
template <class T> inline T log_of(T v) {
  if constexpr (sizeof(T) == 4) return __builtin_logf(v);
  else return __builtin_log(v);
}
// A LAPACK workspace size, as the query returned it in work[0].
template <class T> inline fint workspace_size(const T& v) { return static_cast<fint>(v); }
template <class T> inline fint workspace_size(const complex<T>& z) { return static_cast<fint>(z.re); }

template <class T> using Vector = OwnedArray<T, 1, layout_c>;
template <class T> using FMatrix = OwnedArray<T, 2, layout_f>;
template <class T> using CMatrix = OwnedArray<T, 2, layout_c>;

template <class T> Vector<T> new_vector(const site& s, i64 n) {
  const i64 shape[1] = {n};
  return new_array<T, 1, layout_c>(s.file, s.line, shape);
}
template <class T, Layout L> OwnedArray<T, 2, L> new_matrix(const site& s, i64 rows, i64 cols) {
  const i64 shape[2] = {rows, cols};
  return new_array<T, 2, L>(s.file, s.line, shape);
}
template <class T, int N, Layout L> void zero(const OwnedArray<T, N, L>& a) {
  if (a.storage->bytes > 0) __builtin_memset(static_cast<void*>(a.data), 0, static_cast<unsigned long>(a.storage->bytes));
}

// Element (i, j) of any 2-D view.
template <class T, Layout L> inline const T& at(const Array<T, 2, L>& a, i64 i, i64 j) {
  return a.at_offset(i * a.stride(0) + j * a.stride(1));
}

// Whether a view's elements lie one after another in C (or F) order; the stride of an axis of
// extent 1 does not matter, as NumPy's flags say.
template <class T, int N, Layout L> bool contiguous(const Array<T, N, L>& a, bool fortran) {
  i64 expected = static_cast<i64>(sizeof(T));
  for (int k = 0; k < N; ++k) {
    int axis = fortran ? k : N - 1 - k;
    if (a.shape[axis] != 1 && a.stride(axis) != expected) return false;
    expected *= a.shape[axis];
  }
  return true;
}

// A vector's elements one after another: the view's own, or a copy of them.
template <class T> struct UnitVector {
  const T* data;
  Vector<T> copy;
};
template <class T, Layout L> UnitVector<T> unit_vector(const site& s, const Array<T, 1, L>& a) {
  if (contiguous(a, false)) return {a.data, {}};
  Vector<T> copy = copy_array(s.file, s.line, a);
  return {copy.data, copy};
}

// A matrix in C or F order as BLAS reads it: the view's own memory, or a C-ordered copy.
template <class T> struct DenseMatrix {
  const T* data;
  bool fortran;
  fint rows, cols;
  CMatrix<T> copy;
  fint leading() const { return fortran ? (rows > 1 ? rows : 1) : (cols > 1 ? cols : 1); }
};
template <class T, Layout L> DenseMatrix<T> dense_matrix(const site& s, const Array<T, 2, L>& a) {
  fint rows = s.to_fint(a.shape[0]), cols = s.to_fint(a.shape[1]);
  if (contiguous(a, false)) return {a.data, false, rows, cols, {}};
  if (contiguous(a, true)) return {a.data, true, rows, cols, {}};
  CMatrix<T> copy = copy_array(s.file, s.line, a);
  return {copy.data, false, rows, cols, copy};
}

// A new F-ordered copy of a matrix, for LAPACK to overwrite.
template <class T, Layout L> FMatrix<T> fortran_copy(const site& s, const Array<T, 2, L>& a) {
  auto made = new_matrix<T, layout_f>(s, a.shape[0], a.shape[1]);
  for (i64 j = 0; j < a.shape[1]; ++j)
    for (i64 i = 0; i < a.shape[0]; ++i) made.data[i + j * a.shape[0]] = at(a, i, j);
  return made;
}

// ---- the BLAS and LAPACK routines, as Fortran declares them ----

template <class T> using gemm_fn = void (*)(const char*, const char*, const fint*, const fint*, const fint*, const T*,
                                            const T*, const fint*, const T*, const fint*, const T*, T*, const fint*,
                                            flen, flen);
template <class T> using gemv_fn = void (*)(const char*, const fint*, const fint*, const T*, const T*, const fint*,
                                            const T*, const fint*, const T*, T*, const fint*, flen);
template <class T> using dot_fn = T (*)(const fint*, const T*, const fint*, const T*, const fint*);
template <class T> using nrm2_fn = real_of<T> (*)(const fint*, const T*, const fint*);
template <class T> using getrf_fn = void (*)(const fint*, const fint*, T*, const fint*, fint*, fint*);
template <class T> using getri_fn = void (*)(const fint*, T*, const fint*, const fint*, T*, const fint*, fint*);
template <class T> using gesv_fn = void (*)(const fint*, const fint*, T*, const fint*, fint*, T*, const fint*, fint*);
template <class T> using potrf_fn = void (*)(const char*, const fint*, T*, const fint*, fint*, flen);
template <class T> using syevd_fn = void (*)(const char*, const char*, const fint*, T*, const fint*, T*, T*,
                                             const fint*, fint*, const fint*, fint*, flen, flen);
template <class T> using heevd_fn = void (*)(const char*, const char*, const fint*, T*, const fint*, real_of<T>*, T*,
                                             const fint*, real_of<T>*, const fint*, fint*, const fint*, fint*, flen,
                                             flen);
template <class T> using gelsd_real_fn = void (*)(const fint*, const fint*, const fint*, T*, const fint*, T*,
                                                  const fint*, T*, const T*, fint*, T*, const fint*, fint*, fint*);
template <class T> using gelsd_complex_fn = void (*)(const fint*, const fint*, const fint*, T*, const fint*, T*,
                                                     const fint*, real_of<T>*, const real_of<T>*, fint*, T*,
                                                     const fint*, real_of<T>*, fint*, fint*);
template <class T> using gesdd_real_fn = void (*)(const char*, const fint*, const fint*, T*, const fint*, T*, T*,
                                                  const fint*, T*, const fint*, T*, const fint*, fint*, fint*, flen);
template <class T> using gesdd_complex_fn = void (*)(const char*, const fint*, const fint*, T*, const fint*,
                                                     real_of<T>*, T*, const fint*, T*, const fint*, T*, const fint*,
                                                     real_of<T>*, fint*, fint*, flen);
template <class T> using geqrf_fn = void (*)(const fint*, const fint*, T*, const fint*, T*, T*, const fint*, fint*);
template <class T> using orgqr_fn = void (*)(const fint*, const fint*, const fint*, T*, const fint*, const T*, T*,
                                             const fint*, fint*);

// y = op(A) x for an F-ordered A of rows x cols (lda); op is 'n', 't' or 'c'.
template <class T>
void gemv(const site& s, char op, fint rows, fint cols, const T* a, fint lda, const T* x, T* y) {
  const T one(1), nothing(0);
  const fint unit = 1;
  static gemv_fn<T> gemv_routine = nullptr;
  s.routine_once(gemv_routine, kind<T>::prefix, "gemv_")(&op, &rows, &cols, &one, a, &lda, x, &unit, &nothing, y, &unit, 1);
}

// ---- checks Numba makes ----

template <class T, int N, Layout L> void check_finite(const site& s, const Array<T, N, L>& a) {
  bool all_finite = reduce::nditer(a, [](const T& v) { return finite(v); });
  if (!all_finite) s.fail("LinAlgError", "Array must not contain infs or NaNs.");
}
template <class T, Layout L> void check_square(const site& s, const Array<T, 2, L>& a) {
  if (a.shape[0] != a.shape[1]) s.fail("LinAlgError", "Last 2 dimensions of the array must be square.");
}
inline void check_singular(const site& s, fint info) {
  if (info > 0) s.fail("LinAlgError", "Matrix is singular to machine precision.");
}
inline void check_converged(const site& s, fint info) {
  if (info > 0) s.fail("ValueError", "Internal algorithm failed to converge.");
}

// ---- products ----

// np.dot(a, b) and a @ b of vectors and matrices of one BLAS type.
struct dot : site {
  // vector . vector: a scalar (?dot for real types; gemv of a column for complex ones, whose
  // ?dotu returns a complex by a convention compilers disagree on).
  template <class T, Layout LA, Layout LB> T operator()(const Array<T, 1, LA>& a, const Array<T, 1, LB>& b) const {
    return vector_product(a, b, 't');
  }
  template <class T, Layout LA, Layout LB> T vector_product(const Array<T, 1, LA>& a, const Array<T, 1, LB>& b,
                                                            char complex_op) const {
    if (a.shape[0] != b.shape[0]) fail("ValueError", "incompatible array sizes for np.dot(a, b) (vector * vector)");
    fint n = to_fint(a.shape[0]);
    UnitVector<T> x = unit_vector(*this, a), y = unit_vector(*this, b);
    if constexpr (kind<T>::is_complex) {
      T out(0);
      if (n > 0) gemv(*this, complex_op, n, 1, x.data, n, y.data, &out);
      return out;
    } else {
      const fint unit = 1;
      static dot_fn<T> dot_routine = nullptr;
      return routine_once(dot_routine, kind<T>::prefix, "dot_")(&n, x.data, &unit, y.data, &unit);
    }
  }
  // matrix . vector
  template <class T, Layout LA, Layout LB> Vector<T> operator()(const Array<T, 2, LA>& a, const Array<T, 1, LB>& b) const {
    if (a.shape[1] != b.shape[0]) fail("ValueError", "incompatible array sizes for np.dot(a, b) (matrix * vector)");
    Vector<T> out = new_vector<T>(*this, a.shape[0]);
    zero(out);
    if (a.shape[0] == 0 || a.shape[1] == 0) return out;
    DenseMatrix<T> m = dense_matrix(*this, a);
    UnitVector<T> x = unit_vector(*this, b);
    if (m.fortran) gemv(*this, 'n', m.rows, m.cols, m.data, m.leading(), x.data, out.data);
    else gemv(*this, 't', m.cols, m.rows, m.data, m.leading(), x.data, out.data);
    return out;
  }
  // vector . matrix
  template <class T, Layout LA, Layout LB> Vector<T> operator()(const Array<T, 1, LA>& a, const Array<T, 2, LB>& b) const {
    if (a.shape[0] != b.shape[0]) fail("ValueError", "incompatible array sizes for np.dot(a, b) (vector * matrix)");
    Vector<T> out = new_vector<T>(*this, b.shape[1]);
    zero(out);
    if (b.shape[0] == 0 || b.shape[1] == 0) return out;
    DenseMatrix<T> m = dense_matrix(*this, b);
    UnitVector<T> x = unit_vector(*this, a);
    if (m.fortran) gemv(*this, 't', m.rows, m.cols, m.data, m.leading(), x.data, out.data);
    else gemv(*this, 'n', m.cols, m.rows, m.data, m.leading(), x.data, out.data);
    return out;
  }
  // matrix . matrix: a C-ordered result, computed as its F-ordered transpose b^T a^T.
  template <class T, Layout LA, Layout LB> CMatrix<T> operator()(const Array<T, 2, LA>& a, const Array<T, 2, LB>& b) const {
    if (a.shape[1] != b.shape[0]) fail("ValueError", "incompatible array sizes for np.dot(a, b) (matrix * matrix)");
    CMatrix<T> out = new_matrix<T, layout_c>(*this, a.shape[0], b.shape[1]);
    zero(out);
    if (a.shape[0] == 0 || a.shape[1] == 0 || b.shape[1] == 0) return out;
    DenseMatrix<T> x = dense_matrix(*this, a), y = dense_matrix(*this, b);
    fint m = x.rows, k = x.cols, n = y.cols, ldc = n;
    char op_y = y.fortran ? 't' : 'n', op_x = x.fortran ? 't' : 'n';
    fint ldy = y.leading(), ldx = x.leading();
    const T one(1), nothing(0);
    static gemm_fn<T> gemm_routine = nullptr;
    routine_once(gemm_routine, kind<T>::prefix, "gemm_")(&op_y, &op_x, &n, &m, &k, &one, y.data, &ldy, x.data, &ldx,
                                                         &nothing, out.data, &ldc, 1, 1);
    return out;
  }
};

// np.vdot(a, b): the first vector conjugated.
struct vdot : site {
  template <class T, Layout LA, Layout LB> T operator()(const Array<T, 1, LA>& a, const Array<T, 1, LB>& b) const {
    return dot{*this}.vector_product(a, b, 'c');
  }
};

// np.outer(a, b): a.ravel()[i] * b.ravel()[j] in the promoted type R, C-ordered.
struct outer : site {
  template <class R, class A, int NA, Layout LA, class B, int NB, Layout LB>
  CMatrix<R> operator()(R, const Array<A, NA, LA>& a, const Array<B, NB, LB>& b) const {
    Vector<R> left = raveled<R>(a), right = raveled<R>(b);
    i64 m = left.shape[0], n = right.shape[0];
    CMatrix<R> out = new_matrix<R, layout_c>(*this, m, n);
    for (i64 i = 0; i < m; ++i)
      for (i64 j = 0; j < n; ++j) out.data[i * n + j] = left.data[i] * right.data[j];
    return out;
  }
  template <class R, class T, int N, Layout L> Vector<R> raveled(const Array<T, N, L>& a) const {
    Vector<R> out = new_vector<R>(*this, size(a));
    i64 k = 0;
    reduce::flat(a, [&](const T& v) { out.data[k++] = static_cast<R>(v); return true; });
    return out;
  }
};

// np.trace(a, offset=0): Numba's sum from the integer 0, so R is float64 or complex128.
struct trace : site {
  template <class R, class T, Layout L> R operator()(R, const Array<T, 2, L>& a, i64 offset) const {
    i64 rows = a.shape[0], cols = a.shape[1];
    if (offset < 0) rows += offset;
    if (offset > 0) cols -= offset;
    i64 n = rows < cols ? rows : cols;
    R total = R(0);
    for (i64 i = 0; i < n; ++i) total = total + static_cast<R>(offset >= 0 ? at(a, i, offset + i) : at(a, i - offset, i));
    return total;
  }
};

// ---- np.linalg ----

// np.linalg.inv(a): F-ordered, by getrf and getri.
struct inv : site {
  template <class T, Layout L> FMatrix<T> operator()(const Array<T, 2, L>& a) const {
    check_square(*this, a);
    check_finite(*this, a);
    FMatrix<T> copy = fortran_copy(*this, a);
    fint n = to_fint(a.shape[0]), info = 0;
    if (n == 0) return copy;
    OwnedArray<fint, 1, layout_c> pivots = new_vector<fint>(*this, n);
    routine<getrf_fn<T>>(kind<T>::prefix, "getrf_")(&n, &n, copy.data, &n, pivots.data, &info);
    check_singular(*this, info);
    T size_wanted(0);
    fint query = -1;
    routine<getri_fn<T>>(kind<T>::prefix, "getri_")(&n, copy.data, &n, pivots.data, &size_wanted, &query, &info);
    fint lwork = workspace_size(size_wanted) > n ? workspace_size(size_wanted) : n;
    Vector<T> work = new_vector<T>(*this, lwork);
    routine<getri_fn<T>>(kind<T>::prefix, "getri_")(&n, copy.data, &n, pivots.data, work.data, &lwork, &info);
    check_singular(*this, info);
    return copy;
  }
};

// np.linalg.slogdet(a): (sign, log|det|): float64 and float64, or complex128 and float64; the LU
// factors' diagonal walked in logarithms, the sign from the pivots, as Numba computes it.
struct slogdet : site {
  template <class T, Layout L> auto operator()(const Array<T, 2, L>& a) const {
    using R = pick_t<kind<T>::is_complex, complex<f64>, f64>;
    check_square(*this, a);
    fint n = to_fint(a.shape[0]), info = 0;
    if (n == 0) return make_tuple(R(1), 0.0);
    check_finite(*this, a);
    FMatrix<T> lu = fortran_copy(*this, a);
    OwnedArray<fint, 1, layout_c> pivots = new_vector<fint>(*this, n);
    routine<getrf_fn<T>>(kind<T>::prefix, "getrf_")(&n, &n, lu.data, &n, pivots.data, &info);
    if (info > 0) return make_tuple(R(0), -__builtin_inf());
    i64 swaps = 1;
    for (fint k = 0; k < n; ++k) swaps += pivots.data[k] != k + 1;
    i64 sign = (swaps & 1) == 0 ? -1 : 1;
    f64 logs = 0.0;
    if constexpr (kind<T>::is_complex) {
      using F = real_of<T>;
      complex<f64> phase(static_cast<f64>(sign), 0.0);
      for (fint k = 0; k < n; ++k) {
        T v = lu.data[k + k * static_cast<i64>(n)];
        F size_of = magnitude(v);
        phase = phase * complex<f64>(v / T(size_of));
        logs = logs + static_cast<f64>(log_of(size_of));
      }
      return make_tuple(phase, logs);
    } else {
      for (fint k = 0; k < n; ++k) {
        T v = lu.data[k + k * static_cast<i64>(n)];
        if (v < T(0)) sign = -sign, v = -v;
        logs = logs + static_cast<f64>(log_of(v));
      }
      return make_tuple(static_cast<f64>(sign), logs);
    }
  }
};

// np.linalg.det(a): float64 (complex128), the sign times exp(log|det|), as Numba computes it.
struct det : site {
  template <class T, Layout L> auto operator()(const Array<T, 2, L>& a) const {
    auto sign_and_log = slogdet{file, line}(a);
    return sign_and_log.head * decltype(sign_and_log.head)(__builtin_exp(sign_and_log.tail.head));
  }
};

// np.linalg.solve(a, b): gesv on copies; a 1-D b gives a C vector, a 2-D b an F matrix. A
// non-square a is NumPy's LinAlgError (Numba would pass it to LAPACK unchecked).
struct solve : site {
  template <class T, Layout LA, int NB, Layout LB>
  auto operator()(const Array<T, 2, LA>& a, const Array<T, NB, LB>& b) const {
    check_square(*this, a);
    check_finite(*this, a);
    check_finite(*this, b);
    if (a.shape[0] != b.shape[0])
      fail("LinAlgError", "Incompatible array sizes, system is not dimensionally valid.");
    fint n = to_fint(a.shape[0]), nrhs = NB == 1 ? 1 : to_fint(b.shape[NB - 1]), info = 0;
    FMatrix<T> lhs = fortran_copy(*this, a);
    FMatrix<T> rhs = new_matrix<T, layout_f>(*this, n, nrhs);
    for (i64 j = 0; j < nrhs; ++j)
      for (i64 i = 0; i < n; ++i)
        rhs.data[i + j * n] = NB == 1 ? b.at_offset(i * b.stride(0)) : b.at_offset(i * b.stride(0) + j * b.stride(NB - 1));
    if (n > 0) {
      OwnedArray<fint, 1, layout_c> pivots = new_vector<fint>(*this, n);
      fint ldb = n;
      routine<gesv_fn<T>>(kind<T>::prefix, "gesv_")(&n, &nrhs, lhs.data, &n, pivots.data, rhs.data, &ldb, &info);
      check_singular(*this, info);
    }
    if constexpr (NB == 1) {
      Array<T, 1, layout_c> view;
      view.data = rhs.data;
      view.shape[0] = n;
      view.strides[0] = static_cast<i64>(sizeof(T));
      return Vector<T>(view, rhs.storage);
    } else {
      return rhs;
    }
  }
};

// np.linalg.cholesky(a): the lower factor, C-ordered, by potrf on a C copy read as F (so the
// upper factor of the transpose); the upper triangle zeroed. No finiteness check, as Numba.
struct cholesky : site {
  template <class T, Layout L> CMatrix<T> operator()(const Array<T, 2, L>& a) const {
    check_square(*this, a);
    CMatrix<T> out = copy_array(file, line, a);
    fint n = to_fint(a.shape[0]), info = 0;
    if (n == 0) return out;
    char upper = 'U';
    routine<potrf_fn<T>>(kind<T>::prefix, "potrf_")(&upper, &n, out.data, &n, &info, 1);
    if (info > 0) fail("LinAlgError", "Matrix is not positive definite.");
    for (i64 i = 0; i < n; ++i)
      for (i64 j = i + 1; j < n; ++j) out.data[i * n + j] = T(0);
    return out;
  }
};

// np.linalg.eigh(a) and eigvalsh(a): syevd (heevd) on an F copy, from the lower triangle.
template <class T> Vector<real_of<T>> symmetric_eigen(const site& s, FMatrix<T>& a, char jobz) {
  using F = real_of<T>;
  fint n = s.to_fint(a.shape[0]), info = 0, query = -1;
  Vector<F> w = new_vector<F>(s, n);
  if (n == 0) return w;
  char lower = 'L';
  T work_size(0);
  fint iwork_size = 0;
  if constexpr (kind<T>::is_complex) {
    F rwork_size(0);
    auto heevd = s.routine<heevd_fn<T>>(kind<T>::prefix, "heevd_");
    heevd(&jobz, &lower, &n, a.data, &n, w.data, &work_size, &query, &rwork_size, &query, &iwork_size, &query, &info,
          1, 1);
    fint lwork = workspace_size(work_size), lrwork = workspace_size(rwork_size), liwork = iwork_size;
    Vector<T> work = new_vector<T>(s, lwork > 1 ? lwork : 1);
    Vector<F> rwork = new_vector<F>(s, lrwork > 1 ? lrwork : 1);
    OwnedArray<fint, 1, layout_c> iwork = new_vector<fint>(s, liwork > 1 ? liwork : 1);
    heevd(&jobz, &lower, &n, a.data, &n, w.data, work.data, &lwork, rwork.data, &lrwork, iwork.data, &liwork, &info, 1,
          1);
  } else {
    auto syevd = s.routine<syevd_fn<T>>(kind<T>::prefix, "syevd_");
    syevd(&jobz, &lower, &n, a.data, &n, w.data, &work_size, &query, &iwork_size, &query, &info, 1, 1);
    fint lwork = workspace_size(work_size), liwork = iwork_size;
    Vector<T> work = new_vector<T>(s, lwork > 1 ? lwork : 1);
    OwnedArray<fint, 1, layout_c> iwork = new_vector<fint>(s, liwork > 1 ? liwork : 1);
    syevd(&jobz, &lower, &n, a.data, &n, w.data, work.data, &lwork, iwork.data, &liwork, &info, 1, 1);
  }
  check_converged(s, info);
  return w;
}
struct eigh : site {
  template <class T, Layout L> tuple<Vector<real_of<T>>, FMatrix<T>> operator()(const Array<T, 2, L>& a) const {
    check_square(*this, a);
    check_finite(*this, a);
    FMatrix<T> v = fortran_copy(*this, a);
    Vector<real_of<T>> w = symmetric_eigen(*this, v, 'V');
    return make_tuple(w, v);
  }
};
struct eigvalsh : site {
  template <class T, Layout L> Vector<real_of<T>> operator()(const Array<T, 2, L>& a) const {
    check_square(*this, a);
    check_finite(*this, a);
    FMatrix<T> v = fortran_copy(*this, a);
    return symmetric_eigen(*this, v, 'N');
  }
};

// The singular values of an F copy by gesdd (jobz 'N'), or with u and vt ('A' or 'S').
template <class T> Vector<real_of<T>> singular_values(const site& s, FMatrix<T>& a, char jobz, T* u, fint ldu, T* vt,
                                                       fint ldvt) {
  using F = real_of<T>;
  fint m = s.to_fint(a.shape[0]), n = s.to_fint(a.shape[1]), info = 0, query = -1;
  fint k = m < n ? m : n, big = m > n ? m : n;
  Vector<F> sv = new_vector<F>(s, k);
  OwnedArray<fint, 1, layout_c> iwork = new_vector<fint>(s, 8 * static_cast<i64>(k));
  T work_size(0);
  if constexpr (kind<T>::is_complex) {
    // LAPACK's documented rwork size for each job.
    i64 rwork_count = jobz == 'N' ? 7 * static_cast<i64>(k)
                                  : (5 * static_cast<i64>(k) + 7 > 2 * static_cast<i64>(big) + 2 * k + 1
                                         ? 5 * static_cast<i64>(k) + 7
                                         : 2 * static_cast<i64>(big) + 2 * k + 1) *
                                        k;
    Vector<F> rwork = new_vector<F>(s, rwork_count > 1 ? rwork_count : 1);
    auto gesdd = s.routine<gesdd_complex_fn<T>>(kind<T>::prefix, "gesdd_");
    gesdd(&jobz, &m, &n, a.data, &m, sv.data, u, &ldu, vt, &ldvt, &work_size, &query, rwork.data, iwork.data, &info, 1);
    fint lwork = workspace_size(work_size);
    Vector<T> work = new_vector<T>(s, lwork > 1 ? lwork : 1);
    gesdd(&jobz, &m, &n, a.data, &m, sv.data, u, &ldu, vt, &ldvt, work.data, &lwork, rwork.data, iwork.data, &info, 1);
  } else {
    auto gesdd = s.routine<gesdd_real_fn<T>>(kind<T>::prefix, "gesdd_");
    gesdd(&jobz, &m, &n, a.data, &m, sv.data, u, &ldu, vt, &ldvt, &work_size, &query, iwork.data, &info, 1);
    fint lwork = workspace_size(work_size);
    Vector<T> work = new_vector<T>(s, lwork > 1 ? lwork : 1);
    gesdd(&jobz, &m, &n, a.data, &m, sv.data, u, &ldu, vt, &ldvt, work.data, &lwork, iwork.data, &info, 1);
  }
  check_converged(s, info);
  return sv;
}

// np.linalg.svd(a, full_matrices=True): (u, s, vh), u and vh F-ordered.
struct svd : site {
  template <class T, Layout L, class B>
  tuple<FMatrix<T>, Vector<real_of<T>>, FMatrix<T>> operator()(const Array<T, 2, L>& a, B full_matrices) const {
    i64 m = a.shape[0], n = a.shape[1];
    if (m == 0 || n == 0) fail("LinAlgError", "Arrays cannot be empty");
    check_finite(*this, a);
    FMatrix<T> copy = fortran_copy(*this, a);
    i64 k = m < n ? m : n;
    bool full = static_cast<bool>(full_matrices);
    i64 ucols = full ? m : k, vrows = full ? n : k;
    FMatrix<T> u = new_matrix<T, layout_f>(*this, m, ucols);
    FMatrix<T> vt = new_matrix<T, layout_f>(*this, vrows, n);
    Vector<real_of<T>> sv = singular_values(*this, copy, full ? 'A' : 'S', u.data, to_fint(m), vt.data, to_fint(vrows));
    return make_tuple(u, sv, vt);
  }
};

// np.linalg.qr(a): (q, r) by geqrf and orgqr (ungqr); q is the first min(m, n) columns.
struct qr : site {
  template <class T, Layout L> tuple<OwnedArray<T, 2, layout_a>, FMatrix<T>> operator()(const Array<T, 2, L>& a) const {
    i64 m = a.shape[0], n = a.shape[1];
    if (m == 0 || n == 0) fail("LinAlgError", "Arrays cannot be empty");
    check_finite(*this, a);
    FMatrix<T> q = fortran_copy(*this, a);
    fint rows = to_fint(m), cols = to_fint(n), k = rows < cols ? rows : cols, info = 0, query = -1;
    Vector<T> tau = new_vector<T>(*this, k);
    T work_size(0);
    auto geqrf = routine<geqrf_fn<T>>(kind<T>::prefix, "geqrf_");
    geqrf(&rows, &cols, q.data, &rows, tau.data, &work_size, &query, &info);
    fint lwork = workspace_size(work_size);
    Vector<T> work = new_vector<T>(*this, lwork > 1 ? lwork : 1);
    geqrf(&rows, &cols, q.data, &rows, tau.data, work.data, &lwork, &info);
    FMatrix<T> r = new_matrix<T, layout_f>(*this, k, n);
    zero(r);
    for (i64 j = 0; j < n; ++j)
      for (i64 i = 0; i <= j && i < k; ++i) r.data[i + j * k] = q.data[i + j * m];
    auto orgqr = routine<orgqr_fn<T>>(kind<T>::prefix, kind<T>::is_complex ? "ungqr_" : "orgqr_");
    orgqr(&rows, &k, &k, q.data, &rows, tau.data, &work_size, &query, &info);
    lwork = workspace_size(work_size);
    Vector<T> work2 = new_vector<T>(*this, lwork > 1 ? lwork : 1);
    orgqr(&rows, &k, &k, q.data, &rows, tau.data, work2.data, &lwork, &info);
    Array<T, 2, layout_a> columns;
    columns.data = q.data;
    columns.shape[0] = m, columns.shape[1] = k;
    columns.strides[0] = static_cast<i64>(sizeof(T)), columns.strides[1] = static_cast<i64>(sizeof(T)) * m;
    return make_tuple(OwnedArray<T, 2, layout_a>(columns, q.storage), r);
  }
};

// np.linalg.lstsq(a, b, rcond=-1.0): (x, residuals, rank as int32, singular values) by gelsd.
struct lstsq : site {
  template <class T, Layout LA, int NB, Layout LB>
  auto operator()(const Array<T, 2, LA>& a, const Array<T, NB, LB>& b, f64 rcond_given) const {
    using F = real_of<T>;
    using X = pick_t<NB == 1, Vector<T>, CMatrix<T>>;
    check_finite(*this, a);
    check_finite(*this, b);
    i64 m64 = a.shape[0], n64 = a.shape[1], nrhs64 = NB == 1 ? 1 : b.shape[1];
    if (m64 == 0 || n64 == 0 || b.shape[0] == 0 || nrhs64 == 0) fail("LinAlgError", "Arrays cannot be empty");
    if (m64 != b.shape[0]) fail("LinAlgError", "Incompatible array sizes, system is not dimensionally valid.");
    fint m = to_fint(m64), n = to_fint(n64), nrhs = to_fint(nrhs64), info = 0, query = -1, rank = 0;
    fint k = m < n ? m : n, big = m > n ? m : n;
    FMatrix<T> lhs = fortran_copy(*this, a);
    FMatrix<T> rhs = new_matrix<T, layout_f>(*this, big, nrhs);
    zero(rhs);
    for (i64 j = 0; j < nrhs; ++j)
      for (i64 i = 0; i < m; ++i)
        rhs.data[i + j * big] = NB == 1 ? b.at_offset(i * b.stride(0)) : b.at_offset(i * b.stride(0) + j * b.stride(NB - 1));
    Vector<F> sv = new_vector<F>(*this, k);
    F rcond = static_cast<F>(rcond_given);
    T work_size(0);
    fint iwork_size = 0;
    if constexpr (kind<T>::is_complex) {
      F rwork_size(0);
      auto gelsd = routine<gelsd_complex_fn<T>>(kind<T>::prefix, "gelsd_");
      gelsd(&m, &n, &nrhs, lhs.data, &m, rhs.data, &big, sv.data, &rcond, &rank, &work_size, &query, &rwork_size,
            &iwork_size, &info);
      fint lwork = workspace_size(work_size);
      Vector<T> work = new_vector<T>(*this, lwork > 1 ? lwork : 1);
      Vector<F> rwork = new_vector<F>(*this, workspace_size(rwork_size) > 1 ? workspace_size(rwork_size) : 1);
      OwnedArray<fint, 1, layout_c> iwork = new_vector<fint>(*this, iwork_size > 1 ? iwork_size : 1);
      gelsd(&m, &n, &nrhs, lhs.data, &m, rhs.data, &big, sv.data, &rcond, &rank, work.data, &lwork, rwork.data,
            iwork.data, &info);
    } else {
      auto gelsd = routine<gelsd_real_fn<T>>(kind<T>::prefix, "gelsd_");
      gelsd(&m, &n, &nrhs, lhs.data, &m, rhs.data, &big, sv.data, &rcond, &rank, &work_size, &query, &iwork_size,
            &info);
      fint lwork = workspace_size(work_size);
      Vector<T> work = new_vector<T>(*this, lwork > 1 ? lwork : 1);
      OwnedArray<fint, 1, layout_c> iwork = new_vector<fint>(*this, iwork_size > 1 ? iwork_size : 1);
      gelsd(&m, &n, &nrhs, lhs.data, &m, rhs.data, &big, sv.data, &rcond, &rank, work.data, &lwork, iwork.data,
            &info);
    }
    check_converged(*this, info);
    // The residuals: the squared rows past n of each column, when the system is overdetermined
    // and of full rank; else none.
    bool residuals = !(rank < n || m <= n);
    Vector<F> res = new_vector<F>(*this, residuals ? nrhs : 0);
    for (i64 j = 0; residuals && j < nrhs; ++j) {
      F total(0);
      for (i64 i = n; i < big; ++i) {
        F v = magnitude(rhs.data[i + j * big]);
        total = total + v * v;
      }
      res.data[j] = total;
    }
    X x;
    if constexpr (NB == 1) {
      x = new_vector<T>(*this, n);
      for (i64 i = 0; i < n; ++i) x.data[i] = rhs.data[i];
    } else {
      x = new_matrix<T, layout_c>(*this, n, nrhs);
      for (i64 i = 0; i < n; ++i)
        for (i64 j = 0; j < nrhs; ++j) x.data[i * nrhs + j] = rhs.data[i + j * big];
    }
    return make_tuple(x, res, static_cast<i32>(rank), sv);
  }
};

// The 2-norm of a vector by ?nrm2, with the vector's own stride where it is a positive number
// of elements (as Numba passes it), else over a contiguous copy.
template <class T, Layout L> real_of<T> vector_norm2(const site& s, const Array<T, 1, L>& x) {
  fint n = s.to_fint(x.shape[0]);
  if (n == 0) return real_of<T>(0);
  i64 step = x.stride(0) / static_cast<i64>(sizeof(T));
  const T* data = x.data;
  Vector<T> copy;
  if (x.stride(0) % static_cast<i64>(sizeof(T)) != 0 || step <= 0 || step > 2147483647LL) {
    copy = copy_array(s.file, s.line, x);
    data = copy.data, step = 1;
  }
  fint inc = static_cast<fint>(step);
  const char* name = kind<T>::is_complex ? (sizeof(real_of<T>) == 4 ? "scnrm2_" : "dznrm2_") : "nrm2_";
  char prefix = kind<T>::is_complex ? 0 : kind<T>::prefix;
  return s.routine<nrm2_fn<T>>(prefix, name)(&n, data, &inc);
}

// np.linalg.norm(x) and norm(x, ord): Numba's results, types (the vector 2-norm in the element's
// real type, everything else float64) and loops.
struct norm : site {
  // ord=None: the 2-norm of a vector, the Frobenius norm of a matrix.
  template <class T, Layout L> real_of<T> operator()(const Array<T, 1, L>& x) const { return vector_norm2(*this, x); }
  template <class T, Layout L> f64 operator()(const Array<T, 2, L>& x) const {
    i64 count = size(x);
    if (count == 0) return 0.0;
    Array<T, 1, layout_c> flat;
    flat.shape[0] = count;
    flat.strides[0] = static_cast<i64>(sizeof(T));
    if (contiguous(x, false) || contiguous(x, true)) {
      flat.data = x.data;
      return static_cast<f64>(vector_norm2(*this, flat));
    }
    CMatrix<T> copy = copy_array(file, line, x);
    flat.data = copy.data;
    return static_cast<f64>(vector_norm2(*this, flat));
  }
  template <class T, Layout L> f64 operator()(const Array<T, 1, L>& x, f64 ord) const {
    i64 n = x.shape[0];
    if (n == 0) return 0.0;
    auto item = [&](i64 k) { return magnitude(x.at_offset(k * x.stride(0))); };
    if (ord == 2) return static_cast<f64>(vector_norm2(*this, x));
    if (ord == __builtin_inf() || ord == -__builtin_inf()) {
      auto best = item(0);
      for (i64 k = 1; k < n; ++k) {
        auto v = item(k);
        if (ord > 0 ? v > best : v < best) best = v;
      }
      return static_cast<f64>(best);
    }
    f64 total = 0.0;
    if (ord == 0) {
      for (i64 k = 0; k < n; ++k) total += reduce::truthy(x.at_offset(k * x.stride(0))) ? 1.0 : 0.0;
      return total;
    }
    if (ord == 1) {
      for (i64 k = 0; k < n; ++k) total += static_cast<f64>(item(k));
      return total;
    }
    for (i64 k = 0; k < n; ++k) total += __builtin_pow(static_cast<f64>(item(k)), ord);
    return __builtin_pow(total, 1.0 / ord);
  }
  template <class T, Layout L> f64 operator()(const Array<T, 2, L>& x, f64 ord) const {
    using F = real_of<T>;
    i64 m = x.shape[0], n = x.shape[1];
    if (m == 0 || n == 0) return 0.0;
    bool rows = ord == __builtin_inf() || ord == -__builtin_inf();
    if (rows || ord == 1 || ord == -1) {
      // The largest (smallest) sum of magnitudes along rows (inf) or columns (1).
      bool largest = ord > 0;
      f64 best = largest ? 0.0 : static_cast<f64>(sizeof(F) == 4 ? 3.4028234663852886e38 : 1.7976931348623157e308);
      i64 outer = rows ? m : n, inner = rows ? n : m;
      for (i64 p = 0; p < outer; ++p) {
        f64 total = 0.0;
        for (i64 q = 0; q < inner; ++q) total += static_cast<f64>(magnitude(rows ? at(x, p, q) : at(x, q, p)));
        if (largest ? total > best : total < best) best = total;
      }
      return best;
    }
    if (ord == 2 || ord == -2) {
      check_finite(*this, x);
      FMatrix<T> copy = fortran_copy(*this, x);
      Vector<F> sv = singular_values(*this, copy, 'N', static_cast<T*>(nullptr), 1, static_cast<T*>(nullptr), 1);
      return static_cast<f64>(ord == 2 ? sv.data[0] : sv.data[sv.shape[0] - 1]);
    }
    fail("ValueError", "Invalid norm order for matrices.");
  }
};

}  // namespace linalg
}  // namespace pk
#define PK_LINALG(name) (::pk::linalg::name{{__FILE__, __LINE__}})
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_LINALG_CUH
