// vector_add: a grid-stride loop.
extern "C" __global__ void vector_add(float* r, const float* x, const float* y, long long n) {
  long long start = threadIdx.x + (long long)blockIdx.x * blockDim.x;
  long long step = (long long)blockDim.x * gridDim.x;
  for (long long i = start; i < n; i += step) r[i] = x[i] + y[i];
}
