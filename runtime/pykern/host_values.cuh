// pykern runtime: the values a host call takes and returns beyond numbers and arrays (a str, a
// list, a typed dict, a tuple holding them, an Optional), crossing between the caller's
// pykern::Value (src/api/host_values.cpp) and the runtime's own objects as a tagged byte
// stream. Host builds only. The runtime makes and frees every object it holds: an argument's
// objects are built here from the stream (owned by the call, released when it ends), and what
// the function returns is written out before the call releases it. Arrays in an argument are
// views of the caller's memory (as a top-level array argument is); arrays in a result are copied.
//
// The stream, little-endian: a tag byte, then
//   'N'  None                     's'  kind ('b' 'i' 'u' 'f' 'c'), itemsize (1 byte), the value's bytes
//   'S'  i64 bytes, UTF-8         'T' / 'L'  i64 count, the items      'D'  i64 count, key, value, ...
//   'A'  kind, itemsize, i64 ndim, i64 shape[ndim], the elements in C order (results)
//   'P'  kind, itemsize, i64 ndim, u64 address, i64 shape[ndim], i64 byte strides[ndim] (arguments)
#ifndef PYKERN_HOST_VALUES_CUH
#define PYKERN_HOST_VALUES_CUH
#include "pykern/base.cuh"
#include "pykern/dict.cuh"
#include "pykern/list.cuh"
#include "pykern/owned_array.cuh"
#include "pykern/text.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

// ---- what a scalar type is called in the stream ----
template <class T> struct value_kind;
template <> struct value_kind<bool> { static constexpr char kind = 'b'; };
template <> struct value_kind<i8> { static constexpr char kind = 'i'; };
template <> struct value_kind<i16> { static constexpr char kind = 'i'; };
template <> struct value_kind<i32> { static constexpr char kind = 'i'; };
template <> struct value_kind<i64> { static constexpr char kind = 'i'; };
template <> struct value_kind<u8> { static constexpr char kind = 'u'; };
template <> struct value_kind<u16> { static constexpr char kind = 'u'; };
template <> struct value_kind<u32> { static constexpr char kind = 'u'; };
template <> struct value_kind<u64> { static constexpr char kind = 'u'; };
template <> struct value_kind<f32> { static constexpr char kind = 'f'; };
template <> struct value_kind<f64> { static constexpr char kind = 'f'; };
template <> struct value_kind<complex<f32>> { static constexpr char kind = 'c'; };
template <> struct value_kind<complex<f64>> { static constexpr char kind = 'c'; };

// ---- writing a result ----
struct value_writer {
  char* bytes = nullptr;
  i64 size = 0, capacity = 0;
  value_writer() = default;
  value_writer(const value_writer&) = delete;
  value_writer& operator=(const value_writer&) = delete;
  ~value_writer() { delete[] bytes; }
  void put(const void* data, i64 count) {
    if (size + count > capacity) {
      i64 grown = capacity < 64 ? 64 : capacity * 2;
      while (grown < size + count) grown *= 2;
      char* more = new char[grown];
      for (i64 i = 0; i < size; ++i) more[i] = bytes[i];
      delete[] bytes;
      bytes = more;
      capacity = grown;
    }
    const char* from = static_cast<const char*>(data);
    for (i64 i = 0; i < count; ++i) bytes[size + i] = from[i];
    size += count;
  }
  void tag(char t) { put(&t, 1); }
  void count(i64 n) { put(&n, 8); }
  bool borrowed_as_pointers = false;  // an argument written back: see OwnedArray's write_value
};

