// pykern runtime: several 1-D integer index arrays mixed with integers and slices in one
// subscript, a[rows, :, cols], b[1, rows, cols] (sema/fancy_mixed.cpp), as Numba 0.68's
// FancyIndexer computes them (numba/np/arrayobj.py). The integers and slices made the view
// already; here the K index arrays, broadcast together to length n, pick the view's axes named
// by the bits of `Picked` at once (element k: every array's k-th position), and the result has
// the view's other axes with one axis of length n at `At` among them, in C order. `Shown`
// names the array's axes the index arrays stand on, for the IndexError. A negative position
// wraps; one outside its axis is an IndexError (pykern's rule for every advanced index).
// Host builds only: a kernel cannot allocate, and numba-cuda has no advanced indexing.
#ifndef PYKERN_FANCY_MIXED_CUH
#define PYKERN_FANCY_MIXED_CUH
#include "pykern/array.cuh"
#include "pykern/fancy_index.cuh"
#include "pykern/fancy_several.cuh"
#include "pykern/owned_array.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
namespace mixed {

constexpr int bit_count(i64 bits) {
  int n = 0;
  for (; bits != 0; bits &= bits - 1) ++n;
  return n;
}

// The position of the j-th set bit of `bits` (j from 0).
constexpr int nth_bit(i64 bits, int j) {
  for (int axis = 0; axis < 63; ++axis)
    if ((bits >> axis) & 1) {
      if (j == 0) return axis;
      --j;
    }
  return -1;
}

// The result's shape, and for each of its axes the view's byte stride (0 for the picked one).
template <int M>
struct Walk {
  i64 shape[M];
  i64 strides[M];
};

template <i64 At, i64 Picked, class T, int N, Layout L>
Walk<N - bit_count(Picked) + 1> walk_of(const Array<T, N, L>& view, i64 n) {
  Walk<N - bit_count(Picked) + 1> w;
  int r = 0;
  for (int axis = 0; axis <= N; ++axis) {
    if (r == At) w.shape[r] = n, w.strides[r++] = 0;
    if (axis == N || ((Picked >> axis) & 1)) continue;
    w.shape[r] = view.shape[axis], w.strides[r++] = view.stride(axis);
  }
  return w;
}

// The byte offset of the result's axes [from, to) for `flat`, a C-order index over just them.
template <int M>
i64 partial_offset(i64 flat, const Walk<M>& w, int from, int to) {
  i64 offset = 0;
  for (int r = to - 1; r >= from; --r) {
    i64 extent = w.shape[r] > 0 ? w.shape[r] : 1;
    offset += (flat % extent) * w.strides[r];
    flat /= extent;
  }
  return offset;
}

// The byte offset along the view's picked axes of the index arrays' k-th positions.
template <i64 Picked, i64 Shown, class T, int N, Layout L, class... Ix>
i64 picked_offset(const char* file, int line, const Array<T, N, L>& view, i64 k, const Ix&... index) {
  i64 bytes = 0;
  int j = 0;
  auto one = [&](const auto& positions) {
    const int axis = nth_bit(Picked, j), shown = nth_bit(Shown, j);
    ++j;
    const i64 at = positions.shape[0] == 1 ? 0 : k;
    const i64 given = static_cast<i64>(positions.at_offset(at * positions.stride(0)));
    const i64 extent = view.shape[axis];
    const i64 i = given < 0 ? given + extent : given;
    if (static_cast<u64>(i) >= static_cast<u64>(extent)) report_index_error(file, line, given, shown, extent);
    bytes += i * view.stride(axis);
  };
  (one(index), ...);
  return bytes;
}

// visit(view byte offset, result flat index) for every element of the result, in C order.
template <i64 At, i64 Picked, i64 Shown, class T, int N, Layout L, int M, class Visit, class... Ix>
void each_picked(const char* file, int line, const Array<T, N, L>& view, const Walk<M>& w, Visit visit,
                 const Ix&... index) {
  i64 outer = 1, inner = 1;
  for (int r = 0; r < M; ++r) (r < At ? outer : r > At ? inner : outer) *= r == At ? 1 : w.shape[r];
  const i64 n = w.shape[At];
  if (outer == 0 || inner == 0 || n == 0) return;
  const bool one_inner_axis = At + 2 == M;
  i64 flat = 0;
  for (i64 o = 0; o < outer; ++o) {
    const i64 outer_offset = partial_offset(o, w, 0, static_cast<int>(At));
    for (i64 k = 0; k < n; ++k) {
      const i64 base = outer_offset + picked_offset<Picked, Shown>(file, line, view, k, index...);
      if (one_inner_axis)
        for (i64 f = 0; f < inner; ++f) visit(base + f * w.strides[M - 1], flat++);
      else
        for (i64 f = 0; f < inner; ++f) visit(base + partial_offset(f, w, static_cast<int>(At) + 1, M), flat++);
    }
  }
}

}  // namespace mixed

