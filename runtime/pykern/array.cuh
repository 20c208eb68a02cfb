// pykern runtime: NumPy-style array views. The launcher passes each array argument by value
// with this layout (the kernel ABI):
//     T* data; i64 shape[N]; i64 strides[N];   strides in bytes, as NumPy's
// Indexing wraps negative indices as Python does; debug builds (PK_DEBUG) check bounds and
// report like Numba: "IndexError: ... index 10 is out of bounds for axis 0 with size 10".
#pragma once
#include "pykern/base.cuh"
#include "pykern/errors.cuh"

namespace pk {

enum Layout { layout_c, layout_f, layout_a };

template <class T, int N, Layout L = layout_a> struct Array {
  T* data;
  i64 shape[N];
  i64 strides[N];

  // The byte stride of an axis; C arrays know their last one at compile time.
  PK_DEVICE i64 stride(int axis) const {
    if (L == layout_c && axis == N - 1) return static_cast<i64>(sizeof(T));
    if (L == layout_f && axis == 0) return static_cast<i64>(sizeof(T));
    return strides[axis];
  }

  template <class... I> PK_DEVICE T& at(const char* file, int line, I... index) const {
    static_assert(sizeof...(I) == N, "one index per dimension");
    const i64 indices[N] = {static_cast<i64>(index)...};
    char* address = reinterpret_cast<char*>(data);
PK_UNROLL
    for (int axis = 0; axis < N; ++axis) {
      i64 i = indices[axis];
      if (i < 0) i += shape[axis];
#if defined(PK_DEBUG) || defined(PK_BOUNDSCHECK)
      if (i < 0 || i >= shape[axis]) report_index_error(file, line, indices[axis], axis, shape[axis]);
#endif
      address += i * stride(axis);
    }
    (void)file;
    (void)line;
    return *reinterpret_cast<T*>(address);
  }
};

#define PK_AT(array, ...) ((array).at(__FILE__, __LINE__, __VA_ARGS__))

template <class T, int N, Layout L> PK_DEVICE i64 size(const Array<T, N, L>& a) {
  i64 n = 1;
  for (int axis = 0; axis < N; ++axis) n *= a.shape[axis];
  return n;
}

// a[..., i, ...]: fix one axis, drop it.
template <int Axis, class T, int N, Layout L>
PK_DEVICE Array<T, N - 1, (L == layout_c && Axis == 0) ? layout_c : layout_a> index_axis(const Array<T, N, L>& a, i64 i) {
  Array<T, N - 1, (L == layout_c && Axis == 0) ? layout_c : layout_a> view;
  if (i < 0) i += a.shape[Axis];
#if defined(PK_DEBUG) || defined(PK_BOUNDSCHECK)
  if (i < 0 || i >= a.shape[Axis]) report_index_error(__FILE__, __LINE__, i, Axis, a.shape[Axis]);
#endif
  view.data = reinterpret_cast<T*>(reinterpret_cast<char*>(a.data) + i * a.stride(Axis));
  for (int axis = 0, out = 0; axis < N; ++axis) {
    if (axis == Axis) continue;
    view.shape[out] = a.shape[axis];
    view.strides[out] = a.stride(axis);
    ++out;
  }
  return view;
}

// a[..., start:stop:step, ...]: Python's slice rules (negative bounds, clamping).
template <int Axis, class T, int N, Layout L>
PK_DEVICE Array<T, N, layout_a> slice_axis(const Array<T, N, L>& a, i64 start, i64 stop, i64 step) {
  i64 n = a.shape[Axis];
  if (step == none_index) step = 1;
  if (step == 0) step = 1;  // Python raises; a kernel cannot, so treat it as 1
  auto clamp = [&](i64 v, i64 lo, i64 hi) { return v < lo ? lo : v > hi ? hi : v; };
  if (step > 0) {
    start = start == none_index ? 0 : clamp(start < 0 ? start + n : start, 0, n);
    stop = stop == none_index ? n : clamp(stop < 0 ? stop + n : stop, 0, n);
  } else {
    start = start == none_index ? n - 1 : clamp(start < 0 ? start + n : start, -1, n - 1);
    stop = stop == none_index ? -1 : clamp(stop < 0 ? stop + n : stop, -1, n - 1);
  }
  i64 length = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                        : (start > stop ? (start - stop - step - 1) / (-step) : 0);
  Array<T, N, layout_a> view;
  view.data = reinterpret_cast<T*>(reinterpret_cast<char*>(a.data) + (length > 0 ? start * a.stride(Axis) : 0));
  for (int axis = 0; axis < N; ++axis) {
    view.shape[axis] = a.shape[axis];
    view.strides[axis] = a.stride(axis);
  }
  view.shape[Axis] = length;
  view.strides[Axis] = a.stride(Axis) * step;
  return view;
}

template <class T, int N, Layout L>
PK_DEVICE Array<T, N, L == layout_c ? layout_f : L == layout_f ? layout_c : layout_a> transpose(const Array<T, N, L>& a) {
  Array<T, N, L == layout_c ? layout_f : L == layout_f ? layout_c : layout_a> t;
  t.data = a.data;
  for (int axis = 0; axis < N; ++axis) {
    t.shape[axis] = a.shape[N - 1 - axis];
    t.strides[axis] = a.stride(N - 1 - axis);
  }
  return t;
}

// Storage made in the kernel (cuda.shared.array, cuda.local.array): C order.
template <class T, int N, class... E> PK_DEVICE Array<T, N, layout_c> make_array(T* data, E... extents) {
  Array<T, N, layout_c> a;
  a.data = data;
  const i64 shape[N] = {static_cast<i64>(extents)...};
  i64 stride = sizeof(T);
  for (int axis = N - 1; axis >= 0; --axis) {
    a.shape[axis] = shape[axis];
    a.strides[axis] = stride;
    stride *= shape[axis];
  }
  return a;
}

// `a is b` on two arrays of one type: the same memory, viewed the same way (Numba's array_is).
template <class T, int N, Layout L> PK_DEVICE bool same_array(const Array<T, N, L>& a, const Array<T, N, L>& b) {
  if (a.data != b.data) return false;
  for (int axis = 0; axis < N; ++axis)
    if (a.shape[axis] != b.shape[axis] || a.stride(axis) != b.stride(axis)) return false;
  return true;
}

// A record's subarray field (a C array member, flattened): a C-ordered view of its elements.
template <int N, class T, decltype(sizeof(int)) K, class... E> PK_DEVICE Array<T, N, layout_c> subarray(T (&data)[K], E... extents) {
  return make_array<T, N>(data, extents...);
}

}  // namespace pk

