// A named range on the profiler's timeline (NVTX, in the "pykern" domain) while it lives, so
// Nsight Systems shows pykern's phases (translate, NVRTC, the simulator's build, module loads,
// launches) beside the GPU's work. Costs a branch when no profiler is attached: NVTX is header-
// only and stays inert until a tool injects itself (NVTX_INJECTION64_PATH).
#pragma once
#include <string>

namespace pykern {

class ProfileRange {
 public:
  explicit ProfileRange(const char* name);
  explicit ProfileRange(const std::string& name) : ProfileRange(name.c_str()) {}
  ~ProfileRange();
  ProfileRange(const ProfileRange&) = delete;
  ProfileRange& operator=(const ProfileRange&) = delete;
};

}  // namespace pykern
