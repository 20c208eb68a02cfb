// The runtime headers (runtime/pykern/*.cuh), embedded into the library at build time.
#pragma once
#include <span>
#include <string>
#include <string_view>

namespace pykern::embed {

struct RuntimeHeader {
  const char* name;  // include name, e.g. "pykern/runtime.cuh"
  std::string_view text;  // followed by a NUL byte, so text.data() is a C string
};

std::span<const RuntimeHeader> runtime_headers();
// A hash of all header names and bytes, made when they are embedded: part of every cache key.
std::string runtime_headers_hash();
// A digest of the library's own sources (src/, include/), made at build time. Cache keys carry it
// beside the version, so no build takes what another build's translator left in a kernel cache.
std::string sources_hash();

}  // namespace pykern::embed
