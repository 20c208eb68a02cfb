// pykern runtime: math functions with float32 and float64 overloads (Numba's math typing keeps
// float32 in float32). Device builds use CUDA's math library, host builds the compiler builtins.
#ifndef PYKERN_MATH_CUH
#define PYKERN_MATH_CUH
#include "pykern/base.cuh"
#include "pykern/complex.cuh"

namespace pk {

#if PK_DEVICE_BUILD
#define PK_MATH1(name, f32fn, f64fn) \
  PK_DEVICE f32 name(f32 x) { return ::f32fn(x); } \
  PK_DEVICE f64 name(f64 x) { return ::f64fn(x); }
#define PK_MATH2(name, f32fn, f64fn) \
  PK_DEVICE f32 name(f32 x, f32 y) { return ::f32fn(x, y); } \
  PK_DEVICE f64 name(f64 x, f64 y) { return ::f64fn(x, y); }
#else
#define PK_MATH1(name, f32fn, f64fn) \
  PK_DEVICE f32 name(f32 x) { return __builtin_##f32fn(x); } \
  PK_DEVICE f64 name(f64 x) { return __builtin_##f64fn(x); }
#define PK_MATH2(name, f32fn, f64fn) \
  PK_DEVICE f32 name(f32 x, f32 y) { return __builtin_##f32fn(x, y); } \
  PK_DEVICE f64 name(f64 x, f64 y) { return __builtin_##f64fn(x, y); }
#endif

PK_MATH1(sin, sinf, sin)
PK_MATH1(cos, cosf, cos)
PK_MATH1(tan, tanf, tan)
PK_MATH1(asin, asinf, asin)
PK_MATH1(acos, acosf, acos)
PK_MATH1(atan, atanf, atan)
PK_MATH1(sinh, sinhf, sinh)
PK_MATH1(cosh, coshf, cosh)
PK_MATH1(tanh, tanhf, tanh)
PK_MATH1(asinh, asinhf, asinh)
PK_MATH1(acosh, acoshf, acosh)
PK_MATH1(atanh, atanhf, atanh)
PK_MATH1(exp, expf, exp)
PK_MATH1(expm1, expm1f, expm1)
PK_MATH1(log, logf, log)
PK_MATH1(log2, log2f, log2)
PK_MATH1(log10, log10f, log10)
PK_MATH1(log1p, log1pf, log1p)
PK_MATH1(sqrt, sqrtf, sqrt)
PK_MATH1(cbrt, cbrtf, cbrt)
PK_MATH1(fabs, fabsf, fabs)
PK_MATH1(erf, erff, erf)
PK_MATH1(erfc, erfcf, erfc)
PK_MATH1(gamma, tgammaf, tgamma)
PK_MATH1(lgamma, lgammaf, lgamma)
PK_MATH1(floor, floorf, floor)
PK_MATH1(ceil, ceilf, ceil)
PK_MATH1(trunc, truncf, trunc)
PK_MATH1(rint, rintf, rint)
PK_MATH2(atan2, atan2f, atan2)
PK_MATH2(hypot, hypotf, hypot)
PK_MATH2(copysign_bits, copysignf, copysign)
PK_MATH2(fmod, fmodf, fmod)
PK_MATH2(fpow, powf, pow)
PK_MATH1(exp2, exp2f, exp2)
PK_MATH2(remainder, remainderf, remainder)
PK_MATH2(nextafter, nextafterf, nextafter)
#undef PK_MATH1
#undef PK_MATH2

// copysign(x, NaN) takes a NaN as positive, as a GPU's NaNs are: a CPU's 0/0 sets the sign bit,
// and a NaN the host compiler folds does not, so the bit itself would differ between builds.
PK_DEVICE f32 copysign(f32 x, f32 y) { return copysign_bits(x, y != y ? 1.0f : y); }
PK_DEVICE f64 copysign(f64 x, f64 y) { return copysign_bits(x, y != y ? 1.0 : y); }

// Numba multiplies by the factor Python computes in double, then rounded to the type (float32:
// 57.29578f, which 180.0f / 3.1415927f is not).
template <class T> PK_DEVICE T degrees(T x) { return x * T(180.0 / 3.141592653589793); }
template <class T> PK_DEVICE T radians(T x) { return x * T(3.141592653589793 / 180.0); }
template <class T> PK_DEVICE bool isnan(T x) { return x != x; }
template <class T> PK_DEVICE bool isinf(T x) { return x == inf<T>() || x == -inf<T>(); }
template <class T> PK_DEVICE bool isfinite(T x) { return !isnan(x) && !isinf(x); }
PK_DEVICE f64 ldexp(f64 x, i32 e) {
#if PK_DEVICE_BUILD
  return ::ldexp(x, e);
#else
  return __builtin_ldexp(x, e);
#endif
}
// math.frexp(x) -> (mantissa, exponent as int32) and math.modf(x) -> (fraction, whole part),
// as Numba types them.
template <class T> PK_DEVICE tuple<T, i32> frexp(T x) {
  int e = 0;
  T m;
#if PK_DEVICE_BUILD
  if constexpr (sizeof(T) == 4) m = ::frexpf(x, &e);
  else m = ::frexp(x, &e);
#else
  if constexpr (sizeof(T) == 4) m = __builtin_frexpf(x, &e);
  else m = __builtin_frexp(x, &e);
#endif
  return make_tuple(m, i32(e));
}
template <class T> PK_DEVICE tuple<T, T> modf(T x) {
  T whole = 0, fraction;
#if PK_DEVICE_BUILD
  if constexpr (sizeof(T) == 4) fraction = ::modff(x, &whole);
  else fraction = ::modf(x, &whole);
#else
  if constexpr (sizeof(T) == 4) fraction = __builtin_modff(x, &whole);
  else fraction = __builtin_modf(x, &whole);
#endif
  return make_tuple(fraction, whole);
}
template <class T> PK_DEVICE T fma(T a, T b, T c) {
#if PK_DEVICE_BUILD
  return ::fma(a, b, c);
#else
  return __builtin_fma(a, b, c);
#endif
}

// abs(-0.0) is 0.0, as in Python: floats clear the sign bit rather than compare with zero.
template <class T> PK_DEVICE T abs(T x) { return x < T(0) ? -x : x; }
template <> PK_DEVICE f32 abs(f32 x) { return fabs(x); }
template <> PK_DEVICE f64 abs(f64 x) { return fabs(x); }
template <class T> PK_DEVICE T abs(complex<T> z) { return hypot(z.re, z.im); }

}  // namespace pk
#endif  // PYKERN_MATH_CUH
