// Issue 31, item 16: a launch's progress callback and its cancellation (Launch::progress,
// Launch::cancel_with, CancelSource), on the CPU simulator; the GPU's side is in
// test_cuda_launcher.cpp (the fake driver). Also `pykern run`'s Ctrl-C, which cancels so.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <stop_token>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "cli_run.h"
#include "pykern/module.h"
#include "pykern/npy.h"

using namespace pykern;
namespace fs = std::filesystem;

namespace {

using clock_type = std::chrono::steady_clock;

fs::path cache_dir() { return fs::temp_directory_path() / ("pykern-progress-cache-" + std::to_string(::getpid())); }

ModuleOptions options() {
  ModuleOptions o;
  o.cache_dir = cache_dir().string();
  return o;
}

const char* kernels = R"py(
from numba import cuda

@cuda.jit
def fill(a, n):
    # Each thread steps a generator n times (no closed form), so that a launch takes a while.
    i = cuda.grid(1)
    x = i
    for k in range(n):
        x = x * 6364136223846793005 + 1442695040888963407
    if i < a.size:
        a[i] = i if x != 7 else -1
)py";

Kernel fill() {
  auto module = Module::load_source(kernels, "progress.py", options());
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  auto kernel = module->kernel("fill");
  REQUIRE(kernel.ok());
  return *kernel;
}

// What the callback saw, from the thread pykern calls it on.
struct Seen {
  std::mutex mutex;
  std::vector<LaunchProgress> calls;
  std::atomic<int> count{0};
  void operator()(const LaunchProgress& p) {
    std::lock_guard<std::mutex> lock(mutex);
    calls.push_back(p);
    ++count;
  }
};

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

// Runs `cancel` on another thread once the launch has reported progress once (it is running).
struct CancelWhenRunning {
  std::atomic<bool> running{false};
  std::thread thread;
  clock_type::time_point cancelled_at{};
  template <class F> explicit CancelWhenRunning(F cancel) {
    thread = std::thread([this, cancel] {
      for (int waited = 0; !running && waited < 30000; ++waited) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      cancelled_at = clock_type::now();
      cancel();
    });
  }
  ~CancelWhenRunning() { thread.join(); }
};

// Loop trips no test waits for; the launches that run them have a 60 s timeout besides, so that
// a cancel that does not work fails the test instead of hanging it.
constexpr int64_t for_ever = int64_t(1) << 50;

}  // namespace

TEST_CASE("a launch's progress callback sees its blocks done grow to the total, and a last call at the end") {
  Kernel kernel = fill();
  Array a = Array::zeros(DType::int_(64), {64 * 32});
  Seen seen;
  auto started = clock_type::now();
  auto status = kernel.launch(Launch(64, 32).backend(Backend::cpu).progress(std::ref(seen), std::chrono::milliseconds(1)),
                              a, int64_t(200000));
  double took = seconds_since(started);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? std::string() : status.error().message));
  CHECK(a.at<int64_t>(2047) == 2047);
  REQUIRE_FALSE(seen.calls.empty());
  for (size_t i = 0; i < seen.calls.size(); ++i) {
    CAPTURE(i);
    CHECK(seen.calls[i].blocks_total == 64);
    CHECK(seen.calls[i].finished == (i + 1 == seen.calls.size()));
    if (i > 0) {
      CHECK(seen.calls[i].blocks_done >= seen.calls[i - 1].blocks_done);
      CHECK(seen.calls[i].elapsed_seconds >= seen.calls[i - 1].elapsed_seconds);
    }
  }
  CHECK(seen.calls.back().blocks_done == 64);
  CHECK(seen.calls.back().elapsed_seconds <= took);
  // A launch that ran for many intervals was reported on while it ran, not only at its end.
  if (took > 0.05) CHECK(seen.calls.size() >= 2);
}

TEST_CASE("a cancel token cancelled before the launch runs nothing and says so") {
  Kernel kernel = fill();
  Array a = Array::zeros(DType::int_(64), {32});
  CancelSource cancel;
  cancel.request_cancel();
  Seen seen;
  auto status = kernel.launch(Launch(1, 32).backend(Backend::cpu).cancel_with(cancel.token()).progress(std::ref(seen)), a,
                              int64_t(1));
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().kind == ErrorKind::cancelled);
  CHECK(status.error().message == "kernel 'fill': the launch was cancelled before it started; nothing ran");
  CHECK(std::string(to_string(ErrorKind::cancelled)) == "cancelled");
  CHECK(a.at<int64_t>(31) == 0);
  CHECK(seen.count == 0);
  // The same launch without the token runs: nothing was left behind.
  REQUIRE(kernel.launch(Launch(1, 32).backend(Backend::cpu), a, int64_t(1)).ok());
  CHECK(a.at<int64_t>(31) == 31);
}

