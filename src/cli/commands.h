#pragma once
#include <string_view>

#include <CLI/CLI.hpp>

#include "pykern/result.h"

namespace pykern::cli {

void add_compile_command(CLI::App& app);
void add_bundle_command(CLI::App& app);
void add_cache_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_devices_command(CLI::App& app);
int exit_code();     // set by the subcommand that ran
void set_exit_code(int code);
// The one way the CLI reports a failure on stderr. A library error: a compile error's
// diagnostics as they are (they name their file and line), others after "pykern: error: ".
void print_error(const Error& error);
// A library message with the API's words for what the command line calls by an option
// ("Backend::cpu" is "--backend cpu"), so that the library never speaks of options.
std::string in_cli_words(std::string text);
// The CLI's own refusals (arguments, paths): "pykern: error: MESSAGE".
void print_error(std::string_view message);

}  // namespace pykern::cli