template <class T> void write_value(value_writer& w, const T& scalar) {
  w.tag('s');
  w.tag(value_kind<T>::kind);
  w.tag(static_cast<char>(sizeof(T)));
  w.put(&scalar, sizeof(T));
}
inline void write_value(value_writer& w, const none_t&) { w.tag('N'); }  // (a, None), a gufunc call's None
inline void write_value(value_writer& w, const str& s) {
  w.tag('S');
  w.count(s.size);
  w.put(s.bytes, s.size);
}
inline void write_items(value_writer&, const tuple<>&) {}
template <class H, class... R> void write_items(value_writer& w, const tuple<H, R...>& t) {
  write_value(w, t.head);
  write_items(w, t.tail);
}
template <class... T> void write_value(value_writer& w, const tuple<T...>& t) {
  w.tag('T');
  w.count(static_cast<i64>(sizeof...(T)));
  write_items(w, t);
}
template <class T> void write_value(value_writer& w, const list<T>& l) {
  w.tag('L');
  w.count(l.size());
  for (i64 i = 0; i < l.size(); ++i) write_value(w, l.items()[i]);
}
template <class K, class V> void write_value(value_writer& w, const dict<K, V>& d) {
  w.tag('D');
  w.count(dict_len(d));
  if (!d.storage) return;
  for (i64 i = 0; i < d.storage->entry_count; ++i) {
    if (!d.storage->entries[i].live) continue;
    write_value(w, d.storage->entries[i].key);
    write_value(w, d.storage->entries[i].value);
  }
}
template <class T> void write_value(value_writer& w, const optional<T>& o) {
  if (!o.has) return w.tag('N');
  write_value(w, o.value);
}
// An array's elements, copied in C order (an OwnedArray is one of these too).
template <class T, int N, Layout L> void write_value(value_writer& w, const Array<T, N, L>& a) {
  w.tag('A');
  w.tag(value_kind<T>::kind);
  w.tag(static_cast<char>(sizeof(T)));
  w.count(N);
  i64 total = 1;
  for (int axis = 0; axis < N; ++axis) {
    w.count(a.shape[axis]);
    total *= a.shape[axis];
  }
  i64 index[N > 0 ? N : 1] = {};
  for (i64 k = 0; k < total; ++k) {
    i64 offset = 0;
    for (int axis = 0; axis < N; ++axis) offset += index[axis] * a.stride(axis);
    w.put(reinterpret_cast<const char*>(a.data) + offset, sizeof(T));
    for (int axis = N - 1; axis >= 0; --axis) {
      if (++index[axis] < a.shape[axis]) break;
      index[axis] = 0;
    }
  }
}

// An owning array (a program that makes arrays holds these): its view's elements. Written back
// in an argument, a view of borrowed memory (the caller's array, which the argument held) goes
// as its address ('P'), so the caller's Value keeps its own array rather than a copy.
template <class T, int N, Layout L> void write_value(value_writer& w, const OwnedArray<T, N, L>& a) {
  if (w.borrowed_as_pointers && a.storage == nullptr) {
    w.tag('P');
    w.tag(value_kind<T>::kind);
    w.tag(static_cast<char>(sizeof(T)));
    w.count(N);
    u64 address = reinterpret_cast<u64>(a.data);
    w.put(&address, 8);
    for (int axis = 0; axis < N; ++axis) w.count(a.shape[axis]);
    for (int axis = 0; axis < N; ++axis) w.count(a.stride(axis));
    return;
  }
  write_value(w, static_cast<const Array<T, N, L>&>(a));
}

// What a host call returns, handed to the engine as bytes (the engine copies them).
template <class T> void export_value(const T& value) {
  value_writer w;
  write_value(w, value);
  sim::hooks->export_items(w.bytes, static_cast<u64>(w.size), 1);
}

// A list or dict argument as the function left it, handed back to the caller (Numba's
// reflected lists and shared typed containers: what the function changed shows in the caller's).
template <class T> void export_argument(i64 index, const T& value) {
  value_writer w;
  w.borrowed_as_pointers = true;
  write_value(w, value);
  sim::hooks->export_argument(static_cast<i32>(index), w.bytes, static_cast<u64>(w.size));
}

// ---- reading an argument ----
struct value_reader {
  const unsigned char* bytes;
  i64 size, at;
  // The host wrote the stream for this very type (src/api/host_values.cpp checks the types
  // before the call): anything else is pykern's own error.
  [[noreturn]] void broken() const {
    report_failure(__FILE__, __LINE__, "SystemError", "pykern: a host call's argument does not match its type; please report it");
  }
  void take(void* out, i64 count) {
    if (count < 0 || at + count > size) broken();
    unsigned char* to = static_cast<unsigned char*>(out);
    for (i64 i = 0; i < count; ++i) to[i] = bytes[at + i];
    at += count;
  }
  char tag() {
    char t;
    take(&t, 1);
    return t;
  }
  void expect(char wanted) {
    if (tag() != wanted) broken();
  }
  i64 count() {
    i64 n;
    take(&n, 8);
    if (n < 0) broken();
    return n;
  }
};

