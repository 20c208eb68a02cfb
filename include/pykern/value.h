// A value a @jit / @njit host function takes or gives, whatever its Numba type: None, a number,
// an array, a str, a list, a tuple or a typed dict. A Value owns what it holds (an array shares
// its storage, as pykern::Array does); copies are deep, except for arrays.
//
//   pykern::Value word = "hello";                                   // unicode_type
//   pykern::Value counts = pykern::Value::dict({{1, 2.5}, {2, 0.5}}); // DictType[int64,float64]
//   pykern::Value rows = pykern::Value::list({Value::tuple({1, 2.0}), Value::tuple({3, 4.0})});
//   std::cout << counts.to_string();                                 // {1: 2.5, 2: 0.5}
//
// As an argument, a Value is typed as Numba types the Python value (typeof): a list by its
// first item (numba.typed.List's ListType, which behaves as a reflected list here), a dict by
// its first entry; every item must have that type. An empty list or dict has no item to type
// it: name the types (Value::list({}, "int64"), Value::dict({}, "int64", "float64")).
//
// Reading one: kind() says which it is; scalar(), array(), str(), items() (a list's or a
// tuple's) and entries() (a dict's, in insertion order) read it, and throw
// std::bad_variant_access for another kind, as std::get does. to_string() writes it as
// Python's repr does: 'text', [1, 2], (1, 2.5), {1: 'a'}, None, array(float64, shape=(3,)).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "pykern/arguments.h"

namespace pykern {

class Value;
struct ValueList {
  std::vector<Value> items;
  std::string item_type;  // Numba's name of the items' type, for an empty list argument ("int64")
};
struct ValueTuple {
  std::vector<Value> items;
};
struct ValueDict {
  std::vector<std::pair<Value, Value>> entries;  // in insertion order
  std::string key_type, value_type;               // for an empty dict argument
};

class Value {
 public:
  enum class Kind { none, scalar, array, string, list, tuple, dict };

  Value() = default;  // None
  Value(std::nullopt_t) {}
  Value(Scalar scalar) : data_(std::move(scalar)) {}
  Value(Array array) : data_(std::move(array)) {}
  Value(std::string text) : data_(std::move(text)) {}
  Value(const char* text) : data_(std::string(text)) {}
  Value(const Argument& argument);
  // Numbers, typed as Scalar types them (int64_t is int64, double is float64, ...).
  template <class T, std::enable_if_t<std::is_arithmetic_v<T> || is_complex<T>::value, int> = 0>
  Value(T number) : data_(Scalar(number)) {}

  static Value list(std::vector<Value> items, std::string item_type = {});
  static Value tuple(std::vector<Value> items);
  static Value dict(std::vector<std::pair<Value, Value>> entries, std::string key_type = {},
                    std::string value_type = {});

  Kind kind() const { return static_cast<Kind>(data_.index()); }
  bool is_none() const { return kind() == Kind::none; }
  const Scalar& scalar() const { return std::get<Scalar>(data_); }
  const Array& array() const { return std::get<Array>(data_); }
  const std::string& str() const { return std::get<std::string>(data_); }
  // A list's or a tuple's items (std::bad_variant_access for other kinds).
  const std::vector<Value>& items() const;
  const std::vector<std::pair<Value, Value>>& entries() const { return std::get<ValueDict>(data_).entries; }
  // The items of a list or tuple, the entries of a dict, a str's bytes; 0 for None, scalars, arrays.
  size_t size() const;
  const Value& operator[](size_t i) const { return items().at(i); }
  // A dict's value for `key` (keys compare as to_string writes them), or nullptr.
  const Value* find(const Value& key) const;
  // Python's repr of it.
  std::string to_string() const;
  // The type names an empty list or dict argument gives (see above).
  const ValueList* as_list() const { return std::get_if<ValueList>(&data_); }
  const ValueDict* as_dict() const { return std::get_if<ValueDict>(&data_); }

 private:
  std::variant<std::monostate, Scalar, Array, std::string, ValueList, ValueTuple, ValueDict> data_;
};

// ---- C++ values as Values, for Function::call ----
// Everything to_argument takes (arrays, views, vectors and spans of numbers, numbers) converts
// as it does: a std::vector<double>& is still a 1-d array the function may write. Besides:
//   std::string, const char*         a str
//   std::vector<T> of other items    a list (std::vector<std::string>, of tuples, of arrays...)
//   std::map<K, V>                   a dict (in the map's order)
//   std::vector<std::pair<K, V>>     a dict, in the vector's order
//   std::tuple<...>, std::pair       a tuple
//   std::optional<T>                 its value, or None
inline Value to_value(const Value& value) { return value; }
inline Value to_value(const std::string& text) { return Value(text); }
inline Value to_value(const char* text) { return Value(text); }
inline Value to_value(std::nullopt_t) { return Value(); }
template <class A, class = std::void_t<decltype(to_argument(std::declval<A>()))>>
Value to_value(A&& argument) {
  return Value(to_argument(std::forward<A>(argument)));
}
// A vector of items that become a list: not numbers (an array), pairs (a dict), nor Values or
// Arguments (Function::call's own argument lists; Value::list makes a list of Values).
template <class T> struct is_pair : std::false_type {};
template <class A, class B> struct is_pair<std::pair<A, B>> : std::true_type {};
template <class T>
using if_list_items = std::enable_if_t<!is_element<T>::value && !is_pair<T>::value && !std::is_same_v<T, Value> &&
                                           !std::is_same_v<T, Argument>,
                                       int>;
template <class T, if_list_items<T> = 0> Value to_value(const std::vector<T>& items);
template <class K, class V> Value to_value(const std::vector<std::pair<K, V>>& entries);
template <class K, class V, class C, class A> Value to_value(const std::map<K, V, C, A>& entries);
template <class... T> Value to_value(const std::tuple<T...>& parts);
template <class A, class B> Value to_value(const std::pair<A, B>& parts);
template <class T> Value to_value(const std::optional<T>& value);

template <class T, if_list_items<T>> Value to_value(const std::vector<T>& items) {
  std::vector<Value> values;
  values.reserve(items.size());
  for (const T& item : items) values.push_back(to_value(item));
  return Value::list(std::move(values));
}
template <class K, class V> Value to_value(const std::vector<std::pair<K, V>>& entries) {
  std::vector<std::pair<Value, Value>> values;
  for (const auto& [key, value] : entries) values.emplace_back(to_value(key), to_value(value));
  return Value::dict(std::move(values));
}
template <class K, class V, class C, class A> Value to_value(const std::map<K, V, C, A>& entries) {
  std::vector<std::pair<Value, Value>> values;
  for (const auto& [key, value] : entries) values.emplace_back(to_value(key), to_value(value));
  return Value::dict(std::move(values));
}
template <class... T> Value to_value(const std::tuple<T...>& parts) {
  return Value::tuple(std::apply([](const auto&... p) { return std::vector<Value>{to_value(p)...}; }, parts));
}
template <class A, class B> Value to_value(const std::pair<A, B>& parts) {
  return Value::tuple({to_value(parts.first), to_value(parts.second)});
}
template <class T> Value to_value(const std::optional<T>& value) { return value ? to_value(*value) : Value(); }

// Whether Function::call takes an A: to_value has an overload for it.
template <class A, class = void> struct is_value : std::false_type {};
template <class A> struct is_value<A, std::void_t<decltype(to_value(std::declval<A>()))>> : std::true_type {};
template <class... A> using if_values = std::enable_if_t<(is_value<A>::value && ...), int>;

}  // namespace pykern
