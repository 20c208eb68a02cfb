// Indented text with #line directives. A directive is written before every statement: a
// statement may span several C++ lines, so the next one must restate its Python line.
#pragma once
#include <string>

namespace pykern::emit {

class Writer {
 public:
  void line(const std::string& text) {
    text_.append(static_cast<size_t>(depth_) * 2, ' ');
    text_ += text;
    text_ += '\n';
  }
  void blank() { text_ += '\n'; }
  void indent() { ++depth_; }
  void dedent() { --depth_; }
  void line_directive(uint32_t line, const std::string& quoted_file) {
    text_ += "#line " + std::to_string(line) + " " + quoted_file + "\n";
  }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
  int depth_ = 0;
};

}  // namespace pykern::emit
