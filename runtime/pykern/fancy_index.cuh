// pykern runtime: advanced indexing in @jit functions on the host (sema/fancy_index.cpp), as
// Numba's fancy_getitem and fancy_setslice do it (numba/np/arrayobj.py): one axis of a view is
// picked by a 1-D array, a boolean mask (the positions where it is true) or integer positions
// (a negative one wraps). The other indices of the subscript made the view already (integers
// dropped their axes, slices kept theirs), so here only axis `Axis` of the view is picked.
// `Front`: Numba moves the picked axis first when integer positions and integers are split by
// a slice (a[1, :, idx]), as NumPy does; a mask keeps its place in Numba.
// Host builds only: a kernel cannot allocate, and numba-cuda has no advanced indexing.
#ifndef PYKERN_FANCY_INDEX_CUH
#define PYKERN_FANCY_INDEX_CUH
#include "pykern/owned_array.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

// The positions a mask picks from an axis of `extent`: where it is true. A mask shorter than
// the axis picks from its part (Numba reads no further); a true past the axis is Numba's
// IndexError (its bounds check), never a read outside the array.
template <Layout K>
OwnedArray<i64, 1, layout_c> picked_positions(const char* file, int line, const Array<bool, 1, K>& mask, i64 extent,
                                              int axis) {
  i64 count = 0;
  for (i64 k = 0; k < mask.shape[0]; ++k) count += mask.at_offset(k * mask.stride(0)) ? 1 : 0;
  const i64 shape[1] = {count};
  auto positions = new_array<i64, 1, layout_c>(file, line, shape);
  i64 next = 0;
  for (i64 k = 0; k < mask.shape[0]; ++k) {
    if (!mask.at_offset(k * mask.stride(0))) continue;
    if (k >= extent) report_index_error(file, line, k, axis, extent);
    positions.data[next++] = k;
  }
  return positions;
}

// Integer positions: each wraps if negative; one outside the axis is Numba's IndexError.
template <class I, Layout K>
OwnedArray<i64, 1, layout_c> picked_positions(const char* file, int line, const Array<I, 1, K>& index, i64 extent,
                                              int axis) {
  const i64 shape[1] = {index.shape[0]};
  auto positions = new_array<i64, 1, layout_c>(file, line, shape);
  for (i64 k = 0; k < shape[0]; ++k) {
    i64 given = static_cast<i64>(index.at_offset(k * index.stride(0)));
    i64 i = given < 0 ? given + extent : given;
    if (i < 0 || i >= extent) report_index_error(file, line, given, axis, extent);
    positions.data[k] = i;
  }
  return positions;
}

// How the picked elements are laid out: the result's extents, and for each of its axes the
// view's axis it walks (`axis_of`, -1 for the picked one) with that axis' byte stride.
template <int N>
struct PickedShape {
  i64 shape[N];
  i64 strides[N];  // the view's stride for each result axis (unused for the picked one)
  int picked;      // the result axis the positions run along
};

template <int Axis, int Front, class T, int N, Layout L>
PickedShape<N> picked_shape(const Array<T, N, L>& view, i64 count) {
  static_assert(Axis >= 0 && Axis < N, "the picked axis is one of the view's");
  PickedShape<N> out;
  out.picked = Front ? 0 : Axis;
  for (int axis = 0, next = Front ? 1 : 0; axis < N; ++axis) {
    if (axis == Axis) {
      out.shape[out.picked] = count;
      out.strides[out.picked] = view.stride(axis);
      if (!Front) ++next;
      continue;
    }
    out.shape[next] = view.shape[axis];
    out.strides[next] = view.stride(axis);
    ++next;
  }
  return out;
}

// The byte offset in the view of the result's element `flat` (C order over the result).
template <int N>
i64 picked_offset(i64 flat, const PickedShape<N>& s, const i64* positions) {
  i64 offset = 0;
  for (int axis = N - 1; axis >= 0; --axis) {
    i64 extent = s.shape[axis] > 0 ? s.shape[axis] : 1;
    i64 at = flat % extent;
    offset += (axis == s.picked ? positions[at] : at) * s.strides[axis];
    flat /= extent;
  }
  return offset;
}

