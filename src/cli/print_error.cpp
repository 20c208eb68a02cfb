#include <iostream>

#include "cli/commands.h"

namespace pykern::cli {

namespace {

// The "pykern: ..." start of a message's first line, so that no line says "error:" twice: a
// message that is already a diagnostic ("k.py:3:5: error: ...") or says "internal error:"
// keeps its own word for what it is.
std::string prefix_for(std::string_view text) {
  std::string_view first_line = text.substr(0, text.find('\n'));
  if (first_line.rfind("internal error: ", 0) == 0 || first_line.rfind("error: ", 0) == 0) return "pykern: ";
  if (first_line.find(": error: ") != std::string_view::npos) return "";
  return "pykern: error: ";
}

}  // namespace

void print_error(const Error& error) {
  std::string text = error.describe();
  if (error.kind != ErrorKind::compile) std::cerr << prefix_for(text);
  std::cerr << text;
  if (text.empty() || text.back() != '\n') std::cerr << "\n";
}

void print_error(std::string_view message) { std::cerr << prefix_for(message) << message << "\n"; }

}  // namespace pykern::cli
