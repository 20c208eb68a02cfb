// One diagnostics sink shared by every phase. A phase reports and goes on, so one run shows
// every independent error. Rendering follows compilers users know:
//   kernel.py:12:9: error: cannot add 'int64' and 'array(float32, 1d, C)' [type-mismatch]
//      12 |     x = i + a
//         |         ^~~~~
//   hint: index the array first, e.g. a[i]
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "base/source_file.h"

namespace pykern {

enum class DiagKind {
#define X(id, name) id,
#include "base/diagnostic_kinds.def"
#undef X
};

const char* diag_kind_name(DiagKind kind);
std::vector<DiagKind> all_diag_kinds();

enum class Severity { error, warning, note };

struct Diagnostic {
  Severity severity = Severity::error;
  DiagKind kind = DiagKind::internal_error;
  const SourceFile* file = nullptr;  // may be null for errors with no location
  SourceRange range;
  std::string message;
  std::string hint;
};

class Diagnostics {
 public:
  void error(DiagKind kind, const SourceFile& file, SourceRange range, std::string message,
             std::string hint = {});
  void warning(DiagKind kind, const SourceFile& file, SourceRange range, std::string message,
               std::string hint = {});
  void note(const SourceFile& file, SourceRange range, std::string message);
  void add(Diagnostic diagnostic);

  bool has_errors() const { return error_count_ > 0; }
  size_t error_count() const { return error_count_; }
  const std::vector<Diagnostic>& all() const { return items_; }

  // While muted, reports are dropped: type inference runs to a fixed point before its final,
  // reporting pass, and must not report the same error once per round.
  void set_muted(bool muted) { muted_ = muted; }
  bool muted() const { return muted_; }

  std::string render() const;

 private:
  std::vector<Diagnostic> items_;
  size_t error_count_ = 0;
  bool muted_ = false;
};

std::string render_diagnostic(const Diagnostic& diagnostic);

}  // namespace pykern
