// cuda_fast_matmul: 16x16 tiles through shared memory, float64 accumulation as in the seed.
extern "C" __global__ void matmul_shared(const float* A, const float* B, float* C, long long n, long long m,
                                         long long k) {
  __shared__ float sA[16][16];
  __shared__ float sB[16][16];
  long long x = threadIdx.x + (long long)blockIdx.x * blockDim.x;
  long long y = threadIdx.y + (long long)blockIdx.y * blockDim.y;
  int tx = threadIdx.x, ty = threadIdx.y, bpg = gridDim.x;
  if (x >= n && y >= m) return;
  double tmp = 0.0;
  for (int i = 0; i < bpg; ++i) {
    sA[tx][ty] = A[x * k + ty + (long long)i * 16];
    sB[tx][ty] = B[(tx + (long long)i * 16) * m + y];
    __syncthreads();
    for (int j = 0; j < 16; ++j) tmp += (double)(sA[tx][j] * sB[j][ty]);
    __syncthreads();
  }
  C[x * m + y] = (float)tmp;
}
