// pykern runtime: Python lists in @jit functions called on the host (Numba's reflected lists
// of numbers). Host builds only: a kernel cannot hold one (sema refuses). A list is a counted
// reference to its storage, as a Python name refers to a list object: l2 = l1 shares it.
#ifndef PYKERN_LIST_CUH
#define PYKERN_LIST_CUH
#include "pykern/base.cuh"
#include "pykern/errors.cuh"
#include "pykern/thread.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

template <class T> struct list {
  struct Storage {
    T* items;
    i64 size, capacity, references;
  };
  Storage* storage = nullptr;

  list() = default;
  list(const list& other) : storage(other.storage) {
    if (storage) ++storage->references;
  }
  list& operator=(const list& other) {
    if (other.storage) ++other.storage->references;
    release();
    storage = other.storage;
    return *this;
  }
  ~list() { release(); }
  void release() {
    if (storage && --storage->references == 0) {
      delete[] storage->items;
      delete storage;
    }
    storage = nullptr;
  }
  // l[i]: Python's negative indices; out of range is Python's IndexError.
  T& at(const char* file, int line, i64 i) const {
    i64 n = storage ? storage->size : 0;
    if (i < 0) i += n;
    if (i < 0 || i >= n) report_failure(file, line, "IndexError", "list index out of range");
    return storage->items[i];
  }
};

// [] or [a, b, ...]; `like` only names the items' type.
template <class T, class... I> list<T> new_list(T like, I... items) {
  (void)like;
  list<T> l;
  l.storage = new typename list<T>::Storage{nullptr, 0, 0, 1};
  (list_append(l, static_cast<T>(items)), ...);
  return l;
}
template <class T> void list_append(list<T>& l, T item) {
  auto* s = l.storage;
  if (s->size == s->capacity) {
    i64 capacity = s->capacity < 4 ? 4 : s->capacity * 2;
    T* grown = new T[capacity];
    for (i64 i = 0; i < s->size; ++i) grown[i] = s->items[i];
    delete[] s->items;
    s->items = grown;
    s->capacity = capacity;
  }
  s->items[s->size++] = item;
}
template <class T> i64 list_len(const list<T>& l) { return l.storage ? l.storage->size : 0; }

// A list a host call returns: its items are handed to the engine, which gives them to the caller.
template <class T> void export_list(const list<T>& l) {
  sim::hooks->export_items(l.storage ? l.storage->items : nullptr, static_cast<u64>(list_len(l)), sizeof(T));
}

}  // namespace pk
#endif
#endif  // PYKERN_LIST_CUH
