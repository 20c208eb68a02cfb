#pragma once
#include <CLI/CLI.hpp>

namespace pykern::cli {

void add_compile_command(CLI::App& app);
void add_bundle_command(CLI::App& app);
void add_cache_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_devices_command(CLI::App& app);
int exit_code();     // set by the subcommand that ran
void set_exit_code(int code);

}  // namespace pykern::cli
