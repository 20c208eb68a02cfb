// The CPU simulator backend: the emitted CUDA C++ plus simulator entry points, built with the
// host C++ compiler into a shared library that lives in the kernel cache, loaded with dlopen,
// and run by the engine in this library (sim/engine.h) through the library's entry table.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/fastmath.h"
#include "cache/cache.h"
#include "pykern/launch.h"
#include "pykern/result.h"

namespace pykern::sim {

class Library;

struct BuildInfo {
  bool cache_hit = false;
  double compile_ms = 0;
};

struct BuildOptions {
  bool debug = false;        // PK_DEBUG: asserts and raise
  bool cxx_runtime = false;  // link libstdc++ (emit::uses_cxx_runtime); else only libc, libm, libgcc
  // A @jit function called on the host, built as Numba's CPU target builds it: for this
  // machine's CPU (-march=native, its features in the cache key: host_cpu_identity), indices
  // checked only with `boundscheck` (negative ones still wrap), `fastmath` as the g++ options its flags justify.
  // Otherwise the simulator's build of kernels: every index checked (Numba's simulator raises
  // IndexError) and no CPU tuning, so a bundle's copy of it runs on any x86-64 (or other) host.
  bool cpu_function = false;
  bool boundscheck = false;
  FastMath fastmath;
  // Once it says cancel, the host compiler is stopped and the build fails with ErrorKind::cancelled.
  // Not part of the cache key. Null: none.
  const CancelToken* cancel = nullptr;
};

// The host compiler's flags for a build with `options` (tests read them).
std::string build_flags(const BuildOptions& options);

// The kernel cache's key of the library built from `source` with `options` on a machine whose
// CPU is `cpu` (host_cpu_identity(); it counts only for cpu_function builds). The source counts
// through its digest, so a caller that kept only the digest finds the library too.
std::string library_key(const std::string& source, const BuildOptions& options, const std::string& cpu);
std::string source_digest(const std::string& source);

// The library built from the source with `digest`, loaded from `cache` when it holds it; null
// when it does not (never built, or removed since), so the caller builds it from its source.
Result<std::shared_ptr<Library>> load_cached_library(const std::string& digest, const BuildOptions& options,
                                                     cache::KernelCache* cache);

// `source` is the emitted CUDA C++ followed by emit_simulator_entries(). The compiler is
// $PYKERN_CXX, else c++, run without a shell. A SIGINT, SIGTERM or SIGHUP while it runs stops
// it and its children, removes the scratch folder and fails the build ("interrupted by
// SIGINT ..."); a handler the program installed for that signal is then called too. The
// library is loaded from its bytes (an anonymous memfd), never from its cache entry's file,
// which a `pykern cache clear` may remove at any moment.
Result<std::shared_ptr<Library>> build_library(const std::string& source, BuildOptions options,
                                               cache::KernelCache* cache, BuildInfo* info = nullptr);

// The shared library's bytes, built (or found in `cache`) without loading it: what a kernel
// bundle carries for the simulator.
Result<std::string> build_library_bytes(const std::string& source, BuildOptions options, cache::KernelCache* cache);

// Loads a library built by build_library_bytes, from its bytes.
Result<std::shared_ptr<Library>> load_library(const std::string& bytes);

// How the cache key names a host compiler command (`c++`, a path): the file it resolves to on
// $PATH, links followed, with its size and modification time; the command alone if not found.
std::string compiler_identity_of(const std::string& command);

// The signal that interrupted a build in this process (SIGINT, SIGTERM, SIGHUP), or 0: the
// pykern command exits with 128 + it, as a shell reports a command a signal stopped.
int interrupted_by_signal();

// For tests: called where a library's bytes are in hand (built or read from the cache), just
// before they are loaded; the place a racing `pykern cache clear` strikes. Empty: none.
void set_before_load_hook(std::function<void()> hook);

// Runs `symbol` over the grid; `args` point at each argument in the kernel ABI layout.
// `config` gives the grid, the block, the timeout, the dynamic shared memory, the progress
// callback and the cancel token. A failure (out of bounds, assert, deadlock, timeout) comes
// back as ErrorKind::launch, a cancel as ErrorKind::cancelled.
Status launch(const Library& library, const std::string& symbol, void* const* args, const Launch& config);

}  // namespace pykern::sim
