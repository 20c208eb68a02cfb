// pykern runtime: float16 (NumPy's float16, Numba's float16) as its IEEE binary16 bits, the
// same on the GPU and in the CPU simulator, with no cuda_fp16.h (NVRTC has no system headers).
// Each operation rounds its exact result to binary16 (to nearest, ties to even) once, as
// NumPy's float16 loops and numba-cuda's half instructions do. The simulator computes in
// float32 and rounds in software; the GPU uses its half instructions through inline PTX
// (add.rn.f16, cvt.rn.f16.f32, ...). Both give the same bits for + - * / and sqrt, since
// float32 carries more than twice binary16's precision (24 >= 2 * 11 + 2 bits), so rounding
// to float32 first never changes the binary16 result.
#ifndef PYKERN_HALF_CUH
#define PYKERN_HALF_CUH
#include "pykern/base.cuh"

namespace pk {

PK_DEVICE u64 bits_of(f64 v) {
#if PK_DEVICE_BUILD
  return static_cast<u64>(__double_as_longlong(v));
#else
  return __builtin_bit_cast(u64, v);
#endif
}
PK_DEVICE f32 float_of_bits(u32 bits) {
#if PK_DEVICE_BUILD
  return __int_as_float(static_cast<int>(bits));
#else
  return __builtin_bit_cast(f32, bits);
#endif
}

// The binary16 nearest to v (ties to even); NaNs stay NaNs, overflow gives infinity.
PK_DEVICE u16 half_bits_from(f64 v) {
  u64 x = bits_of(v);
  u16 sign = static_cast<u16>((x >> 48) & 0x8000);
  u64 magnitude = x & 0x7fffffffffffffffULL;
  if (magnitude >= 0x7ff0000000000000ULL)
    return sign | 0x7c00 | (magnitude > 0x7ff0000000000000ULL ? 0x200 | static_cast<u16>((magnitude >> 42) & 0x3ff) : 0);
  int exponent = static_cast<int>(magnitude >> 52) - 1023;
  if (exponent > 15) return sign | 0x7c00;
  if (exponent < -25) return sign;  // below half the smallest subnormal: zero
  u64 significand = (magnitude & ((1ULL << 52) - 1)) | (1ULL << 52);
  // Normals keep 11 significant bits; subnormals count in units of 2**-24.
  int shift = exponent >= -14 ? 42 : 28 - exponent;
  u64 kept = significand >> shift;
  u64 rest = significand & ((1ULL << shift) - 1), halfway = 1ULL << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1))) ++kept;
  if (exponent < -14) return sign | static_cast<u16>(kept);  // 1024 is the smallest normal
  u32 bits = (static_cast<u32>(exponent + 15) << 10) + static_cast<u32>(kept - 1024);  // a carry bumps the exponent
  return sign | static_cast<u16>(bits >= 0x7c00 ? 0x7c00 : bits);
}

PK_DEVICE f32 float_from_half_bits(u16 h) {
  u32 sign = static_cast<u32>(h & 0x8000) << 16;
  u32 exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
  if (exponent == 0) {
    f32 v = static_cast<f32>(fraction) * 5.9604644775390625e-08f;  // fraction * 2**-24
    return sign ? -v : v;
  }
  if (exponent == 31) return float_of_bits(sign | 0x7f800000 | (fraction << 13));
  return float_of_bits(sign | ((exponent + 112) << 23) | (fraction << 13));
}

#if PK_DEVICE_BUILD
// The GPU's conversions, one instruction each. .rn rounds to nearest, ties to even, as
// half_bits_from does; float64 converts directly, not through float32 (which would round twice).
PK_DEVICE u16 half_bits_rounded(f32 v) {
  u16 h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(v));
  return h;
}
PK_DEVICE u16 half_bits_rounded(f64 v) {
  u16 h;
  asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(v));
  return h;
}
// Other types (integers, bool) through float64 as on the host; an integer the GPU converts
// through float32 instead (cheaper), which gives the same binary16: integers up to 2**24 are
// exact in float32, and anything at or beyond 65520 rounds to infinity either way.
template <class T> PK_DEVICE u16 half_bits_rounded(T v) {
  if constexpr (T(0.5) == T(0)) return half_bits_rounded(static_cast<f32>(v));
  else return half_bits_rounded(static_cast<f64>(v));
}
PK_DEVICE f32 float_from_half(u16 h) {
  f32 v;
  asm("cvt.f32.f16 %0, %1;" : "=f"(v) : "h"(h));
  return v;
}
#else
template <class T> PK_DEVICE u16 half_bits_rounded(T v) { return half_bits_from(static_cast<f64>(v)); }
PK_DEVICE f32 float_from_half(u16 h) { return float_from_half_bits(h); }
#endif