// ---- one axis of a 1-D view: x[mask], x[idx], with no array of positions in between ----
//
// `index(k)` reads the index array's element k: an array's, or a whole-array expression's
// computed where it is read (fused_index.cuh: x[x > 0.25] makes no mask array).

template <class I> struct is_mask { static constexpr bool value = false; };
template <> struct is_mask<bool> { static constexpr bool value = true; };

// NumPy and Numba take any non-zero byte of a bool array for True.
inline bool mask_bit(const bool& b) { return *reinterpret_cast<const unsigned char*>(&b) != 0; }

// The elements of a 1-D view where a mask of `length` is true, in order. Counted first (the
// result's size), then copied without a branch: every element is written at the next free
// place, which moves on only where the mask is true, and the copy stops at the last true one.
// A true past the axis is Numba's IndexError, found before anything is copied.
template <class T, Layout L, class Mask>
OwnedArray<T, 1, layout_c> select_where(const char* file, int line, int shown_axis, const Array<T, 1, L>& view,
                                        i64 length, Mask index) {
  const i64 extent = view.shape[0];
  const i64 within = length < extent ? length : extent;
  i64 count = 0;
  for (i64 k = 0; k < within; ++k) count += index(k) ? 1 : 0;
  for (i64 k = within; k < length; ++k)
    if (index(k)) report_index_error(file, line, k, shown_axis, extent);
  const i64 shape[1] = {count};
  auto made = new_array<T, 1, layout_c>(file, line, shape);
  const i64 stride = view.stride(0);
  const char* from = reinterpret_cast<const char*>(view.data);
  T* out = made.data;
  for (i64 k = 0, next = 0; next < count; ++k) {
    out[next] = *reinterpret_cast<const T*>(from + k * stride);
    next += index(k) ? 1 : 0;
  }
  return made;
}

// The first of `length` positions that is outside an axis of `extent` (after a negative one
// wraps): Numba's IndexError for it. Only called once a block is known to hold one.
template <class Positions>
[[noreturn, gnu::cold]] void report_first_outside(const char* file, int line, int shown_axis, i64 extent, i64 length,
                                                  Positions index) {
  for (i64 k = 0; k < length; ++k) {
    const auto position = index(k);
    const i64 given = static_cast<i64>(position);
    const bool unsigned_position = static_cast<decltype(position)>(-1) > decltype(position)(0);
    const i64 i = given < 0 && !unsigned_position ? given + extent : given;
    if (static_cast<u64>(i) >= static_cast<u64>(extent)) report_index_error(file, line, given, shown_axis, extent);
  }
  __builtin_unreachable();
}

// out[k] = from[index[k]] for a contiguous index and a contiguous source, in blocks: each
// position wrapped without a branch (a negative one gains the extent), one outside the axis
// read as position 0 and remembered, and the block checked once at its end. No branch in the
// loop, so the compiler makes it a vector gather; a block with a bad position is looked at
// again in order for the first one, which is Numba's IndexError (the result, a new array, is
// never seen). `extent` > 0.
template <class T, class I>
bool gather_block(T* __restrict__ out, const T* __restrict__ from, const I* __restrict__ index, i64 count, i64 extent) {
  u64 outside = 0;
  for (i64 k = 0; k < count; ++k) {
    const i64 given = static_cast<i64>(index[k]);
    // An unsigned position never wraps (one past 2**63 is outside, not negative).
    const u64 i = static_cast<I>(-1) > I(0) ? static_cast<u64>(index[k]) : static_cast<u64>(given + (extent & (given >> 63)));
    const bool inside = i < static_cast<u64>(extent);
    outside |= !inside;
    out[k] = from[inside ? i : 0];
  }
  return outside == 0;
}

