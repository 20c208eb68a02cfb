// pykern runtime: where Python's arithmetic differs from C++'s, the rule lives here.
//   //  floors (C truncates); integer division by zero gives 0 (Numba's default error model)
//   %   takes the sign of the divisor
//   **  integer powers by squaring; float ** int exactly as repeated multiplication
//   round() rounds half to even
//   << and >> by a count outside [0, bits) give 0 (or -1 for a negative >>), as NumPy and
//     PTX's clamped shifts do, where C++ leaves it undefined
//   MIN // -1 and MIN % -1 are 0, as Numba's code gives them, where C++ traps (x86 raises SIGFPE)
//   unary - and ~ on an integer narrower than 64 bits wrap in its own width before it widens
//     (-uint8(3) is 253), where C++ first promotes it to int
#ifndef PYKERN_ARITH_CUH
#define PYKERN_ARITH_CUH
#include "pykern/base.cuh"
#include "pykern/errors.cuh"
#include "pykern/math.cuh"

namespace pk {

// -a with two's-complement wrapping (no signed overflow), in T's own width: Numba negates an
// integer before widening it (cpython/numbers.py int_negate_impl), so -uint8(3) is 253 and
// -int8(-128) is -128; C++'s -a would promote a narrow a to int first.
template <class T> PK_DEVICE T wrapping_negate(T a) { return static_cast<T>(u64(0) - static_cast<u64>(a)); }
// ~a in T's own width, as Numba inverts before widening (int_invert_impl): ~uint8(3) is 252.
template <class T> PK_DEVICE T invert_bits(T a) { return static_cast<T>(~static_cast<u64>(a)); }

// C's a / b for b not 0 (and not -1 with a signed minimum). On a CPU, 64-bit operands that
// both fit in 32 bits use the 32-bit division, several times faster on x86, as LLVM's
// bypass of slow divisions does for Numba's code.
template <class T> PK_DEVICE T truncated_quotient(T a, T b) {
#if !PK_DEVICE_BUILD
  if constexpr (sizeof(T) == 8) {
    if (((static_cast<u64>(a) | static_cast<u64>(b)) >> 32) == 0)
      return static_cast<T>(static_cast<u32>(a) / static_cast<u32>(b));
  }
#endif
  return a / b;
}

template <class T> PK_DEVICE T floordiv(T a, T b) {
  if constexpr (T(0.5) == T(0)) {  // integers
    if (b == 0) return 0;
    if constexpr (is_signed_int<T>::value) {
      if (b == T(-1)) {
        T negated = wrapping_negate(a);
        return negated == a ? T(0) : negated;  // MIN // -1 overflows: Numba returns 0
      }
    }
    T q = truncated_quotient(a, b);
    if constexpr (is_signed_int<T>::value) {
      if ((a - q * b != 0) && ((a < 0) != (b < 0))) --q;
    }
    return q;
  } else {
    return floor(a / b);
  }
}

// C's fmod where Python's float % starts from it. On the GPU, numba-cuda's float % is LLVM's
// frem, which NVVM lowers to |a| - floor(|a| / |b|) * |b| with a's sign: one division, where
// CUDA's fmod is a loop of integer steps, one per bit of the quotient (some hundred
// instructions, BENCHMARKS.md). pykern's GPU code computes it as numba-cuda's does; on a CPU
// Numba's frem is the C library's fmod, and so is pykern's.
template <class T> PK_DEVICE T float_remainder(T a, T b) {
#if PK_DEVICE_BUILD
  T magnitude = fabs(a) - floor(fabs(a) / fabs(b)) * fabs(b);
  return a < T(0) ? -magnitude : magnitude;
#else
  return fmod(a, b);
#endif
}

template <class T> PK_DEVICE T mod(T a, T b) {
  if constexpr (T(0.5) == T(0)) {
    if (b == 0) return 0;
    if constexpr (is_signed_int<T>::value) {
      if (b == T(-1)) return 0;
    }
    T r = static_cast<T>(a - truncated_quotient(a, b) * b);
    if constexpr (is_signed_int<T>::value) {
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
    }
    return r;
  } else {
    T r = float_remainder(a, b);
    if (r != T(0)) {
      if ((r < T(0)) != (b < T(0))) r += b;
    } else {
      r = copysign(T(0), b);
    }
    return r;
  }
}

// A float64 converted to a signed integer as the hardware does where it does not fit: x86's
// cvttsd2si gives the minimum (Numba's CPU code), PTX's cvt saturates (numba-cuda's).
template <class T> PK_DEVICE T float_to_signed(f64 v) {
  const f64 limit = f64(u64(1) << (sizeof(T) * 8 - 1));
#if PK_DEVICE_BUILD
  if (isnan(v)) return T(0);
  if (v >= limit) return static_cast<T>((u64(1) << (sizeof(T) * 8 - 1)) - 1);
  if (v < -limit) return static_cast<T>(u64(1) << (sizeof(T) * 8 - 1));
#else
  if (!(v > -limit - 1 && v < limit)) return static_cast<T>(u64(1) << (sizeof(T) * 8 - 1));
#endif
  return static_cast<T>(v);
}

// Integer ** integer, as Numba computes it. A negative exponent has no integer answer: 0 but
// for bases 1 and -1, and 0 ** negative is the type's minimum (Numba's numpy error model;
// PK_CHECKED_POW raises instead). Past 2**16, Numba computes the power in float64.
template <class T> PK_DEVICE T pow(T base, T exponent) {
  if constexpr (T(0.5) == T(0)) {
    if (exponent < 0) {
      if (base == 0) return static_cast<T>(u64(1) << (sizeof(T) * 8 - 1));
      return base == 1 ? 1 : base == T(-1) ? ((exponent & 1) ? T(-1) : T(1)) : 0;
    }
    if constexpr (is_signed_int<T>::value) {
      if (exponent > T(0x10000)) return float_to_signed<T>(fpow(f64(base), f64(exponent)));
    }
    T result = 1;
    while (exponent) {
      if (exponent & 1) result *= base;
      base *= base;
      exponent >>= 1;
    }
    return result;
  } else {
    return fpow(base, exponent);
  }
}

// Float ** integer: repeated multiplication (as LLVM's powi), reciprocal for negatives.
template <class T> PK_DEVICE T powi(T base, i64 exponent) {
  bool negative = exponent < 0;
  u64 n = negative ? u64(-exponent) : u64(exponent);
  T result = 1;
  while (n) {
    if (n & 1) result *= base;
    base *= base;
    n >>= 1;
  }
  return negative ? T(1) / result : result;
}
PK_DEVICE f32 pow(f32 base, i64 exponent) { return powi(base, exponent); }
PK_DEVICE f64 pow(f64 base, i64 exponent) { return powi(base, exponent); }
template <class T> PK_DEVICE complex<T> pow(complex<T> base, complex<T> exponent) {
  if (base.re == T(0) && base.im == T(0)) return complex<T>(exponent.re == T(0) && exponent.im == T(0) ? T(1) : T(0));
  T r = hypot(base.re, base.im), theta = atan2(base.im, base.re);
  T log_r = log(r);
  T mag = exp(exponent.re * log_r - exponent.im * theta);
  T angle = exponent.im * log_r + exponent.re * theta;
  return {mag * cos(angle), mag * sin(angle)};
}

template <class T> PK_DEVICE T lshift(T a, T count) {
  if (count < 0 || static_cast<u64>(count) >= sizeof(T) * 8) return 0;
  return static_cast<T>(static_cast<u64>(a) << count);
}
template <class T> PK_DEVICE T rshift(T a, T count) {
  if (count < 0 || static_cast<u64>(count) >= sizeof(T) * 8) return a < 0 ? T(-1) : T(0);
  return a >> count;  // arithmetic for signed values
}

template <class T> PK_DEVICE T min(T a, T b) { return b < a ? b : a; }
template <class T> PK_DEVICE T max(T a, T b) { return b > a ? b : a; }
// Integer min and max on a loop's carried chain (emit_cuda.cpp: chains of them in a loop that
// carries a value from one iteration to the next, as levenshtein's row update): a predicted
// branch takes the carried value off the chain of compares and moves that a select makes. LLVM's
// x86 cmov conversion gives Numba's code these branches; g++ has no such pass and turns every
// conditional form into a cmov unless an empty asm holds the chosen value. The expectation
// only lays the first operand's path straight (levenshtein: 7.1 -> 6.3 ms as a library; the
// predictor learns the real odds). NVRTC and clang++ take the plain select (clang makes the
// same choice as Numba's LLVM).
#if !PK_DEVICE_BUILD && defined(__GNUC__) && !defined(__clang__)
template <class T> PK_DEVICE T min_branch(T a, T b) {
  if (__builtin_expect(b < a, 0)) {
    a = b;
    __asm__("" : "+r"(a));
  }
  return a;
}
template <class T> PK_DEVICE T max_branch(T a, T b) {
  if (__builtin_expect(b > a, 0)) {
    a = b;
    __asm__("" : "+r"(a));
  }
  return a;
}
#else
template <class T> PK_DEVICE T min_branch(T a, T b) { return min(a, b); }
template <class T> PK_DEVICE T max_branch(T a, T b) { return max(a, b); }
#endif
// np.fmax / np.fmin: a NaN gives way to the other operand (NaN only when both are), as NumPy's.
template <class T> PK_DEVICE T fmax(T a, T b) { return b != b ? a : a != a ? b : max(a, b); }
template <class T> PK_DEVICE T fmin(T a, T b) { return b != b ? a : a != a ? b : min(a, b); }

// Python's round(x): half to even, as an int64.
template <class T> PK_DEVICE i64 round_to_int(T x) { return static_cast<i64>(rint(x)); }
// round(x, n), as numba-cuda lowers it (CPython's fallback double_round): the scaling and the
// half-to-even rounding happen in float64 even for a float32 x, so round(float32(0.3425), 3)
// is 0.343 (342.50000119 rounds up), where scaling in float32 would give 342.5 and 0.342.
// Digit counts past CPython's bounds return x (too fine to change it) or a signed zero.
template <class T> PK_DEVICE T round_digits(T x, i64 digits) {
  f64 v = f64(x);
  if (isinf(v) || isnan(v) || digits > 323) return x;
  if (digits < -308) return T(copysign(0.0, v));
  f64 pow1 = 0, pow2 = 1, y = 0;
  if (digits >= 0) {
    // Split 10**digits so that neither factor overflows.
    pow1 = powi(10.0, digits > 22 ? digits - 22 : digits);
    if (digits > 22) pow2 = 1e22;
    y = (v * pow1) * pow2;
    if (isinf(y)) return x;
  } else {
    pow1 = powi(10.0, -digits);
    y = v / pow1;
  }
  f64 z = rint(y);  // half to even
  return T(digits >= 0 ? (z / pow2) / pow1 : z * pow1);
}

// Python's error model (debug=True, and @jit functions on the host) checks divisors: Python
// raises ZeroDivisionError where C would give inf, 0 or undefined behaviour, with Numba's
// message for the operation and type. The macros pass the Python line of the division.
enum class division { true_divide, floor_divide, modulo };
template <class T> PK_DEVICE void check_divisor(T b, division op, const char* file, int line) {
  if (!(b == T(0))) return;
  bool integer = T(0.5) == T(0);
  const char* message = op == division::true_divide ? "division by zero"
                        : op == division::floor_divide ? (integer ? "integer division by zero" : "division by zero")
                        : integer ? "integer modulo by zero" : "modulo by zero";
  report_failure(file, line, "ZeroDivisionError", message);
}
template <class T> PK_DEVICE void check_divisor(complex<T> b, division, const char* file, int line) {
  if (b.re == T(0) && b.im == T(0)) report_failure(file, line, "ZeroDivisionError", "complex division by zero");
}
#define PK_CHECKED_TRUEDIV(a, b) \
  (::pk::check_divisor((b), ::pk::division::true_divide, __FILE__, __LINE__), (a) / (b))
#define PK_CHECKED_FLOORDIV(a, b) \
  (::pk::check_divisor((b), ::pk::division::floor_divide, __FILE__, __LINE__), ::pk::floordiv((a), (b)))
#define PK_CHECKED_MOD(a, b) (::pk::check_divisor((b), ::pk::division::modulo, __FILE__, __LINE__), ::pk::mod((a), (b)))

// A negative integer power of zero, which Python's error model refuses with Numba's words.
template <class T, class E> PK_DEVICE void check_power(T base, E exponent, const char* file, int line) {
  if constexpr (E(0.5) == E(0) && is_signed_int<E>::value) {  // an integer exponent
    if (exponent >= 0 || !(base == T(0))) return;
    report_failure(file, line, "ZeroDivisionError",
                   T(0.5) == T(0) ? "0 cannot be raised to a negative power" : "division by zero");
  }
}
#define PK_CHECKED_POW(a, b) (::pk::check_power((a), (b), __FILE__, __LINE__), ::pk::pow((a), (b)))

// `a and b` / `a or b` on numbers yield an operand (both are evaluated).
template <class T> PK_DEVICE T py_and(T a, T b) { return a != T(0) ? b : a; }
template <class T> PK_DEVICE T py_or(T a, T b) { return a != T(0) ? a : b; }

// A range(...) object held in a variable (r = range(n); for i in r; len(r)).
template <class T> struct range {
  T start, stop, step;
};
template <class T> PK_DEVICE range<T> make_range(T start, T stop, T step) { return {start, stop, step}; }
// len(range): the number of values it yields, as Python counts them (0 for a zero step, which
// Python refuses when the range is made).
template <class T> PK_DEVICE i64 range_len(const range<T>& r) {
  i64 start = i64(r.start), stop = i64(r.stop), step = i64(r.step);
  if (step > 0 && start < stop) return i64((u64(stop) - u64(start) - 1) / u64(step) + 1);
  if (step < 0 && start > stop) return i64((u64(start) - u64(stop) - 1) / (u64(0) - u64(step)) + 1);
  return 0;
}

// The k-th value a range object yields (0 <= k < range_len): start + k * step, computed in 64
// bits so a large step cannot overflow T on the way (the value itself is within the range).
template <class T> PK_DEVICE T range_item(const range<T>& r, i64 k) {
  return T(u64(i64(r.start)) + u64(k) * u64(i64(r.step)));
}

// for i in range(start, stop, step): does the loop go on with i?
template <class T> PK_DEVICE bool range_continues(T i, T stop, T step) {
  return step > 0 ? i < stop : i > stop;
}

}  // namespace pk
#endif  // PYKERN_ARITH_CUH