// a[rows, :, cols]: a new C-ordered array of the picked elements.
template <i64 At, i64 Picked, i64 Shown, class T, int N, Layout L, class... Ix>
OwnedArray<T, N - mixed::bit_count(Picked) + 1, layout_c> take_mixed(const char* file, int line,
                                                                     const Array<T, N, L>& view, const Ix&... index) {
  static_assert(mixed::bit_count(Picked) == static_cast<int>(sizeof...(Ix)), "an index array for each picked axis");
  constexpr int M = N - mixed::bit_count(Picked) + 1;
  const i64 n = several::common_length(file, line, index...);
  const auto w = mixed::walk_of<At, Picked>(view, n);
  auto made = new_array<T, M, layout_c>(file, line, w.shape);
  const char* from = reinterpret_cast<const char*>(view.data);
  T* out = made.data;
  mixed::each_picked<At, Picked, Shown>(
      file, line, view, w, [&](i64 offset, i64 flat) { out[flat] = *reinterpret_cast<const T*>(from + offset); },
      index...);
  return made;
}

// a[rows, :, cols] = v: the number (of the array's type) into every picked element.
template <i64 At, i64 Picked, i64 Shown, class T, int N, Layout L, class... Ix>
void put_mixed(const char* file, int line, const Array<T, N, L>& view, T value, const Ix&... index) {
  const i64 n = several::common_length(file, line, index...);
  const auto w = mixed::walk_of<At, Picked>(view, n);
  char* to = reinterpret_cast<char*>(view.data);
  mixed::each_picked<At, Picked, Shown>(
      file, line, view, w, [&](i64 offset, i64) { *reinterpret_cast<T*>(to + offset) = value; }, index...);
}

// a[rows, :, cols] = b: b broadcast to the picked elements' shape as Numba's fancy_setslice does
// (axes aligned at the end, an extent of 1 repeats, leading extents of 1 ignored), each converted
// to the array's type; shapes that do not broadcast are Numba's ValueError. A source that shares
// memory with the array is read whole first, as NumPy does.
template <i64 At, i64 Picked, i64 Shown, class T, int N, Layout L, class U, int S, Layout SL, class... Ix>
void put_mixed(const char* file, int line, const Array<T, N, L>& view, const Array<U, S, SL>& source,
               const Ix&... index) {
  const char *view_low, *view_high, *source_low, *source_high;
  byte_span(view, view_low, view_high);
  byte_span(source, source_low, source_high);
  if (source_low < view_high && view_low < source_high && source_low < source_high) {
    auto copied = copy_array(file, line, source);
    put_mixed<At, Picked, Shown>(file, line, view, static_cast<const Array<U, S, layout_c>&>(copied), index...);
    return;
  }
  constexpr int M = N - mixed::bit_count(Picked) + 1;
  const i64 n = several::common_length(file, line, index...);
  const auto w = mixed::walk_of<At, Picked>(view, n);
  i64 source_strides[M];  // the source's stride for each result axis (0 where it repeats or has none)
  bool fits = true;
  for (int axis = 0; axis < M; ++axis) {
    const int from = axis - (M - S);
    source_strides[axis] = 0;
    if (from < 0) continue;
    if (source.shape[from] == w.shape[axis])
      source_strides[axis] = source.stride(from);
    else if (source.shape[from] != 1)
      fits = false;
  }
  for (int from = 0; from < S - M; ++from) fits &= source.shape[from] == 1;
  if (!fits) {
    char wanted[160], given[160], message[360];
    write_shape(wanted, sizeof wanted, w.shape);
    write_shape(given, sizeof given, source.shape);
    __builtin_snprintf(message, sizeof message, "cannot assign slice of shape %s from input of shape %s", wanted,
                       given);
    report_failure(file, line, "ValueError", message);
  }
  char* to = reinterpret_cast<char*>(view.data);
  const char* from_data = reinterpret_cast<const char*>(source.data);
  mixed::each_picked<At, Picked, Shown>(
      file, line, view, w,
      [&](i64 offset, i64 flat) {
        const U& item = *reinterpret_cast<const U*>(from_data + flat_offset(flat, w.shape, source_strides));
        *reinterpret_cast<T*>(to + offset) = static_cast<T>(item);
      },
      index...);
}

}  // namespace pk

#define PK_TAKE_MIXED(at, picked, shown, ...) (::pk::take_mixed<at, picked, shown>(__FILE__, __LINE__, __VA_ARGS__))
#define PK_PUT_MIXED(at, picked, shown, ...) (::pk::put_mixed<at, picked, shown>(__FILE__, __LINE__, __VA_ARGS__))
#endif
#endif  // PYKERN_FANCY_MIXED_CUH