// The elements of a 1-D view at `length` integer positions (a negative one wraps), each checked:
// one outside the axis is Numba's IndexError. `contiguous` is the index array's first element
// when it and the view are contiguous (the fast path above), else null.
template <class T, Layout L, class I, class Positions>
OwnedArray<T, 1, layout_c> gather_at(const char* file, int line, int shown_axis, const Array<T, 1, L>& view,
                                     i64 length, Positions index, const I* contiguous) {
  const i64 extent = view.shape[0];
  const i64 shape[1] = {length};
  auto made = new_array<T, 1, layout_c>(file, line, shape);
  const i64 stride = view.stride(0);
  const char* from = reinterpret_cast<const char*>(view.data);
  T* out = made.data;
  if (contiguous != nullptr && stride == static_cast<i64>(sizeof(T)) && extent > 0) {
    constexpr i64 block = 4096;
    for (i64 start = 0; start < length; start += block) {
      const i64 count = length - start < block ? length - start : block;
      if (!gather_block(out + start, view.data, contiguous + start, count, extent))
        report_first_outside(file, line, shown_axis, extent, count, [&](i64 k) { return index(start + k); });
    }
    return made;
  }
  for (i64 k = 0; k < length; ++k) {
    const i64 given = static_cast<i64>(index(k));
    const i64 i = given < 0 ? given + extent : given;
    if (static_cast<u64>(i) >= static_cast<u64>(extent)) report_index_error(file, line, given, shown_axis, extent);
    out[k] = *reinterpret_cast<const T*>(from + i * stride);
  }
  return made;
}

// x[index] of a 1-D view, by a mask or by positions, each element read by `index(k)`.
template <class I, class T, Layout L, class Index>
OwnedArray<T, 1, layout_c> take_one_axis(const char* file, int line, int shown_axis, const Array<T, 1, L>& view,
                                         i64 length, Index index, const I* contiguous = nullptr) {
  if constexpr (is_mask<I>::value)
    return select_where(file, line, shown_axis, view, length, index);
  else
    return gather_at(file, line, shown_axis, view, length, index, contiguous);
}

// a[mask], a[idx], a[i, idx], a[:, mask]: a new C-ordered array of the picked elements.
template <int Axis, int Front, class T, int N, Layout L, class I, Layout K>
OwnedArray<T, N, layout_c> take_axis(const char* file, int line, int shown_axis, const Array<T, N, L>& view,
                                     const Array<I, 1, K>& index) {
  if constexpr (N == 1) {  // a[mask], a[idx]: read the index where it is used
    const char* base = reinterpret_cast<const char*>(index.data);
    const i64 step = index.stride(0);
    if constexpr (is_mask<I>::value)
      return take_one_axis<I>(file, line, shown_axis, view, index.shape[0],
                              [base, step](i64 k) { return mask_bit(*reinterpret_cast<const bool*>(base + k * step)); });
    else
      return take_one_axis<I>(file, line, shown_axis, view, index.shape[0],
                              [base, step](i64 k) { return *reinterpret_cast<const I*>(base + k * step); },
                              step == static_cast<i64>(sizeof(I)) ? index.data : nullptr);
  } else {
    auto positions = picked_positions(file, line, index, view.shape[Axis], shown_axis);
    PickedShape<N> s = picked_shape<Axis, Front>(view, positions.shape[0]);
    auto made = new_array<T, N, layout_c>(file, line, s.shape);
    i64 count = size(made);
    for (i64 flat = 0; flat < count; ++flat) made.data[flat] = view.at_offset(picked_offset(flat, s, positions.data));
    return made;
  }
}

// a[mask] = value, a[idx] = value: the scalar (of the array's type) into every picked element.
template <int Axis, int Front, class T, int N, Layout L, class I, Layout K>
void put_axis(const char* file, int line, int shown_axis, const Array<T, N, L>& view, const Array<I, 1, K>& index,
              T value) {
  auto positions = picked_positions(file, line, index, view.shape[Axis], shown_axis);
  PickedShape<N> s = picked_shape<Axis, Front>(view, positions.shape[0]);
  i64 count = 1;
  for (int axis = 0; axis < N; ++axis) count *= s.shape[axis];
  for (i64 flat = 0; flat < count; ++flat) view.at_offset(picked_offset(flat, s, positions.data)) = value;
}