#if PK_DEVICE_BUILD
// A module-level array a kernel reads (read-only: sema refuses writes).
#define PK_CONSTANT_ARRAY(type, name, count) __constant__ type name[count]
#define PK_SHARED_STORAGE(type, name, count) __shared__ type name[count]
#define PK_LOCAL_STORAGE(type, name, count) type name[count]
// Dynamic shared memory (cuda.shared.array(0, dtype)): every such array views the launch's
// dynamic shared bytes from their start.
#define PK_DYNAMIC_SHARED_STORAGE(type, name) \
  extern __shared__ __align__(16) unsigned char pk_dynamic_shared[]; \
  type* name = reinterpret_cast<type*>(pk_dynamic_shared)
#else
#define PK_CONSTANT_ARRAY(type, name, count) static type name[count]
// The simulator gives each block its own shared memory (src/sim/engine.cpp).
#define PK_SHARED_STORAGE(type, name, count) \
  type* name = static_cast<type*>(::pk::sim::shared_storage(__COUNTER__, sizeof(type) * (count), alignof(type)))
#define PK_LOCAL_STORAGE(type, name, count) type name[count]
#define PK_DYNAMIC_SHARED_STORAGE(type, name) type* name = static_cast<type*>(::pk::sim::dynamic_shared())
#endif
