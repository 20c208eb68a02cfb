#include "pykern/dtype.h"
#include "base/utf8.h"

#include <algorithm>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "values/literal_reader.h"

namespace pykern {

namespace {


// The code point whose UTF-8 starts at text[pos], moving pos past it; nullopt (pos unmoved) for
// a byte that starts no well-formed sequence. Surrogates, which strict UTF-8 forbids, are let
// through when `surrogates`: field names keep a lone one that way.
std::optional<uint32_t> next_code_point(std::string_view text, size_t& pos, bool surrogates) {
  unsigned char lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) return ++pos, uint32_t(lead);
  size_t length = 0;
  uint32_t code_point = 0, least = 0;
  if ((lead & 0xe0) == 0xc0) length = 2, code_point = lead & 0x1f, least = 0x80;
  else if ((lead & 0xf0) == 0xe0) length = 3, code_point = lead & 0x0f, least = 0x800;
  else if ((lead & 0xf8) == 0xf0) length = 4, code_point = lead & 0x07, least = 0x10000;
  else return std::nullopt;
  if (text.size() - pos < length) return std::nullopt;
  for (size_t i = 1; i < length; ++i) {
    unsigned char next = static_cast<unsigned char>(text[pos + i]);
    if ((next & 0xc0) != 0x80) return std::nullopt;
    code_point = (code_point << 6) | (next & 0x3f);
  }
  bool surrogate = code_point >= 0xd800 && code_point <= 0xdfff;
  if (code_point < least || code_point > 0x10ffff || (surrogate && !surrogates)) return std::nullopt;
  pos += length;
  return code_point;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The `digits` hex digits at text[pos] (\xhh, \uhhhh, \Uhhhhhhhh) as a code point, or nullopt.
std::optional<uint32_t> hex_escape(std::string_view text, size_t pos, size_t digits) {
  if (text.size() - pos < digits) return std::nullopt;
  uint32_t value = 0;
  for (size_t i = 0; i < digits; ++i) {
    int digit = hex_digit(text[pos + i]);
    if (digit < 0) return std::nullopt;
    value = (value << 4) | static_cast<uint32_t>(digit);
  }
  if (value > 0x10ffff) return std::nullopt;  // Python: "illegal Unicode character"
  return value;
}

// The escape whose letter is at text[pos] (after a backslash), appended to `out` as UTF-8; pos
// moves past it. False for a malformed one.
bool read_escape(std::string_view text, size_t& pos, std::string& out) {
  char letter = text[pos++];
  switch (letter) {
    case '\n': return true;  // a backslash before a line break continues the line
    case '\\': case '\'': case '"': out += letter; return true;
    case 'a': out += '\a'; return true;
    case 'b': out += '\b'; return true;
    case 'f': out += '\f'; return true;
    case 'n': out += '\n'; return true;
    case 'r': out += '\r'; return true;
    case 't': out += '\t'; return true;
    case 'v': out += '\v'; return true;
    case 'x': case 'u': case 'U': {
      size_t digits = letter == 'x' ? 2 : letter == 'u' ? 4 : 8;
      auto code_point = hex_escape(text, pos, digits);
      if (!code_point) return false;
      append_utf8(out, *code_point);
      pos += digits;
      return true;
    }
    case '\r': case 'N': return false;  // \N{NAME} needs Unicode's name table
    default: break;
  }
  if (letter >= '0' && letter <= '7') {  // one to three octal digits
    uint32_t value = static_cast<uint32_t>(letter - '0');
    for (int more = 0; more < 2 && pos < text.size() && text[pos] >= '0' && text[pos] <= '7'; ++more)
      value = value * 8 + static_cast<uint32_t>(text[pos++] - '0');
    append_utf8(out, value);
    return true;
  }
  out += '\\';  // Python keeps an unknown escape (\q) as it is
  out += letter;
  return true;
}

// One literal at text[pos], without the adjacent ones Python joins to it.
std::optional<std::string> one_string_literal(std::string_view text, size_t& pos) {
  size_t at = pos;
  bool raw = false;
  if (at < text.size() && (text[at] == 'u' || text[at] == 'U')) ++at;
  else if (at < text.size() && (text[at] == 'r' || text[at] == 'R')) ++at, raw = true;
  if (at >= text.size() || (text[at] != '\'' && text[at] != '"')) return std::nullopt;
  char quote = text[at++];
  if (text.substr(at, 2) == std::string(2, quote)) return std::nullopt;  // triple quotes: NumPy writes none
  std::string value;
  while (at < text.size() && text[at] != quote) {
    char c = text[at++];
    if (c == '\n' || c == '\r' || c == '\0') return std::nullopt;  // a syntax error in Python
    if (c != '\\') {
      value += c;
    } else if (at >= text.size() || text[at] == '\0') {
      return std::nullopt;
    } else if (raw) {  // r'\q' keeps both; the backslash still keeps a quote after it inside
      if (text[at] == '\n' || text[at] == '\r') return std::nullopt;
      value += c;
      value += text[at++];
    } else if (!read_escape(text, at, value)) {
      return std::nullopt;
    }
  }
  if (at >= text.size()) return std::nullopt;  // unterminated
  pos = at + 1;
  return value;
}

}  // namespace

std::optional<std::string> python_string_literal(std::string_view text, size_t& pos) {
  auto value = one_string_literal(text, pos);
  if (!value) return std::nullopt;
  // Adjacent literals concatenate, as in Python: 'a' "b" is 'ab'.
  while (true) {
    size_t next = pos;
    while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
    auto more = one_string_literal(text, next);
    if (!more) return value;
    *value += *more;
    pos = next;
  }
}

std::string python_repr(std::string_view text) {
  bool single = text.find('\'') != std::string_view::npos, double_ = text.find('"') != std::string_view::npos;
  char quote = single && !double_ ? '"' : '\'';
  std::string out(1, quote);
  for (size_t pos = 0; pos < text.size();) {
    size_t start = pos;
    auto code_point = next_code_point(text, pos, true);
    if (!code_point) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[pos++]));
      continue;
    }
    uint32_t c = *code_point;
    if (c == static_cast<uint32_t>(quote) || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    // Python's unprintable characters up to U+00FF: controls, no-break space, soft hyphen.
    else if (c < 0x20 || (c >= 0x7f && c <= 0xa0) || c == 0xad) out += fmt::format("\\x{:02x}", c);
    else if (c >= 0xd800 && c <= 0xdfff) out += fmt::format("\\u{:04x}", c);
    else out.append(text.substr(start, pos - start));  // past U+00FF: written as itself (UTF-8)
  }
  return out + quote;
}

