// The thread pool that runs prange loops of parallel=True functions (runtime/pykern/
// parallel.cuh): NUMBA_NUM_THREADS threads in all, the caller included, started on first use
// and kept for the life of the process, as Numba's threading layer keeps its own.
//   - A loop is split into parts; each thread takes the next part until none is left. Which
//     thread runs which part does not change a result: reductions combine in part order.
//   - Like Numba, each OS thread has its own set_num_threads() setting, and a loop inside a
//     running parallel loop runs in its calling thread.
//   - One loop runs on the pool at a time; a loop started on another OS thread while it is busy
//     runs its parts in its own thread, so two programs' calls never wait on each other.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace pykern::sim {

// NUMBA_NUM_THREADS if set (1 .. 1024), else the number of hardware threads; an unusable
// value is an error the first loop reports.
struct ThreadLimit {
  int threads = 1;
  std::string error;  // why NUMBA_NUM_THREADS was refused
};
const ThreadLimit& thread_limit();

// The parts a loop of `trip` iterations splits into on the calling thread: its set_num_threads
// (at most `trip`, at least 1); 1 inside a parallel loop.
int parallel_parts(int64_t trip);
void set_num_threads(int threads);
int get_num_threads();
// 0 in the thread that started the running loop (and outside loops), 1 .. n-1 in the others.
int get_thread_id();

// Runs run_part(0) .. run_part(parts - 1) on the pool and returns when all have run. If parts
// throw, the others still finish (or are skipped), and the first exception is rethrown here.
// `enter` runs first on each pool thread that takes part (the engine hands on its per-thread
// state with it).
void run_parts(int parts, const std::function<void(int part)>& run_part, const std::function<void()>& enter);

}  // namespace pykern::sim
