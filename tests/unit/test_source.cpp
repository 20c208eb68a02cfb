#include <set>

#include <doctest/doctest.h>

#include "base/diagnostics.h"
#include "base/source_file.h"

using namespace pykern;

TEST_CASE("source positions are 1-based lines and code-point columns") {
  SourceFile file("k.py", "a = 1\n  é = 2\n\nlast");
  CHECK(file.line_count() == 4);
  CHECK(file.position(0).line == 1);
  CHECK(file.position(0).column == 1);
  CHECK(file.position(6).line == 2);
  // 'é' is two bytes; the '=' after it is column 5.
  CHECK(file.position(11).column == 5);
  CHECK(file.line_text(2) == "  é = 2");
  CHECK(file.line_text(3) == "");
  CHECK(file.line_text(4) == "last");
  CHECK(file.line_text(9) == "");
  CHECK(file.position(9999).line == 4);
}

TEST_CASE("a diagnostic renders file:line:col, the line and a caret under the range") {
  SourceFile file("kernel.py", "def k(a):\n    x = a + b\n");
  Diagnostics diagnostics;
  diagnostics.error(DiagKind::unknown_name, file, {22, 23}, "name 'b' is not defined", "define it");
  CHECK(diagnostics.has_errors());
  CHECK(diagnostics.render() ==
        "kernel.py:2:13: error: name 'b' is not defined [unknown-name]\n"
        "    2 |     x = a + b\n"
        "      |             ^\n"
        "hint: define it\n");
}

TEST_CASE("muted diagnostics are dropped and duplicates are reported once") {
  SourceFile file("k.py", "x\n");
  Diagnostics diagnostics;
  diagnostics.set_muted(true);
  diagnostics.error(DiagKind::unknown_name, file, {0, 1}, "m");
  CHECK_FALSE(diagnostics.has_errors());
  diagnostics.set_muted(false);
  diagnostics.error(DiagKind::unknown_name, file, {0, 1}, "m");
  diagnostics.error(DiagKind::unknown_name, file, {0, 1}, "m");
  CHECK(diagnostics.error_count() == 1);
}

TEST_CASE("every diagnostic kind has a distinct name") {
  std::set<std::string> names;
  for (DiagKind kind : all_diag_kinds()) names.insert(diag_kind_name(kind));
  CHECK(names.size() == all_diag_kinds().size());
}

#include "base/diagnostics.h"

TEST_CASE("diagnostics show hostile source text without its control characters") {
  // An ESC sequence in a kernel file could retitle or drive the user's terminal.
  pykern::SourceFile file("evil\x1b[2J.py", std::string("x = 1 \x1b]0;pwned\x07 + \xc2\x9b" "2\0end\n", 26));
  pykern::Diagnostics diagnostics;
  diagnostics.error(pykern::DiagKind::syntax_error, file, {6, 7}, "near '\x1b]0'", "hint \x1b[31m");
  std::string text = diagnostics.render();
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\x07') == std::string::npos);
  CHECK(text.find(std::string(1, '\0')) == std::string::npos);
  CHECK(text.find("\xc2\x9b") == std::string::npos);
  CHECK(text.find("x = 1 ?]0;pwned? + ?2?end") != std::string::npos);
  CHECK(text.find("      ^") != std::string::npos);  // the caret still under column 7
}
