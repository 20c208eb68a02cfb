// pykern runtime: scalar types, qualifiers and tuples. No system headers: this compiles under
// NVRTC (device) and under the host C++ compiler (the CPU simulator) alike.
#ifndef PYKERN_BASE_CUH
#define PYKERN_BASE_CUH

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define PK_DEVICE_BUILD 1
#define PK_DEVICE __device__ __forceinline__
#define PK_NOINLINE_DEVICE __device__
#define PK_KERNEL __global__
#define PK_UNROLL _Pragma("unroll")
#else
#define PK_UNROLL
#define PK_DEVICE_BUILD 0
#define PK_DEVICE inline
#define PK_NOINLINE_DEVICE inline
#define PK_KERNEL
// print() in a kernel is one printf call, as on the GPU (where NVRTC declares printf itself).
extern "C" int printf(const char* format, ...);
#endif

namespace pk {

using i8 = signed char;
using i16 = short;
using i32 = int;
using i64 = long long;
using u8 = unsigned char;
using u16 = unsigned short;
using u32 = unsigned int;
using u64 = unsigned long long;
using f32 = float;
using f64 = double;

static_assert(sizeof(i64) == 8 && sizeof(u64) == 8 && sizeof(i32) == 4, "unexpected integer sizes");

// Python's None in a slice (a[:n]) is this sentinel.
constexpr i64 none_index = -9223372036854775807LL - 1;

// Python's slice.indices(n): a slice's parts (none_index where omitted) clipped to a sequence
// of n items, and how many items it takes. The step is not zero: each caller words that.
struct slice_bounds {
  i64 start, stop, step, length;
};
PK_DEVICE slice_bounds slice_indices(i64 n, i64 start, i64 stop, i64 step) {
  if (step == none_index) step = 1;
  auto clamp = [](i64 v, i64 lo, i64 hi) { return v < lo ? lo : v > hi ? hi : v; };
  if (step > 0) {
    start = start == none_index ? 0 : clamp(start < 0 ? start + n : start, 0, n);
    stop = stop == none_index ? n : clamp(stop < 0 ? stop + n : stop, 0, n);
  } else {
    start = start == none_index ? n - 1 : clamp(start < 0 ? start + n : start, -1, n - 1);
    stop = stop == none_index ? -1 : clamp(stop < 0 ? stop + n : stop, -1, n - 1);
  }
  i64 length = step > 0 ? (stop > start ? (stop - start + step - 1) / step : 0)
                        : (start > stop ? (start - stop - step - 1) / (-step) : 0);
  return {start, stop, step, length};
}

// Numba's Optional: a value or None (a device function that returns a value on some paths and
// None on others). Reading the value of a None gives T's zero, where Numba would raise.
struct none_t {};
template <class T> struct optional {
  bool has;
  T value;
  PK_DEVICE optional() : has(false), value() {}
  PK_DEVICE optional(none_t) : has(false), value() {}
  PK_DEVICE optional(T v) : has(true), value(v) {}
};
PK_DEVICE none_t optional_none() { return {}; }
template <class T> PK_DEVICE bool is_none(const optional<T>& o) { return !o.has; }
template <class T> PK_DEVICE T unwrap(const optional<T>& o) { return o.value; }

// inf and a quiet NaN (Python's math.nan bits). NVRTC knows no __builtin_huge_val/__builtin_nan:
// on the device they are made from their bits.
#if PK_DEVICE_BUILD
template <class T> PK_DEVICE T inf() {
  if constexpr (sizeof(T) == 4) return static_cast<T>(__int_as_float(0x7f800000));
  else return static_cast<T>(__longlong_as_double(0x7ff0000000000000LL));
}
template <class T> PK_DEVICE T nan() {
  if constexpr (sizeof(T) == 4) return static_cast<T>(__int_as_float(0x7fc00000));
  else return static_cast<T>(__longlong_as_double(0x7ff8000000000000LL));
}
#else
template <class T> PK_DEVICE T inf() { return static_cast<T>(__builtin_huge_val()); }
template <class T> PK_DEVICE T nan() { return static_cast<T>(__builtin_nan("")); }
#endif

// print(True) prints True, as numba-cuda prints booleans.
PK_DEVICE const char* bool_text(bool b) { return b ? "True" : "False"; }

template <class T> struct is_signed_int { static constexpr bool value = T(-1) < T(0); };

// ---- CUDA vector types (numba.cuda.float32x4, int2, ...): lanes x, y, z, w ----
template <class T, int N> struct vec;
template <class T> struct vec<T, 1> { T x; };
template <class T> struct vec<T, 2> { T x, y; };
template <class T> struct vec<T, 3> { T x, y, z; };
template <class T> struct vec<T, 4> { T x, y, z, w; };
template <class T, int N, class... L> PK_DEVICE vec<T, N> make_vec(L... lanes) { return vec<T, N>{lanes...}; }

// ---- tuples (heterogeneous, by value) ----
template <class... T> struct tuple;
template <> struct tuple<> {};
template <class H, class... T> struct tuple<H, T...> {
  H head;
  tuple<T...> tail;
};

template <int I> struct tuple_getter {
  template <class H, class... T> static PK_DEVICE auto get(const tuple<H, T...>& t) {
    return tuple_getter<I - 1>::get(t.tail);
  }
};
template <> struct tuple_getter<0> {
  template <class H, class... T> static PK_DEVICE H get(const tuple<H, T...>& t) { return t.head; }
};
template <int I, class... T> PK_DEVICE auto get(const tuple<T...>& t) { return tuple_getter<I>::get(t); }

// t[i] with i known only at run time: homogeneous tuples, negative i counting from the end.
template <class T, class... R> PK_DEVICE T tuple_item(const tuple<T, R...>& t, i64 i) {
  if constexpr (sizeof...(R) == 0) {
    return t.head;
  } else {
    return i == 0 ? t.head : tuple_item(t.tail, i - 1);
  }
}
template <class T, class... R> PK_DEVICE T tuple_at(const tuple<T, R...>& t, i64 i) {
  return tuple_item(t, i < 0 ? i + i64(1 + sizeof...(R)) : i);
}

PK_DEVICE tuple<> make_tuple() { return {}; }
template <class H, class... T> PK_DEVICE tuple<H, T...> make_tuple(H head, T... tail) {
  return tuple<H, T...>{head, make_tuple(tail...)};
}

}  // namespace pk
#endif  // PYKERN_BASE_CUH
