// pykern runtime: complex64 / complex128 as Numba computes them.
#pragma once
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
template <class T> PK_DEVICE complex<T> operator/(complex<T> a, complex<T> b) {
  T d = b.re * b.re + b.im * b.im;
  return {(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
}
template <class T> PK_DEVICE bool operator==(complex<T> a, complex<T> b) { return a.re == b.re && a.im == b.im; }
template <class T> PK_DEVICE bool operator!=(complex<T> a, complex<T> b) { return !(a == b); }
template <class T> PK_DEVICE T real(complex<T> z) { return z.re; }
template <class T> PK_DEVICE T imag(complex<T> z) { return z.im; }
template <class T> PK_DEVICE complex<T> make_complex(T re, T im) { return {re, im}; }

}  // namespace pk
