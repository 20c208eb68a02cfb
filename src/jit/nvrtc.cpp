#include "jit/nvrtc.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string_view>

#include <fmt/format.h>

#include <nvrtc.h>

#include "embed/runtime_headers.h"

namespace pykern::jit {

namespace {

struct NvrtcApi {
  decltype(&nvrtcVersion) version = nullptr;
  decltype(&nvrtcCreateProgram) create = nullptr;
  decltype(&nvrtcDestroyProgram) destroy = nullptr;
  decltype(&nvrtcCompileProgram) compile = nullptr;
  decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
  decltype(&nvrtcGetProgramLog) log = nullptr;
  decltype(&nvrtcGetPTXSize) ptx_size = nullptr;
  decltype(&nvrtcGetPTX) ptx = nullptr;
  decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
  decltype(&nvrtcGetCUBIN) cubin = nullptr;
  decltype(&nvrtcGetErrorString) error_string = nullptr;
  decltype(&nvrtcGetNumSupportedArchs) num_supported_archs = nullptr;
  decltype(&nvrtcGetSupportedArchs) supported_archs = nullptr;
  std::string load_error;
};

// Binds every NVRTC entry point pykern calls; a missing one is the API's load error.
void bind_all(NvrtcApi& a, void* handle) {
  auto bind = [&](auto& slot, const char* symbol) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(dlsym(handle, symbol));
    if (slot == nullptr) a.load_error = std::string("NVRTC lacks ") + symbol;
  };
  bind(a.version, "nvrtcVersion");
  bind(a.create, "nvrtcCreateProgram");
  bind(a.destroy, "nvrtcDestroyProgram");
  bind(a.compile, "nvrtcCompileProgram");
  bind(a.log_size, "nvrtcGetProgramLogSize");
  bind(a.log, "nvrtcGetProgramLog");
  bind(a.ptx_size, "nvrtcGetPTXSize");
  bind(a.ptx, "nvrtcGetPTX");
  bind(a.cubin_size, "nvrtcGetCUBINSize");
  bind(a.cubin, "nvrtcGetCUBIN");
  bind(a.error_string, "nvrtcGetErrorString");
  bind(a.num_supported_archs, "nvrtcGetNumSupportedArchs");
  bind(a.supported_archs, "nvrtcGetSupportedArchs");
}

const NvrtcApi& api() {
  static NvrtcApi loaded = [] {
    NvrtcApi a;
    // $PYKERN_NVRTC names the library, and then only it: a set value that cannot be loaded is
    // an error, never a silent fall back to another NVRTC. Unset: the soname, then the
    // toolkit's usual place.
    if (const char* path = std::getenv("PYKERN_NVRTC")) {
      if (*path == 0) {
        a.load_error = "PYKERN_NVRTC is set but empty: name NVRTC's library (e.g. /usr/local/cuda/lib64/libnvrtc.so), "
                       "or unset it to search the usual places";
        return a;
      }
      void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (handle == nullptr) {
        const char* why = dlerror();
        a.load_error = std::string("cannot load NVRTC from PYKERN_NVRTC='") + path + "': " + (why ? why : "dlopen failed");
        return a;
      }
      bind_all(a, handle);
      return a;
    }
    std::vector<std::string> candidates;
    for (const char* name : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
                             "/usr/local/cuda/lib64/libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.12",
                             "/usr/local/cuda/lib64/libnvrtc.so"})
      candidates.push_back(name);
    void* handle = nullptr;
    for (const std::string& candidate : candidates)
      if ((handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    if (handle == nullptr) {
      a.load_error = "cannot load NVRTC (libnvrtc.so): install the CUDA Toolkit or set PYKERN_NVRTC";
      return a;
    }
    bind_all(a, handle);
    return a;
  }();
  return loaded;
}

}  // namespace

Result<std::string> nvrtc_version() {
  const NvrtcApi& nvrtc = api();
  if (!nvrtc.load_error.empty()) return Error::make(ErrorKind::nvrtc, nvrtc.load_error);
  int major = 0, minor = 0;
  if (nvrtc.version(&major, &minor) != NVRTC_SUCCESS) return Error::make(ErrorKind::nvrtc, "nvrtcVersion failed");
  return std::to_string(major) + "." + std::to_string(minor);
}

Result<std::string> nvrtc_library_path() {
  const NvrtcApi& nvrtc = api();
  if (!nvrtc.load_error.empty()) return Error::make(ErrorKind::nvrtc, nvrtc.load_error);
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(nvrtc.version), &info) == 0 || info.dli_fname == nullptr)
    return Error::make(ErrorKind::nvrtc, "cannot tell which file NVRTC was loaded from");
  return std::string(info.dli_fname);
}

