// A small reader for the Python literals of a .npy header and of NumPy's dtype descr: strings,
// True/False, non-negative ints, tuples, lists; and the writer of Python string literals for
// field names. Text is UTF-8 throughout: load_npy decodes a header (Latin-1 in format 1.0 and
// 2.0, UTF-8 in 3.0) before reading it. Internal to src/api.
#pragma once
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pykern/dtype.h"

namespace pykern {

// The Python string literal at text[pos] (after an optional u or r prefix, in either quote),
// decoded to UTF-8 with pos moved past it; nullopt if there is none or it is malformed.
// Escapes are Python's: \\ \' \" \a \b \f \n \r \t \v \ooo \xhh \uhhhh \Uhhhhhhhh, and an
// unknown escape keeps its backslash. A lone surrogate (\ud800: Python strings may hold one,
// and NumPy writes it so) becomes its three-byte form, which python_repr writes back the same.
std::optional<std::string> python_string_literal(std::string_view text, size_t& pos);
// Python's repr() of the string whose UTF-8 is `text`: quoted with ' unless it holds ' and no ",
// backslash, quote and unprintable Latin-1 characters escaped as Python escapes them, lone
// surrogates as \udxxx, any other character as itself. A byte that is not UTF-8 (a name made
// through the C++ API) is written \xhh, as if it were Latin-1.
std::string python_repr(std::string_view text);
// Latin-1 bytes as UTF-8 (every byte is a code point).
std::string latin1_to_utf8(std::string_view bytes);
// UTF-8 as Latin-1, or nullopt when a character lies past U+00FF (or the text is not UTF-8).
std::optional<std::string> utf8_to_latin1(std::string_view text);
// Whether `bytes` is well-formed UTF-8 (no surrogates, overlong forms or code points past U+10FFFF).
bool valid_utf8(std::string_view bytes);

class LiteralReader {
 public:
  explicit LiteralReader(std::string_view text) : text_(text) {}

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool peek(char c) {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  // A Python string literal, as ast.literal_eval reads it (python_string_literal below).
  std::optional<std::string> string() {
    skip_space();
    return python_string_literal(text_, pos_);
  }
  std::optional<bool> boolean() {
    skip_space();
    if (text_.substr(pos_, 4) == "True") return pos_ += 4, true;
    if (text_.substr(pos_, 5) == "False") return pos_ += 5, false;
    return std::nullopt;
  }
  std::optional<int64_t> integer() {
    skip_space();
    size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (start == pos_ || pos_ - start > 18) return std::nullopt;
    if (pos_ < text_.size() && text_[pos_] == 'L') ++pos_;  // Python 2 longs
    return std::stoll(std::string(text_.substr(start, pos_ - start)));
  }
  // (3, 4) or (5,) or ()
  std::optional<std::vector<int64_t>> shape() {
    if (!eat('(')) return std::nullopt;
    std::vector<int64_t> dims;
    while (!eat(')')) {
      auto dim = integer();
      if (!dim) return std::nullopt;
      dims.push_back(*dim);
      if (!eat(',') && !peek(')')) return std::nullopt;
    }
    return dims;
  }

  bool at_end() {
    skip_space();
    return pos_ >= text_.size();
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// A dtype's descr read from `reader`: a string ('<f4') or a record's list form, with nested
// records, shaped fields and NumPy's ('', '|V4') padding entries. Errors name no file.
Result<DType> read_descr(LiteralReader& reader, int depth = 0);

}  // namespace pykern
