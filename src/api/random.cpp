#include "pykern/random.h"

namespace pykern {

namespace {

struct State {
  uint64_t s0, s1;
};

uint64_t rotl(uint64_t x, unsigned k) { return (x << k) | (x >> (64 - k)); }

void next(State& s) {
  uint64_t s0 = s.s0, s1 = s.s1 ^ s.s0;
  s.s0 = rotl(s0, 55) ^ s1 ^ (s1 << 14);
  s.s1 = rotl(s1, 36);
}

// SplitMix64 of the seed gives both halves of the first state.
State seeded(uint64_t seed) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  return {z, z};
}

// Advance by 2^64 steps: the xoroshiro128+ jump polynomial.
void jump(State& s) {
  const uint64_t polynomial[2] = {0xBEAC0467EBA5FACBull, 0xD86B048B86AA9922ull};
  State acc{0, 0};
  for (uint64_t word : polynomial) {
    for (unsigned bit = 0; bit < 64; ++bit) {
      if (word >> bit & 1) {
        acc.s0 ^= s.s0;
        acc.s1 ^= s.s1;
      }
      next(s);
    }
  }
  s = acc;
}

}  // namespace

Status init_xoroshiro128p_states(Array& states, uint64_t seed, uint64_t subsequence_start) {
  if (states.dtype() != DType::xoroshiro128p() || states.ndim() != 1 || states.location() != Location::host)
    return Error::make(ErrorKind::invalid_argument, "xoroshiro128p states must be a 1-d host array of the state dtype");
  if (states.size() == 0) return ok_status();
  State s = seeded(seed);
  for (uint64_t i = 0; i < subsequence_start; ++i) jump(s);
  for (int64_t i = 0; i < states.size(); ++i) {
    if (i > 0) jump(s);
    states.at<State>(i) = s;
  }
  return ok_status();
}

Array create_xoroshiro128p_states(int64_t n, uint64_t seed, uint64_t subsequence_start) {
  Array states = Array::zeros(DType::xoroshiro128p(), {n});
  (void)init_xoroshiro128p_states(states, seed, subsequence_start);
  return states;
}

}  // namespace pykern