std::string latin1_to_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (char c : bytes) append_utf8(out, static_cast<unsigned char>(c));
  return out;
}

std::optional<std::string> utf8_to_latin1(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    auto code_point = next_code_point(text, pos, false);
    if (!code_point || *code_point > 0xff) return std::nullopt;
    out += static_cast<char>(*code_point);
  }
  return out;
}

bool valid_utf8(std::string_view bytes) {
  for (size_t pos = 0; pos < bytes.size();)
    if (!next_code_point(bytes, pos, false)) return false;
  return true;
}

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
    case ScalarKind::bfloat: return 'V';  // not reached: descr() names bfloat16 in full
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
      // The name as Python writes it: NumPy reads the header with ast.literal_eval.
      std::string name = python_repr(f.name);
      entries.push_back(f.shape.empty() ? fmt::format("({}, {})", name, sub)
                                        : fmt::format("({}, {}, ({}))", name, sub, shape));
      at = f.offset + f.bytes();
    }
    if (itemsize > at) entries.push_back(fmt::format("('', '|V{}')", itemsize - at));
    return "[" + fmt::format("{}", fmt::join(entries, ", ")) + "]";
  }
  if (kind == ScalarKind::bfloat) return "bfloat16";
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
    case ScalarKind::bfloat: return "bfloat16";
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
  if (name->empty() && (reader.peek('\'') || reader.peek('"'))) {
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
    if (!shape || shape->size() > 32) return bad_record("malformed shape of record field " + python_repr(*name));
    field.shape = *shape;
  }
  if (!reader.eat(')')) return bad_record("malformed record field " + python_repr(*name));
  int64_t count = 1;
  for (int64_t extent : field.shape) {
    count *= std::max<int64_t>(extent, 0);
    if (count > (1 << 20)) return bad_record("record field " + python_repr(*name) + " is larger than 1 MiB");
  }
  at += field.bytes();
  return std::optional<DTypeField>(std::move(field));
}

}  // namespace

// Nesting and sizes are bounded: a hostile header cannot recurse deeply or claim a huge record.
Result<DType> read_descr(LiteralReader& reader, int depth) {
  if (auto simple = reader.string()) {
    // A scalar's descr; a record's list inside a string is not one (NumPy refuses it too).
    if (!simple->empty() && (*simple)[0] == '[') return bad_record("unsupported dtype " + python_repr(*simple));
    return DType::from_descr(*simple);
  }
  if (depth > 16) return bad_record("records nested more than 16 deep");
  if (!reader.eat('[')) return bad_record("malformed descr");
  DType record{ScalarKind::record, 0, {}};
  int64_t at = 0;
  std::unordered_set<std::string> names;  // a header may hold 100,000 fields: no quadratic search
  while (!reader.eat(']')) {
    auto field = read_field(reader, depth, at);
    if (!field.ok()) return field.error();
    if (*field) {
      if (!names.insert((*field)->name).second)
        return bad_record("record field " + python_repr((*field)->name) + " appears twice");
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
  auto bad = [&] { return Error::make(ErrorKind::invalid_argument, "unsupported dtype " + python_repr(text)); };
  if (text.size() < 3) return bad();
  char order = text[0];
  if (order == '>') return Error::make(ErrorKind::invalid_argument, "big-endian dtype " + python_repr(text) + " is not supported");
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
    case 'V':
      // Raw bytes: ml_dtypes saves bfloat16 (and its float8 types) this way, and nothing in
      // the file says which, so pykern does not guess.
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("unsupported dtype {}: raw {}-byte elements (ml_dtypes saves bfloat16 and float8 "
                                     "arrays so, and the file does not say which); save them as float32 "
                                     "(a.astype(numpy.float32)), or pass bfloat16 arrays through DLPack",
                                     python_repr(text), size));
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
      {"c16", complex(128)},    {"bfloat16", bfloat16()}};
  for (const auto& [text, type] : names)
    if (name == text) return type;
  return Error::make(ErrorKind::invalid_argument, "unknown dtype '" + name + "'");
}

}  // namespace pykern
