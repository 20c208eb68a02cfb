// The disk cache: hits and misses, bad entries are misses, concurrent writers, a cache that
// cannot be written, LRU pruning; what others can write is never loaded (a shared cache trusts
// its group); simulator libraries load from memory; a signal during the host compile.
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <set>
#include <thread>

#include <doctest/doctest.h>

#include "helpers.h"
#include "compiler/pipeline.h"
#include "cache/cache.h"
#include "jit/nvrtc.h"
#include "jit/nvrtc_identity.h"
#include "pykern/compiler.h"
#include "pykern/module.h"
#include "sim/simulator.h"

namespace fs = std::filesystem;
using pykern::cache::CacheEntry;
using pykern::cache::KernelCache;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("pykern-cache-test-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(counter()++));
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

CacheEntry entry(const std::string& key, const std::string& binary) {
  CacheEntry e;
  e.key = key;
  e.binary = binary;
  e.cuda_source = "// source of " + key;
  e.record = {{"kernels", nlohmann::json::array()}, {"arch", "sm_90"}};
  return e;
}

const char* kernel_text =
    "from numba import cuda\n@cuda.jit('void(float32[::1])')\ndef k(a):\n    i = cuda.grid(1)\n"
    "    if i < a.size:\n        a[i] += 1\n";

}  // namespace

TEST_CASE("a stored entry loads back; an unknown key misses") {
  TempDir dir;
  KernelCache cache(dir.path);
  REQUIRE(cache.enabled());
  std::string key = pykern::cache::cache_key({"a", "b"});
  CHECK(key.size() == 32);
  CHECK(key != pykern::cache::cache_key({"ab"}));  // length-prefixed: no ambiguity
  CHECK_FALSE(cache.load(key));
  REQUIRE(cache.store(entry(key, "CUBIN")).ok());
  auto loaded = cache.load(key);
  REQUIRE(loaded);
  CHECK(loaded->binary == "CUBIN");
  CHECK(loaded->record["arch"] == "sm_90");
  CHECK((fs::status(dir.path).permissions() & fs::perms::others_all) == fs::perms::none);
}

TEST_CASE("corrupt and truncated entries are misses and are removed") {
  TempDir dir;
  KernelCache cache(dir.path);
  std::string corrupt = pykern::cache::cache_key({"corrupt"});
  std::string truncated = pykern::cache::cache_key({"truncated"});
  REQUIRE(cache.store(entry(corrupt, "0123456789")).ok());
  REQUIRE(cache.store(entry(truncated, "0123456789")).ok());
  fs::path corrupt_dir = cache.find(corrupt)->path;
  fs::path truncated_dir = cache.find(truncated)->path;
  { std::ofstream(corrupt_dir / "kernel.cubin", std::ios::binary) << "0123456780"; }
  fs::resize_file(truncated_dir / "record.json", 10);
  CHECK(cache.verify(false).size() == 2);
  CHECK_FALSE(cache.load(corrupt));
  CHECK_FALSE(cache.load(truncated));
  CHECK_FALSE(fs::exists(corrupt_dir));
  CHECK_FALSE(fs::exists(truncated_dir));
  CHECK(cache.verify(true).empty());
}

TEST_CASE("a cache directory that cannot be made disables caching with one warning") {
  KernelCache cache("/proc/pykern-cannot-exist/cache");
  CHECK_FALSE(cache.enabled());
  CHECK(cache.warning().find("disabled") != std::string::npos);
  CHECK_FALSE(cache.load(pykern::cache::cache_key({"x"})));
  CHECK(cache.store(entry(pykern::cache::cache_key({"x"}), "b")).ok());
  if (pykern::jit::nvrtc_version().ok()) {
    pykern::CompileOptions options;
    options.cache_dir = "/proc/pykern-cannot-exist/cache";
    auto result = pykern::compile_source(kernel_text, "k.py", options);
    REQUIRE(result.ok());
    CHECK(result->warnings.find("kernel cache disabled") != std::string::npos);
  }
}

TEST_CASE("prune evicts least recently used entries first") {
  TempDir dir;
  KernelCache cache(dir.path);
  std::vector<std::string> keys;
  for (int i = 0; i < 3; ++i) {
    keys.push_back(pykern::cache::cache_key({std::to_string(i)}));
    REQUIRE(cache.store(entry(keys.back(), std::string(1000, 'x'))).ok());
    // Entry i was last used i hours ago... reversed: entry 0 is the oldest.
    struct timespec times[2] = {{1000000 + i * 3600, 0}, {1000000 + i * 3600, 0}};
    ::utimensat(AT_FDCWD, cache.find(keys.back())->path.c_str(), times, 0);
  }
  cache.load(keys[0]);  // a use makes entry 0 the newest
  uint64_t one_entry = cache.find(keys[0])->bytes;
  auto removed = cache.prune(one_entry);
  REQUIRE(removed.size() == 2);
  CHECK(removed[0] == keys[1]);
  CHECK(removed[1] == keys[2]);
  CHECK(cache.load(keys[0]));
}

