// Running the pykern binary from a test: a private scratch folder, and one CLI run's exit
// status and output.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "helpers.h"

namespace test {

// A fresh folder under $TMPDIR, removed with everything in it when the test ends.
struct Scratch {
  std::filesystem::path path;
  Scratch() {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("pykern-hostile-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~Scratch() {
    std::error_code error;
    std::filesystem::remove_all(path, error);
  }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return path / name;
  }
  std::string cache_env() const { return "PYKERN_CACHE_DIR=" + (path / "cache").string(); }
};

struct CliRun {
  int status = -1;     // the exit status; -1 when a signal ended it
  std::string output;  // stdout and stderr
};

// Runs the pykern binary with `arguments` (already quoted for the shell), `environment`
// prefixed, and `redirect` (e.g. "> /dev/full") in place of capturing stdout when given.
inline CliRun run_cli(const std::string& arguments, const std::string& environment = "",
                      const std::string& redirect = "") {
  static int counter = 0;
  std::filesystem::path log = std::filesystem::temp_directory_path() /
                              ("pykern-cli-log-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::string output = redirect.empty() ? "> " + log.string() + " 2>&1" : redirect + " 2> " + log.string();
  std::string command = environment + " " + PYKERN_BINARY + " " + arguments + " " + output;
  int status = run_shell(command, log);
  CliRun run;
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.output = read(log);
  std::filesystem::remove(log);
  return run;
}

}  // namespace test
