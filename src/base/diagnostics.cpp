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

std::string render_diagnostic(const Diagnostic& d) {
  std::string kind_suffix =
      d.severity == Severity::note ? "" : fmt::format(" [{}]", diag_kind_name(d.kind));
  if (d.file == nullptr) {
    std::string text = fmt::format("pykern: {}: {}{}\n", severity_name(d.severity), d.message,
                                   kind_suffix);
    if (!d.hint.empty()) text += fmt::format("hint: {}\n", d.hint);
    return text;
  }
  LineColumn start = d.file->position(d.range.begin);
  std::string text = fmt::format("{}:{}:{}: {}: {}{}\n", d.file->display_name(), start.line,
                                 start.column, severity_name(d.severity), d.message, kind_suffix);
  std::string_view line = d.file->line_text(start.line);
  std::string gutter = fmt::format("{:>5}", start.line);
  text += fmt::format("{} | {}\n", gutter, line);
  // The caret spans the range on its first line; tabs are kept so it lines up.
  std::string marker;
  for (uint32_t i = 1; i < start.column && i - 1 < line.size(); ++i)
    marker += line[i - 1] == '\t' ? '\t' : ' ';
  uint32_t end_offset = std::max(d.range.end, d.range.begin + 1);
  uint32_t line_end = d.file->line_start(start.line) + static_cast<uint32_t>(line.size());
  LineColumn end = d.file->position(std::min(end_offset, std::max(line_end, d.range.begin + 1)));
  uint32_t width = end.line == start.line && end.column > start.column
                       ? end.column - start.column : 1;
  marker += '^';
  if (width > 1) marker += std::string(width - 1, '~');
  text += fmt::format("{} | {}\n", std::string(gutter.size(), ' '), marker);
  if (!d.hint.empty()) text += fmt::format("hint: {}\n", d.hint);
  return text;
}

std::string Diagnostics::render() const {
  std::string text;
  for (const Diagnostic& d : items_) text += render_diagnostic(d);
  return text;
}

}  // namespace pykern
