// The pykern command: one subcommand per file (compile, run, bundle, cache, devices), each
// parsing its arguments with CLI11 and calling the public API; `cache` and `bundle` also reach
// the cache and the bundle writer, which the API does not expose.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string_view>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "pykern/version.h"
#include "pykern/compiler.h"
#include "sim/simulator.h"

namespace {

// What a command printed reaches its reader only when stdout is flushed: a full disk, a closed
// stdout or a broken file is found here, and the command fails instead of exiting 0.
int checked_exit(int code) {
  std::cout.flush();
  bool failed = !std::cout.good() || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return code;
  int error = errno;
  pykern::cli::print_error(std::string("cannot write to standard output: ") +
                   (error != 0 ? std::strerror(error) : "the write failed"));
  return code == 0 ? 1 : code;
}

// CLI11's message, begun in lower case as pykern's messages are ("the following argument was
// not expected: --bogus"), on one line.
std::string usage_message(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char& c : text)
    if (c == '\n') c = ' ';
  bool acronym = text.size() > 1 && std::isupper(static_cast<unsigned char>(text[1]));
  if (!text.empty() && !acronym) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

// "pykern run", "pykern cache show": the command whose options were being read.
std::string command_path(const CLI::App& app) {
  std::string path = "pykern";
  const CLI::App* at = &app;
  while (true) {
    auto chosen = at->get_subcommands();
    if (chosen.empty()) break;
    at = chosen.front();
    path += " " + at->get_name();
  }
  return path;
}

struct Command {
  std::string_view name;
  void (*add)(CLI::App&);
};

// In the order `pykern --help` lists them.
constexpr Command commands[] = {{"compile", pykern::cli::add_compile_command},
                                {"bundle", pykern::cli::add_bundle_command},
                                {"cache", pykern::cli::add_cache_command},
                                {"run", pykern::cli::add_run_command},
                                {"devices", pykern::cli::add_devices_command}};

// The command named by the first argument alone, when it names one: building every command's
// options was a quarter of a cache-hit `pykern compile` process (BENCHMARKS.md, issue 32).
// Anything else (no argument, --help, --version, a word that is no command) gets them all, so
// that the help lists them and the errors are CLI11's as before.
void add_commands(CLI::App& app, int argc, char** argv) {
  std::string_view first = argc > 1 ? argv[1] : "";
  bool named = std::any_of(std::begin(commands), std::end(commands), [&](const Command& c) { return c.name == first; });
  for (const Command& command : commands)
    if (!named || command.name == first) command.add(app);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{fmt::format("pykern {}: run Numba-CUDA kernels from C++, without Python", pykern::version())};
  app.require_subcommand(1);
  app.set_version_flag("--version", pykern::version());
  add_commands(app, argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version end the parse with exit code 0: CLI11 prints them. Every other
    // parse error is a usage error: exit 2 with one "pykern: error:" line, as getopt programs
    // do (CLI11's own codes, 105 to 109, say nothing a script can use).
    if (error.get_exit_code() == 0) return checked_exit(app.exit(error));
    pykern::cli::print_error(usage_message(error.what()));
    std::cerr << fmt::format("hint: see '{} --help'\n", command_path(app));
    return checked_exit(2);
  }
  // A build a signal interrupted (the command has said so): 130 for SIGINT, 143 for SIGTERM.
  if (int signal = pykern::sim::interrupted_by_signal()) return 128 + signal;
  return checked_exit(pykern::cli::exit_code());
}
