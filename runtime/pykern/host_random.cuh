// pykern runtime: random.random() / np.random.random() in @jit functions called on the host,
// as Numba's CPU target draws them: a Mersenne Twister per OS thread and module (Python's and
// NumPy's states apart), seeded by random.seed(n) / np.random.seed(n) exactly as Numba seeds
// it, else from system entropy. Host builds only. The states live in the engine, so every
// function and call of a thread shares them, as Numba's do.
#ifndef PYKERN_HOST_RANDOM_CUH
#define PYKERN_HOST_RANDOM_CUH
#include "pykern/base.cuh"
#include "pykern/errors.cuh"
#include "pykern/thread.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

struct mt_state {
  u32 mt[624];
  i32 index;
  i32 seeded;
  i32 has_gauss;  // gauss/normal draws make two values; the second waits here
  f64 gauss;
};

inline void mt_seed(mt_state& s, u32 seed) {
  s.has_gauss = 0;
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

// random.uniform(a, b) / np.random.uniform(low, high): a + (b - a) * random(), as Numba.
inline f64 host_uniform(i32 which, f64 a, f64 b) { return a + (b - a) * host_random(which); }

// random.gauss(mu, sigma) / np.random.normal(loc, scale): Numba's polar Box-Muller, which
// makes two values per round and keeps the first for the next draw.
inline f64 host_gauss(i32 which, f64 mu, f64 sigma) {
  mt_state& s = host_random_state(which);
  f64 value;
  if (s.has_gauss) {
    value = s.gauss;
    s.has_gauss = 0;
  } else {
    f64 x1, x2, r2;
    do {
      x1 = 2.0 * mt_double(s) - 1.0;
      x2 = 2.0 * mt_double(s) - 1.0;
      r2 = x1 * x1 + x2 * x2;
    } while (!(r2 < 1.0 && r2 != 0.0));
    f64 f = __builtin_sqrt(-2.0 * __builtin_log(r2) / r2);
    s.gauss = f * x1;
    s.has_gauss = 1;
    value = f * x2;
  }
  return mu + sigma * value;
}

// `bits` (1..64) random bits: Python's module takes a draw's top bits (the high word second),
// NumPy's its low bits (the high word first), as Numba does.
inline u64 mt_bits(mt_state& s, i32 bits, bool numpy) {
  auto part = [&](i32 n) -> u64 {
    u32 y = mt_next(s);
    return numpy ? (n >= 32 ? y : y & ((1u << n) - 1u)) : (n >= 32 ? y : y >> (32 - n));
  };
  if (bits <= 32) return part(bits);
  if (numpy) {
    u64 high = part(bits - 32);
    return (high << 32) | mt_next(s);
  }
  u64 low = mt_next(s);
  return (part(bits - 32) << 32) | low;
}

// random.randrange(start, stop, step) / random.randint(a, b) (which 0), np.random.randint(low,
// high) (which 1): Numba's rejection sampling of just enough bits.
template <class T> T host_randrange(i32 which, T start, T stop, T step, const char* file, int line) {
  using U = decltype(u64(0) + T(0));
  T n = static_cast<T>(stop - start);  // wraps as Numba's does
  if (step < 0) n = static_cast<T>((n + step + 1) / step);
  if (step > 1) n = static_cast<T>((n + step - 1) / step);
  if (n <= 0) report_failure(file, line, "ValueError", "empty range for randrange()");
  bool numpy = which == 1;
  if (numpy && n == 1) return start;
  U limit = static_cast<U>(numpy ? n - 1 : n);
  i32 bits = 0;
  while (bits < i32(sizeof(T) * 8) && (limit >> bits) != 0) ++bits;
  mt_state& s = host_random_state(which);
  T r;
  do {
    r = static_cast<T>(mt_bits(s, bits, numpy));
  } while (r >= n);
  return static_cast<T>(start + r * step);
}
#define PK_HOST_RANDRANGE(which, start, stop, step) \
  ::pk::host_randrange((which), (start), (stop), (step), __FILE__, __LINE__)
// random.randint(a, b): randrange(a, b + 1), b + 1 wrapping in the arguments' type as in Numba.
#define PK_HOST_RANDINT(which, start, stop, step) \
  ::pk::host_randrange((which), (start), ::pk::wrapping_add_one(stop), (step), __FILE__, __LINE__)
template <class T> T wrapping_add_one(T v) { return static_cast<T>(static_cast<u64>(v) + 1u); }
inline void host_random_seed(i32 which, u32 seed) {
  mt_seed(*static_cast<mt_state*>(sim::hooks->host_random_state(which, sizeof(mt_state))), seed);
}

}  // namespace pk
#endif
#endif  // PYKERN_HOST_RANDOM_CUH
