#include "syntax/tokens.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace pykern::syntax {

namespace {

bool is_name_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool is_name_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

uint32_t line_number(const std::string& text, uint32_t byte) {
  return 1 + static_cast<uint32_t>(std::count(text.begin(), text.begin() + std::min<size_t>(byte, text.size()), '\n'));
}

// The operators of Python's grammar, longest first so that the longest match wins.
constexpr std::array<std::string_view, 47> operators = {
    "**=", "//=", ">>=", "<<=", "...", "!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//", "/=", ":=",
    "<<",  "<=",  "==",  ">=",  ">>",  "@=", "^=", "|=", "%",  "&",  "(",  ")",  "*",  "+",  ",",  "-",
    ".",   "/",   ":",   ";",   "<",   "=",  ">",  "@",  "[",  "]",  "^",  "{",  "|",  "}",  "~"};

class Tokenizer {
 public:
  explicit Tokenizer(const std::string& text) : text_(text) {}

  PyTokens run() {
    while (!out_.error && at_ < text_.size()) {
      if (line_start_ && brackets_.empty() && !indentation()) break;
      line_start_ = false;
      token();
    }
    if (!out_.error) finish();
    return std::move(out_);
  }

 private:
  char peek(size_t ahead = 0) const { return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0'; }

  void push(TokenKind kind, uint32_t begin, uint32_t end) {
    out_.tokens.push_back({kind, begin, end, static_cast<uint32_t>(brackets_.size())});
    if (kind != TokenKind::newline && kind != TokenKind::indent && kind != TokenKind::dedent) line_has_code_ = true;
  }

  void fail(uint32_t begin, uint32_t end, std::string message, std::string hint, bool indentation = false) {
    out_.error = TokenError{{begin, end}, std::move(message), std::move(hint), indentation};
  }

  // At the start of a line outside brackets: blank and comment-only lines are skipped; a line of
  // code is compared with the indentation stack (INDENT, DEDENTs, or a dedent to no level).
  bool indentation() {
    for (;;) {
      uint32_t width = 0;
      size_t first = at_;
      for (; first < text_.size() && (text_[first] == ' ' || text_[first] == '\t' || text_[first] == '\f'); ++first)
        width = text_[first] == '\t' ? (width / 8 + 1) * 8 : text_[first] == '\f' ? 0 : width + 1;
      char c = first < text_.size() ? text_[first] : '\n';
      if (c == '#' || c == '\n' || c == '\r' || (c == '\\' && first + 1 < text_.size() && text_[first + 1] == '\n')) {
        size_t end = text_.find('\n', first);
        if (end == std::string::npos) {
          at_ = text_.size();
          return true;
        }
        at_ = end + 1;
        continue;
      }
      at_ = first;
      auto at = static_cast<uint32_t>(first);
      if (width > indents_.back()) {
        indents_.push_back(width);
        push(TokenKind::indent, at, at);
      }
      while (width < indents_.back()) {
        indents_.pop_back();
        push(TokenKind::dedent, at, at);
      }
      if (width != indents_.back()) {
        fail(at, at + 1, "IndentationError: unindent does not match any outer indentation level",
             "indent this line as one of the blocks it closes", true);
        return false;
      }
      return true;
    }
  }

  void token() {
    char c = peek();
    auto begin = static_cast<uint32_t>(at_);
    if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
      ++at_;
    } else if (c == '#') {
      at_ = std::min(text_.find('\n', at_), text_.size());
    } else if (c == '\\' && peek(1) == '\n') {
      at_ += 2;
    } else if (c == '\n') {
      if (brackets_.empty()) {
        // CPython's NEWLINE starts after the line's last token and its spaces (at a comment, if any).
        uint32_t where = begin;
        if (!out_.tokens.empty())
          for (uint32_t i = out_.tokens.back().end; i < begin; ++i)
            if (text_[i] == '#') {
              where = i;
              break;
            }
        if (line_has_code_) push(TokenKind::newline, where, where + 1);
        line_has_code_ = false;
        line_start_ = true;
      }
      ++at_;
    } else if (string_start(at_)) {
      string(begin);
    } else if (is_name_start(static_cast<unsigned char>(c))) {
      while (is_name_char(static_cast<unsigned char>(peek()))) ++at_;
      push(TokenKind::name, begin, static_cast<uint32_t>(at_));
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
      number();
      push(TokenKind::number, begin, static_cast<uint32_t>(at_));
    } else {
      op(begin);
    }
  }

