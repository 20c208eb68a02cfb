// pykern runtime: typed dicts in @jit functions called on the host (Numba's DictType,
// numba/typed/dictobject.py and numba/cext/dictobject.c). Host builds only: a kernel cannot
// hold one (sema refuses). A dict is a counted reference to its storage, as a Python name
// refers to a dict object: d2 = d1 shares it, and a function it is passed to updates it.
//
// The layout is CPython's and Numba's: an entry array in insertion order, and an open
// addressing index of entry positions. Deleting marks the entry dead and its index slot a
// tombstone, so iteration order is insertion order, and a key deleted and stored again goes
// last, as in Python. Results never depend on the hash function: only order is visible.
#ifndef PYKERN_DICT_CUH
#define PYKERN_DICT_CUH
#include "pykern/base.cuh"
#include "pykern/complex.cuh"
#include "pykern/errors.cuh"
#include "pykern/text.cuh"

#if !PK_DEVICE_BUILD

namespace pk {

// ---- hashing and equality of keys: numbers, and tuples of them ----
inline u64 dict_mix(u64 h) {  // splitmix64's finaliser
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}
inline u64 dict_hash(bool v) { return dict_mix(v ? 1 : 0); }
inline u64 dict_hash(i8 v) { return dict_mix(static_cast<u64>(static_cast<i64>(v))); }
inline u64 dict_hash(i16 v) { return dict_mix(static_cast<u64>(static_cast<i64>(v))); }
inline u64 dict_hash(i32 v) { return dict_mix(static_cast<u64>(static_cast<i64>(v))); }
inline u64 dict_hash(i64 v) { return dict_mix(static_cast<u64>(v)); }
inline u64 dict_hash(u8 v) { return dict_mix(v); }
inline u64 dict_hash(u16 v) { return dict_mix(v); }
inline u64 dict_hash(u32 v) { return dict_mix(v); }
inline u64 dict_hash(u64 v) { return dict_mix(v); }
inline u64 dict_hash(f64 v) {
  u64 bits;
  __builtin_memcpy(&bits, &v, sizeof bits);
  return dict_mix(bits);
}
inline u64 dict_hash(f32 v) { return dict_hash(static_cast<f64>(v)); }
template <class T> u64 dict_hash(const complex<T>& v) { return dict_mix(dict_hash(v.re) * 31 + dict_hash(v.im)); }
inline u64 dict_hash(const tuple<>&) { return 0x345678; }
template <class H, class... T> u64 dict_hash(const tuple<H, T...>& t) {
  return dict_mix(dict_hash(t.head) * 1000003ull ^ dict_hash(t.tail));
}

// Keys compare by their bytes after the hashes match, as Numba's dicts of numbers do
// (numba/cext/dictobject.c key_equal: memcmp without a key_equal method): -0.0 and 0.0 are two
// keys. A NaN key is never found again (Numba hashes each NaN apart, as Python 3.10 does), so
// storing one twice makes two entries. Tuples compare part by part, skipping padding.
template <class T> bool dict_key_equal(const T& a, const T& b) { return __builtin_memcmp(&a, &b, sizeof(T)) == 0; }
inline bool dict_key_equal(const f64& a, const f64& b) { return a == a && __builtin_memcmp(&a, &b, sizeof a) == 0; }
inline bool dict_key_equal(const f32& a, const f32& b) { return a == a && __builtin_memcmp(&a, &b, sizeof a) == 0; }
template <class T> bool dict_key_equal(const complex<T>& a, const complex<T>& b) {
  return dict_key_equal(a.re, b.re) && dict_key_equal(a.im, b.im);
}
inline bool dict_key_equal(const tuple<>&, const tuple<>&) { return true; }
template <class H, class... T> bool dict_key_equal(const tuple<H, T...>& a, const tuple<H, T...>& b) {
  return dict_key_equal(a.head, b.head) && dict_key_equal(a.tail, b.tail);
}

// ---- a key as Python's str() writes it, for KeyError(key) ----
struct dict_text {
  char text[160];
  int used = 0;
  void put(const char* s) {
    while (*s && used < int(sizeof text) - 1) text[used++] = *s++;
    text[used] = 0;
  }
};
inline void dict_key_text(dict_text& out, bool v) { out.put(v ? "True" : "False"); }
inline void dict_key_text_int(dict_text& out, long long v) {
  char s[32];
  __builtin_snprintf(s, sizeof s, "%lld", v);
  out.put(s);
}
inline void dict_key_text(dict_text& out, i8 v) { dict_key_text_int(out, v); }
inline void dict_key_text(dict_text& out, i16 v) { dict_key_text_int(out, v); }
inline void dict_key_text(dict_text& out, i32 v) { dict_key_text_int(out, v); }
inline void dict_key_text(dict_text& out, i64 v) { dict_key_text_int(out, v); }
inline void dict_key_text(dict_text& out, u64 v) {
  char s[32];
  __builtin_snprintf(s, sizeof s, "%llu", static_cast<unsigned long long>(v));
  out.put(s);
}
inline void dict_key_text(dict_text& out, u8 v) { dict_key_text(out, u64(v)); }
inline void dict_key_text(dict_text& out, u16 v) { dict_key_text(out, u64(v)); }
inline void dict_key_text(dict_text& out, u32 v) { dict_key_text(out, u64(v)); }
// Python's repr of a float (runtime/pykern/text.cuh, which print() and str() use too).
inline void dict_key_text(dict_text& out, f64 v) { out.put(repr_float(v).bytes); }
inline void dict_key_text(dict_text& out, f32 v) { dict_key_text(out, static_cast<f64>(v)); }
template <class T> void dict_key_text(dict_text& out, const complex<T>& v) {
  dict_text re, im;
  dict_key_text(re, static_cast<f64>(v.re));
  dict_key_text(im, static_cast<f64>(v.im < 0 ? -v.im : v.im));
  out.put("(");
  out.put(re.text);
  out.put(v.im < 0 ? "-" : "+");
  out.put(im.text);
  out.put("j)");
}
inline void dict_tuple_text(dict_text&, const tuple<>&, int) {}
template <class H, class... T> void dict_tuple_text(dict_text& out, const tuple<H, T...>& t, int i) {
  if (i) out.put(", ");
  dict_key_text(out, t.head);
  dict_tuple_text(out, t.tail, i + 1);
}
template <class... T> void dict_key_text(dict_text& out, const tuple<T...>& t) {
  out.put("(");
  dict_tuple_text(out, t, 0);
  out.put(sizeof...(T) == 1 ? ",)" : ")");
}

// ---- the dict ----
// Parameters of the key and value types that take part in no deduction: the dict's say what
// they are, and the argument converts (a literal 1 to an int64 key).
template <class T> struct dict_same { using type = T; };
template <class T> using dict_arg = typename dict_same<T>::type;

struct empty_dict {};  // {} or Dict.empty() before sema's cast names its types
inline empty_dict new_dict() { return {}; }

template <class K, class V> struct dict {
  static constexpr i64 empty_slot = -1, deleted_slot = -2;
  struct Entry {
    K key;
    V value;
    u64 hash;
    bool live;
  };
  struct Storage {
    Entry* entries;
    i64 entry_count, capacity;  // entries written (live or dead), and room for them
    i64* index;                 // index_size slots: an entry's position, empty or deleted
    i64 index_size;
    i64 size;  // live entries
    i64 references;
    i64 iterated_size;  // the size when the latest loop over the dict began
  };
  Storage* storage = nullptr;

  dict() = default;
  dict(empty_dict) : storage(new Storage{nullptr, 0, 0, nullptr, 0, 0, 1, 0}) { rebuild(8); }
  dict(const dict& other) : storage(other.storage) {
    if (storage) ++storage->references;
  }
  dict& operator=(const dict& other) {
    if (other.storage) ++other.storage->references;
    release();
    storage = other.storage;
    return *this;
  }
  ~dict() { release(); }
  void release() {
    if (storage && --storage->references == 0) {
      delete[] storage->entries;
      delete[] storage->index;
      delete storage;
    }
    storage = nullptr;
  }

  // The live entries moved to the front of a new array of `capacity`, and the index remade:
  // order is kept, dead entries go.
  void rebuild(i64 capacity) {
    Storage* s = storage;
    Entry* entries = new Entry[capacity];
    i64 count = 0;
    for (i64 i = 0; i < s->entry_count; ++i)
      if (s->entries[i].live) entries[count++] = s->entries[i];
    delete[] s->entries;
    delete[] s->index;
    s->entries = entries;
    s->entry_count = count;
    s->capacity = capacity;
    s->index_size = capacity * 2;
    s->index = new i64[s->index_size];
    for (i64 i = 0; i < s->index_size; ++i) s->index[i] = empty_slot;
    for (i64 i = 0; i < count; ++i) s->index[free_slot(entries[i].hash)] = i;
  }
  i64 free_slot(u64 hash) const {
    u64 mask = static_cast<u64>(storage->index_size - 1);
    for (u64 slot = hash & mask;; slot = (slot + 1) & mask)
      if (storage->index[slot] < 0) return static_cast<i64>(slot);
  }
  // The index slot holding `key`'s entry, or -1.
  i64 find(const K& key, u64 hash) const {
    u64 mask = static_cast<u64>(storage->index_size - 1);
    for (u64 slot = hash & mask;; slot = (slot + 1) & mask) {
      i64 at = storage->index[slot];
      if (at == empty_slot) return -1;
      if (at >= 0 && storage->entries[at].hash == hash && dict_key_equal(storage->entries[at].key, key))
        return static_cast<i64>(slot);
    }
  }
  // The index slot of entry `position` (found by its hash, not its key: a NaN key equals nothing).
  i64 slot_of_entry(i64 position) const {
    u64 mask = static_cast<u64>(storage->index_size - 1);
    for (u64 slot = storage->entries[position].hash & mask;; slot = (slot + 1) & mask)
      if (storage->index[slot] == position) return static_cast<i64>(slot);
  }
  V* lookup(const K& key) const {
    i64 slot = find(key, dict_hash(key));
    return slot < 0 ? nullptr : &storage->entries[storage->index[slot]].value;
  }
  void set(const K& key, const V& value) {
    u64 hash = dict_hash(key);
    i64 slot = find(key, hash);
    if (slot >= 0) {
      storage->entries[storage->index[slot]].value = value;
      return;
    }
    Storage* s = storage;
    if (s->entry_count == s->capacity) {
      i64 capacity = 8;
      while (capacity < 2 * (s->size + 1)) capacity *= 2;
      rebuild(capacity);  // grows, or only drops dead entries
    }
    s->index[free_slot(hash)] = s->entry_count;
    s->entries[s->entry_count++] = Entry{key, value, hash, true};
    ++s->size;
  }
  // Removes the entry at index slot `slot`; its value is returned.
  V remove_at(i64 slot) {
    Entry& e = storage->entries[storage->index[slot]];
    V value = e.value;
    e.live = false;
    e.value = V{};  // an array value's storage is released now
    storage->index[slot] = deleted_slot;
    --storage->size;
    return value;
  }
  V& at(const char* file, int line, const dict_arg<K>& key) const {
    V* value = lookup(key);
    if (!value) raise_key_error(file, line, key);
    return *value;
  }
  [[noreturn]] static void raise_key_error(const char* file, int line, const K& key) {
    dict_text text;
    dict_key_text(text, key);
    report_failure(file, line, "KeyError", text.text);
  }
};

// {k0: v0, k1: v1, ...}: stored in order, a later equal key replacing the value.
template <class K, class V> void dict_fill(dict<K, V>&) {}
template <class K, class V, class A, class B, class... R>
void dict_fill(dict<K, V>& d, const A& key, const B& value, const R&... rest) {
  d.set(static_cast<K>(key), static_cast<V>(value));
  dict_fill(d, rest...);
}
template <class K, class V, class... A> dict<K, V> dict_display(dict<K, V> d, const A&... keys_and_values) {
  dict_fill(d, keys_and_values...);
  return d;
}

template <class K, class V> void dict_setitem(dict<K, V> d, const dict_arg<K>& key, const dict_arg<V>& value) { d.set(key, value); }
template <class K, class V> bool dict_contains(const dict<K, V>& d, const dict_arg<K>& key) { return d.lookup(key) != nullptr; }
template <class K, class V> i64 dict_len(const dict<K, V>& d) { return d.storage ? d.storage->size : 0; }
template <class K, class V> V dict_get(const dict<K, V>& d, const dict_arg<K>& key, const dict_arg<V>& fallback) {
  V* value = d.lookup(key);
  return value ? *value : fallback;
}
template <class K, class V> optional<V> dict_get_optional(const dict<K, V>& d, const dict_arg<K>& key) {
  V* value = d.lookup(key);
  return value ? optional<V>(*value) : optional<V>();
}
// d.pop(k) and del d[k] (Numba's is d.pop(k)): KeyError() when missing, as Numba raises it.
template <class K, class V> void dict_delitem(const char* file, int line, dict<K, V> d, const dict_arg<K>& key) {
  i64 slot = d.find(key, dict_hash(key));
  if (slot < 0) report_failure(file, line, "KeyError", "");
  d.remove_at(slot);
}
template <class K, class V> V dict_pop(const char* file, int line, dict<K, V> d, const dict_arg<K>& key) {
  i64 slot = d.find(key, dict_hash(key));
  if (slot < 0) report_failure(file, line, "KeyError", "");
  return d.remove_at(slot);
}
template <class K, class V> V dict_pop_default(dict<K, V> d, const dict_arg<K>& key, const dict_arg<V>& fallback) {
  i64 slot = d.find(key, dict_hash(key));
  return slot < 0 ? fallback : d.remove_at(slot);
}
// d.popitem(): the last entry stored, as Python and Numba take it.
template <class K, class V> tuple<K, V> dict_popitem(const char* file, int line, dict<K, V> d) {
  auto* s = d.storage;
  if (s->size == 0) report_failure(file, line, "KeyError", "");
  while (!s->entries[s->entry_count - 1].live) --s->entry_count;
  const auto& last = s->entries[s->entry_count - 1];
  tuple<K, V> item = make_tuple(last.key, last.value);
  d.remove_at(d.slot_of_entry(s->entry_count - 1));
  --s->entry_count;
  return item;
}
template <class K, class V> V dict_setdefault(dict<K, V> d, const dict_arg<K>& key, const dict_arg<V>& fallback) {
  if (V* value = d.lookup(key)) return *value;
  d.set(key, fallback);
  return fallback;
}
template <class K, class V> void dict_clear(dict<K, V> d) {
  auto* s = d.storage;
  for (i64 i = 0; i < s->entry_count; ++i) s->entries[i].live = false;
  d.rebuild(8);
  s->size = 0;
}
template <class K, class V> dict<K, V> dict_copy(const dict<K, V>& d) {
  dict<K, V> copy{empty_dict{}};
  for (i64 i = 0; i < d.storage->entry_count; ++i)
    if (d.storage->entries[i].live) copy.set(d.storage->entries[i].key, d.storage->entries[i].value);
  return copy;
}
template <class K, class V> void dict_update(dict<K, V> d, const dict<K, V>& other) {
  auto* s = other.storage;
  for (i64 i = 0; i < s->entry_count; ++i)
    if (s->entries[i].live) d.set(s->entries[i].key, s->entries[i].value);
}

// A for loop over a dict or a view: the entries are compacted before the loop, so entry i is
// the i-th in order. A loop that adds or deletes keys of the dict it walks gets Python's
// RuntimeError (Numba's iterator stops there without a word).
template <class K, class V> i64 dict_iteration_length(dict<K, V> d) {
  if (d.storage->entry_count != d.storage->size) d.rebuild(d.storage->capacity);
  d.storage->iterated_size = d.storage->size;
  return d.storage->size;
}
template <class K, class V> const typename dict<K, V>::Entry& dict_entry_at(const char* file, int line, const dict<K, V>& d,
                                                                           i64 i) {
  auto* s = d.storage;
  if (s->entry_count != s->size || s->size != s->iterated_size || i >= s->entry_count)
    report_failure(file, line, "RuntimeError", "dictionary changed size during iteration");
  return s->entries[i];
}

}  // namespace pk

#define PK_DICT_AT(d, key) ((d).at(__FILE__, __LINE__, key))
#define PK_DICT_DELITEM(d, key) (::pk::dict_delitem(__FILE__, __LINE__, d, key))
#define PK_DICT_POP(d, key) (::pk::dict_pop(__FILE__, __LINE__, d, key))
#define PK_DICT_POPITEM(d) (::pk::dict_popitem(__FILE__, __LINE__, d))
#define PK_DICT_KEY_AT(d, i) (::pk::dict_entry_at(__FILE__, __LINE__, d, i).key)
#define PK_DICT_VALUE_AT(d, i) (::pk::dict_entry_at(__FILE__, __LINE__, d, i).value)
#define PK_DICT_ITEM_AT(d, i) (::pk::dict_item_of(::pk::dict_entry_at(__FILE__, __LINE__, d, i)))
namespace pk {
template <class E> auto dict_item_of(const E& e) { return make_tuple(e.key, e.value); }
}  // namespace pk
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_DICT_CUH
