// The runtime headers' rules, tested on the host build of the headers (the simulator's); the
// corpus runs the same headers through NVRTC and through kernels.
#include <cmath>
#include <cstdint>
#include <cstring>

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
