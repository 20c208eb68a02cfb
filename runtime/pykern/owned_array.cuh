// pykern runtime: the arrays @jit functions on the host make, hold and return (Numba's arrays
// with their meminfo). Host builds only: a kernel cannot allocate, so sema refuses np.zeros and
// friends there, as numba-cuda does.
//
// An OwnedArray is a view (pk::Array: the kernel ABI's data, shape and strides) plus a counted
// reference to the storage its elements live in, so every function that takes a view takes it
// and reads and writes it as one. A host call's program that makes arrays spells every array
// value this way (ir::Program::owning_arrays; other programs' arrays are all borrowed views).
// One made from a view (a host call's argument, a module constant) holds no storage and
// borrows the memory, which outlives the call. Views made from an owning array (slices, rows,
// transposes, reshapes) share its storage, as Numba's share their parent's meminfo. Counts
// change atomically: the parts of a prange loop copy the arrays they read.
#ifndef PYKERN_OWNED_ARRAY_CUH
#define PYKERN_OWNED_ARRAY_CUH
#include "pykern/array.cuh"
#include "pykern/errors.cuh"
#include "pykern/thread.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

// One allocation per array: this header, then the elements (16-byte aligned, as malloc's are).
// The library frees an exported array's storage with the same release (sim/engine.cpp).
struct ArrayStorage {
  i64 references;
  i64 bytes;  // of the elements
};
static_assert(sizeof(ArrayStorage) == 16, "the elements start 16 bytes in");

inline void retain(ArrayStorage* s) {
  if (s) __atomic_add_fetch(&s->references, 1, __ATOMIC_RELAXED);
}
inline void release(ArrayStorage* s) {
  if (s && __atomic_sub_fetch(&s->references, 1, __ATOMIC_ACQ_REL) == 0) __builtin_free(s);
}

template <class T, int N, Layout L = layout_a>
struct OwnedArray : Array<T, N, L> {
  using View = Array<T, N, L>;
  ArrayStorage* storage = nullptr;

  OwnedArray() : View{} {}
  // A view of memory that outlives the call (an argument's), or of `s`'s elements.
  OwnedArray(const View& view, ArrayStorage* s = nullptr) : View(view), storage(s) { retain(s); }
  // A view of another layout this one covers (C or F where either may be held: layout A).
  template <Layout K, class = enable_if_t<K != L && L == layout_a>>
  OwnedArray(const Array<T, N, K>& view) : View(static_cast<View>(view)), storage(nullptr) {}
  template <Layout K, class = enable_if_t<K != L && L == layout_a>>
  OwnedArray(const OwnedArray<T, N, K>& other)
      : View(static_cast<View>(static_cast<const Array<T, N, K>&>(other))), storage(other.storage) {
    retain(storage);
  }
  OwnedArray(const OwnedArray& other) : View(other), storage(other.storage) { retain(storage); }
  OwnedArray(OwnedArray&& other) noexcept : View(other), storage(other.storage) { other.storage = nullptr; }
  OwnedArray& operator=(const OwnedArray& other) {
    retain(other.storage);
    release(storage);
    View::operator=(other);
    storage = other.storage;
    return *this;
  }
  OwnedArray& operator=(OwnedArray&& other) noexcept {
    if (this != &other) {
      release(storage);
      View::operator=(other);
      storage = other.storage;
      other.storage = nullptr;
    }
    return *this;
  }
  ~OwnedArray() { release(storage); }
};

// ---- views of an owning array share its storage (the overloads win over array.cuh's) ----

template <int Axis, class T, int N, Layout L>
auto index_axis(const char* file, int line, const OwnedArray<T, N, L>& a, i64 i) {
  auto view = index_axis<Axis>(file, line, static_cast<const Array<T, N, L>&>(a), i);
  return OwnedArray<T, N - 1, decltype(view)::layout>(view, a.storage);
}
template <int Axis, class T, int N, Layout L>
OwnedArray<T, N, layout_a> slice_axis(const OwnedArray<T, N, L>& a, i64 start, i64 stop, i64 step) {
  return {slice_axis<Axis>(static_cast<const Array<T, N, L>&>(a), start, stop, step), a.storage};
}
template <class T, int N, Layout L>
auto transpose(const OwnedArray<T, N, L>& a) {
  auto view = transpose(static_cast<const Array<T, N, L>&>(a));
  return OwnedArray<T, N, decltype(view)::layout>(view, a.storage);
}
template <int M, class T, int N, Layout L, class... E>
OwnedArray<T, M, M == 0 ? layout_c : L> reshape(const char* file, int line, const OwnedArray<T, N, L>& a, E... extents) {
  return {reshape<M>(file, line, static_cast<const Array<T, N, L>&>(a), extents...), a.storage};
}
template <class U, class T, int N, Layout L>
auto view_as(const char* file, int line, const OwnedArray<T, N, L>& a, U like) {
  auto view = view_as(file, line, static_cast<const Array<T, N, L>&>(a), like);
  return OwnedArray<U, N, decltype(view)::layout>(view, a.storage);
}
template <class T, int N, Layout L>
OwnedArray<T, N, layout_a> real_part(const OwnedArray<complex<T>, N, L>& a) {
  return {complex_part(a, 0), a.storage};
}
template <class T, int N, Layout L>
OwnedArray<T, N, layout_a> imag_part(const OwnedArray<complex<T>, N, L>& a) {
  return {complex_part(a, 1), a.storage};
}

