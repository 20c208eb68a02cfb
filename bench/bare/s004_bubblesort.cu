// bubblesort: one thread sorts the array.
extern "C" __global__ void bubblesort(float* X, long long n) {
  for (long long end = n; end > 1; --end) {
    for (long long i = 0; i < end - 1; ++i) {
      float cur = X[i];
      if (cur > X[i + 1]) {
        float tmp = X[i];
        X[i] = X[i + 1];
        X[i + 1] = tmp;
      }
    }
  }
}
