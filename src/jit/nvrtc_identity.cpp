#include "jit/nvrtc_identity.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include <fmt/format.h>

#include "jit/nvrtc.h"

namespace pykern::jit {

namespace {

// "dev ino size mtime" of what `path` names (following links, as the loader does), or "-".
std::string file_identity(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return "-";
  return fmt::format("{} {} {} {}.{}", static_cast<uint64_t>(status.st_dev), static_cast<uint64_t>(status.st_ino),
                     static_cast<int64_t>(status.st_size), static_cast<int64_t>(status.st_mtim.tv_sec),
                     static_cast<int64_t>(status.st_mtim.tv_nsec));
}

std::string variable(const char* name) {
  const char* value = std::getenv(name);
  return value ? fmt::format("set:{}", value) : "unset";
}

}  // namespace

std::string nvrtc_search_context() {
  std::string context = "PYKERN_NVRTC=" + variable("PYKERN_NVRTC") + "\n";
  context += "LD_LIBRARY_PATH=" + variable("LD_LIBRARY_PATH") + "\n";
  if (const char* folders = std::getenv("LD_LIBRARY_PATH")) {
    std::stringstream list(folders);
    for (std::string folder; std::getline(list, folder, ':');)
      if (!folder.empty()) context += folder + " " + file_identity(folder) + "\n";
  }
  context += "ld.so.cache " + file_identity("/etc/ld.so.cache") + "\n";
  context += "exe " + file_identity("/proc/self/exe") + "\n";
  context += "toolkit " + file_identity("/usr/local/cuda/lib64") + "\n";
  return context;
}

Result<std::string> loaded_nvrtc_memo() {
  auto version = nvrtc_version();
  if (!version.ok()) return version.error();
  auto path = nvrtc_library_path();
  if (!path.ok()) return path.error();
  std::string identity = file_identity(*path);
  if (identity == "-") return Error::make(ErrorKind::nvrtc, "NVRTC's file cannot be examined: " + *path);
  return fmt::format("{}\n{}\n{}\n", *version, identity, *path);
}

std::optional<std::string> nvrtc_version_from_memo(const std::string& memo) {
  std::stringstream lines(memo);
  std::string version, identity, path, rest;
  if (!std::getline(lines, version) || !std::getline(lines, identity) || !std::getline(lines, path)) return std::nullopt;
  if (std::getline(lines, rest) || version.empty() || version.size() > 16 || path.empty()) return std::nullopt;
  if (version.find_first_not_of("0123456789.") != std::string::npos) return std::nullopt;
  if (identity == "-" || file_identity(path) != identity) return std::nullopt;
  return version;
}

}  // namespace pykern::jit