template <class T> struct value_reading {
  static T read(value_reader& r) {
    r.expect('s');
    if (r.tag() != value_kind<T>::kind || r.tag() != static_cast<char>(sizeof(T))) r.broken();
    T value;
    r.take(&value, sizeof(T));
    return value;
  }
};
template <> struct value_reading<str> {
  static str read(value_reader& r) {
    r.expect('S');
    i64 size = r.count();
    if (r.at + size > r.size) r.broken();
    str s = str_from_bytes(reinterpret_cast<const char*>(r.bytes + r.at), size);
    r.at += size;
    return s;
  }
};
template <> struct value_reading<tuple<>> {
  static tuple<> read_items(value_reader&) { return {}; }
  static tuple<> read(value_reader& r) {
    r.expect('T');
    if (r.count() != 0) r.broken();
    return {};
  }
};
template <class H, class... R> struct value_reading<tuple<H, R...>> {
  static tuple<H, R...> read_items(value_reader& r) {
    tuple<H, R...> t;
    t.head = value_reading<H>::read(r);
    t.tail = value_reading<tuple<R...>>::read_items(r);
    return t;
  }
  static tuple<H, R...> read(value_reader& r) {
    r.expect('T');
    if (r.count() != static_cast<i64>(1 + sizeof...(R))) r.broken();
    return read_items(r);
  }
};
template <class T> struct value_reading<list<T>> {
  static list<T> read(value_reader& r) {
    r.expect('L');
    i64 n = r.count();
    list<T> l = empty_list<T>();
    for (i64 i = 0; i < n; ++i) list_append(l, value_reading<T>::read(r));
    return l;
  }
};
template <class K, class V> struct value_reading<dict<K, V>> {
  static dict<K, V> read(value_reader& r) {
    r.expect('D');
    i64 n = r.count();
    dict<K, V> d{empty_dict{}};
    for (i64 i = 0; i < n; ++i) {
      K key = value_reading<K>::read(r);
      V value = value_reading<V>::read(r);
      d.set(key, value);
    }
    return d;
  }
};
template <class T> struct value_reading<optional<T>> {
  static optional<T> read(value_reader& r) {
    if (r.at < r.size && r.bytes[r.at] == 'N') {
      ++r.at;
      return optional<T>();
    }
    return optional<T>(value_reading<T>::read(r));
  }
};
// A view of the caller's array: the caller keeps it alive for the call.
template <class T, int N, Layout L> struct value_reading<Array<T, N, L>> {
  static Array<T, N, L> read(value_reader& r) {
    r.expect('P');
    if (r.tag() != value_kind<T>::kind || r.tag() != static_cast<char>(sizeof(T)) || r.count() != N) r.broken();
    u64 address;
    r.take(&address, 8);
    Array<T, N, L> a;
    a.data = reinterpret_cast<T*>(address);
    for (int axis = 0; axis < N; ++axis) a.shape[axis] = r.count();
    for (int axis = 0; axis < N; ++axis) r.take(&a.strides[axis], 8);
    return a;
  }
};
template <class T, int N, Layout L> struct value_reading<OwnedArray<T, N, L>> {
  static OwnedArray<T, N, L> read(value_reader& r) { return OwnedArray<T, N, L>(value_reading<Array<T, N, L>>::read(r)); }
};

// A host call's argument from the bytes the caller wrote for it.
template <class T, Layout L> T import_value(const Array<u8, 1, L>& encoded) {
  value_reader r{encoded.data, encoded.shape[0], 0};
  T value = value_reading<T>::read(r);
  if (r.at != r.size) r.broken();
  return value;
}

}  // namespace pk
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_HOST_VALUES_CUH
