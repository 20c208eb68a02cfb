// bfloat16: the upper half of an IEEE float32 (sign, 8 exponent bits, 7 fraction bits), as
// DLPack's kDLBfloat 16, ml_dtypes' bfloat16 and CUDA's __nv_bfloat16 store it. A storage type
// for reading and writing such arrays on the host (Array::at<bfloat16>), not an arithmetic one:
// convert to float to compute.
#pragma once
#include <cstdint>
#include <cstring>

namespace pykern {

struct bfloat16 {
  uint16_t bits = 0;

  bfloat16() = default;
  // The nearest bfloat16, ties to even (a float past the largest finite one becomes infinity);
  // a NaN stays a NaN of the same sign, made quiet so that cutting its fraction cannot leave an
  // infinity. A double converts to float first, so it is rounded twice.
  bfloat16(float value) : bits(round_to_nearest_even(value)) {}
  // Exact: every bfloat16 is a float.
  explicit operator float() const {
    uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &wide, sizeof value);
    return value;
  }
  static bfloat16 from_bits(uint16_t bits) {
    bfloat16 b;
    b.bits = bits;
    return b;
  }

 private:
  static uint16_t round_to_nearest_even(float value) {
    uint32_t wide;
    std::memcpy(&wide, &value, sizeof wide);
    bool nan = (wide & 0x7fffffffu) > 0x7f800000u;
    if (nan) return static_cast<uint16_t>((wide >> 16) | 0x0040u);
    // Adding just under half of the dropped part's range, plus the kept part's lowest bit,
    // carries into the kept half exactly when the dropped part is past half, or at half with
    // the kept half odd.
    uint32_t lowest_kept = (wide >> 16) & 1u;
    return static_cast<uint16_t>((wide + 0x7fffu + lowest_kept) >> 16);
  }
};

}  // namespace pykern
