// NVRTC, loaded at run time (dlopen) so that pykern starts, translates and simulates on a
// machine without the CUDA Toolkit; compiling to PTX or a cubin needs it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "pykern/result.h"

namespace pykern::jit {

enum class Output { ptx, cubin };

struct NvrtcRequest {
  std::string source;
  std::string name;  // the program's name in NVRTC's messages, e.g. kernel.py.cu
  std::string arch;  // "sm_90"
  Output output = Output::cubin;
  std::vector<std::string> options;  // beyond -arch and the runtime include
  int kernels = 1;                   // in the program: several are optimised in parallel
};

struct NvrtcResult {
  std::string binary;  // PTX text or cubin bytes
  std::string log;
};

// NVRTC's version as "13.0"; an error if NVRTC cannot be loaded.
Result<std::string> nvrtc_version();
// The file NVRTC was loaded from (loads it); jit/nvrtc_identity.h tells later whether a load
// would find the same file without loading it.
Result<std::string> nvrtc_library_path();
// The real architectures NVRTC can make cubins for (90 for sm_90), oldest first.
Result<std::vector<int>> nvrtc_supported_archs();
// An architecture name taken apart: "sm_90a" is a cubin for 90, specific to that architecture
// ("a" and "f" suffixes); "compute_90" is PTX for 90.
struct ArchName {
  bool cubin = true;  // sm_ (else compute_)
  int number = 0;     // 90
  bool specific = false;
};
// nullopt when `arch` is not of the form sm_NN[a|f] or compute_NN[a|f] (two or three digits).
std::optional<ArchName> parse_arch(const std::string& arch);
// An --arch value of the form sm_NN[a|f] or compute_NN[a|f]. Loads nothing: a cache hit never
// needs NVRTC, and loading it costs a few milliseconds of a process that takes two.
Status check_arch_form(const std::string& arch);
// The same, and an architecture this NVRTC knows (when NVRTC loads); asked before compiling.
Status check_arch_supported(const std::string& arch);
// What to build for a device of compute capability `device_arch` (e.g. 90): a cubin when NVRTC
// knows the device, else PTX for the newest architecture NVRTC knows below it, which the
// driver compiles for the device when it loads it. An error when the device is older than
// every architecture NVRTC supports.
struct GpuTarget {
  std::string arch;  // "sm_90"
  Output output = Output::cubin;
};
Result<GpuTarget> choose_gpu_target(int device_arch, const std::vector<int>& supported);

Result<NvrtcResult> nvrtc_compile(const NvrtcRequest& request);

}  // namespace pykern::jit
