// What a GPU is: its ordinal, name, compute capability, memory and multiprocessors. A value
// that pykern::list_gpus() answers and the CUDA backend keeps for each GPU it uses.
#pragma once
#include <cstdint>
#include <string>

namespace pykern {

struct GpuInfo {
  int ordinal = 0;
  std::string name;
  int major = 0, minor = 0;  // compute capability
  uint64_t memory_bytes = 0;
  int multiprocessors = 0;
  std::string arch() const { return "sm_" + std::to_string(major) + std::to_string(minor); }  // "sm_90"
};

}  // namespace pykern
