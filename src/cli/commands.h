#pragma once
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
// A library error as the CLI prints it: a compile error's diagnostics as they are, others after
// "pykern: error: ".
void print_error(const Error& error);

}  // namespace pykern::cli