  // A string's prefix (r, b, f, u and their pairs) and quote start here.
  bool string_start(size_t at) const {
    auto is_prefix = [&](size_t i) {
      return i < text_.size() && std::string_view("rRbBuUfF").find(text_[i]) != std::string_view::npos;
    };
    size_t quote = at;
    while (quote < at + 2 && is_prefix(quote)) ++quote;
    return quote < text_.size() && (text_[quote] == '"' || text_[quote] == '\'');
  }

  void string(uint32_t begin) {
    while (text_[at_] != '"' && text_[at_] != '\'') ++at_;
    char quote = text_[at_];
    bool triple = text_.compare(at_, 3, std::string(3, quote)) == 0;
    size_t width = triple ? 3 : 1;
    at_ += width;
    for (; at_ < text_.size(); ++at_) {
      if (text_[at_] == '\\') {
        ++at_;
      } else if (!triple && text_[at_] == '\n') {
        break;
      } else if (text_.compare(at_, width, std::string(width, quote)) == 0) {
        at_ += width;
        push(TokenKind::string, begin, static_cast<uint32_t>(at_));
        return;
      }
    }
    // A one-line string is detected at its line's end; a triple-quoted one at the file's last line.
    size_t stop = std::min(at_, text_.size());
    if (stop == text_.size() && stop > 0 && text_.back() == '\n') --stop;
    uint32_t detected = line_number(text_, static_cast<uint32_t>(stop));
    fail(begin, begin + 1,
         fmt::format("unterminated {}string literal (detected at line {})", triple ? "triple-quoted " : "", detected),
         "close the string with the quote that opened it");
  }

  void number() {
    bool hex = peek() == '0' && (peek(1) == 'x' || peek(1) == 'X');
    while (at_ < text_.size()) {
      char c = peek();
      if (!hex && (c == 'e' || c == 'E') && (peek(1) == '+' || peek(1) == '-')) at_ += 2;
      else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') ++at_;
      else break;
    }
  }

  void op(uint32_t begin) {
    for (std::string_view o : operators) {
      if (text_.compare(at_, o.size(), o) != 0) continue;
      at_ += o.size();
      char c = o[0];
      if (o.size() == 1 && (c == '(' || c == '[' || c == '{')) {
        push(TokenKind::op, begin, begin + 1);
        brackets_.push_back(begin);
      } else if (o.size() == 1 && (c == ')' || c == ']' || c == '}')) {
        close(begin, c);
      } else {
        push(TokenKind::op, begin, static_cast<uint32_t>(at_));
      }
      return;
    }
    // '$', '?', '!', '`' or a stray byte: a token no rule of the grammar takes.
    ++at_;
    push(TokenKind::op, begin, begin + 1);
  }

  void close(uint32_t at, char closer) {
    if (brackets_.empty())
      return fail(at, at + 1, fmt::format("unmatched '{}'", closer), "remove it, or open the bracket it closes");
    char opener = text_[brackets_.back()];
    char expected = opener == '(' ? ')' : opener == '[' ? ']' : '}';
    if (closer != expected) {
      uint32_t open_line = line_number(text_, brackets_.back());
      std::string on_line = open_line == line_number(text_, at) ? "" : fmt::format(" on line {}", open_line);
      return fail(at, at + 1,
                  fmt::format("closing parenthesis '{}' does not match opening parenthesis '{}'{}", closer, opener,
                              on_line),
                  fmt::format("close the '{}' with '{}' first", opener, expected));
    }
    brackets_.pop_back();
    push(TokenKind::op, at, at + 1);
  }

  void finish() {
    auto end = static_cast<uint32_t>(text_.size());
    if (!brackets_.empty()) out_.unclosed = brackets_.back();
    if (line_has_code_) push(TokenKind::newline, end, end);
    brackets_.clear();
    for (size_t i = 1; i < indents_.size(); ++i) push(TokenKind::dedent, end, end);
    push(TokenKind::end, end, end);
  }

  const std::string& text_;
  size_t at_ = 0;
  bool line_start_ = true;
  bool line_has_code_ = false;
  std::vector<uint32_t> indents_{0};
  std::vector<uint32_t> brackets_;  // where each open bracket is
  PyTokens out_;
};

}  // namespace

PyTokens tokenize(const std::string& text) { return Tokenizer(text).run(); }

}  // namespace pykern::syntax
