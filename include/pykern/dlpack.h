// DLPack's C ABI as pykern uses it: the installed <dlpack/dlpack.h>, and, where that header is
// older than DLPack 1.0 (Debian 12 ships 0.6), the 1.0 types pykern exchanges with owners:
// the version pair, the versioned managed tensor and its flag bits. A 1.0 or newer header
// declares these itself (it defines DLPACK_MAJOR_VERSION), and then its own are used.
#pragma once
#include <stdint.h>

#include <dlpack/dlpack.h>

#if !defined(DLPACK_MAJOR_VERSION)

#ifdef __cplusplus
extern "C" {
#endif

// The ABI version a managed tensor was made for: a different major means a different layout
// after the `flags` field; a higher minor only adds enumeration values.
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

// A tensor lent with its owner's deleter. The layout is DLPack 1.0's, field for field: every
// DLPack release keeps version, manager_ctx, deleter and flags first, so a consumer can read
// the version and call the deleter of a tensor whose major version it does not know.
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;                                     // the producer's, for its deleter
  void (*deleter)(struct DLManagedTensorVersioned* self);  // may be null; frees self too
  uint64_t flags;                                        // DLPACK_FLAG_BITMASK_*
  DLTensor dl_tensor;
};

#ifdef __cplusplus
}
#endif

// Flag bits: the consumer must not write the memory; the producer copied the data for this
// consumer alone.
#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)

#define PYKERN_DLPACK_ABI_MINOR 0
#else
#define PYKERN_DLPACK_ABI_MINOR DLPACK_MINOR_VERSION
#endif

namespace pykern {

// The DLPack version pykern's versioned tensors carry, and the major version it reads.
inline constexpr uint32_t dlpack_major_version = 1;
inline constexpr uint32_t dlpack_minor_version = PYKERN_DLPACK_ABI_MINOR;

// Type codes fixed by the ABI since DLPack 0.8 (kDLBool) and 0.6 (kDLBfloat), named here so
// that they read the same whichever header is installed.
inline constexpr uint8_t dlpack_bool_code = 6;
inline constexpr uint8_t dlpack_bfloat_code = 4;

}  // namespace pykern
