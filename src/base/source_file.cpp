#include "base/source_file.h"

#include "base/files.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace pykern {

namespace {

// Every encoding name CPython's codecs know, normalised, with the codec it names.
struct CodecName {
  const char* name;
  const char* codec;
};
const CodecName python_codecs[] = {
#include "base/python_codecs.inc"
};

// "\r\n" and a lone "\r" end a line as "\n" does, in strings too: CPython's tokenizer
// translates both before it reads anything.
std::string unify_newlines(std::string text) {
  if (text.find('\r') == std::string::npos) return text;
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else {
      out += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    }
  }
  return out;
}

// A PEP 263 coding cookie: `^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)` on line 1, or on line 2
// when line 1 holds nothing but a comment or whitespace (CPython's rule).
struct Cookie {
  SourceRange range;  // the encoding's name
  std::string name;
};

std::optional<Cookie> cookie_on_line(const std::string& text, size_t begin, size_t end) {
  size_t at = begin;
  while (at < end && (text[at] == ' ' || text[at] == '\t' || text[at] == '\f')) ++at;
  if (at == end || text[at] != '#') return std::nullopt;
  for (size_t found = text.find("coding", at); found != std::string::npos && found + 6 < end;
       found = text.find("coding", found + 1)) {
    size_t after = found + 6;
    if (text[after] != ':' && text[after] != '=') continue;
    ++after;
    while (after < end && (text[after] == ' ' || text[after] == '\t')) ++after;
    size_t name_end = after;
    auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; };
    while (name_end < end && name_char(text[name_end])) ++name_end;
    if (name_end == after) continue;
    return Cookie{{static_cast<uint32_t>(after), static_cast<uint32_t>(name_end)}, text.substr(after, name_end - after)};
  }
  return std::nullopt;
}

std::optional<Cookie> find_cookie(const std::string& text) {
  size_t first_end = std::min(text.find('\n'), text.size());
  if (auto cookie = cookie_on_line(text, 0, first_end)) return cookie;
  size_t at = 0;
  while (at < first_end && (text[at] == ' ' || text[at] == '\t' || text[at] == '\f')) ++at;
  if (at < first_end && text[at] != '#') return std::nullopt;  // line 1 holds code
  if (first_end == text.size()) return std::nullopt;
  size_t second_end = std::min(text.find('\n', first_end + 1), text.size());
  return cookie_on_line(text, first_end + 1, second_end);
}

// CPython's get_normal_name: utf-8 and latin-1 spellings (and any "-suffix" of them) first.
std::string normal_cookie_name(const std::string& spelled) {
  std::string name;
  for (char c : spelled.substr(0, 12)) name += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto is_or_prefixes = [&](const std::string& base) { return name == base || name.rfind(base + "-", 0) == 0; };
  if (is_or_prefixes("utf-8")) return "utf-8";
  if (is_or_prefixes("latin-1") || is_or_prefixes("iso-8859-1") || is_or_prefixes("iso-latin-1")) return "iso-8859-1";
  return spelled;
}

// The codec a name selects, normalised as encodings.normalize_encoding does; empty if none.
std::string codec_named(const std::string& spelled) {
  std::string name;
  bool gap = false;
  for (char c : spelled) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '.') {
      if (gap && !name.empty()) name += '_';
      name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      gap = false;
    } else {
      gap = true;
    }
  }
  for (std::string candidate : {name, [&] { std::string u = name; std::replace(u.begin(), u.end(), '.', '_'); return u; }()}) {
    auto found = std::lower_bound(std::begin(python_codecs), std::end(python_codecs), candidate,
                                  [](const CodecName& entry, const std::string& value) { return entry.name < value; });
    if (found != std::end(python_codecs) && found->name == candidate) return found->codec;
  }
  return {};
}

// The first byte at which `text` stops being well-formed UTF-8 (no overlongs, surrogates or
// code points past U+10FFFF), or npos.
size_t invalid_utf8_at(const std::string& text) {
  for (size_t i = 0; i < text.size();) {
    auto byte = [&](size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
    unsigned lead = byte(i);
    if (lead < 0x80) {
      ++i;
      continue;
    }
    size_t length = 0;
    unsigned low = 0x80, high = 0xBF;  // the allowed range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) length = 2;
    else if (lead == 0xE0) length = 3, low = 0xA0;
    else if (lead == 0xED) length = 3, high = 0x9F;
    else if (lead >= 0xE1 && lead <= 0xEF) length = 3;
    else if (lead == 0xF0) length = 4, low = 0x90;
    else if (lead >= 0xF1 && lead <= 0xF3) length = 4;
    else if (lead == 0xF4) length = 4, high = 0x8F;
    else return i;
    if (byte(i + 1) < low || byte(i + 1) > high) return i;
    for (size_t k = 2; k < length; ++k)
      if ((byte(i + k) & 0xC0) != 0x80) return i;
    i += length;
  }
  return std::string::npos;
}

std::string latin1_to_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80) {
      out += c;
    } else {
      out += static_cast<char>(0xC0 | (byte >> 6));
      out += static_cast<char>(0x80 | (byte & 0x3F));
    }
  }
  return out;
}

