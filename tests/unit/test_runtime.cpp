// The runtime headers' rules, tested on the host build of the headers (the simulator's); the
// corpus runs the same headers through NVRTC and through kernels.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>

#include <doctest/doctest.h>

#include "pykern/runtime.cuh"

namespace {

uint16_t half_bits(double v) { return pk::f16(v).bits; }

}  // namespace

TEST_CASE("float16 rounds from float64 to nearest, ties to even, as NumPy's astype does") {
  CHECK(half_bits(1.0) == 0x3c00);
  CHECK(half_bits(-2.0) == 0xc000);
  CHECK(half_bits(0.1) == 0x2e66);
  CHECK(half_bits(65504.0) == 0x7bff);
  CHECK(half_bits(65519.99) == 0x7bff);  // below the halfway point to 65536
  CHECK(half_bits(65520.0) == 0x7c00);   // the tie rounds to even: infinity
  CHECK(half_bits(1e6) == 0x7c00);
  CHECK(half_bits(-INFINITY) == 0xfc00);
  CHECK((half_bits(NAN) & 0x7c00) == 0x7c00);
  CHECK((half_bits(NAN) & 0x03ff) != 0);
  CHECK(half_bits(1.0 + 1.0 / 2048) == 0x3c00);      // a tie between 1 and its successor: even
  CHECK(half_bits(1.0 + 3.0 / 2048) == 0x3c02);      // the other tie rounds up to even
  CHECK(half_bits(std::ldexp(1.0, -24)) == 0x0001);  // the smallest subnormal
  CHECK(half_bits(std::ldexp(1.0, -25)) == 0x0000);  // half of it: a tie, to even zero
  CHECK(half_bits(std::ldexp(1.5, -25)) == 0x0001);
  CHECK(half_bits(std::ldexp(1023.5, -24)) == 0x0400);  // rounds up into the smallest normal
  CHECK(half_bits(-0.0) == 0x8000);
}

TEST_CASE("float16 widens exactly and computes each operation in float32, rounded once") {
  int changed = 0;  // values that do not survive the round trip through float32
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float widened = static_cast<float>(pk::f16::from_bits(static_cast<uint16_t>(bits)));
    if (!std::isnan(widened) && pk::f16(widened).bits != bits) ++changed;
  }
  CHECK(changed == 0);
  pk::f16 a(0.1), b(0.2);
  CHECK((a + b).bits == pk::f16(static_cast<float>(a) + static_cast<float>(b)).bits);
  CHECK((-a).bits == 0xae66);
  CHECK(pk::floordiv(pk::f16(7.0), pk::f16(-2.0)).bits == pk::f16(-4.0).bits);
  CHECK(pk::mod(pk::f16(7.0), pk::f16(-2.0)).bits == pk::f16(-1.0).bits);
  CHECK(pk::isnan(pk::f16(NAN)));
  CHECK(pk::isinf(pk::f16(1e9)));
  CHECK(pk::fp16::hmax(pk::f16(NAN), pk::f16(2.0)).bits == pk::f16(2.0).bits);
  // (1 + 2**-10)**2 - (1 + 2**-9) is 2**-20 when rounded once; rounding the product first gives 0.
  pk::f16 near_one(1.0 + 1.0 / 1024), minus(-(1.0 + 2.0 / 1024));
  CHECK(pk::fp16::hfma(near_one, near_one, minus).bits == pk::f16(std::ldexp(1.0, -20)).bits);
  CHECK((near_one * near_one + minus).bits == 0);
}

TEST_CASE("round(x, n) scales and rounds in float64 as numba-cuda does") {
  CHECK(pk::round_digits(0.3425f, 3) == 0.343f);
  CHECK(pk::round_digits(2.5, 0) == 2.0);
  CHECK(pk::round_digits(-2.5, 0) == -2.0);
  CHECK(pk::round_digits(1234.5678, -2) == 1200.0);
  CHECK(pk::round_digits(1e300, 400) == 1e300);
  CHECK(std::signbit(pk::round_digits(-3.0, -400)));
  CHECK(std::isnan(pk::round_digits(NAN, 2)));
}

TEST_CASE("complex division scales by the larger part of the divisor, as Numba and CPython do") {
  using z = pk::complex<double>;
  z q = z(1e-200, 1e-200) / z(2e-200, 2e-200);  // |b|^2 underflows; the scaled form does not
  CHECK(q.re == 0.5);
  CHECK(q.im == 0.0);
  z big = z(1, 1) / z(1e-300, 1e-300);
  CHECK(big.re == doctest::Approx(1e300));
  z by_zero = z(1, 0) / z(0, 0);
  CHECK(std::isnan(by_zero.re));
  z ordinary = z(3, 4) / z(1, 2);
  CHECK(ordinary.re == doctest::Approx(2.2));
  CHECK(ordinary.im == doctest::Approx(-0.4));
}