TEST_CASE("a cancel during a long simulator launch stops its threads at their next loop iteration") {
  Kernel kernel = fill();
  REQUIRE(kernel.prepare({Array::zeros(DType::int_(64), {1}), Scalar(int64_t(1))}, Backend::cpu).ok());  // built before
  Array a = Array::zeros(DType::int_(64), {8 * 32});
  CancelSource cancel;
  Seen seen;
  auto started = clock_type::now();
  Status status = ok_status();
  {
    CancelWhenRunning canceller([&] { cancel.request_cancel(); });
    auto report = [&](const LaunchProgress& p) {
      seen(p);
      canceller.running = true;
    };
    status = kernel.launch(Launch(8, 32).backend(Backend::cpu).timeout(60).cancel_with(cancel.token()).progress(report,
                                                                                                    std::chrono::milliseconds(5)),
                           a, for_ever);
  }
  double took = seconds_since(started);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().kind == ErrorKind::cancelled);
  CHECK(status.error().message.find("kernel 'fill': the launch was cancelled after 0 of 8 blocks had run; the arrays it "
                                    "writes are left partly written") == 0);
  CHECK(took < 20);  // the loop would run for days: it was stopped
  REQUIRE_FALSE(seen.calls.empty());
  CHECK(seen.calls.back().finished);
  // Nothing of the launch is left running: the next launch works at once.
  REQUIRE(kernel.launch(Launch(8, 32).backend(Backend::cpu), a, int64_t(1)).ok());
  CHECK(a.at<int64_t>(255) == 255);
}

TEST_CASE("a C++20 std::stop_token cancels a launch, also from inside its progress callback") {
  Kernel kernel = fill();
  Array a = Array::zeros(DType::int_(64), {32});
  std::stop_source stop;
  auto status = kernel.launch(Launch(2, 16)
                                  .backend(Backend::cpu)
                                  .timeout(60)  // a cancel that did not work fails, not hangs
                                  .cancel_with(stop.get_token())
                                  .progress([&](const LaunchProgress&) { stop.request_stop(); }, std::chrono::milliseconds(1)),
                              a, for_ever);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().kind == ErrorKind::cancelled);
  CancelToken never;
  CHECK_FALSE(never.can_be_cancelled());
  CHECK_FALSE(never.cancel_requested());
  std::stop_source later;
  CancelToken converted = later.get_token();
  CHECK_FALSE(converted.cancel_requested());
  later.request_stop();
  CHECK(converted.cancel_requested());
}

TEST_CASE("a progress callback that throws fails the launch with its message, and stops the kernel") {
  Kernel kernel = fill();
  Array a = Array::zeros(DType::int_(64), {64});
  auto started = clock_type::now();
  auto status = kernel.launch(Launch(2, 32).backend(Backend::cpu).timeout(60).progress(
                                  [](const LaunchProgress&) { throw std::runtime_error("the window was closed"); },
                                  std::chrono::milliseconds(1)),
                              a, for_ever);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().kind == ErrorKind::launch);
  CHECK(status.error().message ==
        "kernel 'fill' failed: the launch's progress callback threw an exception: the window was closed");
  CHECK(seconds_since(started) < 20);
  // Thrown at the last call only (a short launch): the launch fails all the same, once.
  int calls = 0;
  auto last = kernel.launch(Launch(1, 1).backend(Backend::cpu).progress([&](const LaunchProgress& p) {
    ++calls;
    if (p.finished) throw 42;
  }),
                            a, int64_t(1));
  REQUIRE_FALSE(last.ok());
  CHECK(last.error().message.find("not a std::exception") != std::string::npos);
  CHECK(calls >= 1);
}

TEST_CASE("a progress interval below 1 ms is refused before anything runs") {
  Kernel kernel = fill();
  Array a = Array::zeros(DType::int_(64), {4});
  auto status = kernel.launch(Launch(1, 4).progress([](const LaunchProgress&) {}, std::chrono::milliseconds(0)), a,
                              int64_t(1));
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().message.find("the progress callback's interval must be at least 1 ms") != std::string::npos);
}

TEST_CASE("a cancel token stops the host compiler's build of the simulator library") {
  fs::path dir = cache_dir() / "slow-compiler";
  fs::create_directories(dir);
  fs::path marker = dir / "started";
  fs::remove(marker);
  fs::path wrapper = dir / "slow-c++";
  std::ofstream(wrapper) << "#!/bin/sh\ntouch " << marker.string() << "\nsleep 60\nexec c++ \"$@\"\n";
  fs::permissions(wrapper, fs::perms::owner_all);
  const char* before = std::getenv("PYKERN_CXX");
  std::string saved = before ? before : "";
  ::setenv("PYKERN_CXX", wrapper.c_str(), 1);
  // A kernel no other test builds, so that its library is not in the cache.
  auto module = Module::load_source(std::string(kernels) + "# " + std::to_string(::getpid()) + " slow build\n",
                                    "slow.py", options());
  REQUIRE(module.ok());
  CancelSource cancel;
  auto started = clock_type::now();
  Status status = ok_status();
  {
    std::thread canceller([&] {
      for (int waited = 0; !fs::exists(marker) && waited < 30000; ++waited)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      cancel.request_cancel();
    });
    status = module->kernel("fill")->prepare({Array::zeros(DType::int_(64), {1}), Scalar(int64_t(1))}, Backend::cpu,
                                             cancel.token());
    canceller.join();
  }
  if (before) ::setenv("PYKERN_CXX", saved.c_str(), 1);
  else ::unsetenv("PYKERN_CXX");
  CHECK(fs::exists(marker));
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().kind == ErrorKind::cancelled);
  CHECK(status.error().message.find("kernel 'fill': cancelled while the host compiler built the simulator library") == 0);
  CHECK(seconds_since(started) < 30);  // the wrapper sleeps 60 s: it was stopped
}

