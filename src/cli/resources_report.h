// pykern compile --resources: what each function of the cubin uses (registers, spills, stack,
// local, shared and constant memory) and the occupancy its kernels allow, as text or JSON.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "pykern/compiler.h"

namespace pykern::cli {

struct ResourcesReport {
  std::string text;      // one paragraph per function
  nlohmann::json json;   // {"symbol": {...}} for every function of the cubin
};

// `block_size` 0: each kernel's best block size; else the occupancy at that size as well.
Result<ResourcesReport> resources_report(const CompileOutput& out, int block_size);

}  // namespace pykern::cli
