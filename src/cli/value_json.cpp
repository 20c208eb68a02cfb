#include "cli/value_json.h"

#include <fmt/format.h>

#include "cli/arguments.h"

namespace pykern::cli {

namespace {

Result<Value> from_json(const nlohmann::json& j, int depth) {
  if (depth > 64) return Error::make(ErrorKind::invalid_argument, "a json: argument nests deeper than 64 levels");
  switch (j.type()) {
    case nlohmann::json::value_t::null: return Value();
    case nlohmann::json::value_t::boolean: return Value(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return Value(static_cast<long long>(j.get<int64_t>()));
    case nlohmann::json::value_t::number_unsigned: {
      uint64_t u = j.get<uint64_t>();
      return u > static_cast<uint64_t>(INT64_MAX) ? Value(static_cast<unsigned long long>(u))
                                                   : Value(static_cast<long long>(u));
    }
    case nlohmann::json::value_t::number_float: return Value(j.get<double>());
    case nlohmann::json::value_t::string: return Value(j.get<std::string>());
    case nlohmann::json::value_t::array: {
      std::vector<Value> items;
      for (const auto& item : j) {
        auto value = from_json(item, depth + 1);
        if (!value.ok()) return value.error();
        items.push_back(std::move(*value));
      }
      return Value::list(std::move(items));
    }
    case nlohmann::json::value_t::object: {
      std::vector<std::pair<Value, Value>> entries;
      for (const auto& [key, item] : j.items()) {
        auto value = from_json(item, depth + 1);
        if (!value.ok()) return value.error();
        entries.emplace_back(Value(key), std::move(*value));
      }
      return Value::dict(std::move(entries));
    }
    default: return Error::make(ErrorKind::invalid_argument, "a json: argument holds a value pykern does not take");
  }
}

nlohmann::json scalar_json(const Scalar& s) {
  switch (s.type.kind) {
    case ScalarKind::boolean: return s.integer != 0;
    case ScalarKind::int_: return s.integer;
    case ScalarKind::uint: return s.unsigned_integer;
    case ScalarKind::complex: return nlohmann::json::array({s.value.real(), s.value.imag()});
    default: return s.value.real();
  }
}

// An array's elements as nested lists, in C order.
nlohmann::json array_json(const Array& a, std::vector<int64_t>& index, int axis) {
  if (axis == a.ndim()) return scalar_json(Scalar::load(a.dtype(), a.element(index)));
  nlohmann::json out = nlohmann::json::array();
  for (index[axis] = 0; index[axis] < a.shape()[axis]; ++index[axis]) out.push_back(array_json(a, index, axis + 1));
  return out;
}

}  // namespace

Result<Value> parse_host_argument(const std::string& text) {
  if (text.rfind("str:", 0) == 0) return Value(text.substr(4));
  if (text.rfind("json:", 0) == 0) {
    nlohmann::json parsed = nlohmann::json::parse(text.substr(5), nullptr, false);
    if (parsed.is_discarded())
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("'{}' is not JSON after 'json:' (e.g. json:[1, 2, 3], json:{{\"a\": 1.5}})",
                                     text.size() > 80 ? text.substr(0, 80) + "..." : text));
    return from_json(parsed, 0);
  }
  auto argument = parse_argument(text);
  if (!argument.ok()) return argument.error();
  return Value(*argument);
}

nlohmann::json value_json(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::none: return nullptr;
    case Value::Kind::scalar: return scalar_json(value.scalar());
    case Value::Kind::array: {
      std::vector<int64_t> index(static_cast<size_t>(value.array().ndim()), 0);
      return array_json(value.array(), index, 0);
    }
    case Value::Kind::string: return value.str();
    case Value::Kind::list:
    case Value::Kind::tuple: {
      nlohmann::json out = nlohmann::json::array();
      for (const Value& item : value.items()) out.push_back(value_json(item));
      return out;
    }
    case Value::Kind::dict: {
      bool text_keys = true;
      for (const auto& entry : value.entries()) text_keys = text_keys && entry.first.kind() == Value::Kind::string;
      nlohmann::json out = text_keys ? nlohmann::json::object() : nlohmann::json::array();
      for (const auto& [key, item] : value.entries()) {
        if (text_keys) out[key.str()] = value_json(item);
        else out.push_back(nlohmann::json::array({value_json(key), value_json(item)}));
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace pykern::cli