TEST_CASE("cmath's special values follow numba-cuda's algorithms where CPython would raise") {
  using z = pk::complex<double>;
  double inf = INFINITY;
  z root = pk::cmath_sqrt(z(-4, 0));
  CHECK(root.re == 0);
  CHECK(root.im == 2);
  z e = pk::cmath_exp(z(inf, 0));  // inf + 0j, not NaNs from inf * 0
  CHECK(e.re == inf);
  CHECK(e.im == 0);
  z edge = pk::cmath_atanh(z(1, 0));  // C99: atanh(1 + 0j) = inf + 0j
  CHECK(edge.re == inf);
  CHECK(edge.im == 0);
  z ten = pk::cmath_log10(z(100, 0));
  CHECK(ten.re == doctest::Approx(2.0));
  z huge = pk::cmath_acos(z(1e300, 1e300));  // no overflow in the large-argument branch
  CHECK(std::isfinite(huge.re));
  CHECK(huge.im < -690);
  pk::complex<float> narrow = pk::cmath_sqrt(pk::complex<float>(-4.0f, 0.0f));
  CHECK(narrow.im == 2.0f);
  CHECK(pk::cmath_isinf(z(1, inf)));
  CHECK_FALSE(pk::cmath_isfinite(z(NAN, 0)));
  // numba-cuda's atanh has no special-value table: a NaN real part keeps the imaginary part's
  // pi/2 where CPython (and so Numba's simulator) gives NaN. pykern follows the GPU.
  z nan_real = pk::cmath_atanh(z(NAN, 1));
  CHECK(std::isnan(nan_real.re));
  CHECK(nan_real.im == doctest::Approx(1.5707963267948966));
  pk::complex<double> r = pk::cmath_rect(inf, 0.0);
  CHECK(r.re == inf);
  CHECK(r.im == 0);
}

TEST_CASE("abs of a negative zero is a positive zero, as Python's abs is") {
  CHECK_FALSE(std::signbit(pk::abs(-0.0)));
  CHECK_FALSE(std::signbit(pk::abs(-0.0f)));
  CHECK(pk::abs(-2.5) == 2.5);
  CHECK(pk::abs(pk::i64(-3)) == 3);
}

// Numba negates and inverts an integer in its own width, then widens it (cpython/numbers.py
// int_negate_impl, int_invert_impl); C++'s - and ~ would promote a narrow operand to int.
TEST_CASE("unary - and ~ wrap in the operand's own width, as Numba computes them before widening") {
  CHECK(pk::u64(pk::wrapping_negate(pk::u8(3))) == 253);
  CHECK(pk::u64(pk::invert_bits(pk::u8(3))) == 252);
  CHECK(pk::u64(pk::invert_bits(pk::u32(5))) == 4294967290ULL);
  CHECK(pk::i64(pk::wrapping_negate(pk::i8(-128))) == -128);  // wraps in int8
  CHECK(pk::u64(pk::wrapping_negate(pk::u16(0))) == 0);
  CHECK(pk::i64(pk::invert_bits(pk::i16(5))) == -6);
  CHECK(pk::wrapping_negate(pk::u64(1)) == ~pk::u64(0));
  CHECK(pk::invert_bits(pk::i64(0)) == -1);
}

// numba-cuda lowers popc and clz to llvm.ctpop/ctlz on the value's own type (cudaimpl.py): an
// 8- or 16-bit value is counted at its width, and a negative one by its own bits, not by its
// sign extension. (Numba's simulator counts Python ints instead: clz(int8(1)) is 31 there.)
TEST_CASE("cuda.clz and cuda.popc count an 8-, 16-, 32- or 64-bit value at its own width") {
  CHECK(pk::clz(uint8_t(1)) == 7);
  CHECK(pk::clz(int8_t(1)) == 7);
  CHECK(pk::clz(int8_t(-1)) == 0);
  CHECK(pk::clz(int8_t(0)) == 8);
  CHECK(pk::clz(int8_t(-128)) == 0);
  CHECK(pk::clz(uint16_t(1)) == 15);
  CHECK(pk::clz(int16_t(-1)) == 0);
  CHECK(pk::clz(int32_t(1)) == 31);
  CHECK(pk::clz(int32_t(-1)) == 0);
  CHECK(pk::clz(uint64_t(1)) == 63);
  CHECK(pk::clz(int64_t(0)) == 64);
  CHECK(pk::popc(int8_t(-1)) == 8);
  CHECK(pk::popc(int16_t(-1)) == 16);
  CHECK(pk::popc(int32_t(-1)) == 32);
  CHECK(pk::popc(int64_t(-1)) == 64);
  CHECK(pk::popc(uint8_t(0x81)) == 2);
  CHECK(pk::ffs(int32_t(-8)) == 4u);
  CHECK(pk::ffs(int64_t(1) << 40) == 41u);
  CHECK(pk::ffs(uint32_t(0)) == 0u);
  CHECK(pk::brev(uint32_t(1)) == 0x80000000u);
  CHECK(pk::brev(uint64_t(1)) == 0x8000000000000000ull);
}

