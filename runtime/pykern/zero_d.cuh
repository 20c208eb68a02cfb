// pykern runtime: 0-d arrays (np.array(3.0), np.zeros(())), as Numba's CPU target has them.
// An Array<T, 0, L> is a data pointer alone: its shape and strides are empty (zero-length
// members, a GNU extension the host compiler accepts). The functions below are the 0-d forms
// of owned_array.cuh's: partial ordering prefers them to the general templates, whose bodies
// declare arrays of N extents and so cannot be instantiated for N = 0.
#ifndef PYKERN_ZERO_D_CUH
#define PYKERN_ZERO_D_CUH
#include "pykern/array.cuh"
#include "pykern/owned_array.cuh"

// z[()]: the one element of a 0-d array (no index, so nothing to wrap or check).
#define PK_AT0(array) (*(array).data)

#if !PK_DEVICE_BUILD
namespace pk {

// A new 0-d array: one element, its storage counted as any array's (owned_array.cuh).
template <class T>
OwnedArray<T, 0, layout_c> new_zero_d(const char* file, int line) {
  auto* storage = static_cast<ArrayStorage*>(__builtin_malloc(sizeof(ArrayStorage) + sizeof(T)));
  if (storage == nullptr) report_failure(file, line, "MemoryError", "Allocation failed (probably too large).");
  storage->references = 0;  // the OwnedArray below takes the one reference
  storage->bytes = static_cast<i64>(sizeof(T));
  Array<T, 0, layout_c> view;
  view.data = reinterpret_cast<T*>(reinterpret_cast<char*>(storage) + sizeof(ArrayStorage));
  return OwnedArray<T, 0, layout_c>(view, storage);
}

// np.empty(()), np.zeros(()), np.full((), v), np.ones(()) and np.array(v): no extents given.
template <class T>
OwnedArray<T, 0, layout_c> empty_array(const char* file, int line, T like) {
  (void)like;
  return new_zero_d<T>(file, line);
}
template <class T>
OwnedArray<T, 0, layout_c> zeros_array(const char* file, int line, T like) {
  auto a = new_zero_d<T>(file, line);
  __builtin_memset(a.data, 0, sizeof(T));
  return a;
}
template <class T>
OwnedArray<T, 0, layout_c> full_array(const char* file, int line, T value) {
  auto a = new_zero_d<T>(file, line);
  *a.data = value;
  return a;
}

// np.empty_like(z) and friends of a 0-d array.
template <class T, class U, Layout L>
OwnedArray<T, 0, layout_c> empty_like(const char* file, int line, T like, const Array<U, 0, L>&) {
  return empty_array(file, line, like);
}
template <class T, class U, Layout L>
OwnedArray<T, 0, layout_c> zeros_like(const char* file, int line, T like, const Array<U, 0, L>&) {
  return zeros_array(file, line, like);
}
template <class T, class U, Layout L>
OwnedArray<T, 0, layout_c> full_like(const char* file, int line, T value, const Array<U, 0, L>&) {
  return full_array(file, line, value);
}

// np.copy(z), z.copy().
template <class T, Layout L>
OwnedArray<T, 0, layout_c> copy_array(const char* file, int line, const Array<T, 0, L>& a) {
  return full_array(file, line, *a.data);
}

// z[...] = v: the one element set. An array source broadcasts into no axes only when it has
// none itself (NumPy's rule), else the ValueError of a shape mismatch.
template <class T, Layout L>
void fill_view(const Array<T, 0, L>& view, T value) {
  *view.data = value;
}
template <class T, Layout L, class U, int M, Layout K>
void copy_view(const char* file, int line, const Array<T, 0, L>& view, const Array<U, M, K>& source) {
  if (M > 0) report_failure(file, line, "ValueError", "cannot assign slice from input of different size");
  *view.data = static_cast<T>(*source.data);
}

// A 0-d array seen as the 1-element 1-d array of its element, sharing it: what reductions and
// flattenings take (sema/zero_d.cpp).
template <class T, Layout L>
Array<T, 1, layout_c> zero_d_as_1d(const Array<T, 0, L>& a) {
  Array<T, 1, layout_c> view;
  view.data = a.data;
  view.shape[0] = 1;
  view.strides[0] = static_cast<i64>(sizeof(T));
  return view;
}
template <class T, Layout L>
OwnedArray<T, 1, layout_c> zero_d_as_1d(const OwnedArray<T, 0, L>& a) {
  return {zero_d_as_1d(static_cast<const Array<T, 0, L>&>(a)), a.storage};
}

// A host call's returned 0-d array (no extents, no strides to pass).
template <int Slot, class T, Layout L>
void export_array(const Array<T, 0, L>& a) {
  sim::hooks->export_array(Slot, nullptr, a.data, 0, nullptr, nullptr);
}
template <int Slot, class T, Layout L>
void export_array(const OwnedArray<T, 0, L>& a) {
  retain(a.storage);
  sim::hooks->export_array(Slot, a.storage, a.data, 0, nullptr, nullptr);
}

}  // namespace pk
#endif
#endif  // PYKERN_ZERO_D_CUH
