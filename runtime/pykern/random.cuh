// pykern runtime: numba.cuda.random's xoroshiro128+ generator, bit for bit: same state record,
// same step, same conversion to floats, same Box-Muller transform.
#ifndef PYKERN_RANDOM_CUH
#define PYKERN_RANDOM_CUH
#include "pykern/array.cuh"
#include "pykern/math.cuh"

namespace pk {

// The record dtype [('s0', '<u8'), ('s1', '<u8')].
struct xoroshiro128p_state {
  u64 s0;
  u64 s1;
};

PK_DEVICE u64 rotl(u64 x, u32 k) { return (x << k) | (x >> (64 - k)); }

template <Layout L> PK_DEVICE u64 xoroshiro128p_next(const Array<xoroshiro128p_state, 1, L>& states, i64 index) {
  xoroshiro128p_state& state = PK_AT(states, index);
  u64 s0 = state.s0;
  u64 s1 = state.s1;
  u64 result = s0 + s1;
  s1 ^= s0;
  state.s0 = rotl(s0, 55) ^ s1 ^ (s1 << 14);
  state.s1 = rotl(s1, 36);
  return result;
}

// SplitMix64 of the seed into both halves of states[index] (Numba's init_xoroshiro128p_state).
template <Layout L> PK_DEVICE void init_xoroshiro128p_state(const Array<xoroshiro128p_state, 1, L>& states, i64 index, u64 seed) {
  u64 z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  xoroshiro128p_state& state = PK_AT(states, index);
  state.s0 = z;
  state.s1 = z;
}

PK_DEVICE f64 uint64_to_unit_float64(u64 x) { return f64(x >> 11) * (1.0 / f64(u64(1) << 53)); }
PK_DEVICE f32 uint64_to_unit_float32(u64 x) { return f32(uint64_to_unit_float64(x)); }

template <Layout L> PK_DEVICE f32 xoroshiro128p_uniform_float32(const Array<xoroshiro128p_state, 1, L>& s, i64 i) {
  return uint64_to_unit_float32(xoroshiro128p_next(s, i));
}
template <Layout L> PK_DEVICE f64 xoroshiro128p_uniform_float64(const Array<xoroshiro128p_state, 1, L>& s, i64 i) {
  return uint64_to_unit_float64(xoroshiro128p_next(s, i));
}
// Box-Muller on two float32 uniforms, as Numba does for both widths; 2*pi is rounded to
// the result's width first (Numba's TWO_PI_FLOAT32 / TWO_PI_FLOAT64).
template <Layout L> PK_DEVICE f32 xoroshiro128p_normal_float32(const Array<xoroshiro128p_state, 1, L>& s, i64 i) {
  f32 u1 = xoroshiro128p_uniform_float32(s, i);
  f32 u2 = xoroshiro128p_uniform_float32(s, i);
  return sqrt(-2.0f * log(u1)) * cos(6.28318530717958647692f * u2);
}
template <Layout L> PK_DEVICE f64 xoroshiro128p_normal_float64(const Array<xoroshiro128p_state, 1, L>& s, i64 i) {
  f32 u1 = xoroshiro128p_uniform_float32(s, i);
  f32 u2 = xoroshiro128p_uniform_float32(s, i);
  return sqrt(-2.0 * f64(log(u1))) * cos(6.28318530717958647692 * f64(u2));
}

}  // namespace pk
#endif  // PYKERN_RANDOM_CUH
