// compute_pi with Numba's xoroshiro128+ generator and its float32 uniform draw.
struct xoroshiro128p { unsigned long long s0, s1; };
__device__ unsigned long long rotl(unsigned long long x, int k) { return (x << k) | (x >> (64 - k)); }
__device__ unsigned long long next(xoroshiro128p* states, long long index) {
  unsigned long long s0 = states[index].s0, s1 = states[index].s1, result = s0 + s1;
  s1 ^= s0;
  states[index].s0 = rotl(s0, 55) ^ s1 ^ (s1 << 14);
  states[index].s1 = rotl(s1, 36);
  return result;
}
__device__ float uniform_float32(xoroshiro128p* states, long long index) {
  return (float)((next(states, index) >> 40) * (1.0 / (1ULL << 24)));
}
extern "C" __global__ void compute_pi(xoroshiro128p* rng_states, long long iterations, float* out) {
  long long tid = threadIdx.x + (long long)blockIdx.x * blockDim.x;
  long long inside = 0;
  for (long long i = 0; i < iterations; ++i) {
    float x = uniform_float32(rng_states, tid);
    float y = uniform_float32(rng_states, tid);
    if (x * x + y * y <= 1.0f) inside += 1;
  }
  out[tid] = (float)(4.0 * inside / iterations);
}
