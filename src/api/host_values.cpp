// Strings, lists, dicts and tuples through a host call: typed as Numba's typeof types them,
// written as the runtime reads them, read back as the runtime writes them
// (runtime/pykern/host_values.cuh holds the format).
#include "api/host_values.h"

#include <cstdint>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "abi/arguments.h"

namespace pykern::detail {

namespace {

Error refuse(std::string message) { return Error::make(ErrorKind::invalid_argument, std::move(message)); }

// The one type every item has: the first's, or the declared one of an empty container.
Result<ValueType> common_type(const std::vector<const Value*>& items, const std::string& declared, const char* what) {
  if (items.empty()) {
    if (declared.empty())
      return refuse(fmt::format("an empty {} has no item to type it by: name its types, e.g. {}", what,
                                std::string(what) == "list" ? "Value::list({}, \"int64\")"
                                                            : "Value::dict({}, \"int64\", \"float64\")"));
    return ValueType{declared, declared};
  }
  auto first = value_type(*items[0]);
  if (!first.ok()) return first.error();
  for (size_t i = 1; i < items.size(); ++i) {
    auto other = value_type(*items[i]);
    if (!other.ok()) return other.error();
    if (other->name != first->name)
      return refuse(fmt::format("a {}'s items have one type, as in Numba's typed containers: item {} is {}, not {} as "
                                "the first is",
                                what, i, other->name, first->name));
  }
  return first;
}

Result<ValueType> tuple_type(const std::vector<Value>& items) {
  std::string signature, name;
  bool uniform = !items.empty();
  std::string first;
  for (size_t i = 0; i < items.size(); ++i) {
    auto type = value_type(items[i]);
    if (!type.ok()) return type.error();
    signature += type->signature + ", ";
    name += (i ? ", " : "") + type->name;
    if (i == 0) first = type->name;
    uniform = uniform && type->name == first;
  }
  if (uniform) name = fmt::format("UniTuple({} x {})", first, items.size());
  else name = "Tuple(" + name + ")";
  return ValueType{"Tuple((" + signature + "))", name};
}

char kind_letter(const DType& dtype) {
  switch (dtype.kind) {
    case ScalarKind::boolean: return 'b';
    case ScalarKind::int_: return 'i';
    case ScalarKind::uint: return 'u';
    case ScalarKind::complex: return 'c';
    default: return 'f';
  }
}

struct Writer {
  std::vector<unsigned char> bytes;
  void put(const void* data, size_t count) {
    const auto* p = static_cast<const unsigned char*>(data);
    bytes.insert(bytes.end(), p, p + count);
  }
  void tag(char t) { bytes.push_back(static_cast<unsigned char>(t)); }
  void count(int64_t n) { put(&n, 8); }
  void dtype(const DType& d) {
    tag(kind_letter(d));
    tag(static_cast<char>(d.itemsize));
  }

  void value(const Value& v) {
    switch (v.kind()) {
      case Value::Kind::none: return tag('N');
      case Value::Kind::scalar: {
        const Scalar& s = v.scalar();
        tag('s');
        dtype(s.type);
        unsigned char raw[16] = {};
        s.store(s.type, raw);
        return put(raw, static_cast<size_t>(s.type.itemsize));
      }
      case Value::Kind::array: {
        const Array& a = v.array();
        tag('P');
        dtype(a.dtype());
        count(a.ndim());
        uint64_t address = reinterpret_cast<uintptr_t>(a.data());
        put(&address, 8);
        for (int64_t extent : a.shape()) count(extent);
        for (int64_t stride : a.strides()) count(stride);
        return;
      }
      case Value::Kind::string:
        tag('S');
        count(static_cast<int64_t>(v.str().size()));
        return put(v.str().data(), v.str().size());
      case Value::Kind::list:
      case Value::Kind::tuple:
        tag(v.kind() == Value::Kind::list ? 'L' : 'T');
        count(static_cast<int64_t>(v.items().size()));
        for (const Value& item : v.items()) value(item);
        return;
      case Value::Kind::dict:
        tag('D');
        count(static_cast<int64_t>(v.entries().size()));
        for (const auto& [key, item] : v.entries()) {
          value(key);
          value(item);
        }
        return;
    }
  }
};

}  // namespace

Array caller_view(void* data, const DType& dtype, const std::vector<int64_t>& shape,
                  const std::vector<int64_t>& strides, const std::vector<Array>& caller) {
  for (const Array& a : caller)
    if (a.data() == data && a.dtype() == dtype && a.shape() == shape && a.strides() == strides) return a;
  Array view = Array::wrap(data, dtype, shape, strides);
  if (view.size() == 0) return Array::zeros(dtype, shape);
  const auto* first = static_cast<const std::byte*>(data);
  for (const Array& a : caller) {
    if (a.size() == 0) continue;
    const std::byte* low = a.element(std::vector<int64_t>(a.ndim(), 0));
    const std::byte* high = low;
    for (int axis = 0; axis < a.ndim(); ++axis) {
      int64_t reach = (a.shape()[axis] - 1) * a.strides()[axis];
      (reach < 0 ? low : high) += reach;
    }
    if (first >= low && first < high + a.dtype().itemsize)
      return Array::adopt(std::make_shared<Array>(a), data, dtype, shape, strides, Location::host);
  }
  return view.copy();
}

namespace {

// The arrays a value holds, at any depth.
void arrays_in(const Value& value, std::vector<Array>& out) {
  switch (value.kind()) {
    case Value::Kind::array: out.push_back(value.array()); return;
    case Value::Kind::list:
    case Value::Kind::tuple:
      for (const Value& item : value.items()) arrays_in(item, out);
      return;
    case Value::Kind::dict:
      for (const auto& [key, item] : value.entries()) arrays_in(key, out), arrays_in(item, out);
      return;
    default: return;
  }
}

struct Reader {
  const std::string& bytes;
  size_t at = 0;
  const std::vector<Array>* caller = nullptr;  // for 'P': the arrays the argument held

