// pykern runtime: Python's cmath module on complex64 / complex128, by the algorithms numba-cuda
// lowers (CPython's cmathmodule.c and NumPy's npy_csqrt, with their special cases for
// infinities and NaNs). Each computes in float64 and rounds to the argument's precision, as
// Numba's float64 constants make most of its complex64 arithmetic do.
#ifndef PYKERN_CMATH_CUH
#define PYKERN_CMATH_CUH
#include "pykern/base.cuh"
#include "pykern/complex.cuh"
#include "pykern/math.cuh"

namespace pk {

namespace cmath_detail {

using z64 = complex<f64>;

PK_DEVICE constexpr f64 flt_max() { return 3.4028234663852886e+38; }  // numba-cuda's thresholds use FLT_MAX
PK_DEVICE constexpr f64 flt_min() { return 1.1754943508222875e-38; }
PK_DEVICE constexpr f64 ln_4() { return 1.3862943611198906; }
PK_DEVICE constexpr f64 ln_10() { return 2.302585092994045684; }
PK_DEVICE constexpr f64 half_pi() { return 1.5707963267948966; }

PK_DEVICE z64 sqrt(z64 z) {
  f64 a = z.re, b = z.im;
  if (a == 0.0 && b == 0.0) return {abs(b), b};
  if (isinf(b)) return {abs(b), b};
  if (isnan(a)) return {a, a};
  if (isinf(a)) return a < 0.0 ? z64(abs(b - b), copysign(a, b)) : z64(a, copysign(b - b, b));
  // Scaled by 1/4 near the top of the range, so that a + |z| cannot overflow.
  const f64 threshold = 1.7976931348623157e308 / 2.414213562373095048801688724209698079;
  bool scale = abs(a) >= threshold || abs(b) >= threshold;
  if (scale) a *= 0.25, b *= 0.25;
  f64 re, im;
  if (a >= 0) {
    f64 t = pk::sqrt((a + hypot(a, b)) * 0.5);
    re = t;
    im = b / (2 * t);
  } else {
    f64 t = pk::sqrt((-a + hypot(a, b)) * 0.5);
    re = abs(b) / (2 * t);
    im = copysign(t, b);
  }
  return scale ? z64(re * 2, im) : z64(re, im);
}

PK_DEVICE z64 exp(z64 z) {
  f64 x = z.re, y = z.im;
  if (isfinite(x)) {
    if (!isfinite(y)) return {nan<f64>(), nan<f64>()};
    f64 r = pk::exp(x);
    return {r * pk::cos(y), r * pk::sin(y)};
  }
  if (isnan(x)) return y != 0.0 ? z64(x, x) : z64(x, y);
  if (x > 0.0) {  // +inf: keep zeros rather than make 0 * inf NaNs
    if (!isfinite(y)) return {x, nan<f64>()};
    f64 re = pk::cos(y), im = pk::sin(y);
    if (re != 0) re *= x;
    if (im != 0) im *= x;
    return {re, im};
  }
  if (isfinite(y)) {  // -inf
    f64 r = pk::exp(x);
    return {r * pk::cos(y), r * pk::sin(y)};
  }
  return {0.0, 0.0};
}

PK_DEVICE z64 log(z64 z) { return {pk::log(hypot(z.re, z.im)), atan2(z.im, z.re)}; }
PK_DEVICE z64 log10(z64 z) {
  z64 l = log(z);
  return {l.re / ln_10(), l.im / ln_10()};
}

PK_DEVICE z64 cosh(z64 z) {
  f64 x = z.re, y = z.im;
  if (isinf(x)) {
    f64 re, im;
    if (isnan(y) || y == 0.0) {
      re = abs(x);
      im = y;
    } else {
      re = copysign(x, pk::cos(y));
      im = copysign(x, pk::sin(y));
    }
    if (x < 0.0) im = -im;
    return {re, im};
  }
  return {pk::cos(y) * pk::cosh(x), pk::sin(y) * pk::sinh(x)};
}

PK_DEVICE z64 sinh(z64 z) {
  f64 x = z.re, y = z.im;
  if (isinf(x)) {
    if (isnan(y)) return {x, y};
    f64 re = pk::cos(y), im = pk::sin(y);
    if (re != 0.0) re *= x;
    if (im != 0.0) im *= abs(x);
    return {re, im};
  }
  return {pk::cos(y) * pk::sinh(x), pk::sin(y) * pk::cosh(x)};
}

PK_DEVICE z64 tanh(z64 z) {
  f64 x = z.re, y = z.im;
  if (isinf(x)) return {copysign(1.0, x), isinf(y) ? 0.0 : copysign(0.0, pk::sin(2.0 * y))};
  f64 tx = pk::tanh(x), ty = pk::tan(y), cx = 1.0 / pk::cosh(x);
  f64 txty = tx * ty;
  f64 denom = 1.0 + txty * txty;
  return {tx * (1.0 + ty * ty) / denom, ((ty / denom) * cx) * cx};
}

// f(z) = -j g(z j): sin, tan, asin from sinh, tanh, asinh.
PK_DEVICE z64 times_j(z64 z) { return {-z.im, z.re}; }
PK_DEVICE z64 times_minus_j(z64 r) { return {r.im, -r.re}; }

PK_DEVICE z64 acos(z64 z) {
  if (abs(z.re) > flt_max() / 4 || abs(z.im) > flt_max() / 4)
    return {atan2(abs(z.im), z.re), copysign(pk::log(hypot(z.re * 0.5, z.im * 0.5)) + ln_4(), -z.im)};
  z64 s1 = sqrt(z64(1.0 - z.re, -z.im)), s2 = sqrt(z64(1.0 + z.re, z.im));
  return {2.0 * atan2(s1.re, s2.re), pk::asinh(s2.re * s1.im - s2.im * s1.re)};
}

PK_DEVICE z64 acosh(z64 z) {
  if (abs(z.re) > flt_max() / 4 || abs(z.im) > flt_max() / 4)
    return {pk::log(hypot(z.re * 0.5, z.im * 0.5)) + ln_4(), atan2(z.im, z.re)};
  z64 s1 = sqrt(z64(z.re - 1.0, z.im)), s2 = sqrt(z64(z.re + 1.0, z.im));
  return {pk::asinh(s1.re * s2.re + s1.im * s2.im), 2.0 * atan2(s1.im, s2.re)};
}

PK_DEVICE z64 asinh(z64 z) {
  if (abs(z.re) > flt_max() / 4 || abs(z.im) > flt_max() / 4)
    return {copysign(pk::log(hypot(z.re * 0.5, z.im * 0.5)) + ln_4(), z.re), atan2(z.im, abs(z.re))};
  z64 s1 = sqrt(z64(1.0 + z.im, -z.re)), s2 = sqrt(z64(1.0 - z.im, z.re));
  return {pk::asinh(s1.re * s2.im - s2.re * s1.im), atan2(z.im, s1.re * s2.re - s1.im * s2.im)};
}

PK_DEVICE z64 atanh(z64 z) {
  bool negate = z.re < 0.0;
  if (negate) z = -z;
  f64 ay = abs(z.im), re, im;
  const f64 large = pk::sqrt(flt_max() / 4), small = pk::sqrt(flt_min());
  if (isnan(z.re) || z.re > large || ay > large) {
    if (isinf(z.im)) {
      re = copysign(0.0, z.re);
    } else if (isinf(z.re)) {
      re = 0.0;
    } else {
      f64 h = hypot(z.re * 0.5, z.im * 0.5);
      re = z.re / 4.0 / h / h;
    }
    im = -copysign(half_pi(), -z.im);
  } else if (z.re == 1.0 && ay < small) {
    if (ay == 0.0) {
      re = inf<f64>();
      im = z.im;
    } else {
      re = -pk::log(pk::sqrt(ay) / pk::sqrt(hypot(ay, 2.0)));
      im = copysign(atan2(2.0, -ay) / 2, z.im);
    }
  } else {
    f64 zr1 = 1 - z.re;
    re = log1p(4.0 * z.re / (zr1 * zr1 + ay * ay)) * 0.25;
    im = -atan2(-2.0 * z.im, zr1 * (1 + z.re) - ay * ay) * 0.5;
  }
  if (isnan(z.im)) im = nan<f64>();
  return negate ? z64(-re, -im) : z64(re, im);
}

PK_DEVICE z64 atan(z64 z) {
  z64 r = atanh(times_j(z));
  // With z.real infinite and z.imag NaN the parts do not swap signs (CPython's special case).
  if (isinf(z.re) && isnan(z.im)) return {r.im, r.re};
  return times_minus_j(r);
}

}  // namespace cmath_detail

// The cmath functions of a complex<T>: computed in float64, returned as complex<T>.
#define PK_CMATH_UNARY(name, body)                                          \
  template <class T> PK_DEVICE complex<T> cmath_##name(complex<T> value) {  \
    cmath_detail::z64 z(static_cast<f64>(value.re), static_cast<f64>(value.im)); \
    cmath_detail::z64 r = body;                                             \
    return complex<T>(static_cast<T>(r.re), static_cast<T>(r.im));          \
  }