// ---- new arrays (np.empty, np.zeros, np.full, their _like forms, np.arange, np.copy) ----

// A new array of these extents in layout L (C or F), its elements not set. Numba's checks: a
// negative extent, or more bytes than an intp counts, is a ValueError; memory that cannot be
// had is a MemoryError.
template <class T, int N, Layout L>
OwnedArray<T, N, L> new_array(const char* file, int line, const i64 (&extents)[N]) {
  static_assert(L != layout_a, "a new array is C or F ordered");
  u64 count = 1;
  bool too_big = false;
  for (int axis = 0; axis < N; ++axis) {
    if (extents[axis] < 0) report_failure(file, line, "ValueError", "negative dimensions not allowed");
    too_big |= __builtin_mul_overflow(count, static_cast<u64>(extents[axis]), &count);
  }
  u64 bytes = 0;
  too_big |= __builtin_mul_overflow(count, static_cast<u64>(sizeof(T)), &bytes);
  if (too_big || bytes > static_cast<u64>(9223372036854775807LL) - sizeof(ArrayStorage))
    report_failure(file, line, "ValueError",
                   "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  auto* storage = static_cast<ArrayStorage*>(__builtin_malloc(sizeof(ArrayStorage) + bytes));
  if (storage == nullptr) report_failure(file, line, "MemoryError", "Allocation failed (probably too large).");
  storage->references = 0;  // the OwnedArray below takes the one reference
  storage->bytes = static_cast<i64>(bytes);
  Array<T, N, L> view;
  view.data = reinterpret_cast<T*>(reinterpret_cast<char*>(storage) + sizeof(ArrayStorage));
  i64 stride = static_cast<i64>(sizeof(T));
  for (int k = 0; k < N; ++k) {
    int axis = L == layout_c ? N - 1 - k : k;
    view.shape[axis] = extents[axis];
    view.strides[axis] = stride;
    stride *= extents[axis];
  }
  return OwnedArray<T, N, L>(view, storage);
}

template <class T, int N, Layout L>
void fill_all(const OwnedArray<T, N, L>& a, T value) {
  T* items = a.data;
  i64 count = size(a);
  for (i64 k = 0; k < count; ++k) items[k] = value;
}

// np.empty(shape, dtype): `like` names the element type; one extent per dimension.
template <class T, class... E>
OwnedArray<T, sizeof...(E), layout_c> empty_array(const char* file, int line, T like, E... extents) {
  (void)like;
  const i64 shape[sizeof...(E)] = {static_cast<i64>(extents)...};
  return new_array<T, sizeof...(E), layout_c>(file, line, shape);
}
template <class T, class... E>
OwnedArray<T, sizeof...(E), layout_c> zeros_array(const char* file, int line, T like, E... extents) {
  auto a = empty_array(file, line, like, extents...);
  __builtin_memset(a.data, 0, static_cast<unsigned long>(a.storage->bytes));
  return a;
}
// np.full(shape, value) and np.ones: the value already of the element type.
template <class T, class... E>
OwnedArray<T, sizeof...(E), layout_c> full_array(const char* file, int line, T value, E... extents) {
  auto a = empty_array(file, line, value, extents...);
  fill_all(a, value);
  return a;
}

// np.empty_like(a): a's extents, in a's order (C for an A array, as Numba makes it).
template <class T, class U, int N, Layout L>
OwnedArray<T, N, L == layout_f ? layout_f : layout_c> empty_like(const char* file, int line, T like,
                                                                 const Array<U, N, L>& a) {
  (void)like;
  i64 shape[N];
  for (int axis = 0; axis < N; ++axis) shape[axis] = a.shape[axis];
  return new_array < T, N, L == layout_f ? layout_f : layout_c > (file, line, shape);
}
template <class T, class U, int N, Layout L>
auto zeros_like(const char* file, int line, T like, const Array<U, N, L>& a) {
  auto made = empty_like(file, line, like, a);
  __builtin_memset(made.data, 0, static_cast<unsigned long>(made.storage->bytes));
  return made;
}
template <class T, class U, int N, Layout L>
auto full_like(const char* file, int line, T value, const Array<U, N, L>& a) {
  auto made = empty_like(file, line, value, a);
  fill_all(made, value);
  return made;
}

// np.copy(a), a.copy(): a new C-ordered array of a's elements.
template <class T, int N, Layout L>
OwnedArray<T, N, layout_c> copy_array(const char* file, int line, const Array<T, N, L>& a) {
  i64 shape[N];
  for (int axis = 0; axis < N; ++axis) shape[axis] = a.shape[axis];
  auto made = new_array<T, N, layout_c>(file, line, shape);
  if (L == layout_c) {
    if (made.storage->bytes > 0) __builtin_memcpy(made.data, a.data, static_cast<unsigned long>(made.storage->bytes));
    return made;
  }
  i64 strides[N], to[N];
  for (int axis = 0; axis < N; ++axis) strides[axis] = a.stride(axis), to[axis] = made.stride(axis);
  copy_elements(made.data, to, a.data, strides, a.shape);
  return made;
}

// np.arange(start, stop, step) as Numba computes it: the length is ceil((stop - start) / step),
// the difference taken in D and the quotient in Q (Numba's types of those operations), and
// element i is start + i * step in V, stored as T. A zero step is Numba's ValueError; a length
// that is not a number (an infinite bound) is NumPy's.
template <class T, class D, class Q, class V, class A, class B, class S>
OwnedArray<T, 1, layout_c> arange(const char* file, int line, T, D, Q, V, A start, B stop, S step) {
  if (step == S(0)) report_failure(file, line, "ValueError", "Maximum allowed size exceeded");
  Q quotient = static_cast<Q>(static_cast<D>(stop) - static_cast<D>(start)) / static_cast<Q>(step);
  Q rounded = __builtin_ceil(quotient);
  if (!(rounded == rounded) || rounded - rounded != Q(0))
    report_failure(file, line, "ValueError", "arange: cannot compute length");
  if (rounded >= Q(9.2233720368547758e18))
    report_failure(file, line, "MemoryError", "Allocation failed (probably too large).");
  const i64 shape[1] = {rounded > Q(0) ? static_cast<i64>(rounded) : 0};
  auto made = new_array<T, 1, layout_c>(file, line, shape);
  V first = static_cast<V>(start), stride = static_cast<V>(step);
  for (i64 i = 0; i < shape[0]; ++i) made.data[i] = static_cast<T>(first + static_cast<V>(i) * stride);
  return made;
}

// A host call's returned array where its program makes none: memory the call borrowed.
template <int Slot, class T, int N, Layout L>
void export_array(const Array<T, N, L>& a) {
  i64 strides[N];
  for (int axis = 0; axis < N; ++axis) strides[axis] = a.stride(axis);
  sim::hooks->export_array(Slot, nullptr, a.data, N, a.shape, strides);
}
// A host call's returned array: a reference for the caller (the engine hands it to a
// pykern::Array, which releases it), with the view's extents and byte strides.
template <int Slot, class T, int N, Layout L>
void export_array(const OwnedArray<T, N, L>& a) {
  retain(a.storage);
  i64 strides[N];
  for (int axis = 0; axis < N; ++axis) strides[axis] = a.stride(axis);
  sim::hooks->export_array(Slot, a.storage, a.data, N, a.shape, strides);
}

}  // namespace pk

#define PK_EMPTY(...) (::pk::empty_array(__FILE__, __LINE__, __VA_ARGS__))
#define PK_ZEROS(...) (::pk::zeros_array(__FILE__, __LINE__, __VA_ARGS__))
#define PK_FULL(...) (::pk::full_array(__FILE__, __LINE__, __VA_ARGS__))
#define PK_EMPTY_LIKE(...) (::pk::empty_like(__FILE__, __LINE__, __VA_ARGS__))
#define PK_ZEROS_LIKE(...) (::pk::zeros_like(__FILE__, __LINE__, __VA_ARGS__))
#define PK_FULL_LIKE(...) (::pk::full_like(__FILE__, __LINE__, __VA_ARGS__))
#define PK_COPY(...) (::pk::copy_array(__FILE__, __LINE__, __VA_ARGS__))
#define PK_ARANGE(...) (::pk::arange(__FILE__, __LINE__, __VA_ARGS__))
#endif
#endif  // PYKERN_OWNED_ARRAY_CUH