Result<std::vector<int>> nvrtc_supported_archs() {
  const NvrtcApi& nvrtc = api();
  if (!nvrtc.load_error.empty()) return Error::make(ErrorKind::nvrtc, nvrtc.load_error);
  int count = 0;
  if (nvrtc.num_supported_archs(&count) != NVRTC_SUCCESS || count <= 0)
    return Error::make(ErrorKind::nvrtc, "nvrtcGetNumSupportedArchs failed");
  std::vector<int> archs(static_cast<size_t>(count));
  if (nvrtc.supported_archs(archs.data()) != NVRTC_SUCCESS)
    return Error::make(ErrorKind::nvrtc, "nvrtcGetSupportedArchs failed");
  std::sort(archs.begin(), archs.end());
  return archs;
}

// (sm|compute)_NN[N][a|f], read by hand: compiling a std::regex for it was 14 % of a cache-hit
// `pykern compile` process's instructions (BENCHMARKS.md, issue 32).
std::optional<ArchName> parse_arch(const std::string& arch) {
  std::string_view rest = arch;
  bool cubin = rest.starts_with("sm_");
  if (!cubin && !rest.starts_with("compute_")) return std::nullopt;
  rest.remove_prefix(cubin ? 3 : 8);
  size_t digits = 0;
  int number = 0;
  while (digits < rest.size() && digits < 4 && rest[digits] >= '0' && rest[digits] <= '9')
    number = number * 10 + (rest[digits++] - '0');
  if (digits < 2 || digits > 3) return std::nullopt;
  rest.remove_prefix(digits);
  if (rest.size() > 1 || (rest.size() == 1 && rest[0] != 'a' && rest[0] != 'f')) return std::nullopt;
  return ArchName{cubin, number, !rest.empty()};
}

Status check_arch_form(const std::string& arch) {
  if (parse_arch(arch)) return ok_status();
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("'{}' is not a GPU architecture: write sm_NN (a cubin) or compute_NN (PTX), "
                                 "e.g. sm_90", arch));
}

Status check_arch_supported(const std::string& arch) {
  if (auto valid = check_arch_form(arch); !valid.ok()) return valid;
  auto supported = nvrtc_supported_archs();
  if (!supported.ok()) return ok_status();  // no NVRTC here: the form is all that can be checked
  int number = parse_arch(arch)->number;
  if (std::find(supported->begin(), supported->end(), number) != supported->end()) return ok_status();
  std::string known;
  for (int a : *supported) known += (known.empty() ? "sm_" : ", sm_") + std::to_string(a);
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("this NVRTC cannot compile for {}; it knows {}", arch, known));
}

Result<GpuTarget> choose_gpu_target(int device_arch, const std::vector<int>& supported) {
  if (std::find(supported.begin(), supported.end(), device_arch) != supported.end())
    return GpuTarget{"sm_" + std::to_string(device_arch), Output::cubin};
  int newest_below = 0;
  for (int arch : supported)
    if (arch < device_arch) newest_below = arch;
  if (newest_below == 0)
    return Error::make(ErrorKind::nvrtc,
                       "this NVRTC cannot compile for sm_" + std::to_string(device_arch) + " (the oldest it supports is sm_" +
                           (supported.empty() ? std::string("?") : std::to_string(supported.front())) +
                           "); use a CUDA Toolkit that supports the GPU");
  return GpuTarget{"sm_" + std::to_string(newest_below), Output::ptx};
}

