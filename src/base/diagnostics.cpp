#include "base/diagnostics.h"

#include <fmt/format.h>

namespace pykern {

const char* diag_kind_name(DiagKind kind) {
  switch (kind) {
#define X(id, name) \
  case DiagKind::id: return name;
#include "base/diagnostic_kinds.def"
#undef X
  }
  return "unknown";
}

std::vector<DiagKind> all_diag_kinds() {
  return {
#define X(id, name) DiagKind::id,
#include "base/diagnostic_kinds.def"
#undef X
  };
}

void Diagnostics::add(Diagnostic diagnostic) {
  if (muted_) return;
  // The same error at the same place (a device function typed twice) is reported once.
  for (const Diagnostic& seen : items_) {
    if (seen.file == diagnostic.file && seen.range.begin == diagnostic.range.begin &&
        seen.message == diagnostic.message)
      return;
  }
  if (diagnostic.severity == Severity::error) ++error_count_;
  items_.push_back(std::move(diagnostic));
}

void Diagnostics::error(DiagKind kind, const SourceFile& file, SourceRange range,
                        std::string message, std::string hint) {
  add({Severity::error, kind, &file, range, std::move(message), std::move(hint)});
}

void Diagnostics::warning(DiagKind kind, const SourceFile& file, SourceRange range,
                          std::string message, std::string hint) {
  add({Severity::warning, kind, &file, range, std::move(message), std::move(hint)});
}

void Diagnostics::note(const SourceFile& file, SourceRange range, std::string message) {
  add({Severity::note, DiagKind::internal_error, &file, range, std::move(message), {}});
}

static const char* severity_name(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

namespace {

bool continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// Source text shown on a terminal: control characters (ESC sequences could drive the terminal,
// NUL and CR garble the line) become '?', one column each, so the caret still lines up.
// C1 controls (U+0080..U+009F, which some terminals obey) go too. Tabs stay.
std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\t') || c == 0x7f) {
      out += '?';
    } else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      out += '?';
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

struct SourceLineExcerpt {
  std::string text;    // the line, or a window of it around the range
  std::string marker;  // spaces (tabs where the line has them), '^' and '~' under the range
};

// The line a diagnostic points into, clipped to a window around the range when it is long (a
// generated 100,000-character line must not flood the terminal). Works in bytes and counts
// code points for the marker, so UTF-8 before the caret keeps it aligned.
SourceLineExcerpt excerpt(const SourceFile& file, uint32_t line_number, SourceRange range) {
  constexpr size_t max_shown = 160, context_before = 60;
  std::string_view line = file.line_text(line_number);
  size_t caret = std::min<size_t>(range.begin - file.line_start(line_number), line.size());
  size_t from = 0, to = line.size();
  if (line.size() > max_shown) {
    from = caret > context_before ? caret - context_before : 0;
    to = std::min(line.size(), from + max_shown);
    while (from > 0 && from < line.size() && continuation_byte(line[from])) --from;
    while (to < line.size() && continuation_byte(line[to])) ++to;
  }
  SourceLineExcerpt out;
  std::string prefix = from > 0 ? "..." : "";
  out.text = prefix + printable(line.substr(from, to - from)) + (to < line.size() ? "..." : "");
  out.marker = std::string(prefix.size(), ' ');
  for (size_t i = from; i < caret; ++i)
    if (!continuation_byte(line[i])) out.marker += line[i] == '\t' ? '\t' : ' ';
  size_t range_end = std::min<size_t>(std::max(range.end, range.begin + 1) - file.line_start(line_number), to);
  out.marker += '^';
  for (size_t i = caret + 1; i < range_end; ++i)
    if (!continuation_byte(line[i])) out.marker += '~';
  return out;
}

}  // namespace

std::string render_diagnostic(const Diagnostic& d) {
  std::string kind_suffix =
      d.severity == Severity::note ? "" : fmt::format(" [{}]", diag_kind_name(d.kind));
  if (d.file == nullptr) {
    std::string text = fmt::format("pykern: {}: {}{}\n", severity_name(d.severity), printable(d.message),
                                   kind_suffix);
    if (!d.hint.empty()) text += fmt::format("hint: {}\n", printable(d.hint));
    return text;
  }
  LineColumn start = d.file->position(d.range.begin);
  std::string text = fmt::format("{}:{}:{}: {}: {}{}\n", printable(d.file->display_name()), start.line,
                                 start.column, severity_name(d.severity), printable(d.message), kind_suffix);
  std::string gutter = fmt::format("{:>5}", start.line);
  SourceLineExcerpt shown = excerpt(*d.file, start.line, d.range);
  text += fmt::format("{} | {}\n", gutter, shown.text);
  text += fmt::format("{} | {}\n", std::string(gutter.size(), ' '), shown.marker);
  if (!d.hint.empty()) text += fmt::format("hint: {}\n", printable(d.hint));
  return text;
}

std::string Diagnostics::render() const {
  std::string text;
  for (const Diagnostic& d : items_) text += render_diagnostic(d);
  return text;
}

}  // namespace pykern