PK_CMATH_UNARY(sqrt, cmath_detail::sqrt(z))
PK_CMATH_UNARY(exp, cmath_detail::exp(z))
PK_CMATH_UNARY(log, cmath_detail::log(z))
PK_CMATH_UNARY(log10, cmath_detail::log10(z))
PK_CMATH_UNARY(cosh, cmath_detail::cosh(z))
PK_CMATH_UNARY(sinh, cmath_detail::sinh(z))
PK_CMATH_UNARY(tanh, cmath_detail::tanh(z))
PK_CMATH_UNARY(cos, cmath_detail::cosh(cmath_detail::times_j(z)))
PK_CMATH_UNARY(sin, cmath_detail::times_minus_j(cmath_detail::sinh(cmath_detail::times_j(z))))
PK_CMATH_UNARY(tan, cmath_detail::times_minus_j(cmath_detail::tanh(cmath_detail::times_j(z))))
PK_CMATH_UNARY(acos, cmath_detail::acos(z))
PK_CMATH_UNARY(acosh, cmath_detail::acosh(z))
PK_CMATH_UNARY(asinh, cmath_detail::asinh(z))
PK_CMATH_UNARY(asin, cmath_detail::times_minus_j(cmath_detail::asinh(cmath_detail::times_j(z))))
PK_CMATH_UNARY(atanh, cmath_detail::atanh(z))
PK_CMATH_UNARY(atan, cmath_detail::atan(z))
#undef PK_CMATH_UNARY

