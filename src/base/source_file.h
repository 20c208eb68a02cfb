// A source text with a line table. tree-sitter reports zero-based rows and byte columns;
// everything user-facing is 1-based lines and columns counted in code points, converted here.
//
// The text is read as CPython's tokenizer reads a file: a UTF-8 byte-order mark is dropped, a
// PEP 263 coding cookie is honoured (Latin-1 is re-encoded as UTF-8), and "\r\n" and a lone
// "\r" both end a line as "\n" does. What CPython would refuse before parsing (a NUL byte,
// bytes that are not UTF-8, an unknown encoding) is kept as problem() for the front end to
// report at its place.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pykern/result.h"

namespace pykern {

// Byte offsets [begin, end) into a SourceFile's text.
struct SourceRange {
  uint32_t begin = 0;
  uint32_t end = 0;
};

struct LineColumn {
  uint32_t line = 1;    // 1-based
  uint32_t column = 1;  // 1-based, in code points
};

// Why CPython would refuse the file's bytes before parsing them, and where.
struct SourceProblem {
  SourceRange range;
  std::string message;
  std::string hint;
};

// The largest kernel file pykern reads (source offsets are 32-bit).
constexpr uint64_t max_source_bytes = uint64_t(64) << 20;

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);
  static Result<SourceFile> load(const std::string& path);

  const std::string& path() const { return path_; }
  // The name shown in diagnostics and #line directives: the path as the user gave it.
  const std::string& display_name() const { return path_; }
  // UTF-8 with "\n" line ends (see above).
  const std::string& text() const { return text_; }
  std::string_view slice(SourceRange range) const;
  const std::optional<SourceProblem>& problem() const { return problem_; }

  LineColumn position(uint32_t byte_offset) const;
  // The 1-based line alone: a binary search, where position() also counts the line's code points.
  uint32_t line_of(uint32_t byte_offset) const;
  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }
  // Text of a 1-based line, without its newline.
  std::string_view line_text(uint32_t line) const;
  uint32_t line_start(uint32_t line) const { return line_starts_.at(line - 1); }

 private:
  void decode();

  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
  // UTF-8 continuation bytes before each multiple of continuation_stride bytes, so that a
  // column costs at most a stride's scan, however long its line (one-line files).
  static constexpr uint32_t continuation_stride = 64;
  std::vector<uint32_t> continuations_before_;
  uint32_t continuations_before(uint32_t byte_offset) const;
  std::optional<SourceProblem> problem_;
};

}  // namespace pykern
