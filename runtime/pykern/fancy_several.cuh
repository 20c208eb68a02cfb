// pykern runtime: several integer index arrays in one subscript, a[rows, cols] (sema/
// fancy_several.cpp), as Numba 0.68 computes it (numba/np/arrayobj.py FancyIndexer): the K
// 1-D index arrays broadcast together (equal lengths, or 1), and element k of the result is
// a[rows[k], cols[k], ...] with the array's remaining axes kept whole. A negative position
// wraps; one outside its axis is an IndexError (pykern's rule for every advanced index).
// Host builds only: a kernel cannot allocate, and numba-cuda has no advanced indexing.
#ifndef PYKERN_FANCY_SEVERAL_CUH
#define PYKERN_FANCY_SEVERAL_CUH
#include "pykern/array.cuh"
#include "pykern/fancy_index.cuh"
#include "pykern/owned_array.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
namespace several {

// The length the index arrays broadcast to: NumPy's rule for 1-D shapes, Numba's ValueError
// for lengths that do not broadcast.
template <class... Ix>
i64 common_length(const char* file, int line, const Ix&... index) {
  const i64 lengths[] = {index.shape[0]...};
  i64 n = 1;
  for (i64 length : lengths) {
    if (length == 1) continue;
    if (n != 1 && n != length)
      report_failure(file, line, "ValueError", "shape mismatch: objects cannot be broadcast to a single shape");
    n = length;
  }
  return n;
}

// The byte offset along `axis` of a's position index[k] (index[0] for a 1-element index).
template <class T, int N, Layout L, class I, Layout K>
i64 axis_offset(const char* file, int line, const Array<T, N, L>& a, int axis, const Array<I, 1, K>& index, i64 k) {
  i64 given = static_cast<i64>(index.at_offset((index.shape[0] == 1 ? 0 : k) * index.stride(0)));
  i64 extent = a.shape[axis];
  i64 i = given < 0 ? given + extent : given;
  if (i < 0 || i >= extent) report_index_error(file, line, given, axis, extent);
  return i * a.stride(axis);
}

// The byte offset of a[index0[k], index1[k], ...], the index arrays' axes in order.
template <class T, int N, Layout L, class... Ix>
i64 picked_offset(const char* file, int line, const Array<T, N, L>& a, i64 k, const Ix&... index) {
  i64 bytes = 0;
  int axis = 0;
  ((bytes += axis_offset(file, line, a, axis++, index, k)), ...);
  return bytes;
}

}  // namespace several

// a[rows, cols] (and a[i0, i1, i2] on more axes): a new C-ordered array of the broadcast
// length, each element followed by the axes the subscript leaves whole.
template <class T, int N, Layout L, class... Ix>
OwnedArray<T, N - static_cast<int>(sizeof...(Ix)) + 1, layout_c> take_several(const char* file, int line,
                                                                              const Array<T, N, L>& a,
                                                                              const Ix&... index) {
  constexpr int K = static_cast<int>(sizeof...(Ix));
  constexpr int M = N - K + 1;
  i64 n = several::common_length(file, line, index...);
  i64 shape[M];
  shape[0] = n;
  i64 rest = 1;
  for (int d = 1; d < M; ++d) rest *= (shape[d] = a.shape[K + d - 1]);
  auto made = new_array<T, M, layout_c>(file, line, shape);
  for (i64 k = 0; k < n; ++k) {
    i64 base = several::picked_offset(file, line, a, k, index...);
    if constexpr (M == 1) {
      made.data[k] = a.at_offset(base);
    } else {
      i64 rest_shape[M - 1], rest_strides[M - 1];
      for (int d = 0; d < M - 1; ++d) rest_shape[d] = a.shape[K + d], rest_strides[d] = a.stride(K + d);
      for (i64 f = 0; f < rest; ++f) made.data[k * rest + f] = a.at_offset(base + flat_offset(f, rest_shape, rest_strides));
    }
  }
  return made;
}

// a[rows, cols] = v, an index array for every axis: the number (of a's type) into each picked
// element.
template <class T, int N, Layout L, class... Ix>
void put_several(const char* file, int line, const Array<T, N, L>& a, T value, const Ix&... index) {
  i64 n = several::common_length(file, line, index...);
  for (i64 k = 0; k < n; ++k) a.at_offset(several::picked_offset(file, line, a, k, index...)) = value;
}

// a[rows, cols] = b: b's elements (a 1-D array of the broadcast length, or of one element,
// converted to a's type) into the picked elements, read whole first (b may view a), as
// NumPy's setitem does; another length is Numba's ValueError. (A plain buffer, not an owning
// array: a program whose only allocation is this one has no C++ runtime to unwind one.)
template <class T, int N, Layout L, class U, Layout S, class... Ix>
void put_several(const char* file, int line, const Array<T, N, L>& a, const Array<U, 1, S>& source,
                 const Ix&... index) {
  i64 n = several::common_length(file, line, index...);
  i64 m = source.shape[0];
  if (m != n && m != 1) {
    char wanted[64], given[64], message[200];
    const i64 wanted_shape[1] = {n}, given_shape[1] = {m};
    write_shape(wanted, sizeof wanted, wanted_shape);
    write_shape(given, sizeof given, given_shape);
    __builtin_snprintf(message, sizeof message, "cannot assign slice of shape %s from input of shape %s", wanted, given);
    report_failure(file, line, "ValueError", message);
  }
  // Every position checked before the buffer is held, so no error leaves it behind.
  for (i64 k = 0; k < n; ++k) (void)several::picked_offset(file, line, a, k, index...);
  U* values = static_cast<U*>(__builtin_malloc(sizeof(U) * static_cast<unsigned long>(m > 0 ? m : 1)));
  if (values == nullptr) report_failure(file, line, "MemoryError", "Allocation failed (probably too large).");
  for (i64 j = 0; j < m; ++j) values[j] = source.at_offset(j * source.stride(0));
  for (i64 k = 0; k < n; ++k)
    a.at_offset(several::picked_offset(file, line, a, k, index...)) = static_cast<T>(values[m == 1 ? 0 : k]);
  __builtin_free(values);
}

}  // namespace pk

#define PK_TAKE_SEVERAL(...) (::pk::take_several(__FILE__, __LINE__, __VA_ARGS__))
#define PK_PUT_SEVERAL(...) (::pk::put_several(__FILE__, __LINE__, __VA_ARGS__))
#endif
#endif  // PYKERN_FANCY_SEVERAL_CUH