std::string hex_byte(char c) {
  static const char digits[] = "0123456789abcdef";
  auto byte = static_cast<unsigned char>(c);
  return std::string{digits[byte >> 4], digits[byte & 15]};
}

SourceRange at_byte(size_t offset) { return {static_cast<uint32_t>(offset), static_cast<uint32_t>(offset + 1)}; }

}  // namespace

SourceFile::SourceFile(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  decode();
  line_starts_.push_back(0);
  uint32_t continuations = 0;
  for (uint32_t i = 0; i < text_.size(); ++i) {
    if (i % continuation_stride == 0) continuations_before_.push_back(continuations);
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
    if ((static_cast<unsigned char>(text_[i]) & 0xC0) == 0x80) ++continuations;
  }
  continuations_before_.push_back(continuations);  // at text_.size(), reached past the last stride
}


void SourceFile::decode() {
  bool bom = text_.rfind("\xEF\xBB\xBF", 0) == 0;
  if (bom) text_.erase(0, 3);
  text_ = unify_newlines(std::move(text_));
  const char* const declare_hint = "save the file as UTF-8, or declare its encoding on line 1 or 2 (# -*- coding: latin-1 -*-)";
  std::string codec = "utf_8";
  if (auto cookie = find_cookie(text_)) {
    std::string normal = normal_cookie_name(cookie->name);
    codec = normal == "utf-8" ? "utf_8" : normal == "iso-8859-1" ? "iso8859_1" : codec_named(normal);
    if (codec.empty()) {
      problem_ = SourceProblem{cookie->range, "unknown encoding: " + cookie->name,
                               "name an encoding Python knows (utf-8, latin-1), or remove the coding line"};
      return;
    }
    if (bom && codec != "utf_8" && codec != "utf_8_sig") {
      problem_ = SourceProblem{cookie->range, "encoding problem: " + normal + " with BOM",
                               "a file that starts with a UTF-8 byte-order mark must be UTF-8"};
      return;
    }
    static const char* const not_text[] = {"base64", "bz2", "hex", "quopri", "rot_13", "uu", "zlib"};
    if (std::find(std::begin(not_text), std::end(not_text), codec) != std::end(not_text)) {
      problem_ = SourceProblem{cookie->range,
                               "'" + cookie->name + "' is not a text encoding; use codecs.decode() to handle arbitrary codecs",
                               "declare a text encoding (utf-8, latin-1), or remove the coding line"};
      return;
    }
    if (codec == "iso8859_1") {
      text_ = latin1_to_utf8(text_);
    } else if (codec == "ascii") {
      auto wide = std::find_if(text_.begin(), text_.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
      if (wide != text_.end()) {
        problem_ = SourceProblem{at_byte(static_cast<size_t>(wide - text_.begin())),
                                 "'ascii' codec can't decode byte 0x" + hex_byte(*wide) + ": ordinal not in range(128)",
                                 "the coding line says ascii; declare the file's real encoding (utf-8)"};
        return;
      }
    } else if (codec != "utf_8" && codec != "utf_8_sig") {
      problem_ = SourceProblem{cookie->range,
                               "pykern reads UTF-8, Latin-1 and ASCII kernel files; this one declares '" + cookie->name + "'",
                               "save the file as UTF-8 and remove the coding line"};
      return;
    }
  }
  if (size_t bad = invalid_utf8_at(text_); bad != std::string::npos) {
    problem_ = SourceProblem{at_byte(bad),
                             codec == "utf_8" && !find_cookie(text_)
                                 ? "Non-UTF-8 code starting with '\\x" + hex_byte(text_[bad]) +
                                       "', but no encoding declared; see https://peps.python.org/pep-0263/ for details"
                                 : "'utf-8' codec can't decode byte 0x" + hex_byte(text_[bad]),
                             declare_hint};
    return;
  }
  if (size_t nul = text_.find('\0'); nul != std::string::npos)
    problem_ = SourceProblem{at_byte(nul), "source code cannot contain null bytes",
                             "remove the NUL byte: a kernel file is text"};
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

uint32_t SourceFile::line_of(uint32_t byte_offset) const {
  byte_offset = std::min<uint32_t>(byte_offset, text_.size());
  auto after = std::upper_bound(line_starts_.begin(), line_starts_.end(), byte_offset);
  return static_cast<uint32_t>(after - line_starts_.begin());
}

LineColumn SourceFile::position(uint32_t byte_offset) const {
  byte_offset = std::min<uint32_t>(byte_offset, text_.size());
  uint32_t line = line_of(byte_offset);
  // Columns count code points: the bytes since the line's start, less the continuation bytes.
  uint32_t start = line_starts_[line - 1];
  uint32_t column = 1 + (byte_offset - start) - (continuations_before(byte_offset) - continuations_before(start));
  return {line, column};
}

uint32_t SourceFile::continuations_before(uint32_t byte_offset) const {
  uint32_t stride = byte_offset / continuation_stride;
  if (stride >= continuations_before_.size()) return continuations_before_.back();
  uint32_t count = continuations_before_[stride];
  for (uint32_t i = stride * continuation_stride; i < byte_offset; ++i)
    if ((static_cast<unsigned char>(text_[i]) & 0xC0) == 0x80) ++count;
  return count;
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
