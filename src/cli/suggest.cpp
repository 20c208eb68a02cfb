#include "cli/suggest.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

namespace pykern::cli {

namespace fs = std::filesystem;

namespace {

// The names in `folder` (the working directory for ""), at most a few thousand.
std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> names;
  std::error_code error;
  fs::directory_iterator it(folder.empty() ? fs::path(".") : folder, error), end;
  for (; !error && it != end && names.size() < 5000; it.increment(error)) names.push_back(it->path().filename().string());
  return names;
}

}  // namespace

Status check_input_file(const std::string& path) {
  std::error_code error;
  fs::file_status status = fs::status(path, error);
  if (fs::is_regular_file(status)) return ok_status();
  if (fs::is_directory(status))
    return Error::make(ErrorKind::invalid_argument, fmt::format("'{}' is a directory, not a kernel file", path));
  if (fs::exists(status))
    return Error::make(ErrorKind::invalid_argument, fmt::format("'{}' is not a regular file", path));
  fs::path given(path);
  fs::path folder = given.parent_path();
  std::string message = fmt::format("no file '{}'", path);
  if (!folder.empty() && !fs::is_directory(folder, error)) {
    message += fmt::format(": there is no folder '{}'", folder.string());
  } else {
    std::vector<std::string> nearest = similar_names(given.filename().string(), names_in(folder));
    for (std::string& name : nearest) name = (folder / name).string();
    if (!nearest.empty())
      message += nearest.size() == 1 ? fmt::format("; did you mean '{}'?", nearest[0])
                                     : fmt::format("; did you mean '{}' or '{}'?", nearest[0], nearest[1]);
  }
  return Error::make(ErrorKind::invalid_argument, message);
}

Status check_output_directory(const std::string& dir) {
  auto refuse = [&](const std::string& why) {
    return Error::make(ErrorKind::invalid_argument, fmt::format("--out '{}' {}", dir, why));
  };
  if (dir.empty()) return refuse("is empty: give a directory");
  std::error_code error;
  fs::path existing = fs::absolute(dir, error);
  if (error) return refuse("cannot be resolved: " + error.message());
  // The nearest part of the path that exists: the directory itself, or where it would be made.
  bool made_here = true;
  while (!fs::exists(fs::symlink_status(existing, error))) {
    made_here = false;
    if (!existing.has_parent_path() || existing.parent_path() == existing) return refuse("cannot be made");
    existing = existing.parent_path();
  }
  if (!fs::is_directory(existing, error)) {
    if (made_here) return refuse("is not a directory");
    return refuse(fmt::format("cannot be made: '{}' is not a directory", existing.string()));
  }
  if (::access(existing.c_str(), W_OK | X_OK) != 0) {
    if (made_here) return refuse("is not writable");
    return refuse(fmt::format("cannot be made: '{}' is not writable", existing.string()));
  }
  return ok_status();
}

}  // namespace pykern::cli
