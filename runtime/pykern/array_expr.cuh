// pykern runtime: whole-array expressions in @jit functions on the host (a + b * c, np.sqrt(a),
// np.where(m, a, 0.0)), fused as Numba's array-expression rewrite fuses them: no temporary
// arrays, one loop over the result. Host builds only (kernels have no whole-array arithmetic).
//
// sema types the expression and emits a tree of lazy nodes: map<R>(f, operands...) whose
// element is f of its operands' elements (f converts them, as sema made explicit), with leaves
// for arrays (broadcast: an axis of extent 1 repeats, missing leading axes are added) and
// scalars. materialize() computes a tree into a new C array; assign_into() into an existing
// array (a += b, a[1:-1] = b[2:] - b[:-2]). Where every array operand is C-contiguous and of
// the result's shape, the loop is a plain linear one that the compiler vectorises.
#ifndef PYKERN_ARRAY_EXPR_CUH
#define PYKERN_ARRAY_EXPR_CUH
#include "pykern/owned_array.cuh"

#if !PK_DEVICE_BUILD
namespace pk {
namespace ex {

// ---- leaves ----

template <class T> struct ScalarLeaf {
  static constexpr int ndim = 0;
  T value;
  template <int R> bool broadcast_into(const char*, int, const i64 (&)[R], i64 (&)[R], int& argument) const {
    ++argument;
    return true;
  }
  template <int R> void bind(const i64 (&)[R]) {}
  bool linear() const { return true; }
  T at_linear(i64) const { return value; }
  template <int R> T at(const i64 (&)[R]) const { return value; }
  bool overlaps(const char*, const char*, const void*, int, const i64*, const i64*) const { return false; }
};

template <class T> PK_DEVICE T read_element(const T* p) { return *p; }
// NumPy and Numba take any non-zero byte of a bool array for True.
PK_DEVICE bool read_element(const bool* p) { return *reinterpret_cast<const unsigned char*>(p) != 0; }

template <class T, int N> struct ArrayLeaf {
  static constexpr int ndim = N;
  const T* data;
  i64 shape[N];
  i64 strides[N];    // bytes
  i64 steps[N];      // bytes per step of the result's matching axis: 0 where this axis repeats
  bool contiguous = false;  // C-contiguous and of the result's shape: read linearly

  // NumPy's broadcasting of this operand onto the shape so far (aligned on the last axes): an
  // extent of 1 on either side takes the other's; anything else must match. `argument` counts
  // the leaves, for Numba's message.
  template <int R>
  bool broadcast_into(const char*, int, const i64 (&)[R], i64 (&shape_now)[R], int& argument) const {
    static_assert(N <= R, "an operand has at most the result's dimensions");
    for (int axis = 0; axis < N; ++axis) {
      i64& out = shape_now[R - N + axis];
      if (out == 1)
        out = shape[axis];
      else if (shape[axis] != 1 && shape[axis] != out)
        return false;
    }
    ++argument;
    return true;
  }
  template <int R> void bind(const i64 (&result)[R]) {
    bool same = N == R;
    i64 expected = static_cast<i64>(sizeof(T));
    contiguous = true;
    for (int axis = N - 1; axis >= 0; --axis) {
      i64 extent = result[R - N + axis];
      same = same && shape[axis] == extent;
      steps[axis] = shape[axis] == 1 && extent != 1 ? 0 : strides[axis];
      if (shape[axis] != 1 && strides[axis] != expected) contiguous = false;
      expected *= shape[axis];
    }
    contiguous = contiguous && same;
  }
  bool linear() const { return contiguous; }
  T at_linear(i64 i) const { return read_element(data + i); }
  template <int R> T at(const i64 (&index)[R]) const {
    i64 bytes = 0;
    for (int axis = 0; axis < N; ++axis) bytes += index[R - N + axis] * steps[axis];
    return read_element(reinterpret_cast<const T*>(reinterpret_cast<const char*>(data) + bytes));
  }
  // Whether this operand's memory meets [lo, hi) other than element for element (the target
  // itself, read where it is written, is safe).
  bool overlaps(const char* lo, const char* hi, const void* target, int target_ndim, const i64* target_shape,
                const i64* target_strides) const {
    const char* begin = reinterpret_cast<const char*>(data);
    const char* end = begin + sizeof(T);
    for (int axis = 0; axis < N; ++axis) {
      if (shape[axis] == 0) return false;
      i64 span = (shape[axis] - 1) * strides[axis];
      (span < 0 ? begin : end) += span;
    }
    if (end <= lo || begin >= hi) return false;
    if (target != data || target_ndim != N) return true;
    for (int axis = 0; axis < N; ++axis)
      if (shape[axis] != target_shape[axis] || (shape[axis] != 1 && strides[axis] != target_strides[axis])) return true;
    return false;
  }
};

// An operand as a leaf: arrays (owning or not) and numbers; nodes stay as they are.
template <class T, int N, Layout L> ArrayLeaf<T, N> leaf(const Array<T, N, L>& a) {
  ArrayLeaf<T, N> out;
  out.data = a.data;
  for (int axis = 0; axis < N; ++axis) {
    out.shape[axis] = a.shape[axis];
    out.strides[axis] = a.stride(axis);
    out.steps[axis] = out.strides[axis];
  }
  return out;
}
#define PK_SCALAR_LEAF(T) \
  inline ScalarLeaf<T> leaf(T value) { return {value}; }
PK_SCALAR_LEAF(bool)
PK_SCALAR_LEAF(i8)
PK_SCALAR_LEAF(i16)
PK_SCALAR_LEAF(i32)
PK_SCALAR_LEAF(i64)
PK_SCALAR_LEAF(u8)
PK_SCALAR_LEAF(u16)
PK_SCALAR_LEAF(u32)
PK_SCALAR_LEAF(u64)
PK_SCALAR_LEAF(f32)
PK_SCALAR_LEAF(f64)
PK_SCALAR_LEAF(complex<f32>)
PK_SCALAR_LEAF(complex<f64>)
#undef PK_SCALAR_LEAF

constexpr int max_ndim(int a, int b) { return a > b ? a : b; }

// ---- nodes: f of one, two or three operands ----

template <class R, class F, class A> struct Map1 {
  using is_node = void;
  static constexpr int ndim = A::ndim;
  F f;
  A a;
  template <int K>
  bool broadcast_into(const char* file, int line, const i64 (&r)[K], i64 (&shape)[K], int& argument) const {
    return a.broadcast_into(file, line, r, shape, argument);
  }
  template <int K> void bind(const i64 (&r)[K]) { a.bind(r); }
  bool linear() const { return a.linear(); }
  R at_linear(i64 i) const { return f(a.at_linear(i)); }
  template <int K> R at(const i64 (&index)[K]) const { return f(a.at(index)); }
  bool overlaps(const char* lo, const char* hi, const void* t, int n, const i64* s, const i64* st) const {
    return a.overlaps(lo, hi, t, n, s, st);
  }
};

template <class R, class F, class A, class B> struct Map2 {
  using is_node = void;
  static constexpr int ndim = max_ndim(A::ndim, B::ndim);
  F f;
  A a;
  B b;
  template <int K>
  bool broadcast_into(const char* file, int line, const i64 (&r)[K], i64 (&shape)[K], int& argument) const {
    return a.broadcast_into(file, line, r, shape, argument) && b.broadcast_into(file, line, r, shape, argument);
  }
  template <int K> void bind(const i64 (&r)[K]) {
    a.bind(r);
    b.bind(r);
  }
  bool linear() const { return a.linear() && b.linear(); }
  R at_linear(i64 i) const { return f(a.at_linear(i), b.at_linear(i)); }
  template <int K> R at(const i64 (&index)[K]) const { return f(a.at(index), b.at(index)); }
  bool overlaps(const char* lo, const char* hi, const void* t, int n, const i64* s, const i64* st) const {
    return a.overlaps(lo, hi, t, n, s, st) || b.overlaps(lo, hi, t, n, s, st);
  }
};

template <class R, class F, class A, class B, class C> struct Map3 {
  using is_node = void;
  static constexpr int ndim = max_ndim(A::ndim, max_ndim(B::ndim, C::ndim));
  F f;
  A a;
  B b;
  C c;
  template <int K>
  bool broadcast_into(const char* file, int line, const i64 (&r)[K], i64 (&shape)[K], int& argument) const {
    return a.broadcast_into(file, line, r, shape, argument) && b.broadcast_into(file, line, r, shape, argument) &&
           c.broadcast_into(file, line, r, shape, argument);
  }
  template <int K> void bind(const i64 (&r)[K]) {
    a.bind(r);
    b.bind(r);
    c.bind(r);
  }
  bool linear() const { return a.linear() && b.linear() && c.linear(); }
  R at_linear(i64 i) const { return f(a.at_linear(i), b.at_linear(i), c.at_linear(i)); }
  template <int K> R at(const i64 (&index)[K]) const { return f(a.at(index), b.at(index), c.at(index)); }
  bool overlaps(const char* lo, const char* hi, const void* t, int n, const i64* s, const i64* st) const {
    return a.overlaps(lo, hi, t, n, s, st) || b.overlaps(lo, hi, t, n, s, st) || c.overlaps(lo, hi, t, n, s, st);
  }
};

template <class E, class = typename E::is_node> const E& leaf(const E& node) { return node; }

template <class T> struct plain {
  using type = T;
};
template <class T> struct plain<const T&> {
  using type = T;
};

// map<R>(f, x, ...): the lazy node of f applied element-wise; R is f's result type.
template <class R, class F, class A> auto map(F f, const A& a) {
  using LA = typename plain<decltype(leaf(a))>::type;
  return Map1<R, F, LA>{f, leaf(a)};
}
template <class R, class F, class A, class B> auto map(F f, const A& a, const B& b) {
  using LA = typename plain<decltype(leaf(a))>::type;
  using LB = typename plain<decltype(leaf(b))>::type;
  return Map2<R, F, LA, LB>{f, leaf(a), leaf(b)};
}
template <class R, class F, class A, class B, class C> auto map(F f, const A& a, const B& b, const C& c) {
  using LA = typename plain<decltype(leaf(a))>::type;
  using LB = typename plain<decltype(leaf(b))>::type;
  using LC = typename plain<decltype(leaf(c))>::type;
  return Map3<R, F, LA, LB, LC>{f, leaf(a), leaf(b), leaf(c)};
}

// ---- evaluation ----

template <class T> T&& declared() noexcept;  // in unevaluated operands only
template <class E> using result_t = decltype(declared<const E&>().at_linear(0));

// The shape the operands broadcast to; Numba's ValueError (naming the operand, counted from 0
// left to right) where two do not.
template <class E, int N> void broadcast_shape(const char* file, int line, const E& e, i64 (&shape)[N]) {
  for (int axis = 0; axis < N; ++axis) shape[axis] = 1;
  int argument = 0;
  if (!e.broadcast_into(file, line, shape, shape, argument)) {
    char message[64] = "unable to broadcast argument ";
    int at = 29;
    if (argument >= 10) message[at++] = static_cast<char>('0' + argument / 10 % 10);
    message[at++] = static_cast<char>('0' + argument % 10);
    const char tail[] = " to output array";
    for (const char* p = tail; *p; ++p) message[at++] = *p;
    message[at] = 0;
    report_failure(file, line, "ValueError", message);
  }
}

// Writes e's elements into `out` (of the broadcast shape `shape`, byte strides `strides`).
template <class T, int N, class E>
void evaluate_into(T* out, const i64 (&shape)[N], const i64 (&strides)[N], bool out_linear, E& e) {
  e.bind(shape);
  i64 count = 1;
  for (int axis = 0; axis < N; ++axis) count *= shape[axis];
  if (count == 0) return;
  if (out_linear && e.linear()) {
    for (i64 i = 0; i < count; ++i) out[i] = static_cast<T>(e.at_linear(i));
    return;
  }
  // The last axis innermost; the index of the others advances like an odometer.
  i64 index[N] = {};
  char* base = reinterpret_cast<char*>(out);
  i64 inner = shape[N - 1], inner_stride = strides[N - 1];
  for (i64 done = 0; done < count; done += inner) {
    i64 offset = 0;
    for (int axis = 0; axis < N - 1; ++axis) offset += index[axis] * strides[axis];
    char* row = base + offset;
    for (i64 k = 0; k < inner; ++k) {
      index[N - 1] = k;
      *reinterpret_cast<T*>(row + k * inner_stride) = static_cast<T>(e.at(index));
    }
    index[N - 1] = 0;
    for (int axis = N - 2; axis >= 0; --axis) {
      if (++index[axis] < shape[axis]) break;
      index[axis] = 0;
    }
  }
}

// A new C array of the expression's elements: one loop, no temporaries.
template <class E> auto materialize(const char* file, int line, E e) {
  constexpr int N = E::ndim;
  using T = result_t<E>;
  i64 shape[N];
  broadcast_shape(file, line, e, shape);
  auto out = new_array<T, N, layout_c>(file, line, shape);
  i64 strides[N];
  for (int axis = 0; axis < N; ++axis) strides[axis] = out.stride(axis);
  evaluate_into(out.data, shape, strides, true, e);
  return out;
}

// target = e, element for element, converted to the target's type (a += b, a[1:] = b - c,
// out[i, :] = row * w): e broadcast to the target's shape (Numba's ValueError where it does
// not fit). Where an operand overlaps the target other than element for element, e is first
// computed into a new array, as NumPy's copy through a temporary gives.
template <class T, int N, Layout L, class E>
void assign_into(const char* file, int line, const Array<T, N, L>& target, E e) {
  static_assert(E::ndim <= N, "sema keeps an assigned expression within the target's dimensions");
  i64 shape[N], strides[N];
  for (int axis = 0; axis < N; ++axis) {
    shape[axis] = target.shape[axis];
    strides[axis] = target.stride(axis);
  }
  // The expression's own shape first (its operands must broadcast together), then onto the target.
  i64 result[N];
  broadcast_shape(file, line, e, result);
  for (int axis = 0; axis < N; ++axis)
    if (result[axis] != 1 && result[axis] != shape[axis])
      report_failure(file, line, "ValueError", "cannot assign slice from input of different size");
  const char* lo = reinterpret_cast<const char*>(target.data);
  const char* hi = lo + sizeof(T);
  bool empty = false;
  for (int axis = 0; axis < N; ++axis) {
    if (shape[axis] == 0) empty = true;
    i64 span = (shape[axis] - 1) * strides[axis];
    (span < 0 ? lo : hi) += span;
  }
  if (empty) return;
  bool linear = true;
  i64 expected = static_cast<i64>(sizeof(T));
  for (int axis = N - 1; axis >= 0; --axis) {
    if (shape[axis] != 1 && strides[axis] != expected) linear = false;
    expected *= shape[axis];
  }
  if (e.overlaps(lo, hi, target.data, N, shape, strides)) {
    auto copy = materialize(file, line, e);
    auto source = leaf(copy);  // reads only the copy; evaluated before `copy` is released
    evaluate_into(target.data, shape, strides, linear, source);
    return;
  }
  evaluate_into(target.data, shape, strides, linear, e);
}

}  // namespace ex
}  // namespace pk

#define PK_MATERIALIZE(...) (::pk::ex::materialize(__FILE__, __LINE__, __VA_ARGS__))
#define PK_ASSIGN_EXPR(target, ...) (::pk::ex::assign_into(__FILE__, __LINE__, target, __VA_ARGS__))
#endif
#endif  // PYKERN_ARRAY_EXPR_CUH