// cmath.log(z, base) = log(z) / log(base), the division in T as Numba's is.
template <class T> PK_DEVICE complex<T> cmath_log_base(complex<T> z, complex<T> base) {
  return cmath_log(z) / cmath_log(base);
}

template <class T> PK_DEVICE bool cmath_isnan(complex<T> z) { return isnan(z.re) || isnan(z.im); }
template <class T> PK_DEVICE bool cmath_isinf(complex<T> z) { return isinf(z.re) || isinf(z.im); }
template <class T> PK_DEVICE bool cmath_isfinite(complex<T> z) { return isfinite(z.re) && isfinite(z.im); }
template <class T> PK_DEVICE T cmath_phase(complex<T> z) { return atan2(z.im, z.re); }
template <class T> PK_DEVICE tuple<T, T> cmath_polar(complex<T> z) {
  return make_tuple(hypot(z.re, z.im), atan2(z.im, z.re));
}

// cmath.rect(r, phi) on floats of one type T.
template <class T> PK_DEVICE complex<T> cmath_rect(T r, T phi) {
  if (!isfinite(phi)) {
    if (r == T(0)) return complex<T>(abs(r));
    if (isinf(r)) return complex<T>(r, phi);
  }
  T re = cos(phi), im = sin(phi);
  // 0 * inf would be NaN: keep the zero, with the sign the division gives.
  re = (re == T(0) && isinf(r)) ? re / r : re * r;
  im = (im == T(0) && isinf(r)) ? im / r : im * r;
  return complex<T>(re, im);
}

}  // namespace pk
#endif  // PYKERN_CMATH_CUH
