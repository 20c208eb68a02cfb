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

std::string in_cli_words(std::string text) {
  // The library speaks of its API; the command line has options for the same things.
  static const std::pair<std::string_view, std::string_view> words[] = {
      {"Backend::cpu", "--backend cpu"}, {"Backend::cuda", "--backend cuda"}, {"Backend::automatic", "--backend auto"}};
  for (const auto& [api, option] : words)
    for (size_t at = text.find(api); at != std::string::npos; at = text.find(api, at + option.size()))
      text.replace(at, api.size(), option);
  return text;
}

void print_error(const Error& error) {
  std::string text = in_cli_words(error.describe());
  if (error.kind != ErrorKind::compile) std::cerr << prefix_for(text);
  std::cerr << text;
  if (text.empty() || text.back() != '\n') std::cerr << "\n";
}

void print_error(std::string_view message) {
  std::string text = in_cli_words(std::string(message));
  std::cerr << prefix_for(text) << text << "\n";
}

}  // namespace pykern::cli
