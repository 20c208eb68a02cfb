#include <iostream>

#include "cli/commands.h"

namespace pykern::cli {

void print_error(const Error& error) {
  if (error.kind != ErrorKind::compile) std::cerr << "pykern: error: ";
  std::string text = error.describe();
  std::cerr << text;
  if (text.empty() || text.back() != '\n') std::cerr << "\n";
}

void print_error(std::string_view message) { std::cerr << "pykern: error: " << message << "\n"; }

}  // namespace pykern::cli
