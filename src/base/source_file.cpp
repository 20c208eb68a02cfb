#include "base/source_file.h"

#include "base/files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace pykern {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

// Only regular files, and at most max_source_bytes: a FIFO would block, /dev/zero would never
// end, and source offsets are 32-bit (as tree-sitter's).
Result<SourceFile> SourceFile::load(const std::string& path) {
  auto text = files::read_regular(path, max_source_bytes, "kernel file");
  if (!text.ok()) return text.error();
  return SourceFile(path, std::move(*text));
}

std::string_view SourceFile::slice(SourceRange range) const {
  uint32_t begin = std::min<uint32_t>(range.begin, text_.size());
  uint32_t end = std::clamp<uint32_t>(range.end, begin, text_.size());
  return std::string_view(text_).substr(begin, end - begin);
}

LineColumn SourceFile::position(uint32_t byte_offset) const {
  byte_offset = std::min<uint32_t>(byte_offset, text_.size());
  auto after = std::upper_bound(line_starts_.begin(), line_starts_.end(), byte_offset);
  uint32_t line = static_cast<uint32_t>(after - line_starts_.begin());
  uint32_t column = 1;
  for (uint32_t i = line_starts_[line - 1]; i < byte_offset; ++i) {
    // Count code points: skip UTF-8 continuation bytes.
    if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++column;
  }
  return {line, column};
}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  uint32_t begin = line_starts_[line - 1];
  uint32_t end = line < line_starts_.size() ? line_starts_[line] : text_.size();
  std::string_view text = std::string_view(text_).substr(begin, end - begin);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

}  // namespace pykern
