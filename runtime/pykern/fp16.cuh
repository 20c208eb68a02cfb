// pykern runtime: Python's operators and numba.cuda.fp16's intrinsics on float16. Each
// computes in float32 and rounds once to float16, as NumPy's float16 loops and the GPU's half
// instructions do. hfma rounds once, as the GPU's fma.rn.f16 does (Numba's simulator rounds
// the product first).
#ifndef PYKERN_FP16_CUH
#define PYKERN_FP16_CUH
#include "pykern/arith.cuh"
#include "pykern/half.cuh"
#include "pykern/math.cuh"

namespace pk {

PK_DEVICE f16 floordiv(f16 a, f16 b) { return f16(floordiv(f32(a), f32(b))); }
PK_DEVICE f16 mod(f16 a, f16 b) { return f16(mod(f32(a), f32(b))); }
PK_DEVICE f16 pow(f16 base, f16 exponent) { return f16(fpow(f32(base), f32(exponent))); }
PK_DEVICE f16 pow(f16 base, i64 exponent) { return f16(powi(f32(base), exponent)); }
PK_DEVICE f16 abs(f16 x) { return f16::from_bits(x.bits & 0x7fff); }
PK_DEVICE bool isnan(f16 x) { return (x.bits & 0x7fff) > 0x7c00; }
PK_DEVICE bool isinf(f16 x) { return (x.bits & 0x7fff) == 0x7c00; }
PK_DEVICE bool isfinite(f16 x) { return (x.bits & 0x7c00) != 0x7c00; }

namespace fp16 {
PK_DEVICE f16 hadd(f16 a, f16 b) { return a + b; }
PK_DEVICE f16 hsub(f16 a, f16 b) { return a - b; }
PK_DEVICE f16 hmul(f16 a, f16 b) { return a * b; }
PK_DEVICE f16 hdiv(f16 a, f16 b) { return a / b; }
PK_DEVICE f16 hfma(f16 a, f16 b, f16 c) { return fused_multiply_add(a, b, c); }
PK_DEVICE f16 hneg(f16 a) { return -a; }
PK_DEVICE f16 habs(f16 a) { return abs(a); }
PK_DEVICE f16 hsin(f16 x) { return f16(sin(f32(x))); }
PK_DEVICE f16 hcos(f16 x) { return f16(cos(f32(x))); }
PK_DEVICE f16 hlog(f16 x) { return f16(log(f32(x))); }
PK_DEVICE f16 hlog2(f16 x) { return f16(log2(f32(x))); }
PK_DEVICE f16 hlog10(f16 x) { return f16(log10(f32(x))); }
PK_DEVICE f16 hexp(f16 x) { return f16(exp(f32(x))); }
PK_DEVICE f16 hexp2(f16 x) { return f16(exp2(f32(x))); }
PK_DEVICE f16 hexp10(f16 x) { return f16(fpow(10.0f, f32(x))); }
PK_DEVICE f16 hsqrt(f16 x) { return f16(sqrt(f32(x))); }
PK_DEVICE f16 hrsqrt(f16 x) { return f16(1.0f / sqrt(f32(x))); }
PK_DEVICE f16 hrcp(f16 x) { return f16(1.0f / f32(x)); }
PK_DEVICE f16 hceil(f16 x) { return f16(ceil(f32(x))); }
PK_DEVICE f16 hfloor(f16 x) { return f16(floor(f32(x))); }
PK_DEVICE f16 htrunc(f16 x) { return f16(trunc(f32(x))); }
PK_DEVICE f16 hrint(f16 x) { return f16(rint(f32(x))); }
PK_DEVICE bool heq(f16 a, f16 b) { return a == b; }
PK_DEVICE bool hne(f16 a, f16 b) { return a != b; }
PK_DEVICE bool hgt(f16 a, f16 b) { return a > b; }
PK_DEVICE bool hge(f16 a, f16 b) { return a >= b; }
PK_DEVICE bool hlt(f16 a, f16 b) { return a < b; }
PK_DEVICE bool hle(f16 a, f16 b) { return a <= b; }
// The larger/smaller; a NaN operand gives the other one (CUDA's __hmax/__hmin).
PK_DEVICE f16 hmax(f16 a, f16 b) { return isnan(a) ? b : isnan(b) ? a : (a > b ? a : b); }
PK_DEVICE f16 hmin(f16 a, f16 b) { return isnan(a) ? b : isnan(b) ? a : (a < b ? a : b); }
}  // namespace fp16

}  // namespace pk
#endif  // PYKERN_FP16_CUH