TEST_CASE("a second compile hits the cache and skips the front end; clear empties it") {
  if (!pykern::jit::nvrtc_version().ok()) return;
  TempDir dir;
  pykern::CompileOptions options;
  options.cache_dir = dir.path.string();
  options.arch = "sm_90";
  auto first = pykern::compile_source(kernel_text, "k.py", options);
  REQUIRE(first.ok());
  CHECK_FALSE(first->cache_hit);
  auto second = pykern::compile_source(kernel_text, "k.py", options);
  REQUIRE(second.ok());
  CHECK(second->cache_hit);
  CHECK(second->frontend_cache_hit);
  CHECK(second->binary == first->binary);
  REQUIRE(second->kernels.size() == 1);
  CHECK(second->kernels[0].symbol == first->kernels[0].symbol);
  // The hit's kernels come from record.json: each parameter as the compile described it.
  CHECK(second->kernels[0].signature == first->kernels[0].signature);
  const auto& compiled = first->kernels[0].parameters;
  const auto& cached = second->kernels[0].parameters;
  CHECK_FALSE(compiled.empty());
  REQUIRE(cached.size() == compiled.size());
  for (size_t i = 0; i < cached.size(); ++i) {
    CAPTURE(i);
    CHECK(cached[i].name == compiled[i].name);
    CHECK(cached[i].is_array == compiled[i].is_array);
    CHECK(cached[i].dtype.name() == compiled[i].dtype.name());
    CHECK(cached[i].ndim == compiled[i].ndim);
    CHECK(cached[i].layout == compiled[i].layout);
  }
  // A different text is a miss at the front end, but the same emitted CUDA hits the binary key.
  auto renamed = pykern::compile_source(std::string(kernel_text) + "\n# a comment\n", "k.py", options);
  REQUIRE(renamed.ok());
  CHECK(renamed->cache_hit);
  CHECK_FALSE(renamed->frontend_cache_hit);
  KernelCache(dir.path).clear();
  CHECK(KernelCache(dir.path).list().empty());
}