struct f16 {
  u16 bits;
  f16() = default;
  template <class T> PK_DEVICE explicit f16(T v) : bits(half_bits_rounded(v)) {}
  PK_DEVICE operator f32() const { return float_from_half(bits); }
  static PK_DEVICE f16 from_bits(u16 b) {
    f16 h;
    h.bits = b;
    return h;
  }
};
static_assert(sizeof(f16) == 2, "float16 must be two bytes");

#if PK_DEVICE_BUILD && __CUDA_ARCH__ >= 530
// The half instructions (sm_53 and later), with .rn: without a rounding modifier ptxas may fuse
// a multiply and an add into one fma, which rounds once where the simulator (and NumPy) round twice.
#define PK_HALF_BINARY(op, instruction)                                                             \
  PK_DEVICE f16 operator op(f16 a, f16 b) {                                                         \
    u16 r;                                                                                          \
    asm(instruction " %0, %1, %2;" : "=h"(r) : "h"(a.bits), "h"(b.bits));                           \
    return f16::from_bits(r);                                                                       \
  }
PK_HALF_BINARY(+, "add.rn.f16")
PK_HALF_BINARY(-, "sub.rn.f16")
PK_HALF_BINARY(*, "mul.rn.f16")
#undef PK_HALF_BINARY
// PTX has no half division: float32's correctly rounded quotient, rounded once more, is exact.
PK_DEVICE f16 operator/(f16 a, f16 b) { return f16(f32(a) / f32(b)); }
// a * b + c rounded once (numba.cuda.fp16.hfma).
PK_DEVICE f16 fused_multiply_add(f16 a, f16 b, f16 c) {
  u16 r;
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a.bits), "h"(b.bits), "h"(c.bits));
  return f16::from_bits(r);
}
#else
// The simulator, and GPUs before sm_53: float32 arithmetic, rounded once more.
PK_DEVICE f16 operator+(f16 a, f16 b) { return f16(f32(a) + f32(b)); }
PK_DEVICE f16 operator-(f16 a, f16 b) { return f16(f32(a) - f32(b)); }
PK_DEVICE f16 operator*(f16 a, f16 b) { return f16(f32(a) * f32(b)); }
PK_DEVICE f16 operator/(f16 a, f16 b) { return f16(f32(a) / f32(b)); }
// The product of two binary16 values is exact in float64, and the sum rounded to float64 cannot
// land on or cross a binary16 rounding boundary that the exact sum does not: one rounding.
PK_DEVICE f16 fused_multiply_add(f16 a, f16 b, f16 c) { return f16(f64(f32(a)) * f64(f32(b)) + f64(f32(c))); }
#endif
PK_DEVICE f16 operator-(f16 a) { return f16::from_bits(a.bits ^ 0x8000); }
PK_DEVICE f16 operator+(f16 a) { return a; }
PK_DEVICE bool operator==(f16 a, f16 b) { return f32(a) == f32(b); }
PK_DEVICE bool operator!=(f16 a, f16 b) { return f32(a) != f32(b); }
PK_DEVICE bool operator<(f16 a, f16 b) { return f32(a) < f32(b); }
PK_DEVICE bool operator<=(f16 a, f16 b) { return f32(a) <= f32(b); }
PK_DEVICE bool operator>(f16 a, f16 b) { return f32(a) > f32(b); }
PK_DEVICE bool operator>=(f16 a, f16 b) { return f32(a) >= f32(b); }
PK_DEVICE f16& operator+=(f16& a, f16 b) { return a = a + b; }
PK_DEVICE f16& operator-=(f16& a, f16 b) { return a = a - b; }
PK_DEVICE f16& operator*=(f16& a, f16 b) { return a = a * b; }
PK_DEVICE f16& operator/=(f16& a, f16 b) { return a = a / b; }

}  // namespace pk
#endif  // PYKERN_HALF_CUH
