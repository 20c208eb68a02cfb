#include "sim/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

namespace pykern::sim {

namespace {

constexpr int max_threads = 1024;

ThreadLimit read_thread_limit() {
  ThreadLimit limit;
  limit.threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, unsigned(max_threads)));
  const char* text = std::getenv("NUMBA_NUM_THREADS");
  if (text == nullptr || *text == '\0') return limit;
  char* end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < 1 || value > max_threads) {
    limit.error = fmt::format("NUMBA_NUM_THREADS='{}' is not a number of threads (1 .. {})",
                              std::string(text).substr(0, 40), max_threads);
    return limit;
  }
  limit.threads = static_cast<int>(value);
  return limit;
}

thread_local int requested_threads = 0;  // set_num_threads on this OS thread; 0: all
thread_local int thread_id = 0;
thread_local bool in_parallel_loop = false;

// One loop in progress on the pool.
struct Job {
  const std::function<void(int)>* run_part = nullptr;
  const std::function<void()>* enter = nullptr;
  int parts = 0;
  int threads = 0;  // the starting thread's set_num_threads, which its parts see too
  std::atomic<int> next_part{0};
  std::atomic<int> parts_left{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::exception_ptr first_error;
};

class Pool {
 public:
  explicit Pool(int threads) {
    for (int id = 1; id < threads; ++id) workers_.emplace_back([this, id] { work(id); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  // Whether this call ran the job on the pool (false: the pool is busy with another OS thread's).
  bool run(Job& job) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      ++generation_;
    }
    wake_.notify_all();
    take_parts(job);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return job.parts_left.load() == 0 && busy_workers_ == 0; });
    job_ = nullptr;
    return true;
  }

  static void take_parts(Job& job) {
    for (int part; (part = job.next_part.fetch_add(1)) < job.parts;) {
      if (!job.failed.load(std::memory_order_relaxed)) {
        try {
          (*job.run_part)(part);
        } catch (...) {
          std::lock_guard<std::mutex> lock(job.mutex);
          if (!job.first_error) job.first_error = std::current_exception();
          job.failed = true;
        }
      }
      job.parts_left.fetch_sub(1);
    }
  }

 private:
  void work(int id) {
    thread_id = id;
    in_parallel_loop = true;  // a loop inside a part runs in this thread
    uint64_t seen = 0;
    for (;;) {
      Job* job = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        job = job_;
        if (job == nullptr) continue;
        ++busy_workers_;
      }
      // Only threads 0 .. parts-1 take part, so get_thread_id() stays below get_num_threads().
      if (id < job->parts && job->next_part.load() < job->parts) {
        requested_threads = job->threads;
        try {
          (*job->enter)();
        } catch (...) {
        }
        take_parts(*job);
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        --busy_workers_;
      }
      done_.notify_all();
    }
  }

  std::mutex busy_;  // held by the OS thread whose loop is on the pool
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  Job* job_ = nullptr;
  uint64_t generation_ = 0;
  int busy_workers_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

Pool& pool() {
  static Pool instance(thread_limit().threads);
  return instance;
}

}  // namespace

const ThreadLimit& thread_limit() {
  static const ThreadLimit limit = read_thread_limit();
  return limit;
}

int parallel_parts(int64_t trip) {
  if (in_parallel_loop || trip <= 1) return 1;
  return static_cast<int>(std::min<int64_t>(get_num_threads(), trip));
}

void set_num_threads(int threads) { requested_threads = threads; }

int get_num_threads() {
  int limit = thread_limit().threads;
  return requested_threads > 0 ? std::min(requested_threads, limit) : limit;
}

int get_thread_id() { return thread_id; }

void run_parts(int parts, const std::function<void(int part)>& run_part, const std::function<void()>& enter) {
  Job job;
  job.run_part = &run_part;
  job.enter = &enter;
  job.parts = parts;
  job.threads = requested_threads;
  job.parts_left = parts;
  bool was_in_loop = in_parallel_loop;
  in_parallel_loop = true;
  if (parts <= 1 || was_in_loop || !pool().run(job)) Pool::take_parts(job);
  in_parallel_loop = was_in_loop;
  if (job.first_error) std::rethrow_exception(job.first_error);
}

}  // namespace pykern::sim
