#include "pykern/dtype.h"

#include <fmt/format.h>

namespace pykern {

DType DType::xoroshiro128p() {
  DType record{ScalarKind::record, 16, {}};
  record.fields.push_back({"s0", {DType::uint(64)}, 0});
  record.fields.push_back({"s1", {DType::uint(64)}, 8});
  return record;
}

bool operator==(const DType& a, const DType& b) {
  if (a.kind != b.kind || a.itemsize != b.itemsize || a.fields.size() != b.fields.size()) return false;
  for (size_t i = 0; i < a.fields.size(); ++i)
    if (a.fields[i].name != b.fields[i].name || a.fields[i].offset != b.fields[i].offset ||
        a.fields[i].type[0] != b.fields[i].type[0])
      return false;
  return true;
}

namespace {
char kind_letter(ScalarKind kind) {
  switch (kind) {
    case ScalarKind::boolean: return 'b';
    case ScalarKind::int_: return 'i';
    case ScalarKind::uint: return 'u';
    case ScalarKind::float_: return 'f';
    case ScalarKind::complex: return 'c';
    case ScalarKind::record: return 'V';
  }
  return '?';
}
}  // namespace

std::string DType::descr() const {
  if (kind == ScalarKind::record) {
    std::string text = "[";
    for (size_t i = 0; i < fields.size(); ++i)
      text += fmt::format("{}('{}', '{}')", i ? ", " : "", fields[i].name, fields[i].type[0].descr());
    return text + "]";
  }
  char order = itemsize == 1 ? '|' : '<';
  return fmt::format("{}{}{}", order, kind_letter(kind), itemsize);
}

std::string DType::name() const {
  switch (kind) {
    case ScalarKind::boolean: return "bool";
    case ScalarKind::int_: return fmt::format("int{}", itemsize * 8);
    case ScalarKind::uint: return fmt::format("uint{}", itemsize * 8);
    case ScalarKind::float_: return fmt::format("float{}", itemsize * 8);
    case ScalarKind::complex: return fmt::format("complex{}", itemsize * 8);
    case ScalarKind::record: {
      std::string text = "Record(";
      for (size_t i = 0; i < fields.size(); ++i)
        text += fmt::format("{}{}: {}", i ? ", " : "", fields[i].name, fields[i].type[0].name());
      return text + ")";
    }
  }
  return "?";
}

Result<DType> DType::from_descr(const std::string& text) {
  auto bad = [&] { return Error::make(ErrorKind::invalid_argument, "unsupported dtype '" + text + "'"); };
  if (text.size() < 3) return bad();
  char order = text[0];
  if (order == '>') return Error::make(ErrorKind::invalid_argument, "big-endian dtype '" + text + "' is not supported");
  if (order != '<' && order != '|' && order != '=') return bad();
  char letter = text[1];
  int size = 0;
  try {
    size = std::stoi(text.substr(2));
  } catch (...) {
    return bad();
  }
  auto sized = [&](ScalarKind kind, std::initializer_list<int> sizes) -> Result<DType> {
    for (int s : sizes)
      if (s == size) return DType{kind, size, {}};
    return bad();
  };
  switch (letter) {
    case 'b': return sized(ScalarKind::boolean, {1});
    case 'i': return sized(ScalarKind::int_, {1, 2, 4, 8});
    case 'u': return sized(ScalarKind::uint, {1, 2, 4, 8});
    case 'f': return sized(ScalarKind::float_, {2, 4, 8});
    case 'c': return sized(ScalarKind::complex, {8, 16});
    default: return bad();
  }
}

Result<DType> DType::from_name(const std::string& name) {
  static const std::pair<const char*, DType> names[] = {
      {"bool", boolean()},      {"b1", boolean()},        {"boolean", boolean()},   {"int8", int_(8)},
      {"i1", int_(8)},          {"int16", int_(16)},      {"i2", int_(16)},         {"int32", int_(32)},
      {"i4", int_(32)},         {"int64", int_(64)},      {"i8", int_(64)},         {"uint8", uint(8)},
      {"u1", uint(8)},          {"uint16", uint(16)},     {"u2", uint(16)},         {"uint32", uint(32)},
      {"u4", uint(32)},         {"uint64", uint(64)},     {"u8", uint(64)},         {"float16", float_(16)},
      {"f2", float_(16)},       {"float32", float_(32)},  {"f4", float_(32)},       {"float64", float_(64)},
      {"f8", float_(64)},       {"complex64", complex(64)}, {"c8", complex(64)},    {"complex128", complex(128)},
      {"c16", complex(128)}};
  for (const auto& [text, type] : names)
    if (name == text) return type;
  return Error::make(ErrorKind::invalid_argument, "unknown dtype '" + name + "'");
}

}  // namespace pykern
