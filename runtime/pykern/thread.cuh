// pykern runtime: thread indices, barriers, atomics and warp intrinsics (numba.cuda.*).
// Types follow Numba: threadIdx.x and friends are int32, cuda.grid() is int64.
#ifndef PYKERN_THREAD_CUH
#define PYKERN_THREAD_CUH
#include "pykern/base.cuh"

#if !PK_DEVICE_BUILD
// Host builds: the CPU simulator's engine, which lives in the pykern library, provides these
// through a table of hooks that it hands to the simulator library before each launch. Kernel
// code sees plain functions.
namespace pk::sim {
struct dim3 { u32 x, y, z; };
struct Hooks {
  dim3 (*thread_idx)();
  dim3 (*block_idx)();
  dim3 (*block_dim)();
  dim3 (*grid_dim)();
  void* (*shared_storage)(int slot, u64 bytes, u64 alignment);
  void (*syncthreads)();
  i32 (*syncthreads_count)(i32 predicate);
  void (*syncwarp)(u32 mask);
  u64 (*warp_exchange)(u32 mask, u64 value, i32 lane);  // value of `lane` within this warp
  u32 (*warp_ballot)(u32 mask, i32 predicate);
  void (*threadfence)();
  // These two do not return: they stop the thread (the engine unwinds it).
  void (*report_index_error)(const char* file, int line, i64 index, int axis, i64 size);
  void (*report_failure)(const char* file, int line, const char* kind, const char* message);
  // Stops the thread when its launch ran past its timeout (Launch::timeout, run --timeout).
  void (*check_stop)(const char* file, int line);
  // The block's dynamic shared memory (Launch::shared_bytes), and its size in bytes.
  void* (*dynamic_shared)();
  u64 (*dynamic_shared_bytes)();
  // grid.sync(): waits until every live thread of the grid arrives (KernelInfo::syncs_grid).
  void (*grid_sync)();
  // A host call's list result: `count` items of `itemsize` bytes, copied by the engine.
  void (*export_items)(const void* items, u64 count, u64 itemsize);
  // A host call's returned array (owned_array.cuh): value `slot` of what it returns, viewing
  // `data`; `storage` (a pk::ArrayStorage*, or null for borrowed memory) carries a reference the
  // engine takes over.
  void (*export_array)(i32 slot, void* storage, void* data, i32 ndim, const i64* shape, const i64* strides);
  // Host calls' random states (host_random.cuh): `bytes` zeroed at first, kept per OS thread.
  void* (*host_random_state)(i32 which, u64 bytes);
  u32 (*entropy)();
  // prange loops of parallel=True functions (parallel.cuh): how many parts a loop of `trip`
  // iterations splits into, and the run of parts 0 .. parts-1 on the thread pool, which returns
  // when all have run (it stops the caller as report_failure does if one failed).
  i32 (*parallel_parts)(i64 trip);
  void (*parallel_for)(i32 parts, void* job, void (*run_part)(void* job, i32 part));
  i32 (*thread_limit)();  // NUMBA_NUM_THREADS
  void (*set_num_threads)(i32 n);
  i32 (*get_num_threads)();
  i32 (*get_thread_id)();
  // Whether a frame at this address is past what the thread's stack (a fiber's or the OS
  // thread's) can take, less room to report it: a recursion too deep stops with RecursionError.
  bool (*stack_exhausted)(const void* frame);
  // The BLAS/LAPACK routine `symbol` ("dgemm_") for np.dot and np.linalg (linalg.cuh), from the
  // library the engine found (sim/blas_library.h); when there is none it stops the thread as
  // report_failure does, saying what to install.
  void* (*linalg_routine)(const char* file, int line, const char* symbol);
  // A host call's list or dict argument as the function left it (host_values.cuh), `size`
  // bytes of the value stream, copied by the engine: argument `index` comes back to the caller.
  void (*export_argument)(i32 index, const void* bytes, u64 size);
};
inline const Hooks* hooks = nullptr;

inline dim3 thread_idx() { return hooks->thread_idx(); }
inline dim3 block_idx() { return hooks->block_idx(); }
inline dim3 block_dim() { return hooks->block_dim(); }
inline dim3 grid_dim() { return hooks->grid_dim(); }
inline void* shared_storage(int slot, u64 bytes, u64 alignment) { return hooks->shared_storage(slot, bytes, alignment); }
inline void syncthreads() { hooks->syncthreads(); }
inline i32 syncthreads_count(i32 predicate) { return hooks->syncthreads_count(predicate); }
inline void syncwarp(u32 mask) { hooks->syncwarp(mask); }
inline u64 warp_exchange(u32 mask, u64 value, i32 lane) { return hooks->warp_exchange(mask, value, lane); }
inline u32 warp_ballot(u32 mask, i32 predicate) { return hooks->warp_ballot(mask, predicate); }
inline void threadfence() { hooks->threadfence(); }
inline void* dynamic_shared() { return hooks->dynamic_shared(); }
inline u64 dynamic_shared_bytes() { return hooks->dynamic_shared_bytes(); }
inline void grid_sync() { hooks->grid_sync(); }

// A kernel of the simulator library: its wrapper unpacks the launcher's argument pointers.
using Entry = void (*)(void* const* args);
struct KernelInfo {
  const char* symbol;
  Entry entry;
  bool cooperative;  // meets at barriers or warp collectives: the engine runs its threads as fibers
  u64 local_bytes;   // cuda.local.array bytes per thread: the engine sizes fiber stacks from it
  bool syncs_grid;   // calls grid.sync(): the engine runs every block of the grid at once
};
}  // namespace pk::sim

