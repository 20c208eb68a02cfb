// Per-thread local memory and per-block static shared memory of each kernel, counted over the
// device functions it calls, and checked against CUDA's limits where the array is declared
// (a GPU refuses such a kernel; the simulator would overflow its thread's stack).
#pragma once
#include "base/diagnostics.h"
#include "sema/ir.h"

namespace pykern::sema {

constexpr uint64_t max_local_bytes = 512 * 1024;  // CUDA: local memory per thread
constexpr uint64_t max_shared_bytes = 48 * 1024;  // CUDA: static shared memory per block

// Sets each function's local_bytes and shared_bytes (its own arrays and its callees');
// reports the declaration that crosses a limit.
void account_memory(ir::Program& program, const SourceFile& file, Diagnostics& diagnostics);

}  // namespace pykern::sema