TEST_CASE("several processes compiling the same kernel at once all succeed") {
  if (!pykern::jit::nvrtc_version().ok()) return;
  TempDir dir;
  fs::create_directories(dir.path);
  fs::path kernel = dir.path / "k.py";
  std::ofstream(kernel) << kernel_text;
  fs::path cache_dir = dir.path / "cache";
  std::vector<pid_t> children;
  for (int i = 0; i < 4; ++i) {
    pid_t pid = ::fork();
    if (pid == 0) {
      ::setenv("PYKERN_CACHE_DIR", cache_dir.c_str(), 1);
      std::string out = (dir.path / ("out" + std::to_string(i) + ".cubin")).string();
      ::execl(PYKERN_BINARY, PYKERN_BINARY, "compile", kernel.c_str(), "--arch", "sm_90", "-o", out.c_str(),
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  KernelCache cache(cache_dir);
  CHECK(cache.list().size() == 1);
  CHECK(cache.verify(false).empty());
  std::string first = test::read(dir.path / "out0.cubin");
  CHECK(first.size() > 100);
  for (int i = 1; i < 4; ++i) CHECK(test::read(dir.path / ("out" + std::to_string(i) + ".cubin")) == first);
}

namespace {

// A file and a directory outside the cache that planted links point at.
struct Victim {
  TempDir dir;
  Victim() {
    fs::create_directories(dir.path / "subdir");
    std::ofstream(dir.path / "precious.txt") << "keep me";
    std::ofstream(dir.path / "subdir" / "precious.txt") << "keep me too";
  }
  bool intact() const {
    return test::read(dir.path / "precious.txt") == "keep me" &&
           test::read(dir.path / "subdir" / "precious.txt") == "keep me too";
  }
};

int run_cli(const std::string& arguments, std::string* output = nullptr) {
  fs::path log = fs::temp_directory_path() / ("pykern-cache-cli-" + std::to_string(::getpid()));
  int status = test::run_shell(std::string(PYKERN_BINARY) + " " + arguments + " > " + log.string() + " 2>&1", log);
  if (output) *output = test::read(log);
  fs::remove(log);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("cache maintenance never follows a link out of the cache") {
  Victim victim;
  TempDir dir;
  std::string key = pykern::cache::cache_key({"kept"});
  {
    KernelCache cache(dir.path);
    REQUIRE(cache.store(entry(key, "BINARY")).ok());
  }
  fs::path entries = dir.path / "v1" / "entries";
  // A shard that is a link, an entry that is a link, a link to a file, and a stray file.
  fs::create_directory_symlink(victim.dir.path, entries / "ab");
  fs::create_directories(entries / "cd");
  fs::create_directory_symlink(victim.dir.path, entries / "cd" / ("cd" + std::string(30, '0')));
  fs::create_symlink(victim.dir.path / "precious.txt", entries / "ef");
  fs::create_directory_symlink(victim.dir.path, dir.path / "v1" / "tmp" / "stale");
  std::ofstream(entries / "stray.txt") << "x";
  KernelCache cache(dir.path);
  REQUIRE(cache.enabled());
  CHECK(cache.list().size() == 5);  // the entry and four strays
  CHECK(cache.find(key));
  CHECK(cache.verify(false).size() == 4);
  CHECK(victim.intact());
  CHECK(cache.prune(0).size() == 1);  // evicts the one real entry; leaves the links alone
  CHECK(victim.intact());
  CHECK(cache.verify(true).size() == 4);  // removes the links themselves
  CHECK(victim.intact());
  CHECK(cache.list().empty());
  fs::create_directory_symlink(victim.dir.path, entries / "ab");
  cache.clear();
  CHECK(victim.intact());
  CHECK_FALSE(fs::exists(entries / "ab"));
  std::string out;
  fs::create_directory_symlink(victim.dir.path, entries / "ab");
  CHECK(run_cli("cache --dir " + dir.path.string() + " verify", &out) == 1);
  CHECK(run_cli("cache --dir " + dir.path.string() + " clear", &out) == 0);
  CHECK(victim.intact());
}

TEST_CASE("a linked entries, frontend or tmp folder disables the cache; nothing is emptied through it") {
  for (const char* linked : {"entries", "frontend", "tmp"}) {
    CAPTURE(linked);
    Victim victim;
    TempDir dir;
    fs::create_directories(dir.path / "v1");
    fs::create_directory_symlink(victim.dir.path, dir.path / "v1" / linked);
    KernelCache cache(dir.path);
    CHECK_FALSE(cache.enabled());
    CHECK(cache.warning().find("symbolic link") != std::string::npos);
    std::string out;
    for (const char* action : {"clear", "prune --max-size 0", "verify", "list"})
      CHECK(run_cli("cache --dir " + dir.path.string() + " " + action, &out) == 1);
    CHECK(victim.intact());
  }
}

TEST_CASE("an edited record.json is a bad entry: its checksum covers it") {
  TempDir dir;
  KernelCache cache(dir.path);
  std::string key = pykern::cache::cache_key({"edited"});
  CacheEntry e = entry(key, "BINARY");
  e.record["kernels"] = {{{"function", "k"}, {"symbol", "pk_kernel_k"}}};
  REQUIRE(cache.store(e).ok());
  fs::path record = cache.find(key)->path / "record.json";
  std::string text = test::read(record);
  auto at = text.find("pk_kernel_k");
  REQUIRE(at != std::string::npos);
  text.replace(at, 11, "pk_kernel_x");
  fs::remove(record);
  std::ofstream(record) << text;
  CHECK(cache.verify(false) == std::vector<std::string>{key});
  CHECK_FALSE(cache.load(key));
}

// A hit verifies record.json's bytes as read, not a re-serialisation of what it parses to (issue
// 32): so an edit that JSON ignores is caught too, and a checksum that cannot be told apart is a miss.
TEST_CASE("record.json's checksum covers its bytes: whitespace, a second checksum, a cut one are misses") {
  TempDir dir;
  KernelCache cache(dir.path);
  auto stored = [&](const std::string& name) {
    std::string key = pykern::cache::cache_key({name});
    CacheEntry e = entry(key, "BINARY");
    e.record["kernels"] = {{{"function", "k"}, {"symbol", "pk_kernel_k"}}};
    REQUIRE(cache.store(e).ok());
    REQUIRE(cache.load(key));
    return key;
  };
  auto rewrite = [&](const std::string& key, const std::function<void(std::string&)>& edit) {
    fs::path record = cache.find(key)->path / "record.json";
    std::string text = test::read(record);
    edit(text);
    fs::remove(record);
    std::ofstream(record) << text;
  };
  std::string spaced = stored("spaced");
  rewrite(spaced, [](std::string& text) { text.insert(text.find('\n') + 1, " "); });
  std::string twice = stored("twice");
  rewrite(twice, [](std::string& text) {
    size_t at = text.find("\"record_xxh3\"");
    text.insert(text.find('\n') + 1, "  " + text.substr(at, 33) + ",\n");  // the member again
  });
  std::string cut = stored("cut");
  rewrite(cut, [](std::string& text) { text.resize(text.find("\"record_xxh3\"") + 20); });
  std::string intact = stored("intact");
  for (const std::string& key : {spaced, twice, cut}) {
    CAPTURE(key);
    CHECK_FALSE(cache.load(key));
  }
  CHECK(cache.load(intact));
  CHECK(cache.verify(false).empty());  // the bad ones were removed as they were met
}

TEST_CASE("cache commands survive any record.json and stray directories; --json is JSON") {
  TempDir dir;
  std::vector<std::string> records = {"", "{", "[1, 2]", "\"text\"", "null", "{\"arch\": 5, \"kernels\": \"x\"}",
                                      "{\"kernels\": [1, {\"function\": 2}], \"source_file\": [], \"output\": 7}"};
  {
    KernelCache cache(dir.path);
    for (size_t i = 0; i < records.size(); ++i) {
      std::string key = pykern::cache::cache_key({std::to_string(i)});
      REQUIRE(cache.store(entry(key, "B")).ok());
      fs::path record = cache.find(key)->path / "record.json";
      fs::remove(record);
      std::ofstream(record) << records[i];
    }
    fs::create_directories(dir.path / "v1" / "entries" / "zz" / "not-a-key");
    fs::create_directories(dir.path / "v1" / "entries" / "00" / ("11" + std::string(30, '1')));
    // A FIFO where a record should be: reading it must not wait for a writer.
    std::string fifo_key = pykern::cache::cache_key({"fifo"});
    REQUIRE(cache.store(entry(fifo_key, "B")).ok());
    fs::path fifo = cache.find(fifo_key)->path / "record.json";
    fs::remove(fifo);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  }
  std::string root = "cache --dir " + dir.path.string() + " ";
  std::string out;
  for (const char* action : {"list", "stats", "show 0", "show 1"}) {
    CAPTURE(action);
    int status = run_cli(root + action, &out);
    CHECK((status == 0 || status == 1));
    CHECK(out.find("terminate") == std::string::npos);
    status = run_cli(root + action + " --json", &out);
    CHECK((status == 0 || status == 1));
    if (status == 0) CHECK_FALSE(nlohmann::json::parse(out, nullptr, false).is_discarded());
    CHECK(out.find("<discarded>") == std::string::npos);
  }
  CHECK(run_cli(root + "verify --json", &out) == 1);
  auto report = nlohmann::json::parse(out, nullptr, false);
  REQUIRE(report.is_object());
  CHECK(report["removed"].size() == records.size() + 3);
  CHECK(run_cli(root + "verify", &out) == 0);
  CHECK(KernelCache(dir.path).list().empty());
}

TEST_CASE("listing while another thread clears never throws") {
  TempDir dir;
  KernelCache cache(dir.path);
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int round = 0; round < 30; ++round) {
      for (int i = 0; i < 20; ++i) (void)cache.store(entry(pykern::cache::cache_key({std::to_string(round), std::to_string(i)}), "B"));
      cache.clear();
    }
    stop = true;
  });
  int thrown = 0;
  while (!stop) {
    try {
      cache.list();
      cache.verify(false);
      cache.prune(1u << 30);
    } catch (...) {
      ++thrown;
    }
  }
  writer.join();
  CHECK(thrown == 0);
}

TEST_CASE("a cache under folders that do not exist yet is made, parents and all") {
  TempDir dir;
  KernelCache cache(dir.path / "home" / ".cache" / "pykern");
  CHECK(cache.enabled());
  CHECK(cache.warning().empty());
}

TEST_CASE("a cache directory another user owns is not used") {
  if (::geteuid() != 0) return;  // only root can give a directory away
  TempDir dir;
  fs::create_directories(dir.path);
  REQUIRE(::chown(dir.path.c_str(), 65534, 65534) == 0);
  KernelCache cache(dir.path);
  CHECK_FALSE(cache.enabled());
  CHECK(cache.warning().find("another user") != std::string::npos);
}

TEST_CASE("the simulator's key names the host compiler by the file it runs, so a new compiler rebuilds") {
  TempDir dir;
  fs::create_directories(dir.path / "bin");
  fs::path real = dir.path / "bin" / "g++-test";
  std::ofstream(real) << "#!/bin/sh\n";
  fs::permissions(real, fs::perms::owner_all);
  fs::create_symlink("g++-test", dir.path / "bin" / "cxx-test");
  std::string before = pykern::sim::compiler_identity_of((dir.path / "bin" / "cxx-test").string());
  CHECK(before.find(fs::canonical(real).string()) != std::string::npos);  // links followed
  // Found on $PATH as a shell would find it.
  std::string saved_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", (dir.path / "bin").c_str(), 1);
  std::string on_path = pykern::sim::compiler_identity_of("cxx-test");
  ::setenv("PATH", saved_path.c_str(), 1);
  CHECK(on_path.substr(on_path.find(' ')) == before.substr(before.find(' ')));
  // An upgraded compiler (new contents, new mtime) is a different identity.
  std::ofstream(real, std::ios::app) << "# 13.1\n";
  struct timespec times[2] = {{0, UTIME_OMIT}, {1'700'000'000, 0}};
  REQUIRE(::utimensat(AT_FDCWD, real.c_str(), times, 0) == 0);
  CHECK(pykern::sim::compiler_identity_of((dir.path / "bin" / "cxx-test").string()) != before);
  // A command that is nowhere is named by itself (the build then fails with the shell's words).
  CHECK(pykern::sim::compiler_identity_of("no-such-compiler-xyz") == "no-such-compiler-xyz");
}

TEST_CASE("simulator builds cache their library and, from the second on, the precompiled runtime core once") {
  TempDir dir;
  pykern::ModuleOptions options;
  options.cache_dir = dir.path.string();
  auto build = [&](const std::string& name) {
    auto module = pykern::Module::load_source(
        "from numba import cuda\n@cuda.jit\ndef k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += 1\n",
        name, options);
    REQUIRE_MESSAGE(module.ok(), module.error().describe());
    auto kernel = module->kernel("k");
    REQUIRE(kernel.ok());
    pykern::Array a = pykern::Array::zeros(pykern::DType::float_(64), {8});
    REQUIRE(kernel->launch(pykern::Launch(pykern::Dim3(1), pykern::Dim3(8)).backend(pykern::Backend::cpu), {a}).ok());
    CHECK(a.at<double>(7) == 1.0);
  };
  build("first.py");
  auto targets = [&] {
    std::multiset<std::string> out;
    for (const auto& e : KernelCache(dir.path).list()) {
      out.insert(e.record.value("output", "") + "/" + e.record.value("backend", ""));
    }
    return out;
  };
  CHECK(targets() == std::multiset<std::string>{"so/cpu"});  // the first build parses the headers
  build("second.py");  // another library, and the core for the builds after it
  CHECK(targets() == std::multiset<std::string>{"gch/cpu", "so/cpu", "so/cpu"});
  build("third.py");  // the core is not made again
  CHECK(targets() == std::multiset<std::string>{"gch/cpu", "so/cpu", "so/cpu", "so/cpu"});
  std::string out;
  REQUIRE(run_cli("cache --dir " + dir.path.string() + " list", &out) == 0);
  CHECK(out.find(" cpu-h ") != std::string::npos);
  CHECK(out.find(" cpu ") != std::string::npos);
}

TEST_CASE("the first build of an empty cache makes no precompiled core; the second makes it beside its own") {
  TempDir dir;
  fs::create_directories(dir.path);
  fs::path log = dir.path / "compiles";
  fs::path wrapper = dir.path / "logging-c++";
  // The core's build (a c++-header) takes a second longer; each run logs when it starts and ends.
  std::ofstream(wrapper) << "#!/bin/sh\ncase \"$*\" in *c++-header*) kind=core;; *) kind=library;; esac\n"
                         << "echo $kind-start >> " << log.string() << "\n"
                         << "[ $kind = core ] && sleep 1\n"
                         << "c++ \"$@\"; status=$?\necho $kind-end >> " << log.string() << "\nexit $status\n";
  fs::permissions(wrapper, fs::perms::owner_all);
  const char* before = std::getenv("PYKERN_CXX");
  std::string saved = before ? before : "";
  ::setenv("PYKERN_CXX", wrapper.c_str(), 1);
  pykern::ModuleOptions options;
  options.cache_dir = (dir.path / "cache").string();
  auto build = [&](const std::string& increment) {
    auto module = pykern::Module::load_source(
        "from numba import cuda\n@cuda.jit\ndef k(a):\n    a[0] += " + increment + "\n", "meanwhile.py", options);
    REQUIRE(module.ok());
    pykern::Array a = pykern::Array::zeros(pykern::DType::float_(64), {1});
    auto launched = module->kernel("k")->launch(pykern::Launch(1, 1).backend(pykern::Backend::cpu), {a});
    REQUIRE_MESSAGE(launched.ok(), launched.error().describe());
    CHECK(a.at<double>(0) == std::stod(increment));
  };
  build("1");
  std::string first = test::read(log);
  build("2");
  std::string second = test::read(log).substr(first.size());
  if (before) ::setenv("PYKERN_CXX", saved.c_str(), 1);
  else ::unsetenv("PYKERN_CXX");
  // The first build waited for no core: none was made.
  CHECK(first == "library-start\nlibrary-end\n");
  // The second's library build started before the core's ended: it did not wait for it.
  CAPTURE(second);
  REQUIRE(second.find("library-start") != std::string::npos);
  CHECK(second.find("library-start") < second.find("core-end"));
  // The core is in the cache for the builds after them.
  std::multiset<std::string> outputs;
  for (const auto& e : KernelCache(dir.path / "cache").list()) outputs.insert(e.record.value("output", ""));
  CHECK(outputs == std::multiset<std::string>{"gch", "so", "so"});
}

// Issue 27, item 2: checksums do not make a cache safe, since whoever writes an entry can
// recompute them. What others can write is never read: the root and its folders must be the
// caller's (or root's) and writable by no one else, as ssh's StrictModes asks of ~/.ssh.
TEST_CASE("a cache root or folder others can write turns the cache off, as ssh's StrictModes would") {
  for (const char* place : {"", "v1", "v1/entries", "v1/frontend", "v1/tmp"}) {
    for (fs::perms writable : {fs::perms::group_write, fs::perms::others_write}) {
      CAPTURE(place);
      CAPTURE(static_cast<int>(writable));
      TempDir dir;
      std::string key = pykern::cache::cache_key({"planted"});
      {
        KernelCache cache(dir.path, "");
        REQUIRE(cache.store(entry(key, "BINARY")).ok());
      }
      fs::permissions(dir.path / place, writable, fs::perm_options::add);
      KernelCache cache(dir.path, "");
      CHECK_FALSE(cache.enabled());
      CHECK(cache.warning().find("kernel cache disabled") != std::string::npos);
      CHECK(cache.warning().find("writable by") != std::string::npos);
      CHECK(cache.warning().find("PYKERN_CACHE_GROUP") != std::string::npos);
      CHECK_FALSE(cache.load(key));
      std::string out;
      CHECK(run_cli("cache --dir " + dir.path.string() + " list", &out) == 1);
      CHECK(out.find("writable by") != std::string::npos);
    }
  }
  // A folder made with umask 002 (group-writable) is refused with the same warning through a
  // command, which then goes on without the cache.
  if (pykern::jit::nvrtc_version().ok()) {
    TempDir dir;
    fs::create_directories(dir.path);
    fs::permissions(dir.path, fs::perms::owner_all | fs::perms::group_all);
    pykern::CompileOptions options;
    options.cache_dir = dir.path.string();
    auto result = pykern::compile_source(kernel_text, "k.py", options);
    REQUIRE(result.ok());
    CHECK(result->warnings.find("kernel cache disabled") != std::string::npos);
    CHECK_FALSE(fs::exists(dir.path / "v1"));
  }
}

TEST_CASE("a cache folder or file that another user owns, or others can write, is never loaded") {
  struct Tamper {
    const char* what;
    std::function<void(const fs::path& entry)> apply;
    bool needs_root;
  };
  auto add = [](fs::perms bits) {
    return [bits](const fs::path& path) { fs::permissions(path, bits, fs::perm_options::add); };
  };
  auto give_away = [](const fs::path& path) { REQUIRE(::lchown(path.c_str(), 65534, 65534) == 0); };
  std::vector<Tamper> tampers = {
      {"group-writable entry", [&](const fs::path& e) { add(fs::perms::group_write)(e); }, false},
      {"world-writable shard", [&](const fs::path& e) { add(fs::perms::others_write)(e.parent_path()); }, false},
      {"group-writable binary", [&](const fs::path& e) { add(fs::perms::group_write)(e / "kernel.cubin"); }, false},
      {"world-writable record", [&](const fs::path& e) { add(fs::perms::others_write)(e / "record.json"); }, false},
      {"world-writable source", [&](const fs::path& e) { add(fs::perms::others_write)(e / "kernel.cu"); }, false},
      {"binary owned by another user", [&](const fs::path& e) { give_away(e / "kernel.cubin"); }, true},
      {"entry owned by another user", [&](const fs::path& e) { give_away(e); }, true},
      {"shard owned by another user", [&](const fs::path& e) { give_away(e.parent_path()); }, true},
  };
  for (const Tamper& tamper : tampers) {
    CAPTURE(tamper.what);
    if (tamper.needs_root && ::geteuid() != 0) continue;  // only root can give a file away
    TempDir dir;
    KernelCache cache(dir.path, "");
    REQUIRE(cache.enabled());
    std::string key = pykern::cache::cache_key({"tampered"});
    REQUIRE(cache.store(entry(key, "BINARY")).ok());
    REQUIRE(cache.load(key));
    fs::path path = cache.find(key)->path;
    tamper.apply(path);
    CHECK(cache.verify(false) == std::vector<std::string>{key});
    CHECK_FALSE(cache.load(key));
    // The miss is rebuilt and stored anew, as the caller's own.
    REQUIRE(cache.store(entry(key, "REBUILT")).ok());
    auto again = cache.load(key);
    if (std::string(tamper.what).find("shard") == std::string::npos) {
      REQUIRE(again);
      CHECK(again->binary == "REBUILT");
    } else {
      CHECK_FALSE(again);  // a shard others can write stays unused; `cache verify` names its entries
    }
  }
  // The front-end index too: a key file others can write is not followed to an entry.
  TempDir dir;
  KernelCache cache(dir.path, "");
  std::string frontend = pykern::cache::cache_key({"frontend"});
  std::string key = pykern::cache::cache_key({"entry"});
  cache.frontend_store(frontend, key);
  REQUIRE(cache.frontend_lookup(frontend) == key);
  fs::path index = dir.path / "v1" / "frontend" / frontend.substr(0, 2) / frontend;
  fs::permissions(index, fs::perms::others_write, fs::perm_options::add);
  CHECK_FALSE(cache.frontend_lookup(frontend));
}

TEST_CASE("a simulator library whose cache entry others can write is rebuilt, never loaded") {
  TempDir dir;
  // Through the public API: a module built once, its library entry made group-writable (as a
  // planted one would be), then a second module with the same kernel rebuilds.
  pykern::ModuleOptions module_options;
  module_options.cache_dir = dir.path.string();
  auto run_once = [&] {
    auto module = pykern::Module::load_source(
        "from numba import cuda\n@cuda.jit\ndef k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += 1\n",
        "k.py", module_options);
    REQUIRE_MESSAGE(module.ok(), module.error().describe());
    pykern::Array a = pykern::Array::zeros(pykern::DType::float_(64), {8});
    auto launched = module->kernel("k")->launch(pykern::Launch(pykern::Dim3(1), pykern::Dim3(8)).backend(pykern::Backend::cpu), {a});
    REQUIRE_MESSAGE(launched.ok(), launched.error().describe());
    CHECK(a.at<double>(7) == 1.0);
  };
  run_once();
  auto library_entry = [&]() -> std::optional<pykern::cache::CacheEntryInfo> {
    for (auto& e : KernelCache(dir.path, "").list())
      if (e.record.value("output", "") == "so") return e;
    return std::nullopt;
  };
  auto first = library_entry();
  REQUIRE(first);
  int64_t created = first->record.value("created", int64_t(0));
  fs::permissions(first->path / "kernel.so", fs::perms::group_write, fs::perm_options::add);
  struct timespec old_times[2] = {{1000000, 0}, {1000000, 0}};
  ::utimensat(AT_FDCWD, first->path.c_str(), old_times, 0);
  run_once();
  auto second = library_entry();
  REQUIRE(second);
  // Rebuilt: a fresh entry, not the one others could write.
  CHECK((fs::status(second->path / "kernel.so").permissions() & fs::perms::group_write) == fs::perms::none);
  CHECK(second->last_used > 1000000);
  CHECK(second->record.value("created", int64_t(0)) >= created);
}

namespace {

// A user and a group for the shared-cache tests: `nobody` and its own group (a member by its
// primary group), and a user whose groups do not include it.
struct SharedGroup {
  gid_t group = 0;
  uid_t member = 0, outsider = 0;
  bool found = false;
  SharedGroup() {
    struct passwd* user = ::getpwnam("nobody");  // getpwnam's answer lives until its next call
    if (!user || user->pw_gid == 0) return;
    group = user->pw_gid;
    member = user->pw_uid;
    user = ::getpwnam("daemon");
    if (!user || user->pw_gid == group) return;
    outsider = user->pw_uid;
    std::string outsider_name = user->pw_name;
    struct group* entry = ::getgrgid(group);
    if (!entry) return;
    for (char** name = entry->gr_mem; name && *name; ++name)
      if (outsider_name == *name) return;
    found = true;
  }
};

}  // namespace

TEST_CASE("a shared cache trusts the group it names: its members' entries, group-writable folders") {
  SharedGroup shared;
  if (::geteuid() != 0 || !shared.found) {  // giving folders to a group and files to users needs root
    MESSAGE("skipped: not root, or no users nobody and daemon in distinct groups");
    return;
  }
  std::string group = std::to_string(shared.group);
  TempDir dir;
  std::string key = pykern::cache::cache_key({"shared"});
  {
    KernelCache cache(dir.path, group);
    REQUIRE_MESSAGE(cache.enabled(), cache.warning());
    REQUIRE(cache.store(entry(key, "BINARY")).ok());
  }
  // Made for the group: folders group-owned, group-writable and setgid; files group-readable.
  struct stat status {};
  REQUIRE(::stat(dir.path.c_str(), &status) == 0);
  CHECK(status.st_gid == shared.group);
  CHECK((status.st_mode & 07777) == 02770);
  fs::path path = KernelCache(dir.path, group).find(key)->path;
  REQUIRE(::stat(path.c_str(), &status) == 0);
  CHECK(status.st_gid == shared.group);
  CHECK((status.st_mode & 07777) == 02770);
  REQUIRE(::stat((path / "kernel.cubin").c_str(), &status) == 0);
  CHECK(status.st_gid == shared.group);
  CHECK((status.st_mode & 07777) == 0640);
  // One who did not opt in does not trust a group-writable cache.
  CHECK_FALSE(KernelCache(dir.path, "").enabled());
  // A member's entry loads; an outsider's does not; nor does anything writable by another
  // group or by everyone.
  REQUIRE(::chown((path / "kernel.cubin").c_str(), shared.member, shared.group) == 0);
  CHECK(KernelCache(dir.path, group).load(key));
  REQUIRE(::chown((path / "kernel.cubin").c_str(), shared.outsider, shared.group) == 0);
  CHECK_FALSE(KernelCache(dir.path, group).load(key));
  KernelCache cache(dir.path, group);
  REQUIRE(cache.store(entry(key, "BINARY")).ok());
  path = cache.find(key)->path;
  REQUIRE(cache.load(key));
  REQUIRE(::chown(path.c_str(), static_cast<uid_t>(-1), 0) == 0);  // group-writable by root's group
  CHECK_FALSE(cache.load(key));
  REQUIRE(cache.store(entry(key, "BINARY")).ok());
  path = cache.find(key)->path;
  fs::permissions(path, fs::perms::others_write, fs::perm_options::add);
  CHECK_FALSE(cache.load(key));
}

TEST_CASE("a shared cache group that names no group turns the cache off") {
  TempDir dir;
  KernelCache cache(dir.path, "no-such-group-pykern");
  CHECK_FALSE(cache.enabled());
  CHECK(cache.warning().find("PYKERN_CACHE_GROUP names no group 'no-such-group-pykern'") != std::string::npos);
  fs::path log = dir.path.string() + ".log";
  int status = test::run_shell("PYKERN_CACHE_GROUP=no-such-group-pykern " + std::string(PYKERN_BINARY) +
                                   " cache --dir " + dir.path.string() + " list > " + log.string() + " 2>&1",
                               log);
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(test::read(log).find("names no group") != std::string::npos);
  fs::remove(log);
}

namespace {

const char* cpu_kernel_text =
    "from numba import cuda\n@cuda.jit\ndef k(a):\n    i = cuda.grid(1)\n    if i < a.size:\n        a[i] += 1\n";

// Loads cpu_kernel_text with the cache in `dir` and runs it on the simulator; the module, whose
// library stays loaded while it lives.
pykern::Module run_on_cpu(const fs::path& dir) {
  pykern::ModuleOptions options;
  options.cache_dir = dir.string();
  auto module = pykern::Module::load_source(cpu_kernel_text, "k.py", options);
  REQUIRE_MESSAGE(module.ok(), module.error().describe());
  pykern::Array a = pykern::Array::zeros(pykern::DType::float_(64), {8});
  auto launched = module->kernel("k")->launch(pykern::Launch(pykern::Dim3(1), pykern::Dim3(8)).backend(pykern::Backend::cpu), {a});
  REQUIRE_MESSAGE(launched.ok(), launched.error().describe());
  CHECK(a.at<double>(7) == 1.0);
  return std::move(*module);
}

struct BeforeLoadHook {
  explicit BeforeLoadHook(std::function<void()> hook) { pykern::sim::set_before_load_hook(std::move(hook)); }
  ~BeforeLoadHook() { pykern::sim::set_before_load_hook(nullptr); }
};

}  // namespace

// Issue 27, item 17: a `cache clear` or prune between a run's store (or its cache hit) and its
// dlopen failed the run with "cannot load the simulator library ... No such file".
TEST_CASE("a cache clear between a simulator build and its load does not fail the run") {
  TempDir dir;
  std::vector<pykern::Module> alive;
  int cleared = 0;
  auto clear = [&] {
    KernelCache(dir.path).clear();
    ++cleared;
  };
  {
    BeforeLoadHook hook(clear);
    alive.push_back(run_on_cpu(dir.path));  // a miss: built, stored, then the entry goes
  }
  CHECK(cleared == 1);
  CHECK(KernelCache(dir.path).list().empty());
  alive.push_back(run_on_cpu(dir.path));  // built and stored again
  CHECK(KernelCache(dir.path).list().size() == 1);  // the library (the clear took the note: no core yet)
  {
    BeforeLoadHook hook(clear);
    alive.push_back(run_on_cpu(dir.path));  // a hit, whose entry goes before the load
  }
  CHECK(cleared == 2);
  // Loaded from the bytes in memory: no library is mapped from a file of the cache.
  CHECK(test::read("/proc/self/maps").find(dir.path.string()) == std::string::npos);
}

namespace {

// Starts `pykern run` of an uncached kernel whose host compiler is a slow wrapper script; sends
// `signal` once the wrapper runs; returns pykern's wait status and output, and what was left.
struct InterruptedRun {
  int status = 0;
  std::string output;
  size_t scratch_left = 0;
  bool compiler_left = false;
};

InterruptedRun interrupt_host_compile(int signal) {
  InterruptedRun result;
  TempDir dir;
  fs::create_directories(dir.path / "tmp");
  fs::path marker = dir.path / "compiler.pid";
  fs::path wrapper = dir.path / "slow-c++";
  std::ofstream(wrapper) << "#!/bin/sh\necho $$ > " << marker.string() << ".new\nmv " << marker.string()
                         << ".new " << marker.string() << "\nsleep 60\nexec c++ \"$@\"\n";
  fs::permissions(wrapper, fs::perms::owner_all);
  std::ofstream(dir.path / "k.py") << cpu_kernel_text;
  REQUIRE(pykern::save_npy((dir.path / "a.npy").string(), pykern::Array::zeros(pykern::DType::float_(64), {8})).ok());
  fs::path log = dir.path / "log";
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv("PYKERN_CXX", wrapper.c_str(), 1);
    ::setenv("PYKERN_CACHE_DIR", (dir.path / "cache").c_str(), 1);
    ::setenv("TMPDIR", (dir.path / "tmp").c_str(), 1);
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::signal(SIGINT, SIG_DFL);  // a test run in the background may have them ignored
    ::signal(SIGTERM, SIG_DFL);
    std::string file = (dir.path / "k.py").string(), array = (dir.path / "a.npy").string();
    std::string out = (dir.path / "out").string();
    ::execl(PYKERN_BINARY, PYKERN_BINARY, "run", file.c_str(), "k", "--backend", "cpu", "--grid", "1", "--block", "8",
            array.c_str(), "--out", out.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  REQUIRE(pid > 0);
  for (int waited = 0; waited < 3000 && !fs::exists(marker); ++waited)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(fs::exists(marker));
  pid_t compiler = std::stoi("0" + test::read(marker));
  ::kill(pid, signal);  // pykern alone, as `kill` from another terminal would
  int status = 0;
  bool ended = false;
  for (int waited = 0; waited < 1500 && !ended; ++waited) {
    ended = ::waitpid(pid, &status, WNOHANG) == pid;
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!ended) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  }
  result.status = ended ? status : -1;
  result.output = test::read(log);
  for (const auto& e : fs::directory_iterator(dir.path / "tmp"))
    result.scratch_left += e.path().filename().string().rfind("pykern-sim-", 0) == 0 ? 1 : 0;
  result.compiler_left = compiler > 0 && ::kill(compiler, 0) == 0;
  if (compiler > 0) ::kill(compiler, SIGKILL);
  return result;
}

}  // namespace

// Issue 27, item 18: Ctrl-C during a host compile was reported as an internal error (a pykern
// bug); a SIGINT to pykern alone was ignored (std::system blocks it while the shell runs), and
// SIGTERM left its /tmp/pykern-sim-* scratch folder behind.
TEST_CASE("a SIGINT or SIGTERM during the host compile stops it, cleans up and exits 130 or 143") {
  for (int signal : {SIGINT, SIGTERM}) {
    CAPTURE(signal);
    InterruptedRun run = interrupt_host_compile(signal);
    INFO(run.output);
    REQUIRE(WIFEXITED(run.status));
    CHECK(WEXITSTATUS(run.status) == 128 + signal);
    CHECK(run.output.find(signal == SIGINT ? "interrupted by SIGINT" : "interrupted by SIGTERM") != std::string::npos);
    CHECK(run.output.find("internal error") == std::string::npos);
    CHECK(run.output.find("pykern bug") == std::string::npos);
    CHECK(run.scratch_left == 0);
    CHECK_FALSE(run.compiler_left);
  }
}

TEST_CASE("a simulator build gives back the signal handlers the program had") {
  TempDir dir;
  static std::atomic<int> seen{0};
  struct sigaction ours {}, before {}, after {};
  ours.sa_handler = [](int) { seen = 1; };
  sigemptyset(&ours.sa_mask);
  REQUIRE(::sigaction(SIGINT, &ours, &before) == 0);
  run_on_cpu(dir.path);
  REQUIRE(::sigaction(SIGINT, &before, &after) == 0);
  CHECK((after.sa_handler == ours.sa_handler));
  CHECK(seen == 0);
}

TEST_CASE("the front-end cache key changes with the NVRTC version, so a cached PTX does not outlive NVRTC") {
  pykern::compiler::Request request{kernel_text, "k.py", {}};
  request.options.arch = "sm_90";
  std::string old_nvrtc = pykern::compiler::frontend_key(request, kernel_text, "sm_90", "12.4");
  std::string new_nvrtc = pykern::compiler::frontend_key(request, kernel_text, "sm_90", "12.8");
  CHECK(old_nvrtc != new_nvrtc);
  CHECK(old_nvrtc == pykern::compiler::frontend_key(request, kernel_text, "sm_90", "12.4"));
  // The form with a cache uses the version of the NVRTC this process loads.
  TempDir dir;
  KernelCache cache(dir.path);
  auto loaded = pykern::jit::nvrtc_version();
  CHECK(pykern::compiler::frontend_key(request, kernel_text, "sm_90", cache) ==
        pykern::compiler::frontend_key(request, kernel_text, "sm_90", loaded.ok() ? *loaded : "none"));
}

TEST_CASE("which NVRTC a process loads is remembered in the cache, so a cache hit need not load NVRTC") {
  TempDir dir;
  KernelCache cache(dir.path);
  REQUIRE(cache.enabled());
  auto loaded = pykern::jit::nvrtc_version();
  std::string memo_key = pykern::cache::cache_key({"nvrtc-memo", pykern::jit::nvrtc_search_context()});
  CHECK(pykern::compiler::nvrtc_version_for_key(cache) == (loaded.ok() ? *loaded : "none"));
  if (!loaded.ok()) {
    CHECK_FALSE(cache.note_lookup(memo_key));  // nothing loaded, nothing to remember
    return;
  }
  auto memo = cache.note_lookup(memo_key);
  REQUIRE(memo);
  CHECK(pykern::jit::nvrtc_version_from_memo(*memo) == *loaded);
  // A memo whose file changed, or that is garbled, is not believed; NVRTC is asked again and
  // the memo rewritten.
  fs::path fake = dir.path / "libnvrtc.so.99";
  std::ofstream(fake) << "not a library";
  std::string fake_memo = pykern::jit::loaded_nvrtc_memo().value();
  fake_memo = "99.9\n" + fake_memo.substr(fake_memo.find('\n') + 1);
  CHECK(pykern::jit::nvrtc_version_from_memo(fake_memo) == "99.9");  // the real file: unchanged, believed
  for (const char* bad : {"", "13.0\n", "13.0\n- \n/x\n", "x13\n1 2 3 4.5\n/lib\n", "13.0\n1 2 3 4.5\n/nowhere\n"})
    CHECK_FALSE(pykern::jit::nvrtc_version_from_memo(bad));
  struct stat status {};
  REQUIRE(::stat(fake.c_str(), &status) == 0);
  std::string identity = std::to_string(status.st_dev) + " " + std::to_string(status.st_ino) + " " +
                         std::to_string(status.st_size) + " " + std::to_string(status.st_mtim.tv_sec) + "." +
                         std::to_string(status.st_mtim.tv_nsec);
  std::string of_fake = "99.9\n" + identity + "\n" + fake.string() + "\n";
  CHECK(pykern::jit::nvrtc_version_from_memo(of_fake) == "99.9");
  std::ofstream(fake) << "another library, of another size";
  CHECK_FALSE(pykern::jit::nvrtc_version_from_memo(of_fake));  // swapped: not believed
  // A stale memo in the cache is replaced by what the loaded NVRTC says.
  cache.note_store(memo_key, of_fake);
  CHECK(pykern::compiler::nvrtc_version_for_key(cache) == *loaded);
  CHECK(pykern::jit::nvrtc_version_from_memo(cache.note_lookup(memo_key).value()) == *loaded);
  // The context names what decides the loader's choice.
  CHECK(pykern::jit::nvrtc_search_context().find("ld.so.cache") != std::string::npos);
  CHECK(pykern::jit::nvrtc_search_context().find("PYKERN_NVRTC=") != std::string::npos);
}
