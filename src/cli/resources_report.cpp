#include "cli/resources_report.h"

#include <fmt/format.h>

namespace pykern::cli {

namespace {

std::string bytes_text(int64_t bytes) { return fmt::format("{} B", bytes); }

std::string occupancy_text(const Occupancy& o) {
  if (o.blocks_per_sm == 0) return fmt::format("no block of {} threads fits (limited by {})", o.block_size, o.limited_by);
  return fmt::format("{} blocks/SM of {} threads, {}/{} warps ({:.0f}%), limited by {}", o.blocks_per_sm, o.block_size,
                     o.warps_per_sm, o.max_warps_per_sm, 100.0 * o.warps_per_sm / o.max_warps_per_sm, o.limited_by);
}

nlohmann::json occupancy_json(const Occupancy& o) {
  return {{"block_size", o.block_size}, {"blocks_per_sm", o.blocks_per_sm}, {"warps_per_sm", o.warps_per_sm},
          {"max_warps_per_sm", o.max_warps_per_sm}, {"limited_by", o.limited_by}};
}

std::string python_name(const CompileOutput& out, const std::string& symbol) {
  for (const CompiledKernel& k : out.kernels)
    if (k.symbol == symbol) return k.function;
  return "";
}

}  // namespace

Result<ResourcesReport> resources_report(const CompileOutput& out, int block_size) {
  auto functions = kernel_resources(out.binary);
  if (!functions.ok()) return functions.error();
  ResourcesReport report;
  report.json = nlohmann::json::object();
  for (const KernelResources& k : *functions) {
    std::string name = python_name(out, k.symbol);
    nlohmann::json j = {{"kernel", k.is_kernel},
                        {"function", name.empty() ? nlohmann::json(nullptr) : nlohmann::json(name)},
                        {"arch", fmt::format("sm_{}", k.arch)},
                        {"registers", k.registers},
                        {"spill_store_bytes", k.spill_store_bytes},
                        {"spill_load_bytes", k.spill_load_bytes},
                        {"stack_bytes", k.stack_bytes},
                        {"local_bytes", k.local_bytes},
                        {"shared_bytes", k.shared_bytes},
                        {"constant_bytes", k.constant_bytes},
                        {"parameter_bytes", k.parameter_bank_bytes},
                        {"barriers", k.barriers}};
    std::string head = k.is_kernel ? (name.empty() ? k.symbol : fmt::format("{} ({})", name, k.symbol))
                                   : fmt::format("device function {}", k.symbol);
    std::string spills = k.spill_store_bytes + k.spill_load_bytes == 0
                             ? "no spills"
                             : fmt::format("spills {} stored, {} loaded", bytes_text(k.spill_store_bytes),
                                           bytes_text(k.spill_load_bytes));
    report.text += fmt::format("{}: {} registers, {}, stack {}, local {}, shared {}, constant {}\n", head, k.registers,
                               spills, bytes_text(k.stack_bytes), bytes_text(k.local_bytes),
                               bytes_text(k.shared_bytes), bytes_text(k.constant_bytes));
    if (k.is_kernel) {
      // An architecture without known limits still has its resources listed.
      auto best = occupancy(k);
      j["occupancy"] = best.ok() ? occupancy_json(*best) : nlohmann::json(nullptr);
      report.text += best.ok() ? fmt::format("  sm_{} occupancy: best {}\n", k.arch, occupancy_text(*best))
                               : fmt::format("  occupancy: {}\n", best.error().message);
      if (block_size > 0 && best.ok()) {
        auto at = occupancy(k, block_size);
        if (!at.ok()) return at.error();
        j["occupancy_at_block"] = occupancy_json(*at);
        report.text += fmt::format("  at --block {}: {}\n", block_size, occupancy_text(*at));
      }
    }
    report.json[k.symbol] = j;
  }
  return report;
}

}  // namespace pykern::cli
