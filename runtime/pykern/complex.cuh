// pykern runtime: complex64 / complex128 as Numba computes them.
#ifndef PYKERN_COMPLEX_CUH
#define PYKERN_COMPLEX_CUH
#include "pykern/base.cuh"

namespace pk {

template <class T> struct complex {
  T re, im;
  PK_DEVICE complex() : re(0), im(0) {}
  PK_DEVICE complex(T r) : re(r), im(0) {}
  PK_DEVICE complex(T r, T i) : re(r), im(i) {}
  template <class U> PK_DEVICE explicit complex(const complex<U>& z) : re(T(z.re)), im(T(z.im)) {}
  template <class U> PK_DEVICE explicit complex(U r) : re(T(r)), im(0) {}
};

template <class T> PK_DEVICE complex<T> operator+(complex<T> a, complex<T> b) { return {a.re + b.re, a.im + b.im}; }
template <class T> PK_DEVICE complex<T> operator-(complex<T> a, complex<T> b) { return {a.re - b.re, a.im - b.im}; }
template <class T> PK_DEVICE complex<T> operator-(complex<T> a) { return {-a.re, -a.im}; }
template <class T> PK_DEVICE complex<T> operator+(complex<T> a) { return a; }
template <class T> PK_DEVICE complex<T> operator*(complex<T> a, complex<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
// Division as Numba (and CPython's _Py_c_quot) does it: scaled by the larger part of b, so that
// |b|^2 can neither overflow nor underflow. Dividing by zero gives NaNs (Numba raises
// ZeroDivisionError, which a kernel cannot).
template <class T> PK_DEVICE complex<T> operator/(complex<T> a, complex<T> b) {
  T abs_re = b.re < T(0) ? -b.re : b.re, abs_im = b.im < T(0) ? -b.im : b.im;
  T not_a_number = nan<T>();
  if (abs_re >= abs_im) {
    if (b.re == T(0)) return {not_a_number, not_a_number};
    T ratio = b.im / b.re, denom = b.re + b.im * ratio;
    return {(a.re + a.im * ratio) / denom, (a.im - a.re * ratio) / denom};
  }
  if (abs_im >= abs_re) {
    T ratio = b.re / b.im, denom = b.re * ratio + b.im;
    return {(a.re * ratio + a.im) / denom, (a.im * ratio - a.re) / denom};
  }
  return {not_a_number, not_a_number};  // a NaN in b
}
template <class T> PK_DEVICE bool operator==(complex<T> a, complex<T> b) { return a.re == b.re && a.im == b.im; }
template <class T> PK_DEVICE bool operator!=(complex<T> a, complex<T> b) { return !(a == b); }
template <class T> PK_DEVICE T real(complex<T> z) { return z.re; }
template <class T> PK_DEVICE T imag(complex<T> z) { return z.im; }
template <class T> PK_DEVICE complex<T> conj(complex<T> z) { return {z.re, -z.im}; }
template <class T> PK_DEVICE complex<T> make_complex(T re, T im) { return {re, im}; }

}  // namespace pk
#endif  // PYKERN_COMPLEX_CUH