// `pykern run` cancels its launch through the same token on SIGINT or SIGTERM (it was killed
// by the signal before): it says so, writes nothing and exits 128 + the signal.
TEST_CASE("a SIGINT or SIGTERM during `pykern run`'s launch cancels it, writes nothing and exits 130 or 143") {
  test::Scratch s;
  fs::path file = s.write("spin.py", kernels);
  REQUIRE(save_npy((s.path / "a.npy").string(), Array::zeros(DType::int_(64), {64})).ok());
  std::string arguments = "run " + file.string() + " fill --backend cpu --grid 2 --block 32 " + (s.path / "a.npy").string() +
                          " " + std::to_string(for_ever) + " --out " + (s.path / "out").string();
  // Built once, so that the signal comes while the kernel runs, not while it is compiled.
  test::CliRun warm = test::run_cli(arguments + " --timeout 0.1", s.cache_env());
  REQUIRE_MESSAGE(warm.output.find("TimeoutError") != std::string::npos, warm.output);
  for (int signal : {SIGINT, SIGTERM}) {
    CAPTURE(signal);
    fs::path log = s.path / "log";
    pid_t pid = ::fork();
    if (pid == 0) {
      ::setenv("PYKERN_CACHE_DIR", (s.path / "cache").c_str(), 1);
      int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::signal(SIGINT, SIG_DFL);  // a test run in the background may have them ignored
      ::signal(SIGTERM, SIG_DFL);
      ::execl("/bin/sh", "sh", "-c", ("exec " + std::string(PYKERN_BINARY) + " " + arguments).c_str(),
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    REQUIRE(pid > 0);
    for (int waited = 0; waited < 3000 && test::read(log).find("on the CPU simulator") == std::string::npos; ++waited)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the cached build loads in milliseconds
    ::kill(pid, signal);
    int status = 0;
    bool ended = false;
    for (int waited = 0; waited < 2000 && !ended; ++waited) {
      ended = ::waitpid(pid, &status, WNOHANG) == pid;
      if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!ended) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
    }
    std::string output = test::read(log);
    INFO(output);
    REQUIRE(ended);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 128 + signal);
    CHECK(output.find(std::string("pykern: error: interrupted by ") + (signal == SIGINT ? "SIGINT" : "SIGTERM") +
                      ": kernel 'fill': the launch was cancelled after 0 of 2 blocks had run") != std::string::npos);
    CHECK(output.find("no output was written") != std::string::npos);
    CHECK_FALSE(fs::exists(s.path / "out" / "a.npy"));
  }
}

TEST_CASE("zz: the progress tests' cache is removed") {
  std::error_code error;
  fs::remove_all(cache_dir(), error);
}

TEST_CASE("a launch with only a cancel token starts no thread to watch it: its workers ask the token themselves") {
  // Every `pykern run` launch has a token (its Ctrl-C handling); a watching thread was a
  // thread's start and end in each. One block: the launch runs on the calling thread alone.
  Kernel kernel = fill();
  REQUIRE(kernel.prepare({Array::zeros(DType::int_(64), {1}), Scalar(int64_t(1))}, Backend::cpu).ok());  // built before
  auto tasks = [] {
    int n = 0;
    for ([[maybe_unused]] const auto& task : fs::directory_iterator("/proc/self/task")) ++n;
    return n;
  };
  Array a = Array::zeros(DType::int_(64), {32});
  CancelSource cancel;
  std::atomic<int> most{0};
  std::atomic<bool> launched{false};
  int before = 0;
  std::thread watcher([&] {
    while (!launched) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    for (int i = 0; i < 50; ++i) {  // 250 ms into a launch that would run for days
      most = std::max(most.load(), tasks());
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    cancel.request_cancel();
  });
  before = tasks();  // this thread and the watcher
  launched = true;
  Status status = kernel.launch(Launch(1, 32).backend(Backend::cpu).cancel_with(cancel.token()), a, for_ever);
  watcher.join();
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().kind == ErrorKind::cancelled);
  CHECK(status.error().message.find("the launch was cancelled after 0 of 1 blocks had run") != std::string::npos);
  CHECK(most.load() == before);
}