// "(3,)" or "(2, 4)", as Numba writes a shape in its messages.
template <int N>
void write_shape(char* out, int room, const i64 (&shape)[N]) {
  int used = __builtin_snprintf(out, room, "(");
  for (int axis = 0; axis < N && used < room; ++axis)
    used += __builtin_snprintf(out + used, room - used, axis ? ", %lld" : "%lld", static_cast<long long>(shape[axis]));
  if (used < room) __builtin_snprintf(out + used, room - used, N == 1 ? ",)" : ")");
}

// The byte range [low, high) an array's elements span, to tell whether two arrays overlap.
template <class T, int N, Layout L>
void byte_span(const Array<T, N, L>& a, const char*& low, const char*& high) {
  low = high = reinterpret_cast<const char*>(a.data);
  for (int axis = 0; axis < N; ++axis) {
    if (a.shape[axis] == 0) {
      high = low;
      return;
    }
    i64 reach = (a.shape[axis] - 1) * a.stride(axis);
    (reach < 0 ? low : high) += reach;
  }
  high += sizeof(T);
}

// a[mask] = b, a[idx] = b: b broadcast to the picked elements' shape as Numba's fancy_setslice
// does (axes aligned at the end, an extent of 1 repeats, leading extents of 1 ignored), each
// converted to the array's type; shapes that do not broadcast are Numba's ValueError. A source
// that shares memory with the array is read whole before any element is written, as NumPy does.
template <int Axis, int Front, class T, int N, Layout L, class I, Layout K, class U, int M, Layout S>
void put_axis(const char* file, int line, int shown_axis, const Array<T, N, L>& view, const Array<I, 1, K>& index,
              const Array<U, M, S>& source) {
  const char *view_low, *view_high, *source_low, *source_high;
  byte_span(view, view_low, view_high);
  byte_span(source, source_low, source_high);
  if (source_low < view_high && view_low < source_high && source_low < source_high) {
    auto copied = copy_array(file, line, source);
    put_axis<Axis, Front>(file, line, shown_axis, view, index, static_cast<const Array<U, M, layout_c>&>(copied));
    return;
  }
  auto positions = picked_positions(file, line, index, view.shape[Axis], shown_axis);
  PickedShape<N> s = picked_shape<Axis, Front>(view, positions.shape[0]);
  // The source's stride for each result axis (0 where it repeats or has no such axis).
  i64 source_strides[N];
  bool fits = true;
  for (int axis = 0; axis < N; ++axis) {
    int from = axis - (N - M);
    source_strides[axis] = 0;
    if (from < 0) continue;
    if (source.shape[from] == s.shape[axis])
      source_strides[axis] = source.stride(from);
    else if (source.shape[from] != 1)
      fits = false;
  }
  for (int from = 0; from < M - N; ++from) fits &= source.shape[from] == 1;
  if (!fits) {
    char wanted[160], given[160], message[360];
    write_shape(wanted, sizeof wanted, s.shape);
    write_shape(given, sizeof given, source.shape);
    __builtin_snprintf(message, sizeof message, "cannot assign slice of shape %s from input of shape %s", wanted,
                       given);
    report_failure(file, line, "ValueError", message);
  }
  i64 count = 1;
  for (int axis = 0; axis < N; ++axis) count *= s.shape[axis];
  const char* from_data = reinterpret_cast<const char*>(source.data);
  for (i64 flat = 0; flat < count; ++flat) {
    const U& from = *reinterpret_cast<const U*>(from_data + flat_offset(flat, s.shape, source_strides));
    view.at_offset(picked_offset(flat, s, positions.data)) = static_cast<T>(from);
  }
}

}  // namespace pk

// `axis`: the view's axis picked; `shown`: the array's axis it is (for the IndexError).
#define PK_TAKE_AXIS(axis, front, shown, view, index) \
  (::pk::take_axis<axis, front>(__FILE__, __LINE__, shown, view, index))
#define PK_PUT_AXIS(axis, front, shown, view, index, value) \
  (::pk::put_axis<axis, front>(__FILE__, __LINE__, shown, view, index, value))
#endif
#endif  // PYKERN_FANCY_INDEX_CUH
