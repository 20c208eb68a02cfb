// pykern runtime: Python's heapq module on a list in @jit functions on the host
// (sema/heapq.cpp). The sift steps are CPython's (Lib/heapq.py), which Numba's
// numba/cpython/heapq.py follows, so a heap of equal keys orders its items as Numba's does;
// items compare with Python's `<` (item_order: numbers, then tuples item by item).
// The errors are Numba's: heappop of an empty list is list.pop's IndexError, heapreplace of
// one is the getitem IndexError of Numba's reflected list.
#ifndef PYKERN_HEAPQ_CUH
#define PYKERN_HEAPQ_CUH
#include "pykern/list.cuh"

#if !PK_DEVICE_BUILD

namespace pk {

template <class T> inline bool heap_less(const T& a, const T& b) { return item_order(a, b) < 0; }

// Moves the item at `pos` up towards `start` while it is less than its parent.
template <class T> void heap_sift_down(T* items, i64 start, i64 pos) {
  T moving = items[pos];
  while (pos > start) {
    i64 parent = (pos - 1) >> 1;
    if (!heap_less(moving, items[parent])) break;
    items[pos] = items[parent];
    pos = parent;
  }
  items[pos] = moving;
}

// Moves the smaller child up until a leaf is reached, then the item at `pos` down from there.
template <class T> void heap_sift_up(T* items, i64 n, i64 pos) {
  i64 start = pos;
  T moving = items[pos];
  i64 child = 2 * pos + 1;
  while (child < n) {
    i64 right = child + 1;
    if (right < n && !heap_less(items[child], items[right])) child = right;
    items[pos] = items[child];
    pos = child;
    child = 2 * pos + 1;
  }
  items[pos] = moving;
  heap_sift_down(items, start, pos);
}

// heapq.heappush(heap, item)
template <class T> void heap_push(const list<T>& heap, T item) {
  list_append(heap, item);
  heap_sift_down(heap.items(), 0, heap.size() - 1);
}

// heapq.heappop(heap): the smallest item; the last one takes its place and sifts.
template <class T> T heap_pop(const char* file, int line, const list<T>& heap) {
  T last = list_pop(file, line, heap);
  if (heap.size() == 0) return last;
  T smallest = heap.items()[0];
  heap.items()[0] = last;
  heap_sift_up(heap.items(), heap.size(), 0);
  return smallest;
}
#define PK_HEAP_POP(...) (::pk::heap_pop(__FILE__, __LINE__, __VA_ARGS__))

// heapq.heapify(x): in place, in linear time.
template <class T> void heapify(const list<T>& heap) {
  for (i64 i = heap.size() / 2 - 1; i >= 0; --i) heap_sift_up(heap.items(), heap.size(), i);
}

// heapq.heapreplace(heap, item): pops the smallest, then pushes item (the heap never grows).
template <class T> T heap_replace(const char* file, int line, const list<T>& heap, T item) {
  if (heap.size() == 0) report_failure(file, line, "IndexError", "getitem out of range");
  T smallest = heap.items()[0];
  heap.items()[0] = item;
  heap_sift_up(heap.items(), heap.size(), 0);
  return smallest;
}
#define PK_HEAP_REPLACE(...) (::pk::heap_replace(__FILE__, __LINE__, __VA_ARGS__))

// heapq.heappushpop(heap, item): pushes item, then pops the smallest (item itself when it is).
template <class T> T heap_pushpop(const list<T>& heap, T item) {
  if (heap.size() > 0 && heap_less(heap.items()[0], item)) {
    T smallest = heap.items()[0];
    heap.items()[0] = item;
    heap_sift_up(heap.items(), heap.size(), 0);
    return smallest;
  }
  return item;
}

}  // namespace pk

#endif
#endif  // PYKERN_HEAPQ_CUH
