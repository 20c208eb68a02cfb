// pykern runtime: np.diag and NumPy's window functions (np.hanning, np.hamming, np.blackman,
// np.bartlett) in @jit functions on the host (sema/diag_windows.cpp), computed as Numba's
// numba/np/arraymath.py computes them, operation for operation.
#ifndef PYKERN_DIAG_WINDOWS_CUH
#define PYKERN_DIAG_WINDOWS_CUH
#include "pykern/owned_array.cuh"

#if !PK_DEVICE_BUILD
#include <cmath>

namespace pk {

// np.diag(v, k) of a 1-d v: a square 2-d array of zeros with v on the k-th diagonal.
template <class T, Layout L>
OwnedArray<T, 2, layout_c> diag_of_vector(const char* file, int line, const Array<T, 1, L>& v, i64 k) {
  i64 n = v.shape[0], offset = k < 0 ? -k : k;
  const i64 shape[2] = {n + offset, n + offset};
  auto made = new_array<T, 2, layout_c>(file, line, shape);
  for (i64 i = 0; i < shape[0] * shape[1]; ++i) made.data[i] = T{};
  const char* from = reinterpret_cast<const char*>(v.data);
  for (i64 i = 0; i < n; ++i) {
    i64 row = k >= 0 ? i : i - k, column = k >= 0 ? i + k : i;
    made.data[row * shape[1] + column] = *reinterpret_cast<const T*>(from + i * v.stride(0));
  }
  return made;
}

// np.diag(a, k) of a 2-d a: a new 1-d array of its k-th diagonal (empty past the corner).
template <class T, Layout L>
OwnedArray<T, 1, layout_c> diag_of_matrix(const char* file, int line, const Array<T, 2, L>& a, i64 k) {
  i64 rows = a.shape[0], columns = a.shape[1];
  i64 count = k >= 0 ? (rows < columns - k ? rows : columns - k) : (rows + k < columns ? rows + k : columns);
  if (count < 0) count = 0;
  const i64 shape[1] = {count};
  auto made = new_array<T, 1, layout_c>(file, line, shape);
  const char* from = reinterpret_cast<const char*>(a.data);
  for (i64 i = 0; i < count; ++i) {
    i64 row = k >= 0 ? i : i - k, column = k >= 0 ? i + k : i;
    made.data[i] = *reinterpret_cast<const T*>(from + row * a.stride(0) + column * a.stride(1));
  }
  return made;
}

// The window functions: which 0 hanning, 1 hamming, 2 blackman, 3 bartlett. Numba's window_impl:
// M < 1 an empty array, M == 1 [1.0], else the formula over n = arange(1 - M, M, 2).
inline OwnedArray<double, 1, layout_c> window(const char* file, int line, i64 which, i64 m) {
  const i64 shape[1] = {m < 1 ? 0 : m};
  auto made = new_array<double, 1, layout_c>(file, line, shape);
  if (m == 1) made.data[0] = 1.0;
  if (m <= 1) return made;
  const double pi = 3.141592653589793, d = static_cast<double>(m - 1);
  for (i64 i = 0; i < m; ++i) {
    double n = static_cast<double>(1 - m + 2 * i);
    double w = 0;
    if (which == 0) w = 0.5 + 0.5 * std::cos(pi * n / d);
    else if (which == 1) w = 0.54 + 0.46 * std::cos(pi * n / d);
    else if (which == 2) w = 0.42 + 0.5 * std::cos(pi * n / d) + 0.08 * std::cos(2.0 * pi * n / d);
    else w = n <= 0 ? 1 + n / d : 1 - n / d;
    made.data[i] = w;
  }
  return made;
}

}  // namespace pk

#define PK_DIAG_OF_VECTOR(...) (::pk::diag_of_vector(__FILE__, __LINE__, __VA_ARGS__))
#define PK_DIAG_OF_MATRIX(...) (::pk::diag_of_matrix(__FILE__, __LINE__, __VA_ARGS__))
#define PK_WINDOW(...) (::pk::window(__FILE__, __LINE__, __VA_ARGS__))
#endif
#endif  // PYKERN_DIAG_WINDOWS_CUH
