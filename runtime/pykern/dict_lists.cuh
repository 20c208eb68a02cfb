// pykern runtime: a dict view made a list (sema/dict_lists.cpp): list(d.keys()),
// sorted(d.values()), sorted(d.items()), in the dict's insertion order as Numba walks it.
#ifndef PYKERN_DICT_LISTS_CUH
#define PYKERN_DICT_LISTS_CUH
#include "pykern/dict.cuh"
#include "pykern/list.cuh"

#if !PK_DEVICE_BUILD

namespace pk {

template <class K, class V> list<K> dict_keys_list(const char* file, int line, const dict<K, V>& d) {
  list<K> out = empty_list<K>();
  i64 n = dict_iteration_length(d);
  for (i64 i = 0; i < n; ++i) list_append(out, dict_entry_at(file, line, d, i).key);
  return out;
}
template <class K, class V> list<V> dict_values_list(const char* file, int line, const dict<K, V>& d) {
  list<V> out = empty_list<V>();
  i64 n = dict_iteration_length(d);
  for (i64 i = 0; i < n; ++i) list_append(out, dict_entry_at(file, line, d, i).value);
  return out;
}
template <class K, class V> auto dict_items_list(const char* file, int line, const dict<K, V>& d) {
  using Item = decltype(dict_item_of(dict_entry_at(file, line, d, 0)));
  list<Item> out = empty_list<Item>();
  i64 n = dict_iteration_length(d);
  for (i64 i = 0; i < n; ++i) list_append(out, dict_item_of(dict_entry_at(file, line, d, i)));
  return out;
}

}  // namespace pk

#define PK_DICT_KEYS_LIST(...) (::pk::dict_keys_list(__FILE__, __LINE__, __VA_ARGS__))
#define PK_DICT_VALUES_LIST(...) (::pk::dict_values_list(__FILE__, __LINE__, __VA_ARGS__))
#define PK_DICT_ITEMS_LIST(...) (::pk::dict_items_list(__FILE__, __LINE__, __VA_ARGS__))
#endif
#endif  // PYKERN_DICT_LISTS_CUH
