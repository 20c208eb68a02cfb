#include "pykern/dtype.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "api/literal_reader.h"

namespace pykern {

DType DType::xoroshiro128p() {
  DType record{ScalarKind::record, 16, {}};
  record.fields.push_back({"s0", {DType::uint(64)}, 0, {}});
  record.fields.push_back({"s1", {DType::uint(64)}, 8, {}});
  return record;
}

int64_t DTypeField::bytes() const {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return type[0].itemsize * count;
}

bool operator==(const DType& a, const DType& b) {
  if (a.kind != b.kind || a.itemsize != b.itemsize || a.fields.size() != b.fields.size()) return false;
  for (size_t i = 0; i < a.fields.size(); ++i)
    if (a.fields[i].name != b.fields[i].name || a.fields[i].offset != b.fields[i].offset ||
        a.fields[i].shape != b.fields[i].shape || a.fields[i].type[0] != b.fields[i].type[0])
      return false;
  return true;
}

int64_t DType::alignment() const {
  if (kind == ScalarKind::complex) return itemsize / 2;
  if (kind != ScalarKind::record) return itemsize;
  int64_t most = 1;
  for (const DTypeField& f : fields) most = std::max(most, f.type[0].alignment());
  return most;
}

bool DType::naturally_aligned() const {
  if (kind != ScalarKind::record) return true;
  for (const DTypeField& f : fields)
    if (f.offset % f.type[0].alignment() != 0 || !f.type[0].naturally_aligned()) return false;
  return itemsize % alignment() == 0;
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
    // NumPy's list form: a gap between fields, or after the last, is a ('', '|Vn') entry.
    std::vector<std::string> entries;
    int64_t at = 0;
    for (const DTypeField& f : fields) {
      if (f.offset > at) entries.push_back(fmt::format("('', '|V{}')", f.offset - at));
      const DType& type = f.type[0];
      std::string sub = type.kind == ScalarKind::record ? type.descr() : "'" + type.descr() + "'";
      std::string shape;
      for (size_t d = 0; d < f.shape.size(); ++d) shape += fmt::format("{}{}", d ? ", " : "", f.shape[d]);
      if (f.shape.size() == 1) shape += ",";
      entries.push_back(f.shape.empty() ? fmt::format("('{}', {})", f.name, sub)
                                        : fmt::format("('{}', {}, ({}))", f.name, sub, shape));
      at = f.offset + f.bytes();
    }
    if (itemsize > at) entries.push_back(fmt::format("('', '|V{}')", itemsize - at));
    return "[" + fmt::format("{}", fmt::join(entries, ", ")) + "]";
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
      for (size_t i = 0; i < fields.size(); ++i) {
        const DTypeField& f = fields[i];
        std::string type = f.type[0].name();
        if (!f.shape.empty()) {
          std::string shape;
          for (size_t d = 0; d < f.shape.size(); ++d) shape += fmt::format("{}{}", d ? ", " : "", f.shape[d]);
          type = fmt::format("nestedarray({}, ({}{}))", type, shape, f.shape.size() == 1 ? "," : "");
        }
        text += fmt::format("{}{}[type={};offset={}]", i ? "," : "", f.name, type, f.offset);
      }
      return fmt::format("{};{};{})", text, itemsize, naturally_aligned() ? "True" : "False");
    }
  }
  return "?";
}

namespace {

Error bad_record(const std::string& why) { return Error::make(ErrorKind::invalid_argument, why); }

// One entry of a record's list: ('name', type) or ('name', type, shape); a padding entry
// ('', '|V4') returns no field. `at` is the entry's offset; it moves past the entry.
Result<std::optional<DTypeField>> read_field(LiteralReader& reader, int depth, int64_t& at) {
  auto name = reader.eat('(') ? reader.string() : std::nullopt;
  if (!name || !reader.eat(','))
    return bad_record("malformed record field (a field is ('name', type) or ('name', type, shape))");
  if (name->empty() && reader.peek('\'')) {
    auto padding = reader.string();
    if (!padding || padding->size() < 3 || padding->substr(0, 2) != "|V" || !reader.eat(')'))
      return bad_record("malformed padding entry in a record dtype");
    int64_t bytes = 0;
    for (char c : padding->substr(2)) {
      if (!std::isdigit(static_cast<unsigned char>(c)) || bytes > (1 << 20)) return bad_record("malformed padding entry");
      bytes = bytes * 10 + (c - '0');
    }
    at += bytes;
    return std::optional<DTypeField>();
  }
  if (name->empty()) return bad_record("a record field without a name");
  auto type = read_descr(reader, depth + 1);
  if (!type.ok()) return type.error();
  DTypeField field{*name, {*type}, at, {}};
  if (reader.eat(',') && !reader.peek(')')) {
    auto shape = reader.shape();
    if (!shape || shape->size() > 32) return bad_record("malformed shape of record field '" + *name + "'");
    field.shape = *shape;
  }
  if (!reader.eat(')')) return bad_record("malformed record field '" + *name + "'");
  int64_t count = 1;
  for (int64_t extent : field.shape) {
    count *= std::max<int64_t>(extent, 0);
    if (count > (1 << 20)) return bad_record("record field '" + *name + "' is larger than 1 MiB");
  }
  at += field.bytes();
  return std::optional<DTypeField>(std::move(field));
}

}  // namespace

// Nesting and sizes are bounded: a hostile header cannot recurse deeply or claim a huge record.
Result<DType> read_descr(LiteralReader& reader, int depth) {
  if (auto simple = reader.string()) return DType::from_descr(*simple);
  if (depth > 16) return bad_record("records nested more than 16 deep");
  if (!reader.eat('[')) return bad_record("malformed descr");
  DType record{ScalarKind::record, 0, {}};
  int64_t at = 0;
  while (!reader.eat(']')) {
    auto field = read_field(reader, depth, at);
    if (!field.ok()) return field.error();
    if (*field) {
      for (const DTypeField& other : record.fields)
        if (other.name == (*field)->name) return bad_record("record field '" + other.name + "' appears twice");
      record.fields.push_back(std::move(**field));
    }
    if (at > (1 << 24)) return bad_record("a record dtype larger than 16 MiB");
    if (!reader.eat(',') && !reader.peek(']')) return bad_record("malformed record dtype");
  }
  if (record.fields.empty()) return bad_record("a record dtype with no fields");
  record.itemsize = at;
  return record;
}

Result<DType> DType::from_descr(const std::string& text) {
  if (!text.empty() && text[0] == '[') {
    LiteralReader reader(text);
    auto record = read_descr(reader);
    if (record.ok() && !reader.at_end()) return bad_record("unexpected text after the record dtype");
    return record;
  }
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