  Error broken() const {
    return Error::make(ErrorKind::internal, fmt::format("a host call's returned value is malformed at byte {}; please "
                                                        "report it", at));
  }
  bool take(void* out, size_t n) {
    if (at + n > bytes.size()) return false;
    std::memcpy(out, bytes.data() + at, n);
    at += n;
    return true;
  }
  bool count(int64_t& n) { return take(&n, 8) && n >= 0 && static_cast<uint64_t>(n) <= bytes.size(); }
  std::optional<DType> dtype() {
    char kind = 0;
    unsigned char size = 0;
    if (!take(&kind, 1) || !take(&size, 1)) return std::nullopt;
    DType d = kind == 'b' ? DType::boolean() : kind == 'i' ? DType::int_(size * 8) : kind == 'u' ? DType::uint(size * 8)
              : kind == 'c' ? DType::complex(size * 8) : DType::float_(size * 8);
    if (size == 0 || size > 16) return std::nullopt;
    return d;
  }

  Result<Value> value(int depth = 0) {
    char tag = 0;
    if (depth > 1000 || !take(&tag, 1)) return broken();
    int64_t n = 0;
    switch (tag) {
      case 'N': return Value();
      case 's': {
        auto d = dtype();
        unsigned char raw[16] = {};
        if (!d || !take(raw, static_cast<size_t>(d->itemsize))) return broken();
        return Value(Scalar::load(*d, raw));
      }
      case 'S': {
        if (!count(n) || at + static_cast<size_t>(n) > bytes.size()) return broken();
        std::string text = bytes.substr(at, static_cast<size_t>(n));
        at += static_cast<size_t>(n);
        return Value(std::move(text));
      }
      case 'L':
      case 'T': {
        if (!count(n)) return broken();
        std::vector<Value> items;
        for (int64_t i = 0; i < n; ++i) {
          auto item = value(depth + 1);
          if (!item.ok()) return item.error();
          items.push_back(std::move(*item));
        }
        return tag == 'L' ? Value::list(std::move(items)) : Value::tuple(std::move(items));
      }
      case 'D': {
        if (!count(n)) return broken();
        std::vector<std::pair<Value, Value>> entries;
        for (int64_t i = 0; i < n; ++i) {
          auto key = value(depth + 1);
          if (!key.ok()) return key.error();
          auto item = value(depth + 1);
          if (!item.ok()) return item.error();
          entries.emplace_back(std::move(*key), std::move(*item));
        }
        return Value::dict(std::move(entries));
      }
      case 'A': {
        auto d = dtype();
        int64_t ndim = 0;
        if (!d || !count(ndim) || ndim > 32) return broken();
        std::vector<int64_t> shape(static_cast<size_t>(ndim));
        for (int64_t& extent : shape)
          if (!count(extent)) return broken();
        Array array = Array::zeros(*d, shape);
        if (!take(array.data(), static_cast<size_t>(array.nbytes()))) return broken();
        return Value(array);
      }
      case 'P': {  // written back: a view of memory the caller lent
        auto d = dtype();
        int64_t ndim = 0;
        uint64_t address = 0;
        if (!caller || !d || !count(ndim) || ndim > 32 || !take(&address, 8)) return broken();
        std::vector<int64_t> shape(static_cast<size_t>(ndim)), strides(static_cast<size_t>(ndim));
        for (int64_t& extent : shape)
          if (!count(extent)) return broken();
        for (int64_t& stride : strides)
          if (!take(&stride, 8)) return broken();
        return Value(caller_view(reinterpret_cast<void*>(static_cast<uintptr_t>(address)), *d, shape, strides, *caller));
      }
      default: return broken();
    }
  }
};

}  // namespace

Result<ValueType> value_type(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::none:
      return refuse("None is no argument a host call takes here: pass a value, or leave the parameter to its default");
    case Value::Kind::scalar:
    case Value::Kind::array: {
      Argument argument = value.kind() == Value::Kind::scalar ? Argument(value.scalar()) : Argument(value.array());
      if (const Array* a = std::get_if<Array>(&argument); a && a->location() != Location::host)
        return refuse("an array inside a str, list, dict or tuple argument must be in host memory");
      if (const Array* a = std::get_if<Array>(&argument); a && a->read_only())
        return refuse("an array inside a list, dict or tuple argument is read-only, and the function may write it: "
                      "pass a writable copy (Array::copy())");
      if (value.kind() == Value::Kind::scalar && value.scalar().type.kind == ScalarKind::record)
        return refuse("a record inside a list, dict or tuple argument is not supported");
      auto signature = signature_type(argument);
      if (!signature.ok()) return signature.error();
      return ValueType{*signature, numba_type_name(argument)};
    }
    case Value::Kind::string: return ValueType{"unicode_type", "unicode_type"};
    case Value::Kind::tuple: return tuple_type(value.items());
    case Value::Kind::list: {
      std::vector<const Value*> items;
      for (const Value& item : value.items()) items.push_back(&item);
      auto item = common_type(items, value.as_list()->item_type, "list");
      if (!item.ok()) return item.error();
      return ValueType{"ListType(" + item->signature + ")", "list(" + item->name + ")"};
    }
    case Value::Kind::dict: {
      std::vector<const Value*> keys, values;
      for (const auto& [k, v] : value.entries()) keys.push_back(&k), values.push_back(&v);
      auto key = common_type(keys, value.as_dict()->key_type, "dict");
      if (!key.ok()) return key.error();
      auto item = common_type(values, value.as_dict()->value_type, "dict");
      if (!item.ok()) return item.error();
      return ValueType{fmt::format("DictType({}, {})", key->signature, item->signature),
                       fmt::format("DictType[{},{}]<iv=None>", key->name, item->name)};
    }
  }
  return refuse("unknown value");
}

