#include "sim/simulator.h"
#include "pykern/version.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "base/files.h"
#include "base/profile_range.h"
#include "embed/runtime_headers.h"
#include "pykern/compiler.h"
#include "pykern/runtime.cuh"
#include "sim/engine.h"
#include "sim/host_cpu.h"

namespace pykern::sim {

namespace fs = std::filesystem;

namespace {

// Gives back the memfd a library was loaded from, once the library is unloaded. glibc knows a
// loaded library by its name, /proc/self/fd/N: were N closed while the library stays loaded
// (dlclose may keep it), the next library opened through a memfd numbered N would be taken for
// it. So a memfd whose library is still loaded is kept, its number never reused.
void release_backing(int fd) {
  if (fd < 0) return;
  std::string name = "/proc/self/fd/" + std::to_string(fd);
  if (void* still_loaded = dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD)) {
    dlclose(still_loaded);
    return;
  }
  ::close(fd);
}

}  // namespace

// A loaded simulator library: its kernels' entry points, wired to the engine's hooks.
class Library {
 public:
  Library(void* handle, const pk::sim::KernelInfo* kernels, int count, int backing_fd)
      : handle_(handle), kernels_(kernels), count_(count), backing_fd_(backing_fd) {}
  ~Library() {
    if (handle_) dlclose(handle_);
    release_backing(backing_fd_);
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
  int backing_fd_;  // the memfd it was loaded from, or -1
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

// Numba's fastmath flags (LLVM's) as the g++ options they justify. A flag only permits, so where
// g++ has no option for one flag alone (nnan without ninf) nothing is added: never more than asked.
std::string fastmath_flags(const FastMath& fastmath) {
  using F = FastMathFlag;
  if (fastmath.bits & uint8_t(F::fast)) return " -ffast-math";
  // a * b + c rounds twice, as LLVM gives Numba without `contract`: g++ would fuse it into one
  // FMA (C++ contracts by default) wherever -march=native offers FMA.
  std::string text = fastmath.has(F::contract) ? " -ffp-contract=fast" : " -ffp-contract=off";
  if (fastmath.has(F::nnan) && fastmath.has(F::ninf)) text += " -ffinite-math-only";
  if (fastmath.has(F::nsz)) text += " -fno-signed-zeros";
  if (fastmath.has(F::arcp)) text += " -freciprocal-math";
  // g++ reassociates only without signed zeros and traps, which reassoc alone does not allow.
  if (fastmath.has(F::reassoc) && fastmath.has(F::nsz)) text += " -fassociative-math -fno-trapping-math";
  return text;  // afn: glibc's functions are called either way (-fno-math-errno below)
}

std::string flags(const BuildOptions& options) {
  // -fwrapv: integers wrap as in Numba (LLVM adds without nsw), never undefined behaviour.
  // -O3, as Numba optimises: it halves monte_carlo_pi's time (bench_cpu_functions) against -O2,
  // for 5-10 % more build time.
  std::string text = "-std=c++17 -O3 -fwrapv -fPIC -fvisibility=hidden";
  if (!options.cpu_function || options.boundscheck) text += " -DPK_BOUNDSCHECK=1";
  // As Numba compiles for the host CPU (LLVM's host target and features): AVX2 or AVX-512
  // vector loops where the machine has them (BENCHMARKS.md, issue 32).
  // No loop ticks: a host call takes no timeout, and a loop that may call the engine is never
  // vectorised.
  if (options.cpu_function) text += " -march=native -DPK_NO_LOOP_TICKS=1";
  if (options.cpu_function) text += fastmath_flags(options.fastmath);
  // Numba's math functions never set errno (LLVM's intrinsics): without errno, g++ inlines
  // sqrt as one instruction, where it would test the operand and call libm for a negative.
  if (options.cpu_function) text += " -fno-math-errno";
  return text + (options.debug ? " -DPK_DEBUG=1" : "");
}

// How a library links: -nodefaultlibs and the C, math and GCC support libraries, unless it
// needs the C++ runtime; libstdc++'s symbol table is a third of a small library's link time.
// --no-undefined makes a missing library a build error, not a dlopen failure later.
std::string link_flags(const BuildOptions& options) {
  return options.cxx_runtime ? "-shared -Wl,--no-undefined"
                             : "-shared -nodefaultlibs -Wl,--no-undefined -lm -lc -lgcc";
}

// The words of a flag list (no flag holds a space).
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream stream(text);
  for (std::string word; stream >> word;) out.push_back(word);
  return out;
}

// The compiler's argv: $PYKERN_CXX, the flags for `options`, then `arguments`, then the link
// flags when `link` (none for a precompiled header).
std::vector<std::string> compiler_command(const BuildOptions& options, std::initializer_list<std::string> arguments,
                                          bool link = false) {
  std::vector<std::string> command = {compiler()};
  for (std::string& flag : words(flags(options))) command.push_back(std::move(flag));
  command.insert(command.end(), arguments);
  if (link)
    for (std::string& flag : words(link_flags(options))) command.push_back(std::move(flag));
  return command;
}

// A command as a shell would take it, for error reports.
std::string shown(const std::vector<std::string>& argv) {
  std::string text;
  for (const std::string& arg : argv) {
    bool plain = arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=+./,:") ==
                 std::string::npos;
    text += (text.empty() ? "" : " ") + (plain && !arg.empty() ? arg : quoted(arg));
  }
  return text;
}

// SIGINT, SIGTERM and SIGHUP while the host compiler runs. They are caught (unless ignored:
// nohup's choice stands) from the start of a build to its end, so that the compiler is stopped,
// the scratch folder removed and the build fails with an error saying so; then the previous
// dispositions come back, and a handler the program had installed is given the signal too. A
// signal caught too late to fail a build (it had just succeeded) is raised again as it came.
// Builds on several threads share one installation.
namespace interrupts {

constexpr int watched[] = {SIGINT, SIGTERM, SIGHUP};
std::atomic<int> caught{0};  // the signal that stops the builds under way, or 0
std::atomic<int> last{0};    // the signal that stopped a build, for the CLI's exit status
std::atomic<bool> reported{false};  // whether `caught` failed a build (else it is raised again)
std::mutex mutex;
int guards = 0;
struct sigaction previous[std::size(watched)];
bool installed[std::size(watched)];

void on_signal(int signal) { caught.store(signal); }

bool is_handler(const struct sigaction& action) {
  if (action.sa_flags & SA_SIGINFO) return action.sa_sigaction != nullptr;
  return action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN;
}

}  // namespace interrupts

class InterruptGuard {
 public:
  InterruptGuard() {
    std::lock_guard<std::mutex> lock(interrupts::mutex);
    if (interrupts::guards++ > 0) return;
    interrupts::caught = 0;
    interrupts::reported = false;
    for (size_t i = 0; i < std::size(interrupts::watched); ++i) {
      struct sigaction current {};
      ::sigaction(interrupts::watched[i], nullptr, &current);
      interrupts::installed[i] = !(!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN);
      if (!interrupts::installed[i]) continue;
      struct sigaction ours {};
      ours.sa_handler = interrupts::on_signal;
      sigemptyset(&ours.sa_mask);
      ::sigaction(interrupts::watched[i], &ours, &interrupts::previous[i]);
    }
  }
  ~InterruptGuard() {
    int again = 0;  // raised once the lock is given back: a handler may do anything
    {
      std::lock_guard<std::mutex> lock(interrupts::mutex);
      if (--interrupts::guards > 0) return;
      int signal = interrupts::caught;
      for (size_t i = 0; i < std::size(interrupts::watched); ++i) {
        if (!interrupts::installed[i]) continue;
        ::sigaction(interrupts::watched[i], &interrupts::previous[i], nullptr);
        if (signal == interrupts::watched[i] && (!interrupts::reported || interrupts::is_handler(interrupts::previous[i])))
          again = signal;
      }
    }
    if (again) ::raise(again);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  static int caught() { return interrupts::caught; }
};

const char* signal_name(int signal) {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : signal == SIGHUP ? "SIGHUP" : "a signal";
}

Error interrupted(int signal) {
  interrupts::last = signal;
  interrupts::reported = true;
  // ErrorKind::launch: the build is the first step of a simulator launch.
  return Error::make(ErrorKind::launch, fmt::format("interrupted by {} while the host compiler built the simulator "
                                                    "library; nothing was cached",
                                                    signal_name(signal)));
}

Error build_cancelled() {
  return Error::make(ErrorKind::cancelled, "cancelled while the host compiler built the simulator library; the "
                                           "compiler was stopped and nothing was cached");
}

// Reaps `child` if it has ended: true with its wait status (-1 when another part of the program
// reaped it first, say with SIGCHLD ignored; the build's output then decides).
bool reaped(pid_t child, int* status) {
  for (;;) {
    pid_t done = ::waitpid(child, status, WNOHANG);
    if (done == child) return true;
    if (done == 0) return false;
    if (errno == EINTR) continue;
    *status = -1;
    return true;
  }
}

// Stops the compiler and everything it started (its process group): the signal we caught,
// then SIGKILL for what is still running two seconds later.
void stop(pid_t child, int signal) {
  int status = 0;
  ::kill(-child, signal);
  for (int waited_ms = 0; waited_ms < 2000; waited_ms += 5) {
    if (reaped(child, &status)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(-child, SIGKILL);
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
}

// Runs the compiler `argv` (no shell: nothing in a path is interpreted), its output to `log`,
// its input empty, in a process group of its own so that it can be stopped whole; returns its
// wait status. Waits by polling, every millisecond at first and every 4 ms later, so that a
// caught signal or a cancel request (`cancel`, may be null) stops it at once whichever thread
// the signal came to.
Result<int> run_compiler(const std::vector<std::string>& argv, const fs::path& log, const CancelToken* cancel = nullptr) {
  if (int signal = InterruptGuard::caught()) return interrupted(signal);
  if (cancel && cancel->cancel_requested()) return build_cancelled();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&defaults, signal);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  std::vector<char*> pointers;
  for (const std::string& arg : argv) pointers.push_back(const_cast<char*>(arg.c_str()));
  pointers.push_back(nullptr);
  pid_t child = 0;
  int failed = ::posix_spawnp(&child, pointers[0], &actions, &attributes, pointers.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (failed != 0)
    return Error::make(ErrorKind::io, fmt::format("cannot run the host compiler '{}' for the simulator build: {} "
                                                  "(PYKERN_CXX names a C++17 compiler; the default is c++ on PATH); a "
                                                  "bundle made by `pykern bundle` holds the simulator's build and needs "
                                                  "no compiler at run time",
                                                  argv[0], std::strerror(failed)));
  int status = 0;
  for (int pause_us = 1000; !reaped(child, &status); pause_us = std::min(pause_us * 2, 4000)) {
    if (int signal = InterruptGuard::caught()) {
      stop(child, signal);
      return interrupted(signal);
    }
    if (cancel && cancel->cancel_requested()) {
      stop(child, SIGTERM);
      return build_cancelled();
    }
    std::this_thread::sleep_for(std::chrono::microseconds(pause_us));
  }
  return status;
}

// Called where a built or cached library's bytes are in hand, just before they are loaded.
std::function<void()>& before_load_hook() {
  static std::function<void()> hook;
  return hook;
}

Result<std::shared_ptr<Library>> open_library(const std::string& path, int backing_fd) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::string why = dlerror();
    release_backing(backing_fd);
    return Error::make(ErrorKind::internal, "cannot load the simulator library: " + why);
  }
  using SetHooks = void (*)(const void*);
  auto set_hooks = reinterpret_cast<SetHooks>(dlsym(handle, "pk_sim_set_hooks"));
  auto kernels = static_cast<const pk::sim::KernelInfo*>(dlsym(handle, "pk_sim_kernels"));
  auto count = static_cast<const int*>(dlsym(handle, "pk_sim_kernel_count"));
  if (!set_hooks || !kernels || !count) {
    dlclose(handle);
    release_backing(backing_fd);
    return Error::make(ErrorKind::internal, "the simulator library lacks its entry points (a stale cache entry?)");
  }
  set_hooks(engine_hooks());
  return std::make_shared<Library>(handle, kernels, *count, backing_fd);
}

// A private scratch directory (mkdtemp: a fresh name, mode 0700), removed with its contents.
// Nothing is written to a predictable name in a shared folder, where a planted link could
// redirect the write or swap what is loaded.
class ScratchDir {
 public:
  ScratchDir() {
    auto root = files::temp_root();
    if (!root.ok()) {
      error_ = root.error();
      return;
    }
    std::string pattern = (fs::path(*root) / "pykern-sim-XXXXXX").string();
    if (::mkdtemp(pattern.data())) {
      path_ = pattern;
      return;
    }
    error_ = Error::make(ErrorKind::io, fmt::format("cannot make a scratch folder in {} for the simulator build: {}",
                                                    *root, std::strerror(errno)));
  }
  ~ScratchDir() {
    std::error_code error;
    if (!path_.empty()) fs::remove_all(path_, error);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  bool ok() const { return !path_.empty(); }
  const fs::path& path() const { return path_; }
  const Error& error() const { return error_; }  // why there is none

 private:
  fs::path path_;
  Error error_;
};

// The runtime core (pykern/core.cuh), precompiled for these flags by this compiler: a build
// that finds it skips parsing the headers, a fifth of its time (BENCHMARKS.md, issue 14). It
// is made once, into the kernel cache beside the libraries, from the headers in `include`;
// without a cache, or if the compiler will not make it, builds parse the headers as before.
// The compiler reads it from the cache where it lies (it is large); a `cache clear` that
// removes it first only makes that build parse the headers.
//
// The first build of a cache makes none: a cache that serves one build gains nothing from it,
// and that build (the first call of a program with an empty cache) would wait for the core
// (0.45 s here) before its own build with it (0.27 s), where parsing the headers takes
// 0.3-0.45 s in all. It leaves a note instead; a later build that finds the note and no core
// makes the core beside its own build, which parses the headers, and so waits for the longer
// of the two, not for both in turn (BENCHMARKS.md, issue 32).
std::string core_key(const BuildOptions& options) {
  return cache::cache_key({"simulator-pch", version(), embed::runtime_headers_hash(), compiler_identity(),
                           flags(options), options.cpu_function ? host_cpu_identity() : ""});
}

// The precompiled core the cache holds for these flags, if any.
std::optional<fs::path> cached_core(cache::KernelCache* cache, const BuildOptions& options) {
  if (cache == nullptr || !cache->enabled()) return std::nullopt;
  if (auto entry = cache->load(core_key(options))) return cache->binary_file(*entry);
  return std::nullopt;
}

// Precompiles the core from the headers in `include` into the cache (the file is written
// beside `include`, where no build looks for it).
std::optional<fs::path> make_core(cache::KernelCache* cache, const BuildOptions& options, const fs::path& include) {
  if (cache == nullptr || !cache->enabled()) return std::nullopt;
  std::string key = core_key(options);
  fs::path made = include.parent_path() / "core.gch";
  auto command = compiler_command(options, {"-I", include.string(), "-x", "c++-header",
                                          (include / "pykern" / "core.cuh").string(), "-o", made.string()});
  auto status = run_compiler(command, include.parent_path() / "pch.log", options.cancel);
  if (!status.ok() || *status != 0) return std::nullopt;
  auto bytes = files::read_regular(made.string());
  if (!bytes.ok() || bytes->empty()) return std::nullopt;
  cache::CacheEntry entry;
  entry.key = key;
  entry.binary = std::move(*bytes);
  entry.cuda_source = "// pykern/core.cuh, precompiled with: " + flags(options) + "\n";
  entry.record = {{"output", "gch"}, {"backend", "cpu"}, {"compiler", compiler_identity()},
                  {"options", flags(options)}, {"pykern_version", version()}};
  if (options.cpu_function) entry.record["host_cpu"] = host_cpu_identity();
  // Where the entry is published (by this process or one that raced it); were it missing, GCC
  // would find no precompiled header and parse the headers, so it is not read back.
  if (!cache->store(entry).ok()) return std::nullopt;
  return cache->binary_file(entry);
}

// Whether the compiler builds a trivial shared library with the simulator's flags: if it
// cannot, a failed build is the compiler's setup (PYKERN_CXX), not pykern's generated code.
bool compiler_builds_libraries(const fs::path& dir, const BuildOptions& options) {
  fs::path probe = dir / "probe.cpp";
  std::ofstream(probe, std::ios::binary) << "extern \"C\" int pk_probe(int x) { return x + 1; }\n";
  auto status = run_compiler(compiler_command(options, {probe.string(), "-o", (dir / "probe.so").string()}, true),
                             dir / "probe.log");
  return status.ok() && *status == 0 && fs::exists(dir / "probe.so");
}

// Why the compiler's run failed, as the user should read it.
Error compiler_failed(int status, const std::vector<std::string>& command, const fs::path& log_file,
                      const BuildOptions& options) {
  auto log = files::read_regular(log_file.string());
  ErrorKind kind = ErrorKind::internal;
  std::string message;
  if (WIFSIGNALED(status)) {
    message = fmt::format("the host compiler was killed by signal {} ({}) during the simulator build",
                          WTERMSIG(status), strsignal(WTERMSIG(status)));
  } else if (!compiler_builds_libraries(log_file.parent_path(), options)) {
    kind = ErrorKind::invalid_argument;
    message = fmt::format("the host compiler '{}' cannot build a C++17 shared library, so the simulator cannot run "
                          "kernels; set PYKERN_CXX to a C++17 compiler such as g++ or clang++ (its log is below)",
                          compiler());
  } else {
    message = "internal error: the host compiler rejected the simulator build of the generated code; this is a "
              "pykern bug, please report it with the log below";
  }
  Error failure = Error::make(kind, message, log.ok() ? *log : std::string());
  failure.options = shown(command);
  return failure;
}

// Compiles `source` in a scratch directory; returns the library's bytes. A SIGINT, SIGTERM or
// SIGHUP meanwhile stops the compiler and fails the build (interrupts, above).
Result<std::string> compile(const std::string& source, const BuildOptions& options, cache::KernelCache* cache) {
  InterruptGuard guard;  // made first, so the scratch directory is gone before signals are restored
  ScratchDir scratch;
  if (!scratch.ok()) return scratch.error();
  const fs::path& dir = scratch.path();
  std::error_code error;
  fs::create_directories(dir / "include" / "pykern", error);
  for (const embed::RuntimeHeader& header : embed::runtime_headers())
    std::ofstream(dir / "include" / header.name, std::ios::binary) << header.text;
  // GCC takes pykern/core.cuh.gch for the source's first #include when it is valid for the
  // flags, and parses core.cuh when it is not. Without one, a cache's first build leaves a
  // note and the next makes it meanwhile (core_key); the future is joined before the scratch
  // directory goes (declared after it).
  std::future<std::optional<fs::path>> making_core;
  if (auto pch = cached_core(cache, options)) {
    fs::create_symlink(*pch, dir / "include" / "pykern" / "core.cuh.gch", error);
  } else if (cache != nullptr && cache->enabled()) {
    std::string built_before = cache::cache_key({"simulator-built", core_key(options)});
    if (cache->note_lookup(built_before))
      making_core = std::async(std::launch::async, make_core, cache, std::cref(options), dir / "include");
    else
      cache->note_store(built_before, "a build without the precompiled core; the next one makes it\n");
  }
  std::ofstream(dir / "kernels.cpp", std::ios::binary) << source;
  auto command = compiler_command(options, {"-pipe", "-I", (dir / "include").string(), (dir / "kernels.cpp").string(),
                                            "-o", (dir / "kernels.so").string()},
                                  true);
  auto status = [&] {
    ProfileRange range("pykern: build for the simulator");
    return run_compiler(command, dir / "log", options.cancel);
  }();
  if (!status.ok()) return status.error();
  auto library = files::read_regular((dir / "kernels.so").string());
  if (*status != 0 || !library.ok() || library->empty()) return compiler_failed(*status, command, dir / "log", options);
  if (int signal = InterruptGuard::caught()) return interrupted(signal);  // came as the compiler ended
  return std::move(*library);
}

// Loads a library from a private scratch directory of its own, where memfds are not to be had.
Result<std::shared_ptr<Library>> open_via_scratch(const std::string& bytes) {
  ScratchDir scratch;
  if (!scratch.ok()) return scratch.error();
  fs::path path = scratch.path() / "kernels.so";
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return Error::make(ErrorKind::io, "cannot write the simulator library to " + path.string());
  bool written = files::write_all(fd, bytes);
  if (::close(fd) != 0 || !written)
    return Error::make(ErrorKind::internal, "cannot write the simulator library to " + path.string());
  return open_library(path, -1);  // dlopen maps it: removing the directory afterwards is safe
}

// Loads a library from its bytes, already in memory (built, bundled, or read and verified from
// the cache), through an anonymous memfd: what runs is what was checked, and a `cache clear`
// or prune that removes the entry meanwhile cannot fail the load.
Result<std::shared_ptr<Library>> open_bytes(const std::string& bytes) {
  if (before_load_hook()) before_load_hook()();
  int fd = ::memfd_create("pykern-sim", MFD_CLOEXEC);
  if (fd >= 0) {
    std::string name = "/proc/self/fd/" + std::to_string(fd);
    if (files::write_all(fd, bytes) && ::access(name.c_str(), R_OK) == 0) return open_library(name, fd);
    ::close(fd);  // never loaded: its number may serve again
  }
  return open_via_scratch(bytes);
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

int interrupted_by_signal() { return interrupts::last; }

std::string build_flags(const BuildOptions& options) { return flags(options); }

std::string source_digest(const std::string& source) { return cache::cache_key({"simulator-source", source}); }

namespace {
std::string key_of_digest(const std::string& digest, const BuildOptions& options, const std::string& cpu) {
  // Only a build for this machine's CPU depends on it: a kernel's key is the same everywhere.
  return cache::cache_key({"simulator", version(), embed::runtime_headers_hash(), digest, compiler_identity(),
                           flags(options), link_flags(options), options.cpu_function ? cpu : ""});
}
}  // namespace

std::string library_key(const std::string& source, const BuildOptions& options, const std::string& cpu) {
  return key_of_digest(source_digest(source), options, cpu);
}

Result<std::shared_ptr<Library>> load_cached_library(const std::string& digest, const BuildOptions& options,
                                                     cache::KernelCache* cache) {
  if (cache == nullptr || !cache->enabled()) return std::shared_ptr<Library>();
  auto entry = cache->load(key_of_digest(digest, options, host_cpu_identity()));
  if (!entry) return std::shared_ptr<Library>();
  return open_bytes(entry->binary);
}

void set_before_load_hook(std::function<void()> hook) { before_load_hook() = std::move(hook); }

namespace {
// What `pykern cache list` shows of a library's entry: the kernels it holds and the file they
// came from (absolute, so the entry names it from any folder), read off the generated source:
// each kernel's symbol (pk_kernel_py_NAME_HASH) and the first #line directive.
void describe_source(const std::string& source, nlohmann::json& record) {
  nlohmann::json kernels = nlohmann::json::array();
  const std::string marker = "PK_KERNEL void pk_kernel_py_";
  for (size_t at = source.find(marker); at != std::string::npos; at = source.find(marker, at + 1)) {
    size_t start = at + marker.size();
    size_t end = source.find('(', start);
    if (end == std::string::npos) break;
    std::string name = source.substr(start, end - start);
    size_t hash = name.rfind('_');
    if (hash != std::string::npos) name.resize(hash);
    kernels.push_back({{"function", name}});
  }
  record["kernels"] = kernels;
  const std::string line = "#line ";
  size_t at = source.find(line);
  size_t open = at == std::string::npos ? at : source.find('"', at);
  size_t close = open == std::string::npos ? open : source.find('"', open + 1);
  if (close == std::string::npos || source.find('\n', at) < close) return;
  std::string file = source.substr(open + 1, close - open - 1);
  std::error_code error;
  if (fs::is_regular_file(file, error)) file = fs::absolute(file, error).lexically_normal().string();
  record["source_file"] = file;
}


// Builds the library's bytes: from `cache` when it holds them, else compiled and stored there.
Result<std::string> cached_or_built(const std::string& source, const BuildOptions& options, cache::KernelCache* cache,
                                    BuildInfo* info) {
  if (cache && !cache->enabled()) cache = nullptr;
  if (cache) {
    if (auto entry = cache->load(library_key(source, options, host_cpu_identity()))) {
      if (info) info->cache_hit = true;
      return std::move(entry->binary);
    }
  }
  auto started = std::chrono::steady_clock::now();
  auto bytes = compile(source, options, cache);
  if (!bytes.ok()) return bytes.error();
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  if (info) info->compile_ms = ms;
  if (cache) {
    cache::CacheEntry entry;
    entry.key = library_key(source, options, host_cpu_identity());
    entry.binary = *bytes;
    entry.cuda_source = source;
    entry.record = {{"output", "so"}, {"backend", "cpu"}, {"compiler", compiler_identity()},
                    {"options", flags(options) + " " + link_flags(options)}, {"compile_ms", ms},
                    {"pykern_version", version()}};
    if (options.cpu_function) entry.record["host_cpu"] = host_cpu_identity();
    describe_source(source, entry.record);
    (void)cache->store(entry);  // a cache that cannot take it only costs the next run a build
  }
  return bytes;
}
}  // namespace

Result<std::shared_ptr<Library>> build_library(const std::string& source, BuildOptions options,
                                               cache::KernelCache* cache, BuildInfo* info) {
  auto bytes = cached_or_built(source, options, cache, info);
  if (!bytes.ok()) return bytes.error();
  return open_bytes(*bytes);
}

Result<std::string> build_library_bytes(const std::string& source, BuildOptions options, cache::KernelCache* cache) {
  return cached_or_built(source, options, cache, nullptr);
}

Result<std::shared_ptr<Library>> load_library(const std::string& bytes) { return open_bytes(bytes); }

Status launch(const Library& library, const std::string& symbol, void* const* args, const Launch& config) {
  const pk::sim::KernelInfo* kernel = library.find(symbol);
  if (kernel == nullptr) return Error::make(ErrorKind::internal, "the simulator library has no kernel " + symbol);
  GridLaunch launch;
  launch.entry = kernel->entry;
  launch.cooperative = kernel->cooperative;
  launch.syncs_grid = kernel->syncs_grid;
  launch.local_bytes = kernel->local_bytes;
  launch.grid = {config.grid().x, config.grid().y, config.grid().z};
  launch.block = {config.block().x, config.block().y, config.block().z};
  launch.args = args;
  launch.timeout_seconds = config.timeout();
  launch.dynamic_shared_bytes = config.shared_bytes();
  if (config.progress()) launch.progress = &config.progress();
  launch.progress_every = config.progress_every();
  if (config.cancel_token().can_be_cancelled()) launch.cancel = &config.cancel_token();
  return run_grid(launch);
}

}  // namespace pykern::sim
