// Shared by the unit tests of @jit functions called on the host (reductions, sorting, linear
// algebra, array expressions, shapes, advanced indexing): a module loaded from the test's
// Python source with a kernel cache of its own per process, and calls that must succeed or fail.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>
#include <utility>

#include <doctest/doctest.h>

#include "pykern/function.h"
#include "pykern/module.h"

namespace test {

inline pykern::Module load_host_module(const char* source, const char* file_name, const char* cache_tag) {
  pykern::ModuleOptions options;
  options.cache_dir = (std::filesystem::temp_directory_path() /
                       ("pykern-" + std::string(cache_tag) + "-" + std::to_string(::getpid())))
                          .string();
  auto module = pykern::Module::load_source(source, file_name, options);
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  return *module;
}

// What the call returns; the test stops when it fails.
template <class... A> pykern::Returned call(pykern::Module& module, const char* name, A&&... args) {
  auto returned = module.function(name)->call(std::forward<A>(args)...);
  REQUIRE_MESSAGE(returned.ok(), (returned.ok() ? std::string() : returned.error().describe()));
  return *returned;
}

// The message of the call's error (`described`: with its location and the source line); the
// test stops when the call succeeds.
template <class... A> std::string failure(pykern::Module& module, const char* name, A&&... args) {
  auto returned = module.function(name)->call(std::forward<A>(args)...);
  REQUIRE_FALSE(returned.ok());
  return returned.error().message;
}
template <class... A> std::string failure_described(pykern::Module& module, const char* name, A&&... args) {
  auto returned = module.function(name)->call(std::forward<A>(args)...);
  REQUIRE_FALSE(returned.ok());
  return returned.error().describe();
}

}  // namespace test
