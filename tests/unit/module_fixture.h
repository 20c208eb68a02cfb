// Shared by the unit tests that load Python source as a module (the embedded API, graphs, @jit
// functions on the host): a kernel cache of the test process's own, so that tests running side
// by side never share one; a module that loads or stops the test; an error's message.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "pykern/module.h"

namespace test {

// A cache folder under the system's temporary folder, named by the test's tag and this process.
inline pykern::ModuleOptions process_cache_options(const std::string& cache_tag) {
  pykern::ModuleOptions options;
  options.cache_dir =
      (std::filesystem::temp_directory_path() / ("pykern-" + cache_tag + "-" + std::to_string(::getpid()))).string();
  return options;
}

// The module of `source`, or the test stops with the diagnostics.
inline pykern::Module load_module(const std::string& source, const std::string& file_name, const std::string& cache_tag) {
  auto module = pykern::Module::load_source(source, file_name, process_cache_options(cache_tag));
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  return std::move(*module);
}

// An error's message, or "(ok)", for checks on what a refusal says.
inline std::string message_of(const pykern::Status& s) { return s.ok() ? std::string("(ok)") : s.error().message; }
template <class T> std::string message_of(const pykern::Result<T>& r) {
  return r.ok() ? std::string("(ok)") : r.error().message;
}

}  // namespace test
