// The pykern command: one subcommand per file (compile, run, bundle, cache, devices), each
// parsing its arguments with CLI11 and calling the public API; `cache` and `bundle` also reach
// the cache and the bundle writer, which the API does not expose.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

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

}  // namespace

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
    return checked_exit(app.exit(error));
  }
  // A build a signal interrupted (the command has said so): 130 for SIGINT, 143 for SIGTERM.
  if (int signal = pykern::sim::interrupted_by_signal()) return 128 + signal;
  return checked_exit(pykern::cli::exit_code());
}
