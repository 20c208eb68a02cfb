// pykern::Value: what a host function takes and gives, and its Python repr.
#include "pykern/value.h"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace pykern {

namespace {

// A float as Python's repr writes it: the shortest text that reads back as it, with a '.0'
// where that text is a whole number; 1e+16 past 16 digits, as Python switches.
std::string float_repr(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  // The shortest digits that read back as x, then Python's layout of them: fixed notation for
  // exponents from -4 to 15, else d.ddde+XX.
  std::string scientific;
  for (int precision = 0; precision < 17; ++precision) {
    scientific = fmt::format("{:.{}e}", x, precision);
    if (std::strtod(scientific.c_str(), nullptr) == x) break;
  }
  size_t e = scientific.find('e');
  int exponent = std::stoi(scientific.substr(e + 1));
  std::string digits;
  for (char c : scientific.substr(0, e))
    if (c != '.' && c != '-') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string sign = std::signbit(x) ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    std::string mantissa = digits.substr(0, 1) + (digits.size() > 1 ? "." + digits.substr(1) : "");
    return fmt::format("{}{}e{}{:02d}", sign, mantissa, exponent < 0 ? '-' : '+', std::abs(exponent));
  }
  if (exponent < 0) return sign + "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
  size_t point = static_cast<size_t>(exponent) + 1;
  if (digits.size() <= point) return sign + digits + std::string(point - digits.size(), '0') + ".0";
  return sign + digits.substr(0, point) + "." + digits.substr(point);
}

std::string scalar_repr(const Scalar& v) {
  switch (v.type.kind) {
    case ScalarKind::boolean: return v.integer ? "True" : "False";
    case ScalarKind::int_: return std::to_string(v.integer);
    case ScalarKind::uint: return std::to_string(v.unsigned_integer);
    case ScalarKind::float_:
    case ScalarKind::bfloat: return float_repr(v.value.real());
    case ScalarKind::complex: {  // (1+2j), 2j, (1-0j)
      auto part = [](double x) {
        std::string text = float_repr(x);
        return text.size() > 2 && text.substr(text.size() - 2) == ".0" ? text.substr(0, text.size() - 2) : text;
      };
      double re = v.value.real(), im = v.value.imag();
      std::string imaginary = part(im) + "j";
      if (re == 0 && !std::signbit(re)) return imaginary;
      return fmt::format("({}{}{})", part(re), std::signbit(im) || std::isnan(im) ? "" : "+", imaginary);
    }
    case ScalarKind::record: return "Record(...)";
  }
  return "?";
}

// Python's repr of a str: single quotes unless the text holds one and no double quote;
// backslashes, the quote and control characters escaped, other text as it is.
std::string string_repr(const std::string& s) {
  bool single = s.find('\'') != std::string::npos, dbl = s.find('"') != std::string::npos;
  char quote = single && !dbl ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c == static_cast<unsigned char>(quote)) out += std::string("\\") + quote;
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += static_cast<char>(c);
  }
  return out + quote;
}

std::string shape_repr(const std::vector<int64_t>& shape) {
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return "(" + text + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

Value::Value(const Argument& argument) {
  if (const Array* array = std::get_if<Array>(&argument)) data_ = *array;
  else data_ = std::get<Scalar>(argument);
}

Value Value::list(std::vector<Value> items, std::string item_type) {
  Value v;
  v.data_ = ValueList{std::move(items), std::move(item_type)};
  return v;
}

Value Value::tuple(std::vector<Value> items) {
  Value v;
  v.data_ = ValueTuple{std::move(items)};
  return v;
}

Value Value::dict(std::vector<std::pair<Value, Value>> entries, std::string key_type, std::string value_type) {
  Value v;
  v.data_ = ValueDict{std::move(entries), std::move(key_type), std::move(value_type)};
  return v;
}

const std::vector<Value>& Value::items() const {
  if (const ValueTuple* tuple = std::get_if<ValueTuple>(&data_)) return tuple->items;
  return std::get<ValueList>(data_).items;
}

size_t Value::size() const {
  switch (kind()) {
    case Kind::string: return str().size();
    case Kind::list:
    case Kind::tuple: return items().size();
    case Kind::dict: return entries().size();
    default: return 0;
  }
}

const Value* Value::find(const Value& key) const {
  std::string wanted = key.to_string();
  for (const auto& [k, v] : entries())
    if (k.to_string() == wanted) return &v;
  return nullptr;
}

std::string Value::to_string() const {
  switch (kind()) {
    case Kind::none: return "None";
    case Kind::scalar: return scalar_repr(scalar());
    case Kind::array: return fmt::format("array({}, shape={})", array().dtype().name(), shape_repr(array().shape()));
    case Kind::string: return string_repr(str());
    case Kind::list:
    case Kind::tuple: {
      bool tuple = kind() == Kind::tuple;
      std::string text;
      for (size_t i = 0; i < items().size(); ++i) text += (i ? ", " : "") + items()[i].to_string();
      if (tuple) return "(" + text + (items().size() == 1 ? ",)" : ")");
      return "[" + text + "]";
    }
    case Kind::dict: {
      std::string text;
      for (const auto& [k, v] : entries()) text += (text.empty() ? "" : ", ") + k.to_string() + ": " + v.to_string();
      return "{" + text + "}";
    }
  }
  return "?";
}

}  // namespace pykern
