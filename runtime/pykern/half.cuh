// pykern runtime: float16 (NumPy's float16, Numba's float16) as its IEEE binary16 bits, the
// same on the GPU and in the CPU simulator, with no cuda_fp16.h. Each operation computes in
// float32 and rounds the result to binary16 (to nearest, ties to even) as NumPy does; for
// + - * / and sqrt that equals the GPU's half instructions, since float32 carries more than
// twice binary16's precision.
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

struct f16 {
  u16 bits;
  f16() = default;
  template <class T> PK_DEVICE explicit f16(T v) : bits(half_bits_from(static_cast<f64>(v))) {}
  PK_DEVICE operator f32() const { return float_from_half_bits(bits); }
  static PK_DEVICE f16 from_bits(u16 b) {
    f16 h;
    h.bits = b;
    return h;
  }
};
static_assert(sizeof(f16) == 2, "float16 must be two bytes");

PK_DEVICE f16 operator+(f16 a, f16 b) { return f16(f32(a) + f32(b)); }
PK_DEVICE f16 operator-(f16 a, f16 b) { return f16(f32(a) - f32(b)); }
PK_DEVICE f16 operator*(f16 a, f16 b) { return f16(f32(a) * f32(b)); }
PK_DEVICE f16 operator/(f16 a, f16 b) { return f16(f32(a) / f32(b)); }
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