namespace {

// A finite float16 as an exact multiple of its smallest step, 2**-24.
__int128 half_steps(pk::f16 h) { return static_cast<__int128>(std::ldexp(static_cast<double>(static_cast<float>(h)), 24)); }

// The float16 nearest (ties to even) to steps * 2**-shift, computed in integers: the reference
// that the GPU's add.rn.f16, mul.rn.f16 and fma.rn.f16 meet by definition.
uint16_t half_rounded_exactly(__int128 steps, int shift) {
  bool negative = steps < 0;
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(steps) : steps;
  int top = 127;
  while (top > 0 && !((magnitude >> top) & 1)) --top;
  // Normals keep 11 significant bits; subnormals count in units of 2**-24.
  int dropped = std::max(top - 10, shift - 24);
  unsigned __int128 kept = magnitude, rest = 0, halfway = 0;
  if (dropped > 0) {
    kept = magnitude >> dropped;
    rest = magnitude & ((static_cast<unsigned __int128>(1) << dropped) - 1);
    halfway = static_cast<unsigned __int128>(1) << (dropped - 1);
    if (rest > halfway || (rest == halfway && (kept & 1))) ++kept;
  }
  double value = std::ldexp(static_cast<double>(kept), dropped - shift);  // exact: kept has 12 bits at most
  return pk::f16(negative ? -value : value).bits;
}

uint64_t next_random(uint64_t& state) {  // xorshift64: the same draws on every run
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

pk::f16 random_finite_half(uint64_t& state) {
  for (;;) {
    auto bits = static_cast<uint16_t>(next_random(state));
    if ((bits & 0x7c00) != 0x7c00) return pk::f16::from_bits(bits);
  }
}

}  // namespace

// The GPU rounds each float16 operation once from its exact result (add.rn.f16, mul.rn.f16,
// fma.rn.f16); the simulator computes in float32 (float64 for hfma) and rounds in software. The
// two must give the same bits for any operands, or a kernel's results would depend on the backend.
TEST_CASE("float16 + - * and hfma on the simulator give the exactly rounded result, as the GPU's half instructions do") {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  int compared = 0;
  auto check = [&](const char* op, pk::f16 result, __int128 steps, int shift, pk::f16 a, pk::f16 b, pk::f16 c) {
    if (!pk::isfinite(a) || !pk::isfinite(b) || !pk::isfinite(c)) return;  // the constructions may step onto infinity
    if (steps == 0) return;  // the sign of an exact zero follows other rules; the value is 0 anyway
    ++compared;
    uint16_t expected = half_rounded_exactly(steps, shift);
    if (result.bits != expected)
      FAIL_CHECK(std::string(op) << "(" << a.bits << ", " << b.bits << ", " << c.bits << "): " << result.bits << " != " << expected);
  };
  for (int i = 0; i < 300000; ++i) {
    pk::f16 a = random_finite_half(state), b = random_finite_half(state), c = random_finite_half(state);
    if (i % 3 == 0 && pk::isfinite(a * b)) c = -(a * b);  // c cancels the product's leading bits: fma's hard case
    if (i % 3 == 1) b = pk::f16::from_bits(static_cast<uint16_t>((a.bits ^ 0x8000) + (next_random(state) & 3) - 1));  // a - b near 0
    __int128 sa = half_steps(a), sb = half_steps(b), sc = half_steps(c);
    check("add", a + b, sa + sb, 24, a, b, c);
    check("sub", a - b, sa - sb, 24, a, b, c);
    check("mul", a * b, sa * sb, 48, a, b, c);
    check("hfma", pk::fp16::hfma(a, b, c), sa * sb + (sc << 24), 48, a, b, c);
  }
  CHECK(compared > 1000000);
}

// The GPU converts an integer to float16 through float32 (one cvt.rn.f32 each, cheaper than
// float64's); the simulator through float64. Integers up to 2**24 are exact in both, and any
// larger one rounds to infinity either way.
TEST_CASE("an integer converted to float16 through float32 gives what the simulator's conversion through float64 gives") {
  auto same = [](int64_t v) {
    return pk::half_bits_from(static_cast<double>(static_cast<float>(v))) == pk::half_bits_from(static_cast<double>(v));
  };
  int differing = 0;
  for (int64_t v = -140000; v <= 140000; ++v) differing += !same(v);
  for (int64_t base : {int64_t(1) << 24, int64_t(1) << 31, int64_t(1) << 53, int64_t(1) << 62})
    for (int64_t d = -3; d <= 3; ++d) differing += !same(base + d) + !same(-base - d);
  differing += !same(INT64_MIN) + !same(INT64_MAX);
  CHECK(differing == 0);
}
