// numba.cuda.random on the host: xoroshiro128+ states made exactly as Numba makes them
// (SplitMix64 from the seed, then each generator 2^64 steps after the previous one), so that
// kernels drawing xoroshiro128p_uniform_float32 & co. give Numba's numbers.
#pragma once
#include <cstdint>

#include "pykern/array.h"

namespace pykern {

// A 1-d array of n states with the record dtype [('s0', '<u8'), ('s1', '<u8')].
Array create_xoroshiro128p_states(int64_t n, uint64_t seed, uint64_t subsequence_start = 0);
// Re-initialises existing states (a host array of that dtype).
Status init_xoroshiro128p_states(Array& states, uint64_t seed, uint64_t subsequence_start = 0);

}  // namespace pykern
