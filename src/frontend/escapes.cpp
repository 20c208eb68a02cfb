#include "frontend/escapes.h"
#include "base/utf8.h"

#include <cstdint>

namespace pykern::frontend {

namespace {

std::string utf8(uint32_t code_point) {
  std::string out;
  append_utf8(out, code_point);
  return out;
}

std::optional<uint32_t> parse_digits(std::string_view digits, int base) {
  if (digits.empty()) return std::nullopt;
  uint32_t value = 0;
  for (char c : digits) {
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
    if (d >= base) return std::nullopt;
    value = value * static_cast<uint32_t>(base) + static_cast<uint32_t>(d);
  }
  return value;
}

}  // namespace

std::optional<std::string> decode_python_escape(std::string_view escape) {
  if (escape.size() < 2 || escape[0] != '\\') return std::string(escape);
  char c = escape[1];
  switch (c) {
    case '\n': return std::string();  // a backslash at the end of a line continues the string
    case '\r': return std::string();
    case '\\': return std::string("\\");
    case '\'': return std::string("'");
    case '"': return std::string("\"");
    case 'a': return std::string("\a");
    case 'b': return std::string("\b");
    case 'f': return std::string("\f");
    case 'n': return std::string("\n");
    case 'r': return std::string("\r");
    case 't': return std::string("\t");
    case 'v': return std::string("\v");
    case 'N': return std::nullopt;
    default: break;
  }
  std::optional<uint32_t> code_point;
  if (c >= '0' && c <= '7') code_point = parse_digits(escape.substr(1), 8);
  else if (c == 'x' && escape.size() == 4) code_point = parse_digits(escape.substr(2), 16);
  else if (c == 'u' && escape.size() == 6) code_point = parse_digits(escape.substr(2), 16);
  else if (c == 'U' && escape.size() == 10) code_point = parse_digits(escape.substr(2), 16);
  else return std::string(escape);  // unknown escapes keep their backslash, as in Python
  if (!code_point || *code_point > 0x10ffff) return std::nullopt;
  return utf8(*code_point);
}

}  // namespace pykern::frontend
