// A small reader for the Python literals of a .npy header and of NumPy's dtype descr: strings,
// True/False, non-negative ints, tuples, lists. Internal to src/api.
#pragma once
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pykern/dtype.h"

namespace pykern {

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
  std::optional<std::string> string() {
    skip_space();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) return std::nullopt;
    char quote = text_[pos_++];
    size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) return std::nullopt;
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
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
