// The pykern command: thin wrappers over the public API.
#include <cstdio>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "pykern/compiler.h"
#include "sim/simulator.h"

int main(int argc, char** argv) {
  CLI::App app{fmt::format("pykern {}: run Numba-CUDA kernels from C++, without Python", pykern::version())};
  app.require_subcommand(1);
  app.set_version_flag("--version", pykern::version());
  pykern::cli::add_compile_command(app);
  pykern::cli::add_bundle_command(app);
  pykern::cli::add_cache_command(app);
  pykern::cli::add_run_command(app);
  pykern::cli::add_devices_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  }
  // A build a signal interrupted (the command has said so): 130 for SIGINT, 143 for SIGTERM.
  if (int signal = pykern::sim::interrupted_by_signal()) return 128 + signal;
  return pykern::cli::exit_code();
}