// Every loop iteration ticks a counter local to the function; every 1024th asks the engine
// whether the launch must stop, so a kernel that never ends can be stopped (Launch::timeout).
// A local, not a thread_local: TLS in a dlopen'd library costs a call per access.
// PK_NO_LOOP_TICKS (host calls of @jit functions, which take no timeout): none, so that loops
// hold no call and the compiler may vectorise them, as LLVM does Numba's.
#ifdef PK_NO_LOOP_TICKS
#define PK_LOOP_COUNTER() ((void)0)
#define PK_LOOP_TICK() ((void)0)
#else
#define PK_LOOP_COUNTER() ::pk::u32 pk_loop_ticks = 0
#define PK_LOOP_TICK() \
  ((++pk_loop_ticks & 1023u) == 0 ? ::pk::sim::hooks->check_stop(__FILE__, __LINE__) : (void)0)
#endif
// At the entry of a recursive function: a recursion deeper than the stack stops with Python's
// RecursionError rather than running past the stack (on a GPU, a launch failure).
#define PK_RECURSION_CHECK() \
  (::pk::sim::hooks->stack_exhausted(__builtin_frame_address(0)) \
       ? ::pk::sim::hooks->report_failure(__FILE__, __LINE__, "RecursionError", "maximum recursion depth exceeded") \
       : (void)0)
#else
#define PK_LOOP_COUNTER() ((void)0)
#define PK_LOOP_TICK() ((void)0)
#define PK_RECURSION_CHECK() ((void)0)
#endif

