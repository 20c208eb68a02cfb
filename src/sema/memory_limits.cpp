#include "sema/memory_limits.h"

#include <fmt/format.h>

namespace pykern::sema {

namespace {

// Bytes of one declared array; the extents are at most 2^31 each, so the product is checked.
uint64_t array_bytes(const ir::Stmt& declare) {
  __uint128_t bytes = static_cast<__uint128_t>(declare.array_dtype.bits / 8 ? declare.array_dtype.bits / 8 : 1);
  for (int64_t extent : declare.array_shape) {
    bytes *= static_cast<uint64_t>(extent);
    if (bytes > (__uint128_t(1) << 62)) return uint64_t(1) << 62;
  }
  return static_cast<uint64_t>(bytes);
}

struct Crossing {
  SourceRange where;
  bool found = false;
};

}  // namespace

void account_memory(ir::Program& program, const SourceFile& file, Diagnostics& diagnostics) {
  // Device functions come before their callers, so callees are counted first.
  for (ir::Function& f : program.functions) {
    uint64_t local = 0, shared = 0, callee_local = 0, callee_shared = 0;
    Crossing local_crossing, shared_crossing;
    for (size_t i = 0; i < f.stmts.size(); ++i) {
      const ir::Stmt& s = f.stmts[ir::StmtId(static_cast<uint32_t>(i))];
      if (s.kind != ir::StmtKind::declare_array) continue;
      uint64_t& total = s.in_shared_memory ? shared : local;
      Crossing& crossing = s.in_shared_memory ? shared_crossing : local_crossing;
      total += array_bytes(s);
      if (!crossing.found && total > (s.in_shared_memory ? max_shared_bytes : max_local_bytes))
        crossing = {s.range, true};
    }
    for (size_t i = 0; i < f.exprs.size(); ++i) {
      const ir::Expr& e = f.exprs[ir::ExprId(static_cast<uint32_t>(i))];
      if (e.kind != ir::ExprKind::device_call || e.callee < 0) continue;
      // A thread runs one call at a time: its stack needs the deepest callee, not the sum.
      callee_local = std::max(callee_local, program.functions[e.callee].local_bytes);
      callee_shared += program.functions[e.callee].shared_bytes;
    }
    f.local_bytes = local + callee_local;
    f.shared_bytes = shared + callee_shared;
    if (!f.is_kernel) continue;
    if (f.local_bytes > max_local_bytes)
      diagnostics.error(DiagKind::bad_argument, file, local_crossing.found ? local_crossing.where : f.range,
                        fmt::format("kernel '{}' needs {} bytes of local arrays per thread; CUDA allows {} KiB",
                                    f.python_name, f.local_bytes, max_local_bytes / 1024),
                        "use shared or global memory (an array argument) for large buffers");
    if (f.shared_bytes > max_shared_bytes)
      diagnostics.error(DiagKind::bad_argument, file, shared_crossing.found ? shared_crossing.where : f.range,
                        fmt::format("kernel '{}' needs {} bytes of static shared memory per block; CUDA allows {} KiB",
                                    f.python_name, f.shared_bytes, max_shared_bytes / 1024),
                        "make the shared arrays smaller, or pass the data in a global array");
  }
}

}  // namespace pykern::sema