namespace {

// Options that make NVRTC faster without changing the code it makes (BENCHMARKS.md, issue 14):
// -minimal (12.4+) leaves out texture, cudadevrt and runtime-API declarations the emitted code
// never uses, about 5 ms a compile; -pch (12.8+) keeps the parsed runtime headers in NVRTC's
// heap for the next compile in this process, about 5 ms off each later compile but 8 ms more
// on the one that makes it, so it is asked from a process's second compile on. NVRTC keeps the
// PCH file (about 7 MB per set of headers and options) in a private directory of the system's
// temp folder, which it removes at exit; PYKERN_NVRTC_PCH=0 turns it off.
std::vector<std::string> speed_options(const NvrtcApi& nvrtc, int kernels) {
  static std::atomic<int> compiles{0};
  bool later = compiles.fetch_add(1) > 0;
  int major = 0, minor = 0;
  if (nvrtc.version(&major, &minor) != NVRTC_SUCCESS) return {};
  int version = major * 100 + minor;
  std::vector<std::string> options;
  if (version >= 1204) options.push_back("-minimal");
  // A program of several kernels optimises them on every core (a file of 8 seed kernels: 123
  // -> 99 ms on 2 cores); a program of one kernel gains nothing from it, so it is not asked.
  if (version >= 1204 && kernels > 1) options.push_back("-split-compile=0");
  const char* pch = std::getenv("PYKERN_NVRTC_PCH");
  bool pch_wanted = pch == nullptr || std::string(pch) != "0";
  if (version >= 1208 && later && pch_wanted) options.insert(options.end(), {"-pch", "-pch-messages=false"});
  return options;
}

// One compile with `extra` options beyond the request's.
Result<NvrtcResult> nvrtc_compile_with(const NvrtcRequest& request, const std::vector<std::string>& extra) {
  const NvrtcApi& nvrtc = api();
  std::vector<const char*> header_texts, header_names;
  for (const embed::RuntimeHeader& header : embed::runtime_headers()) {
    header_texts.push_back(header.text.data());  // NUL-terminated: see RuntimeHeader
    header_names.push_back(header.name);
  }
  nvrtcProgram program = nullptr;
  nvrtcResult status = nvrtc.create(&program, request.source.c_str(), request.name.c_str(),
                                    static_cast<int>(header_texts.size()), header_texts.data(), header_names.data());
  if (status != NVRTC_SUCCESS)
    return Error::make(ErrorKind::nvrtc, std::string("nvrtcCreateProgram failed: ") + nvrtc.error_string(status));
  // -arch=sm_XX makes a cubin; -arch=compute_XX makes PTX for that virtual architecture.
  std::string digits = request.arch.substr(request.arch.find('_') + 1);
  std::vector<std::string> options = {
      (request.output == Output::cubin ? "-arch=sm_" : "-arch=compute_") + digits, "-std=c++17"};
  options.insert(options.end(), request.options.begin(), request.options.end());
  options.insert(options.end(), extra.begin(), extra.end());
  std::vector<const char*> option_pointers;
  std::string option_text;
  for (const std::string& option : options) {
    option_pointers.push_back(option.c_str());
    option_text += (option_text.empty() ? "" : " ") + option;
  }
  status = nvrtc.compile(program, static_cast<int>(option_pointers.size()), option_pointers.data());
  NvrtcResult result;
  size_t log_size = 0;
  nvrtc.log_size(program, &log_size);
  if (log_size > 1) {
    result.log.resize(log_size);
    nvrtc.log(program, result.log.data());
    result.log.resize(log_size - 1);
  }
  if (status == NVRTC_SUCCESS) {
    size_t size = 0;
    if (request.output == Output::cubin) {
      nvrtc.cubin_size(program, &size);
      result.binary.resize(size);
      nvrtc.cubin(program, result.binary.data());
    } else {
      nvrtc.ptx_size(program, &size);
      result.binary.resize(size);
      nvrtc.ptx(program, result.binary.data());
      if (!result.binary.empty() && result.binary.back() == '\0') result.binary.pop_back();
    }
  }
  nvrtc.destroy(&program);
  if (status != NVRTC_SUCCESS) {
    Error error = Error::make(ErrorKind::nvrtc,
                              "internal error: NVRTC rejected the CUDA C++ that pykern generated for " + request.name +
                                  " (" + nvrtc.error_string(status) + "); this is a pykern bug, please report it "
                                  "with the log below",
                              result.log);
    error.options = option_text;
    return error;
  }
  return result;
}

}  // namespace

Result<NvrtcResult> nvrtc_compile(const NvrtcRequest& request) {
  const NvrtcApi& nvrtc = api();
  if (!nvrtc.load_error.empty()) return Error::make(ErrorKind::nvrtc, nvrtc.load_error);
  // An NVRTC that refuses a speed option (a build that lacks it) compiles without them, from
  // then on in this process.
  static std::atomic<bool> refused{false};
  if (refused) return nvrtc_compile_with(request, {});
  auto compiled = nvrtc_compile_with(request, speed_options(nvrtc, request.kernels));
  if (!compiled.ok() && compiled.error().message.find("NVRTC_ERROR_INVALID_OPTION") != std::string::npos) {
    refused = true;
    compiled = nvrtc_compile_with(request, {});
  }
  return compiled;
}

}  // namespace pykern::jit
