#include "sim/blas_library.h"

#include <dlfcn.h>

#include <cstdlib>

#include <fmt/format.h>

namespace pykern::sim {

namespace {

// Debian's packages that provide the libraries, for the message when none loads.
constexpr const char* install_hint =
    "install Debian's libopenblas0-pthread (or libblas3 and liblapack3), or set PYKERN_BLAS to the path of a "
    "BLAS/LAPACK library";

bool is_bare_name_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
         ch == '_' || ch == '-' || ch == '+';
}

// A part of PYKERN_BLAS: an absolute path (any printable characters) or a bare file name
// that the loader's search path resolves; never a relative path, which would depend on the
// working directory.
bool acceptable_library_name(const std::string& name) {
  if (name.empty() || name.size() > 1024) return false;
  for (char ch : name)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return false;
  if (name.front() == '/') return true;
  for (char ch : name)
    if (!is_bare_name_char(ch)) return false;
  return true;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : " + ") + name;
  return text;
}

// The handles of a candidate set, all loaded, or none (and why).
std::vector<void*> load_set(const std::vector<std::string>& names, std::string& why) {
  std::vector<void*> handles;
  for (const std::string& name : names) {
    void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* reason = dlerror();
      why = reason ? reason : name + ": cannot be loaded";
      for (void* h : handles) dlclose(h);
      return {};
    }
    handles.push_back(handle);
  }
  return handles;
}

struct Loaded {
  std::vector<void*> handles;
  std::string names;  // as the messages name them
  std::string error;  // why nothing loaded
};

Loaded load_first(const std::vector<std::vector<std::string>>& candidates) {
  Loaded loaded;
  std::string tried, last_reason;
  for (const auto& set : candidates) {
    std::string why;
    std::vector<void*> handles = load_set(set, why);
    if (!handles.empty()) {
      loaded.handles = std::move(handles);
      loaded.names = joined(set);
      return loaded;
    }
    tried += (tried.empty() ? "" : ", ") + joined(set);
    last_reason = why;
  }
  loaded.error = fmt::format("no BLAS/LAPACK library could be loaded (tried {}; {}): {}", tried, last_reason,
                             install_hint);
  return loaded;
}

void* look_up(const Loaded& loaded, const char* symbol, std::string& error) {
  if (loaded.handles.empty()) {
    error = loaded.error;
    return nullptr;
  }
  for (void* handle : loaded.handles)
    if (void* routine = dlsym(handle, symbol)) return routine;
  error = fmt::format("the BLAS/LAPACK library {} has no routine '{}': {}", loaded.names, symbol, install_hint);
  return nullptr;
}

}  // namespace

std::vector<std::vector<std::string>> blas_candidates(const char* named, std::string& error) {
  if (named == nullptr)
    return {{"libopenblas.so.0"}, {"libopenblas.so"}, {"libblas.so.3", "liblapack.so.3"}};
  std::string value(named);
  std::vector<std::string> parts;
  bool refused = value.empty() || value.size() > 4096;
  for (size_t start = 0; !refused && start <= value.size();) {
    size_t end = value.find(':', start);
    if (end == std::string::npos) end = value.size();
    std::string part = value.substr(start, end - start);
    if (!acceptable_library_name(part) || parts.size() == 8) refused = true;
    parts.push_back(std::move(part));
    start = end + 1;
  }
  if (refused) {
    error = fmt::format(
        "{} must name BLAS/LAPACK libraries: absolute paths or bare file names (such as libopenblas.so.0), "
        "joined by ':'",
        blas_environment_variable);
    return {};
  }
  return {parts};
}

void* blas_routine_from(const std::vector<std::vector<std::string>>& candidates, const char* symbol,
                        std::string& error) {
  return look_up(load_first(candidates), symbol, error);
}

void* blas_routine(const char* symbol, std::string& error) {
  // Loaded once: the handles stay for the process's life, as the routines may be running.
  static const Loaded loaded = [] {
    std::string refused;
    auto candidates = blas_candidates(std::getenv(blas_environment_variable), refused);
    if (candidates.empty()) return Loaded{{}, {}, refused};
    return load_first(candidates);
  }();
  return look_up(loaded, symbol, error);
}

}  // namespace pykern::sim
