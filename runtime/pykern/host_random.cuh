// pykern runtime: random.random() / np.random.random() in @jit functions called on the host,
// as Numba's CPU target draws them: a Mersenne Twister per OS thread and module (Python's and
// NumPy's states apart), seeded by random.seed(n) / np.random.seed(n) exactly as Numba seeds
// it, else from system entropy. Host builds only. The states live in the engine, so every
// function and call of a thread shares them, as Numba's do.
#pragma once
#include "pykern/base.cuh"
#include "pykern/thread.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

struct mt_state {
  u32 mt[624];
  i32 index;
  i32 seeded;
};

inline void mt_seed(mt_state& s, u32 seed) {
  for (u32 position = 0; position < 624; ++position) {
    s.mt[position] = seed;
    seed = 1812433253u * (seed ^ (seed >> 30)) + position + 1;
  }
  s.index = 624;
  s.seeded = 1;
}

inline void mt_refill(mt_state& s) {
  auto mix = [&](int i, int next, int far) {
    u32 y = (s.mt[i] & 0x80000000u) | (s.mt[next] & 0x7fffffffu);
    s.mt[i] = s.mt[far] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
  };
  int i = 0;
  for (; i < 624 - 397; ++i) mix(i, i + 1, i + 397);
  for (; i < 623; ++i) mix(i, i + 1, i + 397 - 624);
  mix(623, 0, 396);
}

inline u32 mt_next(mt_state& s) {
  if (s.index >= 624) {
    mt_refill(s);
    s.index = 0;
  }
  u32 y = s.mt[s.index++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

// A double in [0, 1) from 53 random bits, as CPython's and Numba's random() make it.
inline f64 mt_double(mt_state& s) {
  u32 a = mt_next(s) >> 5, b = mt_next(s) >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

// which: 0 Python's random module, 1 NumPy's.
inline mt_state& host_random_state(i32 which) {
  auto* s = static_cast<mt_state*>(sim::hooks->host_random_state(which, sizeof(mt_state)));
  if (!s->seeded) mt_seed(*s, sim::hooks->entropy());
  return *s;
}
inline f64 host_random(i32 which) { return mt_double(host_random_state(which)); }
inline void host_random_seed(i32 which, u32 seed) {
  mt_seed(*static_cast<mt_state*>(sim::hooks->host_random_state(which, sizeof(mt_state))), seed);
}

}  // namespace pk
#endif
