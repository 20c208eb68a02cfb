// The decorated functions a kernel file defines at top level, found by reading its lines (the
// CLI sits above the front end and does not parse): the names `pykern run` and `compile
// --kernel` may have meant, for "did you mean", and which are device functions (which only
// kernels call) rather than @jit functions (which the host calls). The front end gives the two
// one role, so this is where the CLI tells them apart.
#pragma once
#include <string>
#include <vector>

namespace pykern::cli {

struct FileFunction {
  std::string name;
  bool device_function = false;  // its decorator says device=True: callable from kernels only
};

// Empty when the file cannot be read (the command reports that itself).
std::vector<FileFunction> decorated_functions(const std::string& path);
std::vector<std::string> names_of(const std::vector<FileFunction>& functions);

}  // namespace pykern::cli
