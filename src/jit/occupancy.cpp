#include "jit/occupancy.h"

#include <algorithm>
#include <climits>

#include <fmt/format.h>

namespace pykern::jit {

namespace {

constexpr int warp_size = 32;
constexpr int max_threads_per_block = 1024;
constexpr int registers_per_sm = 64 * 1024;    // also the most one block may hold, sm_70 on
constexpr int register_granularity = 256;      // registers are allocated per warp in these units
constexpr int max_registers_per_thread = 255;
constexpr int sub_partitions = 4;              // each holds a quarter of the register file
constexpr int shared_per_block_default = 48 * 1024;  // a block's most without opting in

// The CUDA programming guide's table of compute capabilities, as the calculator holds it.
constexpr int KiB = 1024;
const ArchLimits limits_table[] = {
    // arch threads blocks shared/SM     optin/block  reserved granularity barrier slots
    {70, 2048, 32, 96 * KiB, 96 * KiB, 0, 256, 0},
    {72, 2048, 32, 96 * KiB, 96 * KiB, 0, 256, 0},
    {75, 1024, 16, 64 * KiB, 64 * KiB, 0, 256, 0},
    {80, 2048, 32, 164 * KiB, 163 * KiB, KiB, 128, 0},
    {86, 1536, 16, 100 * KiB, 99 * KiB, KiB, 128, 0},
    {87, 1536, 16, 164 * KiB, 163 * KiB, KiB, 128, 0},
    {89, 1536, 24, 100 * KiB, 99 * KiB, KiB, 128, 0},
    {90, 2048, 32, 228 * KiB, 227 * KiB, KiB, 128, 2},
    {100, 2048, 32, 228 * KiB, 227 * KiB, KiB, 128, 2},
    {103, 2048, 32, 228 * KiB, 227 * KiB, KiB, 128, 2},
    {120, 1536, 24, 100 * KiB, 99 * KiB, KiB, 128, 1},
    {121, 1536, 24, 100 * KiB, 99 * KiB, KiB, 128, 1},
};

int round_up(int64_t x, int64_t unit) { return static_cast<int>((x + unit - 1) / unit * unit); }

struct Limits {
  int warps = INT_MAX, registers = INT_MAX, shared = INT_MAX, blocks = INT_MAX, barriers = INT_MAX;
};

// Blocks per multiprocessor that the registers allow: each warp holds registers * 32 rounded
// to the allocation unit, warps are placed in the four sub-partitions, and a block must fit
// the per-block limit counted as if its warps filled every sub-partition evenly.
int register_limit(int registers, int warps_per_block) {
  if (registers > max_registers_per_thread) return 0;
  int per_warp = round_up(int64_t(registers) * warp_size, register_granularity);
  if (per_warp == 0) return INT_MAX;
  if (int64_t(per_warp) * round_up(warps_per_block, sub_partitions) > registers_per_sm) return 0;
  int warps_per_sub_partition = registers_per_sm / sub_partitions / per_warp;
  return warps_per_sub_partition * sub_partitions / warps_per_block;
}

}  // namespace

ArchLimits arch_limits(int arch) {
  for (const ArchLimits& l : limits_table)
    if (l.arch == arch) return l;
  return {};
}

Result<Occupancy> theoretical_occupancy(const KernelResources& kernel, int block_size, int64_t dynamic_shared_bytes) {
  ArchLimits arch = arch_limits(kernel.arch);
  if (arch.arch == 0) {
    std::string known;
    for (const ArchLimits& l : limits_table) known += fmt::format("{}sm_{}", known.empty() ? "" : ", ", l.arch);
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("no occupancy rules for sm_{} (known: {})", kernel.arch, known));
  }
  if (kernel.registers < 0 || kernel.shared_bytes < 0 || kernel.shared_bytes > (int64_t(1) << 32))
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("kernel '{}' claims {} registers and {} bytes of shared memory", kernel.symbol,
                                   kernel.registers, kernel.shared_bytes));
  int most_threads = kernel.max_threads_per_block > 0 ? std::min(kernel.max_threads_per_block, max_threads_per_block)
                                                      : max_threads_per_block;
  if (dynamic_shared_bytes < 0 || dynamic_shared_bytes > arch.shared_per_block_optin)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("{} bytes of dynamic shared memory: sm_{} blocks have at most {}", dynamic_shared_bytes,
                                   kernel.arch, arch.shared_per_block_optin));
  // The static shared memory the kernel declared: on sm_90 and later the cubin's section also
  // holds the system's reserve, which the calculator adds to every block itself.
  int64_t declared = kernel.shared_bytes;
  if (kernel.shared_includes_reserve) declared -= std::min<int64_t>(declared, arch.reserved_shared_per_block);
  int64_t per_block = declared + dynamic_shared_bytes + arch.reserved_shared_per_block;
  int allocated = round_up(per_block, arch.shared_granularity);
  int64_t block_limit = (declared + dynamic_shared_bytes > shared_per_block_default ? arch.shared_per_block_optin
                                                                                    : shared_per_block_default) +
                        arch.reserved_shared_per_block;

  auto for_block = [&](int threads) {
    Limits l;
    int warps_per_block = (threads + warp_size - 1) / warp_size;
    l.warps = arch.max_threads_per_sm / warp_size / warps_per_block;
    l.registers = register_limit(kernel.registers, warps_per_block);
    l.blocks = arch.max_blocks_per_sm;
    l.shared = allocated > block_limit ? 0 : allocated == 0 ? INT_MAX : arch.shared_per_sm / allocated;
    if (arch.barriers_per_block_slot > 0 && kernel.barriers > 0)
      l.barriers = arch.max_blocks_per_sm * arch.barriers_per_block_slot / kernel.barriers;
    int blocks = std::min({l.warps, l.registers, l.blocks, l.shared, l.barriers});
    Occupancy o;
    o.block_size = threads;
    o.blocks_per_sm = blocks;
    o.warps_per_sm = blocks * warps_per_block;
    o.max_warps_per_sm = arch.max_threads_per_sm / warp_size;
    std::pair<int, const char*> factors[] = {{l.warps, "warps"}, {l.registers, "registers"}, {l.shared, "shared memory"},
                                             {l.blocks, "blocks"}, {l.barriers, "barriers"}};
    for (const auto& [limit, name] : factors)
      if (limit == blocks) o.limited_by += (o.limited_by.empty() ? "" : ", ") + std::string(name);
    return o;
  };

  if (block_size > 0) {
    if (block_size > most_threads)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("a block of {} threads: kernel '{}' takes at most {}", block_size, kernel.symbol,
                                     most_threads));
    return for_block(block_size);
  }
  if (block_size < 0) return Error::make(ErrorKind::invalid_argument, fmt::format("a block of {} threads", block_size));
  // cudaOccupancyMaxPotentialBlockSize: the largest block among those that keep the most
  // threads active, trying multiples of the warp size from the largest down.
  Occupancy best = for_block(most_threads);
  for (int threads = round_up(most_threads, warp_size); threads > 0; threads -= warp_size) {
    Occupancy o = for_block(std::min(threads, most_threads));
    if (o.blocks_per_sm * o.block_size > best.blocks_per_sm * best.block_size) best = o;
    if (best.blocks_per_sm * best.block_size == arch.max_threads_per_sm) break;
  }
  return best;
}

}  // namespace pykern::jit
