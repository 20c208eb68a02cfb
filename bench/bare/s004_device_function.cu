// cudaKernal_func with its device function.
__device__ double device_func(double a, double b) {
  for (int i = 0; i < 2; ++i) a = exp(a * b);
  return a;
}
extern "C" __global__ void kernel_func(const double* a, const double* b, double* result, long long na,
                                       long long nb) {
  long long pos = threadIdx.x + (long long)blockIdx.x * blockDim.x;
  if (pos < na && pos < nb) result[pos] = device_func(a[pos], b[pos]);
}
