#include "base/profile_range.h"

// The CUDA Toolkit's NVTX 3 headers; a toolkit without them builds ranges that do nothing.
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define PK_HAVE_NVTX 1
#else
#define PK_HAVE_NVTX 0
#endif

namespace pykern {

#if PK_HAVE_NVTX
namespace {

nvtxDomainHandle_t domain() {
  static const nvtxDomainHandle_t handle = nvtxDomainCreateA("pykern");
  return handle;
}

}  // namespace

ProfileRange::ProfileRange(const char* name) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = name;
  nvtxDomainRangePushEx(domain(), &attributes);
}

ProfileRange::~ProfileRange() { nvtxDomainRangePop(domain()); }
#else
ProfileRange::ProfileRange(const char*) {}
ProfileRange::~ProfileRange() {}
#endif

}  // namespace pykern
