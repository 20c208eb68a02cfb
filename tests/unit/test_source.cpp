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

TEST_CASE("source text is read as CPython reads it: line ends, BOM, coding cookies") {
  // "\r\n" and a lone "\r" end lines; columns stay code points.
  pykern::SourceFile mixed("k.py", "a = 1\r\nb = 2\rc = 3\n");
  CHECK(mixed.text() == "a = 1\nb = 2\nc = 3\n");
  CHECK(mixed.line_text(3) == "c = 3");
  CHECK_FALSE(mixed.problem());
  pykern::SourceFile bom("k.py", "\xEF\xBB\xBFx = 1\n");
  CHECK(bom.text() == "x = 1\n");
  CHECK_FALSE(bom.problem());
  // Latin-1 (by any of its names, on line 1 or line 2 after a comment) becomes UTF-8.
  for (const char* cookie : {"# -*- coding: latin-1 -*-\n", "#!/usr/bin/python\n# vim: set fileencoding=iso-8859-1 :\n",
                             "# coding=latin1\n", "# coding: ISO_8859_1\n"}) {
    CAPTURE(cookie);
    pykern::SourceFile latin("k.py", std::string(cookie) + "s = '\xe9'\n");
    CHECK_FALSE(latin.problem());
    CHECK(latin.text().find("s = '\xc3\xa9'") != std::string::npos);
  }
  pykern::SourceFile utf8("k.py", "# coding: utf-8\ns = '\xc3\xa9'\n");
  CHECK_FALSE(utf8.problem());
  // A cookie on line 2 counts only after a comment line.
  pykern::SourceFile late("k.py", "x = 1\n# coding: xyz\n");
  CHECK_FALSE(late.problem());

  auto problem = [](const std::string& text) {
    pykern::SourceFile file("k.py", text);
    REQUIRE(file.problem());
    pykern::LineColumn at = file.position(file.problem()->range.begin);
    return file.problem()->message + " @" + std::to_string(at.line) + ":" + std::to_string(at.column);
  };
  CHECK(problem(std::string("x = 1\ny = \0\n", 12)) == "source code cannot contain null bytes @2:5");
  CHECK(problem("x = 1\r\ny = '\xff'\n").find("Non-UTF-8 code starting with '\\xff'") == 0);
  CHECK(problem("x = 1\r\ny = '\xff'\n").find("@2:6") != std::string::npos);
  CHECK(problem("x = '\xed\xa0\x80'\n").find("@1:6") != std::string::npos);  // a UTF-8 encoded surrogate
  CHECK(problem("x = '\xc0\xaf'\n").find("@1:6") != std::string::npos);      // an overlong '/'
  CHECK(problem("# coding: xyz\n") == "unknown encoding: xyz @1:11");
  CHECK(problem("# coding: ascii\ns = '\xc3\xa9'\n") == "'ascii' codec can't decode byte 0xc3: ordinal not in range(128) @2:6");
  CHECK(problem("# coding: base64\n").find("is not a text encoding") != std::string::npos);
  CHECK(problem("# coding: cp1252\n").find("pykern reads UTF-8, Latin-1 and ASCII") == 0);
  CHECK(problem("\xEF\xBB\xBF# coding: latin-1\n").find("encoding problem: iso-8859-1 with BOM") == 0);
}

TEST_CASE("columns on long lines are code points, counted from stride checkpoints") {
  // A 10k-byte line of mixed one- to four-byte characters, and short lines after it.
  std::string text;
  const char* pieces[] = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9d\x90\x92", " "};
  for (int i = 0; i < 3000; ++i) text += pieces[(i * 7) % 5];
  text += "\nx = 1\n\xc3\xa9\n";
  pykern::SourceFile file("k.py", text);
  uint32_t line = 1, column = 1;
  for (uint32_t at = 0; at <= text.size(); ++at) {
    if (at == text.size() || (static_cast<unsigned char>(text[at]) & 0xC0) != 0x80) {
      pykern::LineColumn found = file.position(at);
      REQUIRE(found.line == line);
      REQUIRE(found.column == column);
      CHECK(file.line_of(at) == line);
    }
    if (at < text.size() && text[at] == '\n') {
      ++line, column = 1;
    } else if (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) != 0x80) {
      ++column;
    }
  }
}
