#include "base/c_literal.h"

namespace pykern {

namespace {

// One byte as it is spelled inside the literal.
void append_escaped(unsigned char c, std::string& out) {
  static const char digits[] = "01234567";
  if (c == '"' || c == '\\' || c == '?') {
    out += '\\';
    out += static_cast<char>(c);
  } else if (c == '\n') {
    out += "\\n";  // kept readable: print() messages end with one
  } else if (c >= 0x20 && c < 0x7f) {
    out += static_cast<char>(c);
  } else {
    out += '\\';
    out += digits[c >> 6];
    out += digits[(c >> 3) & 7];
    out += digits[c & 7];
  }
}

}  // namespace

std::string c_string_literal(std::string_view bytes, size_t wrap_columns) {
  std::string out = "\"";
  out.reserve(bytes.size() + 2);
  size_t line_start = 0;
  for (unsigned char c : bytes) {
    if (wrap_columns > 0 && out.size() - line_start >= wrap_columns) {
      out += "\"\n    \"";
      line_start = out.size() - 5;
    }
    append_escaped(c, out);
  }
  return out + "\"";
}

}  // namespace pykern
