// cuda_matmul1: one thread per element of C.
extern "C" __global__ void matmul_naive(const double* A, const double* B, double* C, long long n, long long m,
                                        long long k) {
  long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x;
  long long j = threadIdx.y + (long long)blockIdx.y * blockDim.y;
  if (i < n && j < m) {
    double tmp = 0.0;
    for (long long l = 0; l < k; ++l) tmp += A[i * k + l] * B[l * m + j];
    C[i * m + j] = tmp;
  }
}
