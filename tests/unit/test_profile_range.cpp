// pykern's NVTX ranges, seen as a profiler sees them: this test binary links a static NVTX
// injection (the mechanism NVTX 3 offers tools that cannot be loaded with dlopen), which records
// the ranges pushed in the "pykern" domain.
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <cstdint>
// This file provides the injection (defined below), so NVTX's weak stand-in is left out here.
extern "C" int (*InitializeInjectionNvtx2_fnptr)(const void* (*)(uint32_t));
#define NVTX_STATIC_INJECTION_IMPL
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "base/profile_range.h"
#include "pykern/compiler.h"

namespace {

// What the injected tool saw: the domains made and the ranges open, with their names.
struct Recorder {
  std::mutex mutex;
  std::vector<std::string> domains;
  std::vector<std::string> pushed;  // every push, bounded: the whole suite pushes ranges
  int depth = 0;
};
Recorder& recorder() {
  static Recorder r;
  return r;
}

nvtxDomainHandle_t create_domain(const char* name) {
  std::lock_guard<std::mutex> lock(recorder().mutex);
  recorder().domains.push_back(name);
  return reinterpret_cast<nvtxDomainHandle_t>(recorder().domains.size());
}
int push(nvtxDomainHandle_t, const nvtxEventAttributes_t* attributes) {
  std::lock_guard<std::mutex> lock(recorder().mutex);
  if (recorder().pushed.size() > 256) recorder().pushed.erase(recorder().pushed.begin());
  recorder().pushed.push_back(attributes->messageType == NVTX_MESSAGE_TYPE_ASCII ? attributes->message.ascii : "?");
  return ++recorder().depth;
}
int pop(nvtxDomainHandle_t) {
  std::lock_guard<std::mutex> lock(recorder().mutex);
  return recorder().depth--;
}

void install(NvtxFunctionTable table, unsigned size, unsigned id, NvtxFunctionPointer function) {
  if (id < size && table[id] != nullptr) *table[id] = function;
}

int initialize(NvtxGetExportTableFunc_t get_table) {
  auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  NvtxFunctionTable table = nullptr;
  unsigned size = 0;
  if (!callbacks || !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size)) return 0;
  install(table, size, NVTX_CBID_CORE2_DomainCreateA, reinterpret_cast<NvtxFunctionPointer>(create_domain));
  install(table, size, NVTX_CBID_CORE2_DomainRangePushEx, reinterpret_cast<NvtxFunctionPointer>(push));
  install(table, size, NVTX_CBID_CORE2_DomainRangePop, reinterpret_cast<NvtxFunctionPointer>(pop));
  return 1;
}

}  // namespace

NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr = initialize;

TEST_CASE("pykern's phases are NVTX ranges in the 'pykern' domain, closed in order") {
  {
    pykern::ProfileRange outer("outer phase");
    pykern::ProfileRange inner(std::string("inner phase"));
    std::lock_guard<std::mutex> lock(recorder().mutex);
    REQUIRE(recorder().pushed.size() >= 2);
    CHECK(recorder().pushed.back() == "inner phase");
    CHECK(recorder().pushed[recorder().pushed.size() - 2] == "outer phase");
    CHECK(recorder().depth >= 2);
  }
  int depth_after = 0;
  {
    std::lock_guard<std::mutex> lock(recorder().mutex);
    depth_after = recorder().depth;
    CHECK(std::find(recorder().domains.begin(), recorder().domains.end(), "pykern") != recorder().domains.end());
  }
  // Translating a kernel file shows as a range named after it.
  pykern::CompileOptions options;
  options.use_cache = false;
  options.emit = pykern::EmitKind::cuda;  // translation only: no NVRTC needed
  auto translated = pykern::compile_source("from numba import cuda\n@cuda.jit('void(float32[:])')\ndef k(a):\n    a[0] = 1\n",
                                           "ranges.py", options);
  REQUIRE(translated.ok());
  std::lock_guard<std::mutex> lock(recorder().mutex);
  CHECK(std::find(recorder().pushed.begin(), recorder().pushed.end(), "pykern: translate ranges.py") !=
        recorder().pushed.end());
  CHECK(recorder().depth == depth_after);  // every range pushed was popped
}
#endif