namespace pk {

#if PK_DEVICE_BUILD
#define PK_INDEX(name, source) \
  PK_DEVICE i32 name##_x() { return static_cast<i32>(source.x); } \
  PK_DEVICE i32 name##_y() { return static_cast<i32>(source.y); } \
  PK_DEVICE i32 name##_z() { return static_cast<i32>(source.z); }
PK_INDEX(threadIdx, threadIdx)
PK_INDEX(blockIdx, blockIdx)
PK_INDEX(blockDim, blockDim)
PK_INDEX(gridDim, gridDim)
#else
#define PK_INDEX(name, source) \
  PK_DEVICE i32 name##_x() { return static_cast<i32>(sim::source().x); } \
  PK_DEVICE i32 name##_y() { return static_cast<i32>(sim::source().y); } \
  PK_DEVICE i32 name##_z() { return static_cast<i32>(sim::source().z); }
PK_INDEX(threadIdx, thread_idx)
PK_INDEX(blockIdx, block_idx)
PK_INDEX(blockDim, block_dim)
PK_INDEX(gridDim, grid_dim)
#endif
#undef PK_INDEX

PK_DEVICE i32 warpsize() { return 32; }
PK_DEVICE i32 laneid() {
  i32 linear = threadIdx_x() + threadIdx_y() * blockDim_x() + threadIdx_z() * blockDim_x() * blockDim_y();
  return linear & 31;
}

// cuda.grid(n): absolute thread position(s), computed in 64 bits as Numba does.
PK_DEVICE i64 grid1() { return i64(threadIdx_x()) + i64(blockIdx_x()) * i64(blockDim_x()); }
// The tuples are built as aggregates: make_tuple's recursion costs NVRTC more.
PK_DEVICE tuple<i64, i64> grid2() {
  return {grid1(), {i64(threadIdx_y()) + i64(blockIdx_y()) * i64(blockDim_y()), {}}};
}
PK_DEVICE tuple<i64, i64, i64> grid3() {
  return {grid1(), {i64(threadIdx_y()) + i64(blockIdx_y()) * i64(blockDim_y()),
                    {i64(threadIdx_z()) + i64(blockIdx_z()) * i64(blockDim_z()), {}}}};
}
PK_DEVICE i64 gridsize1() { return i64(blockDim_x()) * i64(gridDim_x()); }
PK_DEVICE tuple<i64, i64> gridsize2() { return make_tuple(gridsize1(), i64(blockDim_y()) * i64(gridDim_y())); }
PK_DEVICE tuple<i64, i64, i64> gridsize3() {
  return make_tuple(gridsize1(), i64(blockDim_y()) * i64(gridDim_y()), i64(blockDim_z()) * i64(gridDim_z()));
}

// ---- barriers and fences ----
#if PK_DEVICE_BUILD
PK_DEVICE void syncthreads() { __syncthreads(); }
PK_DEVICE i32 syncthreads_count(i32 p) { return __syncthreads_count(p); }
PK_DEVICE i32 syncthreads_and(i32 p) { return __syncthreads_and(p); }
PK_DEVICE i32 syncthreads_or(i32 p) { return __syncthreads_or(p); }
PK_DEVICE void syncwarp(u32 mask) { __syncwarp(mask); }
PK_DEVICE void threadfence() { __threadfence(); }
PK_DEVICE void threadfence_block() { __threadfence_block(); }
PK_DEVICE void threadfence_system() { __threadfence_system(); }
#else
PK_DEVICE void syncthreads() { sim::syncthreads(); }
PK_DEVICE i32 syncthreads_count(i32 p) { return sim::syncthreads_count(p != 0); }
PK_DEVICE i32 syncthreads_and(i32 p) {
  i32 n = blockDim_x() * blockDim_y() * blockDim_z();
  return sim::syncthreads_count(p != 0) == n;
}
PK_DEVICE i32 syncthreads_or(i32 p) { return sim::syncthreads_count(p != 0) > 0; }
PK_DEVICE void syncwarp(u32 mask) { sim::syncwarp(mask); }
PK_DEVICE void threadfence() { sim::threadfence(); }
PK_DEVICE void threadfence_block() { sim::threadfence(); }
PK_DEVICE void threadfence_system() { sim::threadfence(); }
#endif

// ---- cooperative groups: cuda.cg.this_grid() and grid.sync() ----
struct grid_group {};
PK_DEVICE grid_group this_grid() { return {}; }
#if PK_DEVICE_BUILD
}  // namespace pk
// The grid barrier's word, one per module, zero when the module loads. At each sync one thread
// of every block adds 1, except block 0's, which adds 0x80000000 - (blocks - 1): the round's
// additions sum to 0x80000000, so bit 31 flips exactly when the last block arrives and the low
// bits return to where they were. No reset is needed between rounds or launches. A cooperative
// launch (the launcher's) keeps all blocks resident, so the spinning cannot starve a block.
__device__ unsigned int pk_grid_barrier;
namespace pk {
// Returns 0, as numba-cuda's cudaCGSynchronize does. Threads that have returned do not take
// part; the block's representative is the last thread to arrive, so any may have returned.
PK_NOINLINE_DEVICE i32 grid_sync(grid_group) {
  __shared__ unsigned int arrivals;  // never reset: only differences between its values count
  __syncthreads();
  unsigned int order = atomicAdd(&arrivals, 1u);
  __syncthreads();
  unsigned int last = *static_cast<volatile unsigned int*>(&arrivals) - 1u;
  if (order == last) {
    bool first_block = blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0;
    unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
    unsigned int add = first_block ? 0x80000000u - (blocks - 1u) : 1u;
    __threadfence();  // this block's writes before the arrival
    unsigned int before = atomicAdd(&pk_grid_barrier, add);
    volatile unsigned int* word = &pk_grid_barrier;
    while (((before ^ *word) & 0x80000000u) == 0) {
    }
    __threadfence();  // the other blocks' writes after it
  }
  __syncthreads();
  return 0;
}
#else
PK_DEVICE i32 grid_sync(grid_group) {
  sim::grid_sync();
  return 0;
}
#endif

// ---- atomics: each returns the old value, as numba.cuda.atomic does ----
#if PK_DEVICE_BUILD
template <int Bytes> struct atomic_word;
template <> struct atomic_word<4> { using type = unsigned int; };
template <> struct atomic_word<8> { using type = unsigned long long; };
template <class T> PK_DEVICE T atomic_add(T& place, T value) {
  if constexpr (sizeof(T) == 8 && T(0.5) == T(0)) {
    return T(atomicAdd(reinterpret_cast<unsigned long long*>(&place), static_cast<unsigned long long>(value)));
  } else {
    return atomicAdd(&place, value);
  }
}
template <class T> PK_DEVICE T atomic_sub(T& place, T value) { return atomic_add(place, T(-value)); }
// Compare-and-swap on the bits of any 4- or 8-byte type.
template <class T, class F> PK_DEVICE T atomic_update(T& place, F update) {
  using Word = typename atomic_word<sizeof(T)>::type;
  union Bits {
    T value;
    Word word;
  };
  Word* address = reinterpret_cast<Word*>(&place);
  Bits old{}, assumed{}, next{};
  old.word = *static_cast<volatile Word*>(address);
  while (true) {
    assumed.word = old.word;
    next.value = update(assumed.value);
    // An update that leaves the bits as they are writes nothing: numba-cuda's float max and min
    // return the element at once where it already wins (nanmax of a NaN too), where a
    // compare-and-swap would still take the line for writing (BENCHMARKS.md).
    if (next.word == assumed.word) return assumed.value;
    old.word = atomicCAS(address, assumed.word, next.word);
    if (old.word == assumed.word) return assumed.value;
  }
}
#else
template <class T, class F> PK_DEVICE T atomic_update(T& place, F update) {
  // The generic builtins work on the bytes of any type, floats included.
  T old;
  __atomic_load(&place, &old, __ATOMIC_SEQ_CST);
  T next = update(old);
  while (!__atomic_compare_exchange(&place, &old, &next, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) next = update(old);
  return old;
}
template <class T> PK_DEVICE T atomic_add(T& place, T value) { return atomic_update(place, [=](T v) { return T(v + value); }); }
template <class T> PK_DEVICE T atomic_sub(T& place, T value) { return atomic_update(place, [=](T v) { return T(v - value); }); }
#endif
// max/min replace the element only when the new value compares greater (less): a NaN on either
// side leaves it as it was, as numba-cuda's GPU code and Python's max(old, val) both do.
template <class T> PK_DEVICE T atomic_max(T& place, T value) { return atomic_update(place, [=](T v) { return value > v ? value : v; }); }
template <class T> PK_DEVICE T atomic_min(T& place, T value) { return atomic_update(place, [=](T v) { return value < v ? value : v; }); }
template <class T> PK_DEVICE T atomic_nanmax(T& place, T value) {
  return atomic_update(place, [=](T v) { return (v != v) ? value : (value != value) ? v : v > value ? v : value; });
}
template <class T> PK_DEVICE T atomic_nanmin(T& place, T value) {
  return atomic_update(place, [=](T v) { return (v != v) ? value : (value != value) ? v : v < value ? v : value; });
}
template <class T> PK_DEVICE T atomic_exch(T& place, T value) { return atomic_update(place, [=](T) { return value; }); }
template <class T> PK_DEVICE T atomic_and(T& place, T value) { return atomic_update(place, [=](T v) { return T(v & value); }); }
template <class T> PK_DEVICE T atomic_or(T& place, T value) { return atomic_update(place, [=](T v) { return T(v | value); }); }
template <class T> PK_DEVICE T atomic_xor(T& place, T value) { return atomic_update(place, [=](T v) { return T(v ^ value); }); }
// cuda.atomic.inc/dec: wrap at `value` as CUDA's atomicInc/atomicDec do. numba-cuda loops with
// compare-and-swap for uint64 too (___numba_atomic_u64_inc/dec): the GPU has no 64-bit inc/dec.
template <class T> PK_DEVICE T atomic_inc(T& place, T value) {
  return atomic_update(place, [=](T v) { return v >= value ? T(0) : T(v + 1); });
}
template <class T> PK_DEVICE T atomic_dec(T& place, T value) {
  return atomic_update(place, [=](T v) { return (v == 0 || v > value) ? value : T(v - 1); });
}
template <class T> PK_DEVICE T atomic_cas(T& place, T expected, T value) {
  return atomic_update(place, [=](T v) { return v == expected ? value : v; });
}

#if PK_DEVICE_BUILD
// The integer atomics the GPU has an instruction for, which numba-cuda emits (atomicrmw and
// cmpxchg, and llvm.nvvm.atomic.load.inc/dec.32 in cudaimpl.py): these non-template overloads
// win over the compare-and-swap loops above for int32, uint32, int64 and uint64. max and min
// compare signed or unsigned by the type (atom.max.s64, atom.max.u64); nanmax and nanmin of
// integers are max and min, as numba-cuda lowers them. and/or/xor/exch/cas work on the bits:
// CUDA's unsigned overloads (atom.and.b32, atom.cas.b64, ...) serve the signed types too.
template <class T> using atomic_word_t = typename atomic_word<sizeof(T)>::type;
template <class T> PK_DEVICE atomic_word_t<T>* word_of(T& place) { return reinterpret_cast<atomic_word_t<T>*>(&place); }
#define PK_NATIVE_ATOMICS(T)                                                                                      \
  PK_DEVICE T atomic_max(T& place, T value) { return atomicMax(&place, value); }                                  \
  PK_DEVICE T atomic_min(T& place, T value) { return atomicMin(&place, value); }                                  \
  PK_DEVICE T atomic_nanmax(T& place, T value) { return atomicMax(&place, value); }                               \
  PK_DEVICE T atomic_nanmin(T& place, T value) { return atomicMin(&place, value); }                               \
  PK_DEVICE T atomic_and(T& place, T value) { return T(atomicAnd(word_of(place), atomic_word_t<T>(value))); }     \
  PK_DEVICE T atomic_or(T& place, T value) { return T(atomicOr(word_of(place), atomic_word_t<T>(value))); }       \
  PK_DEVICE T atomic_xor(T& place, T value) { return T(atomicXor(word_of(place), atomic_word_t<T>(value))); }     \
  PK_DEVICE T atomic_exch(T& place, T value) { return T(atomicExch(word_of(place), atomic_word_t<T>(value))); }   \
  PK_DEVICE T atomic_cas(T& place, T expected, T value) {                                                         \
    return T(atomicCAS(word_of(place), atomic_word_t<T>(expected), atomic_word_t<T>(value)));                     \
  }
PK_NATIVE_ATOMICS(i32)
PK_NATIVE_ATOMICS(u32)
PK_NATIVE_ATOMICS(i64)
PK_NATIVE_ATOMICS(u64)
#undef PK_NATIVE_ATOMICS
// atom.inc.u32 and atom.dec.u32 wrap exactly as atomic_inc and atomic_dec above.
PK_DEVICE u32 atomic_inc(u32& place, u32 value) { return atomicInc(&place, value); }
PK_DEVICE u32 atomic_dec(u32& place, u32 value) { return atomicDec(&place, value); }
#endif

// ---- bit operations (cuda.popc/clz/ffs/brev) ----
// x's own bits, zero-extended: a negative int8 has 8 set bits, not the 64 of its sign extension.
// popc and clz count these at x's width, as numba-cuda's llvm.ctpop/ctlz on the value's own type.
template <class T> PK_DEVICE u64 own_bits(T x) {
  return sizeof(T) == 8 ? u64(x) : u64(x) & ((u64(1) << (sizeof(T) * 8)) - 1);
}

// ---- warp intrinsics ----
#if PK_DEVICE_BUILD
template <class T> PK_DEVICE T shfl_sync(u32 mask, T v, i32 lane) { return __shfl_sync(mask, v, lane); }
template <class T> PK_DEVICE T shfl_up_sync(u32 mask, T v, i32 delta) { return __shfl_up_sync(mask, v, delta); }
template <class T> PK_DEVICE T shfl_down_sync(u32 mask, T v, i32 delta) { return __shfl_down_sync(mask, v, delta); }
template <class T> PK_DEVICE T shfl_xor_sync(u32 mask, T v, i32 lane_mask) { return __shfl_xor_sync(mask, v, lane_mask); }
PK_DEVICE i32 all_sync(u32 mask, i32 p) { return __all_sync(mask, p); }
PK_DEVICE i32 any_sync(u32 mask, i32 p) { return __any_sync(mask, p); }
PK_DEVICE i32 eq_sync(u32 mask, i32 p) { return __all_sync(mask, p) || !__any_sync(mask, p); }
PK_DEVICE u32 ballot_sync(u32 mask, i32 p) { return __ballot_sync(mask, p); }
PK_DEVICE u32 activemask() { return __activemask(); }
PK_DEVICE u32 lanemask_lt() { return (1u << laneid()) - 1u; }
// The launch's dynamic shared memory size (cuda.shared.array(0, dtype) holds what fits).
PK_DEVICE u64 dynamic_shared_bytes() {
  u32 bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes;
}
template <class T> PK_DEVICE u32 match_any_sync(u32 mask, T v) { return __match_any_sync(mask, v); }
template <class T> PK_DEVICE tuple<u32, bool> match_all_sync(u32 mask, T v) {
  int predicate = 0;
  u32 matched = __match_all_sync(mask, v, &predicate);
  return make_tuple(matched, predicate != 0);
}
PK_DEVICE void nanosleep(u32 ns) { __nanosleep(ns); }
template <class T> PK_DEVICE T popc(T x) {
  return sizeof(T) == 8 ? T(__popcll(own_bits(x))) : T(__popc(unsigned(own_bits(x))));
}
// __clz counts over 32 bits: an 8- or 16-bit value has that many fewer leading zeros of its own.
template <class T> PK_DEVICE T clz(T x) {
  return sizeof(T) == 8 ? T(__clzll((long long)x)) : T(__clz(int(own_bits(x))) - (32 - int(sizeof(T)) * 8));
}
template <class T> PK_DEVICE u32 ffs(T x) { return sizeof(T) == 8 ? u32(__ffsll((long long)x)) : u32(__ffs((int)x)); }
template <class T> PK_DEVICE T brev(T x) { return sizeof(T) == 8 ? T(__brevll((unsigned long long)x)) : T(__brev((unsigned)x)); }
#else
template <class T> PK_DEVICE T bits_to(u64 bits) { T v; __builtin_memcpy(&v, &bits, sizeof(T)); return v; }
template <class T> PK_DEVICE u64 to_bits(T v) { u64 bits = 0; __builtin_memcpy(&bits, &v, sizeof(T)); return bits; }
template <class T> PK_DEVICE T shfl_sync(u32 mask, T v, i32 lane) { return bits_to<T>(sim::warp_exchange(mask, to_bits(v), lane & 31)); }
template <class T> PK_DEVICE T shfl_up_sync(u32 mask, T v, i32 delta) {
  i32 source = laneid() - delta;
  T other = bits_to<T>(sim::warp_exchange(mask, to_bits(v), source < 0 ? laneid() : source));
  return source < 0 ? v : other;
}
template <class T> PK_DEVICE T shfl_down_sync(u32 mask, T v, i32 delta) {
  i32 source = laneid() + delta;
  T other = bits_to<T>(sim::warp_exchange(mask, to_bits(v), source > 31 ? laneid() : source));
  return source > 31 ? v : other;
}
template <class T> PK_DEVICE T shfl_xor_sync(u32 mask, T v, i32 lane_mask) { return shfl_sync(mask, v, laneid() ^ lane_mask); }
PK_DEVICE u32 ballot_sync(u32 mask, i32 p) { return sim::warp_ballot(mask, p != 0); }
PK_DEVICE i32 all_sync(u32 mask, i32 p) { return (ballot_sync(mask, p) & mask) == mask; }
PK_DEVICE i32 any_sync(u32 mask, i32 p) { return (ballot_sync(mask, p) & mask) != 0; }
PK_DEVICE i32 eq_sync(u32 mask, i32 p) { u32 b = ballot_sync(mask, p) & mask; return b == mask || b == 0; }
PK_DEVICE u32 activemask() { return sim::warp_ballot(0xffffffffu, 1); }
PK_DEVICE u32 lanemask_lt() { return (1u << laneid()) - 1u; }
// The lanes of `mask` whose value equals this lane's: one exchange per lane of the mask.
template <class T> PK_DEVICE u32 match_any_sync(u32 mask, T v) {
  u32 same = 0;
  for (i32 lane = 0; lane < 32; ++lane)
    if ((mask >> lane) & 1u)
      if (sim::warp_exchange(mask, to_bits(v), lane) == to_bits(v)) same |= 1u << lane;
  return same;
}
template <class T> PK_DEVICE tuple<u32, bool> match_all_sync(u32 mask, T v) {
  bool all = match_any_sync(mask, v) == mask;
  return make_tuple(all ? mask : 0u, all);
}
PK_DEVICE void nanosleep(u32) {}
PK_DEVICE u64 dynamic_shared_bytes() { return sim::dynamic_shared_bytes(); }
template <class T> PK_DEVICE T popc(T x) { return T(__builtin_popcountll(own_bits(x))); }
template <class T> PK_DEVICE T clz(T x) {
  return x == 0 ? T(sizeof(T) * 8) : T(__builtin_clzll(own_bits(x)) - (64 - int(sizeof(T)) * 8));
}
template <class T> PK_DEVICE u32 ffs(T x) { return u32(__builtin_ffsll((long long)x)); }
template <class T> PK_DEVICE T brev(T x) {
  u64 v = (u64)x, r = 0;
  for (unsigned i = 0; i < sizeof(T) * 8; ++i) r |= ((v >> i) & 1) << (sizeof(T) * 8 - 1 - i);
  return T(r);
}
#endif

}  // namespace pk
#endif  // PYKERN_THREAD_CUH