std::vector<unsigned char> encode_value(const Value& value) {
  Writer writer;
  writer.value(value);
  return std::move(writer.bytes);
}

Result<Value> decode_value(const std::string& bytes) {
  Reader reader{bytes};
  auto value = reader.value();
  if (!value.ok()) return value.error();
  if (reader.at != bytes.size()) return reader.broken();
  return value;
}

namespace {

// "ListType(int64)" -> {"int64"}; "DictType(unicode_type, Tuple((int64, float64, )))" -> the key
// and value types: the parts between the outer brackets, split at the top-level comma.
std::vector<std::string> type_parts(const std::string& type) {
  size_t open = type.find('(');
  std::vector<std::string> parts;
  if (open == std::string::npos || type.back() != ')') return parts;
  std::string inner = type.substr(open + 1, type.size() - open - 2);
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= inner.size(); ++i) {
    char c = i < inner.size() ? inner[i] : ',';
    depth += c == '(' || c == '[' ? 1 : c == ')' || c == ']' ? -1 : 0;
    if (c != ',' || depth != 0) continue;
    std::string part = inner.substr(start, i - start);
    while (!part.empty() && part.front() == ' ') part.erase(part.begin());
    parts.push_back(part);
    start = i + 1;
  }
  return parts;
}

}  // namespace

Result<Value> decode_written_back(const std::string& bytes, const Value& before, const std::string& type) {
  std::vector<Array> caller;
  arrays_in(before, caller);
  Reader reader{bytes, 0, &caller};
  auto value = reader.value();
  if (!value.ok()) return value.error();
  if (reader.at != bytes.size()) return reader.broken();
  std::vector<std::string> parts = type_parts(type);
  if (value->kind() == Value::Kind::list && parts.size() == 1) return Value::list(value->items(), parts[0]);
  if (value->kind() == Value::Kind::dict && parts.size() == 2) return Value::dict(value->entries(), parts[0], parts[1]);
  return value;
}

}  // namespace pykern::detail
