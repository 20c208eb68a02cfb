// Which NVRTC a process would load, told without loading it. Loading NVRTC (a 100 MB library)
// costs tens of milliseconds, many times a whole cache-hit `pykern compile`, yet the cache key
// needs its version (a cached PTX must not outlive an NVRTC change). So the process that loads
// NVRTC leaves a memo (its version and the identity of the file it came from) under the
// context that decided the loader's choice; a later process with the same context, whose memo's
// file is unchanged, takes the version from the memo.
//
// The context covers what the loader reads: $PYKERN_NVRTC, $LD_LIBRARY_PATH and each of its
// folders (a library dropped into one changes the folder), the loader's cache
// (/etc/ld.so.cache, rewritten by ldconfig), the executable (its run path) and the toolkit's
// usual folder. A change it misses (a library swapped in the executable's run-path folder) can
// only make the key name a stale version: entries made by another NVRTC of the same path remain
// valid code, never another kernel's.
#pragma once
#include <optional>
#include <string>

#include "pykern/result.h"

namespace pykern::jit {

// The facts that decide which NVRTC library the loader picks, as text (a few stat calls).
std::string nvrtc_search_context();
// A memo of the NVRTC this process loaded: its version and its file's identity. Loads NVRTC.
Result<std::string> loaded_nvrtc_memo();
// The version a memo names when its file is still the same file (device, inode, size and
// modification time), else nullopt.
std::optional<std::string> nvrtc_version_from_memo(const std::string& memo);

}  // namespace pykern::jit
