#include "sim/simulator.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "base/files.h"
#include "jit/runtime_headers.h"
#include "pykern/compiler.h"
#include "pykern/runtime.cuh"
#include "sim/engine.h"

namespace pykern::sim {

namespace fs = std::filesystem;

// A loaded simulator library: its kernels' entry points, wired to the engine's hooks.
class Library {
 public:
  Library(void* handle, const pk::sim::KernelInfo* kernels, int count)
      : handle_(handle), kernels_(kernels), count_(count) {}
  ~Library() {
    if (handle_) dlclose(handle_);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  const pk::sim::KernelInfo* find(const std::string& symbol) const {
    for (int i = 0; i < count_; ++i)
      if (kernels_[i].symbol && symbol == kernels_[i].symbol) return &kernels_[i];
    return nullptr;
  }

 private:
  void* handle_;
  const pk::sim::KernelInfo* kernels_;
  int count_;
};

namespace {

std::string compiler() {
  const char* chosen = std::getenv("PYKERN_CXX");
  return chosen && *chosen ? chosen : "c++";
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The program a command name runs: itself when it names a path, else the first match on $PATH.
fs::path find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;  // an empty entry is the working directory
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

// The compiler's identity, part of the cache key: a new compiler rebuilds the libraries. Its
// resolved file with size and mtime, as ccache's default check: running `c++ --version`
// instead would cost every process a fork and two execs, more than a cache-hit `pykern run`.
const std::string& compiler_identity() {
  static const std::string identity = compiler_identity_of(compiler());
  return identity;
}

std::string flags(bool debug) {
  // -fwrapv: integers wrap as in Numba (LLVM adds without nsw), never undefined behaviour.
  // -O3, as Numba optimises: it halves monte_carlo_pi's time (bench_cpu_functions) against -O2,
  // for 5-10 % more build time.
  return std::string("-std=c++17 -O3 -fwrapv -fPIC -fvisibility=hidden -DPK_BOUNDSCHECK=1") + (debug ? " -DPK_DEBUG=1" : "");
}

// How a library links: -nodefaultlibs and the C, math and GCC support libraries, unless it
// needs the C++ runtime; libstdc++'s symbol table is a third of a small library's link time.
// --no-undefined makes a missing library a build error, not a dlopen failure later.
std::string link_flags(const BuildOptions& options) {
  return options.cxx_runtime ? "-shared -Wl,--no-undefined"
                             : "-shared -nodefaultlibs -Wl,--no-undefined -lm -lc -lgcc";
}

// Runs a shell command line whose output goes to `log`; its exit status.
int run_logged(const std::string& command, const fs::path& log) {
  return std::system((command + " > " + quoted(log.string()) + " 2>&1").c_str());
}

Result<std::shared_ptr<Library>> open_library(const fs::path& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr)
    return Error::make(ErrorKind::internal, std::string("cannot load the simulator library: ") + dlerror());
  using SetHooks = void (*)(const void*);
  auto set_hooks = reinterpret_cast<SetHooks>(dlsym(handle, "pk_sim_set_hooks"));
  auto kernels = static_cast<const pk::sim::KernelInfo*>(dlsym(handle, "pk_sim_kernels"));
  auto count = static_cast<const int*>(dlsym(handle, "pk_sim_kernel_count"));
  if (!set_hooks || !kernels || !count) {
    dlclose(handle);
    return Error::make(ErrorKind::internal, "the simulator library lacks its entry points (a stale cache entry?)");
  }
  set_hooks(engine_hooks());
  return std::make_shared<Library>(handle, kernels, *count);
}

// A private scratch directory (mkdtemp: a fresh name, mode 0700), removed with its contents.
// Nothing is written to a predictable name in a shared folder, where a planted link could
// redirect the write or swap what is loaded.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "pykern-sim-XXXXXX").string();
    if (::mkdtemp(pattern.data())) path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code error;
    if (!path_.empty()) fs::remove_all(path_, error);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  bool ok() const { return !path_.empty(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

Error no_scratch() {
  return Error::make(ErrorKind::internal, "cannot make a scratch directory in " + fs::temp_directory_path().string() +
                                              " for the simulator build: " + std::strerror(errno));
}

// The runtime core (pykern/core.cuh), precompiled for these flags by this compiler: a build
// that finds it skips parsing the headers, a fifth of its time (BENCHMARKS.md, issue 14). It
// is made once, into the kernel cache beside the libraries, from the headers in `include`;
// without a cache, or if the compiler will not make it, builds parse the headers as before.
std::optional<fs::path> precompiled_core(jit::KernelCache* cache, bool debug, const fs::path& include) {
  if (cache == nullptr || !cache->enabled()) return std::nullopt;
  std::string key = jit::cache_key({"simulator-pch", version(), jit::runtime_headers_hash(), compiler_identity(),
                                    flags(debug)});
  if (auto entry = cache->load(key)) return cache->binary_file(*entry);
  fs::path made = include.parent_path() / "core.gch";
  std::string command = fmt::format("{} {} -I {} -x c++-header {} -o {}", quoted(compiler()), flags(debug),
                                    quoted(include.string()), quoted((include / "pykern" / "core.cuh").string()),
                                    quoted(made.string()));
  if (run_logged(command, include.parent_path() / "pch.log") != 0) return std::nullopt;
  auto bytes = files::read_regular(made.string());
  if (!bytes.ok() || bytes->empty()) return std::nullopt;
  jit::CacheEntry entry;
  entry.key = key;
  entry.binary = std::move(*bytes);
  entry.cuda_source = "// pykern/core.cuh, precompiled with: " + flags(debug) + "\n";
  entry.record = {{"output", "gch"}, {"backend", "cpu"}, {"compiler", compiler_identity()},
                  {"options", flags(debug)}, {"pykern_version", version()}};
  // Where the entry is published (by this process or one that raced it); were it missing, GCC
  // would find no precompiled header and parse the headers, so it is not read back.
  if (!cache->store(entry).ok()) return std::nullopt;
  return cache->binary_file(entry);
}

// Compiles `source` in a scratch directory; returns the library's bytes.
Result<std::string> compile(const std::string& source, const BuildOptions& options, jit::KernelCache* cache) {
  bool debug = options.debug;
  ScratchDir scratch;
  if (!scratch.ok()) return no_scratch();
  const fs::path& dir = scratch.path();
  std::error_code error;
  fs::create_directories(dir / "include" / "pykern", error);
  for (const jit::RuntimeHeader& header : jit::runtime_headers())
    std::ofstream(dir / "include" / header.name, std::ios::binary) << header.text;
  // GCC takes pykern/core.cuh.gch for the source's first #include when it is valid for the
  // flags, and parses core.cuh when it is not.
  if (auto pch = precompiled_core(cache, debug, dir / "include"))
    fs::create_symlink(*pch, dir / "include" / "pykern" / "core.cuh.gch", error);
  std::ofstream(dir / "kernels.cpp", std::ios::binary) << source;
  std::string command = fmt::format("{} {} -pipe -I {} {} -o {} {}", quoted(compiler()), flags(debug),
                                    quoted((dir / "include").string()), quoted((dir / "kernels.cpp").string()),
                                    quoted((dir / "kernels.so").string()), link_flags(options));
  int status = run_logged(command, dir / "log");
  auto library = files::read_regular((dir / "kernels.so").string());
  if (status != 0 || !library.ok() || library->empty()) {
    auto log = files::read_regular((dir / "log").string());
    Error failure = Error::make(ErrorKind::internal,
                                "internal error: the host compiler rejected the simulator build of the generated "
                                "code; this is a pykern bug, please report it with the log below",
                                log.ok() ? *log : std::string());
    failure.options = command;
    return failure;
  }
  return std::move(*library);
}

// Loads a library that is not cached from a private scratch directory of its own.
Result<std::shared_ptr<Library>> open_uncached(const std::string& bytes) {
  ScratchDir scratch;
  if (!scratch.ok()) return no_scratch();
  fs::path path = scratch.path() / "kernels.so";
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return no_scratch();
  bool written = files::write_all(fd, bytes);
  if (::close(fd) != 0 || !written)
    return Error::make(ErrorKind::internal, "cannot write the simulator library to " + path.string());
  return open_library(path);  // dlopen maps it: removing the directory afterwards is safe
}

}  // namespace

std::string compiler_identity_of(const std::string& command) {
  std::string text = command;
  std::error_code error;
  fs::path program = fs::canonical(find_program(command), error);
  struct stat info {};
  if (!error && ::stat(program.c_str(), &info) == 0)
    text += fmt::format(" {} {} {}.{:09}", program.string(), static_cast<long long>(info.st_size),
                        static_cast<long long>(info.st_mtim.tv_sec), static_cast<long>(info.st_mtim.tv_nsec));
  return text;
}

namespace {
std::string library_key(const std::string& source, const BuildOptions& options) {
  return jit::cache_key({"simulator", version(), jit::runtime_headers_hash(), source, compiler_identity(),
                         flags(options.debug), link_flags(options)});
}

// Builds the library and stores it in `cache` (when there is one): the bytes, and the stored
// entry when storing worked.
Result<std::string> build_and_store(const std::string& source, const BuildOptions& options, jit::KernelCache* cache,
                                    BuildInfo* info, std::optional<jit::CacheEntry>* stored) {
  auto started = std::chrono::steady_clock::now();
  auto bytes = compile(source, options, cache);
  if (!bytes.ok()) return bytes.error();
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  if (info) info->compile_ms = ms;
  if (cache) {
    jit::CacheEntry entry;
    entry.key = library_key(source, options);
    entry.binary = *bytes;
    entry.cuda_source = source;
    entry.record = {{"output", "so"}, {"backend", "cpu"}, {"compiler", compiler_identity()},
                    {"options", flags(options.debug) + " " + link_flags(options)}, {"compile_ms", ms},
                    {"pykern_version", version()}};
    if (cache->store(entry).ok() && stored) *stored = cache->load(entry.key);
  }
  return bytes;
}
}  // namespace

Result<std::shared_ptr<Library>> build_library(const std::string& source, BuildOptions options,
                                               jit::KernelCache* cache, BuildInfo* info) {
  if (cache && !cache->enabled()) cache = nullptr;
  if (cache) {
    if (auto entry = cache->load(library_key(source, options))) {
      if (info) info->cache_hit = true;
      return open_library(cache->binary_file(*entry));
    }
  }
  std::optional<jit::CacheEntry> stored;
  auto bytes = build_and_store(source, options, cache, info, &stored);
  if (!bytes.ok()) return bytes.error();
  if (stored) return open_library(cache->binary_file(*stored));
  return open_uncached(*bytes);
}

Result<std::string> build_library_bytes(const std::string& source, BuildOptions options, jit::KernelCache* cache) {
  if (cache && !cache->enabled()) cache = nullptr;
  if (cache) {
    if (auto entry = cache->load(library_key(source, options))) return entry->binary;
  }
  return build_and_store(source, options, cache, nullptr, nullptr);
}

Result<std::shared_ptr<Library>> load_library(const std::string& bytes) { return open_uncached(bytes); }

Status launch(const Library& library, const std::string& symbol, std::array<uint32_t, 3> grid,
              std::array<uint32_t, 3> block, void* const* args, double timeout_seconds, uint64_t shared_bytes) {
  const pk::sim::KernelInfo* kernel = library.find(symbol);
  if (kernel == nullptr) return Error::make(ErrorKind::internal, "the simulator library has no kernel " + symbol);
  GridLaunch launch;
  launch.entry = kernel->entry;
  launch.cooperative = kernel->cooperative;
  launch.syncs_grid = kernel->syncs_grid;
  launch.local_bytes = kernel->local_bytes;
  launch.grid = grid;
  launch.block = block;
  launch.args = args;
  launch.timeout_seconds = timeout_seconds;
  launch.dynamic_shared_bytes = shared_bytes;
  return run_grid(launch);
}

}  // namespace pykern::sim
