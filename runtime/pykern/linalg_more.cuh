// pykern runtime: np.linalg's eig, eigvals, pinv, slogdet, matrix_power, matrix_rank and cond
// in @jit functions on the host, as Numba 0.68 computes them (numba/np/linalg.py): geev for the
// eigenproblems (a real matrix's complex eigenvalues are Numba's ValueError, as Numba cannot
// change the result's type at run time), gesdd and gemm for the pseudo-inverse, getrf for the
// log-determinant, repeated products for the matrix power, the singular values for the rank and
// the 2-norm condition number. The routines and checks are linalg.cuh's. Host builds only.
#ifndef PYKERN_LINALG_MORE_CUH
#define PYKERN_LINALG_MORE_CUH
#include "pykern/linalg.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
namespace linalg {

template <class T> using geev_real_fn = void (*)(const char*, const char*, const fint*, T*, const fint*, T*, T*, T*,
                                                 const fint*, T*, const fint*, T*, const fint*, fint*, flen, flen);
template <class T> using geev_complex_fn = void (*)(const char*, const char*, const fint*, T*, const fint*, T*, T*,
                                                    const fint*, T*, const fint*, T*, const fint*, real_of<T>*, fint*,
                                                    flen, flen);

// The eigenvalues of an F copy by geev, and the right eigenvectors into `vectors` (F, n x n)
// where it is given. A real matrix with a complex eigenvalue is Numba's ValueError.
template <class T>
Vector<T> general_eigen(const site& s, FMatrix<T>& a, T* vectors, const char* what) {
  fint n = s.to_fint(a.shape[0]), info = 0, query = -1, unit = 1;
  Vector<T> w = new_vector<T>(s, n);
  if (n == 0) return w;
  char jobvl = 'N', jobvr = vectors ? 'V' : 'N';
  fint ldvr = vectors ? n : 1;
  T dummy[1] = {T(0)};
  T* vr = vectors ? vectors : dummy;
  T work_size(0);
  if constexpr (kind<T>::is_complex) {
    Vector<real_of<T>> rwork = new_vector<real_of<T>>(s, 2 * static_cast<i64>(n));
    auto geev = s.routine<geev_complex_fn<T>>(kind<T>::prefix, "geev_");
    geev(&jobvl, &jobvr, &n, a.data, &n, w.data, dummy, &unit, vr, &ldvr, &work_size, &query, rwork.data, &info, 1, 1);
    fint lwork = workspace_size(work_size);
    Vector<T> work = new_vector<T>(s, lwork > 1 ? lwork : 1);
    geev(&jobvl, &jobvr, &n, a.data, &n, w.data, dummy, &unit, vr, &ldvr, work.data, &lwork, rwork.data, &info, 1, 1);
    check_converged(s, info);
  } else {
    Vector<T> wi = new_vector<T>(s, n);
    auto geev = s.routine<geev_real_fn<T>>(kind<T>::prefix, "geev_");
    geev(&jobvl, &jobvr, &n, a.data, &n, w.data, wi.data, dummy, &unit, vr, &ldvr, &work_size, &query, &info, 1, 1);
    fint lwork = workspace_size(work_size);
    Vector<T> work = new_vector<T>(s, lwork > 1 ? lwork : 1);
    geev(&jobvl, &jobvr, &n, a.data, &n, w.data, wi.data, dummy, &unit, vr, &ldvr, work.data, &lwork, &info, 1, 1);
    check_converged(s, info);
    for (fint k = 0; k < n; ++k)
      if (wi.data[k] != T(0)) s.fail("ValueError", what);
  }
  return w;
}

// np.linalg.eig(a): (w, v), v F-ordered with the eigenvectors as its columns.
struct eig : site {
  template <class T, Layout L> tuple<Vector<T>, FMatrix<T>> operator()(const Array<T, 2, L>& a) const {
    check_square(*this, a);
    check_finite(*this, a);
    FMatrix<T> copy = fortran_copy(*this, a);
    FMatrix<T> v = new_matrix<T, layout_f>(*this, a.shape[0], a.shape[0]);
    Vector<T> w = general_eigen(*this, copy, v.data, "eig() argument must not cause a domain change.");
    return make_tuple(w, v);
  }
};

// np.linalg.eigvals(a).
struct eigvals : site {
  template <class T, Layout L> Vector<T> operator()(const Array<T, 2, L>& a) const {
    check_square(*this, a);
    check_finite(*this, a);
    FMatrix<T> copy = fortran_copy(*this, a);
    return general_eigen(*this, copy, static_cast<T*>(nullptr), "eigvals() argument must not cause a domain change.");
  }
};

// np.linalg.pinv(a, rcond=1e-15): V S+ U^H from gesdd, Numba's way: the singular values above
// s[0] * rcond inverted, the smaller factor scaled by them, one gemm over the kept columns.
// The result is F-ordered, of shape (n, m).
struct pinv : site {
  template <class T, Layout L> FMatrix<T> operator()(const Array<T, 2, L>& a, f64 rcond) const {
    using F = real_of<T>;
    check_finite(*this, a);
    i64 m = a.shape[0], n = a.shape[1];
    FMatrix<T> copy = fortran_copy(*this, a);
    FMatrix<T> out = new_matrix<T, layout_f>(*this, n, m);
    if (m == 0 || n == 0) return out;
    i64 k = m < n ? m : n;
    FMatrix<T> u = new_matrix<T, layout_f>(*this, m, k);
    FMatrix<T> vt = new_matrix<T, layout_f>(*this, k, n);
    Vector<F> sv = singular_values(*this, copy, 'S', u.data, to_fint(m), vt.data, to_fint(k));
    F cut_at = static_cast<F>(static_cast<f64>(sv.data[0]) * rcond);
    i64 kept = 0;
    for (i64 j = 0; j < k; ++j)
      if (sv.data[j] > cut_at) {
        sv.data[j] = F(1) / sv.data[j];
        kept = j;
      }
    kept += 1;
    if (m >= n) {
      for (i64 i = 0; i < n; ++i)  // rows j < kept of vt
        for (i64 j = 0; j < kept; ++j) vt.data[j + i * k] = vt.data[j + i * k] * T(sv.data[j]);
    } else {
      for (i64 i = 0; i < kept; ++i)  // columns i < kept of u
        for (i64 j = 0; j < k; ++j) u.data[j + i * m] = u.data[j + i * m] * T(sv.data[i]);
    }
    char op = kind<T>::is_complex ? 'c' : 't';
    fint rows = to_fint(n), cols = to_fint(m), inner = to_fint(kept), ldv = to_fint(k), ldu = to_fint(m);
    const T one(1), nothing(0);
    routine<gemm_fn<T>>(kind<T>::prefix, "gemm_")(&op, &op, &rows, &cols, &inner, &one, vt.data, &ldv, u.data, &ldu,
                                                  &nothing, out.data, &rows, 1, 1);
    return out;
  }
};

// np.linalg.matrix_power(a, n): a new C matrix, by Numba's products in Numba's order (inv
// first for a negative power; squaring for powers of 4 and more).
struct matrix_power : site {
  template <class T, Layout L> CMatrix<T> operator()(const Array<T, 2, L>& a, i64 n) const {
    if (n == 0) {
      CMatrix<T> out = new_matrix<T, layout_c>(*this, a.shape[0], a.shape[1]);
      zero(out);
      for (i64 k = 0; k < a.shape[0] && k < a.shape[1]; ++k) out.data[k * a.shape[1] + k] = T(1);
      return out;
    }
    if (a.shape[0] != a.shape[1]) fail("ValueError", "input must be a square array");
    if (a.shape[0] == 0) return copy_array(file, line, a);
    CMatrix<T> base;
    if (n < 0) {
      base = copy_array(file, line, inv{*this}(a));
      if (n == -1) return base;
      n = -n;
    } else {
      if (n == 1) return copy_array(file, line, a);
      base = copy_array(file, line, a);
    }
    const dot product{*this};
    if (n == 2) return product(base, base);
    if (n == 3) return product(product(base, base), base);
    CMatrix<T> acc = base, result;
    bool first = true;
    for (i64 e = n; e != 0; e >>= 1) {
      if (e & 1) {
        result = first ? acc : product(result, acc);
        first = false;
      }
      acc = product(acc, acc);
    }
    return result;
  }
};

// The singular values of a matrix, largest first: Numba's _compute_singular_values.
template <class T, Layout L> Vector<real_of<T>> singular_values_of(const site& s, const Array<T, 2, L>& a) {
  if (a.shape[0] == 0 || a.shape[1] == 0) s.fail("LinAlgError", "Arrays cannot be empty");
  check_finite(s, a);
  FMatrix<T> copy = fortran_copy(s, a);
  return singular_values(s, copy, 'N', static_cast<T*>(nullptr), 1, static_cast<T*>(nullptr), 1);
}

// np.linalg.matrix_rank(A, tol=None): a vector's rank is 1 where any item is nonzero (NumPy's
// rule, whatever tol); a matrix's counts its singular values above tol, by default
// s[0] * max(m, n) * eps of the element's real type.
struct matrix_rank : site {
  template <class T, Layout L> i64 operator()(const Array<T, 1, L>& a) const {
    for (i64 k = 0; k < a.shape[0]; ++k)
      if (a.at_offset(k * a.stride(0)) != T(0)) return 1;
    return 0;
  }
  template <class T, Layout L> i64 operator()(const Array<T, 1, L>& a, f64) const { return (*this)(a); }
  template <class T, Layout L> i64 operator()(const Array<T, 2, L>& a) const {
    using F = real_of<T>;
    Vector<F> sv = singular_values_of(*this, a);
    f64 eps = sizeof(F) == 4 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
    i64 longest = a.shape[0] > a.shape[1] ? a.shape[0] : a.shape[1];
    return counted(sv, static_cast<f64>(sv.data[0]) * static_cast<f64>(longest) * eps);
  }
  template <class T, Layout L> i64 operator()(const Array<T, 2, L>& a, f64 tol) const {
    return counted(singular_values_of(*this, a), tol);
  }
  template <class F> static i64 counted(const Vector<F>& sv, f64 tol) {
    i64 rank = 0;
    while (rank < sv.shape[0] && static_cast<f64>(sv.data[rank]) > tol) ++rank;
    return rank;
  }
};

// np.linalg.cond(x, p=None): the ratio of the extreme singular values (p None, 2 or -2), in
// the element's real type without p; norm(x, p) * norm(inv(x), p) for the others. NaN is inf.
struct cond : site {
  template <class T, Layout L> real_of<T> operator()(const Array<T, 2, L>& x) const {
    Vector<real_of<T>> sv = singular_values_of(*this, x);
    real_of<T> r = sv.data[0] / sv.data[sv.shape[0] - 1];
    return r != r ? static_cast<real_of<T>>(__builtin_inf()) : r;
  }
  template <class T, Layout L> f64 operator()(const Array<T, 2, L>& x, f64 p) const {
    f64 r;
    if (p == 2 || p == -2) {
      Vector<real_of<T>> sv = singular_values_of(*this, x);
      real_of<T> big = sv.data[0], small = sv.data[sv.shape[0] - 1];
      r = static_cast<f64>(p == 2 ? big / small : small / big);
    } else {
      const norm matrix_norm{*this};
      r = matrix_norm(x, p) * matrix_norm(inv{*this}(x), p);
    }
    return r != r ? __builtin_inf() : r;
  }
};

}  // namespace linalg
}  // namespace pk
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_LINALG_MORE_CUH
