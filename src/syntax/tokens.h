// Python's tokens as CPython's tokenizer makes them: names, numbers, strings, operators, and the
// NEWLINE / INDENT / DEDENT tokens that give lines and blocks their shape. tree-sitter recovers
// from a broken file silently; this tokenizer stops where CPython's does, so that a syntax error
// can be explained in CPython's words (syntax_errors.h).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/source_file.h"

namespace pykern::syntax {

enum class TokenKind : uint8_t { name, number, string, op, newline, indent, dedent, end };

struct PyToken {
  TokenKind kind = TokenKind::end;
  uint32_t begin = 0, end = 0;  // bytes of the file; a newline's is the line end (or where a comment starts)
  uint32_t depth = 0;           // brackets open before the token (an opening bracket counts itself out)
};

// What stopped the tokenizer, in CPython's words: an unterminated string, a closing bracket that
// closes nothing or the wrong bracket, a dedent to no enclosing level.
struct TokenError {
  SourceRange where;
  std::string message;
  std::string hint;
  bool indentation = false;  // an IndentationError, which CPython's parser sees only on reaching it
};

struct PyTokens {
  std::vector<PyToken> tokens;         // up to the error, if any; the last is `end` when there is none
  std::optional<TokenError> error;
  std::optional<uint32_t> unclosed;    // the innermost bracket still open at the end of the file
};

PyTokens tokenize(const std::string& text);

}  // namespace pykern::syntax
