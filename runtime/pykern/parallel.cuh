// pykern runtime: prange loops of parallel=True functions, and numba.set_num_threads /
// get_num_threads / get_thread_id. The emitter splits a parallel loop's iterations into parts
// (parts_of), runs each part through parallel_for and combines the reductions' partial values
// in part order afterwards, so a result depends on the number of parts, never on which thread
// ran which part or in what order. Host builds hand the parts to the engine's thread pool;
// device builds run the whole loop as one part in the calling thread.
#ifndef PYKERN_PARALLEL_CUH
#define PYKERN_PARALLEL_CUH
#include "pykern/arith.cuh"
#include "pykern/base.cuh"
#include "pykern/errors.cuh"
#include "pykern/thread.cuh"

namespace pk {

// The number of iterations of range(start, stop, step).
template <class T> PK_DEVICE i64 range_trip(T start, T stop, T step) { return range_len(make_range(start, stop, step)); }

// Part `part` of `parts` runs iterations [part_begin(part), part_begin(part + 1)): equal
// shares, the first `trip % parts` parts one iteration longer.
PK_DEVICE i64 part_begin(i64 trip, i32 parts, i32 part) {
  i64 share = trip / parts, longer = trip % parts;
  return share * part + (part < longer ? part : longer);
}

// The identity a product reduction's parts start from.
template <class T> PK_DEVICE T multiplicative_identity() { return T(1); }

#if PK_DEVICE_BUILD
PK_DEVICE i32 parts_of(i64) { return 1; }
template <class Body> PK_DEVICE void parallel_for(i32, i64 trip, const Body& body) { body(0, i64(0), trip); }
// One partial value per part of a parallel loop.
template <class T> struct partials {
  T value;
  PK_DEVICE partials(i32, T start) : value(start) {}
  PK_DEVICE T& operator[](i32) { return value; }
};
PK_DEVICE void set_num_threads(i64, const char*, int) {}
PK_DEVICE i64 get_num_threads() { return 1; }
PK_DEVICE i64 get_thread_id() { return 0; }
#else
// How many parts a loop of `trip` iterations is split into: one per thread the calling thread
// may use (set_num_threads), at most one per iteration; 1 inside another parallel loop.
inline i32 parts_of(i64 trip) { return sim::hooks->parallel_parts(trip); }

template <class Body> void parallel_for(i32 parts, i64 trip, const Body& body) {
  struct Job {
    const Body* body;
    i64 trip;
    i32 parts;
  };
  Job job{&body, trip, parts};
  sim::hooks->parallel_for(parts, &job, [](void* opaque, i32 part) {
    const Job& j = *static_cast<const Job*>(opaque);
    (*j.body)(part, part_begin(j.trip, j.parts, part), part_begin(j.trip, j.parts, part + 1));
  });
}

template <class T> struct partials {
  T* values;
  partials(i32 parts, T start) : values(new T[parts]) {
    for (i32 p = 0; p < parts; ++p) values[p] = start;
  }
  partials(const partials&) = delete;
  partials& operator=(const partials&) = delete;
  ~partials() { delete[] values; }
  T& operator[](i32 part) { return values[part]; }
};

// numba.set_num_threads(n): the threads later parallel loops of this OS thread may use, as
// Numba masks its pool per thread; n must lie in 1 .. NUMBA_NUM_THREADS.
inline void set_num_threads(i64 n, const char* file, int line) {
  i32 limit = sim::hooks->thread_limit();
  if (n < 1 || n > limit) {
    char message[80];
    __builtin_snprintf(message, sizeof message, "The number of threads must be between 1 and %d", limit);
    report_failure(file, line, "ValueError", message);
  }
  sim::hooks->set_num_threads(static_cast<i32>(n));
}
inline i64 get_num_threads() { return sim::hooks->get_num_threads(); }
// The pool thread running this part: 0 .. get_num_threads() - 1; 0 outside parallel loops.
inline i64 get_thread_id() { return sim::hooks->get_thread_id(); }
#endif

}  // namespace pk

// numba.set_num_threads(n), located at the Python line for its ValueError.
#define PK_SET_NUM_THREADS(n) ::pk::set_num_threads((n), __FILE__, __LINE__)
#endif  // PYKERN_PARALLEL_CUH
