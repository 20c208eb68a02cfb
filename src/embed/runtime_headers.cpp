#include <xxhash.h>

#include <fmt/format.h>

#include "embed/runtime_headers.h"

namespace pykern::embed {

std::string runtime_headers_hash() {
  static const std::string hash = [] {
    XXH3_state_t* state = XXH3_createState();
    XXH3_64bits_reset(state);
    for (const RuntimeHeader& header : runtime_headers()) {
      XXH3_64bits_update(state, header.name, std::char_traits<char>::length(header.name));
      XXH3_64bits_update(state, header.text.data(), header.text.size());
    }
    uint64_t value = XXH3_64bits_digest(state);
    XXH3_freeState(state);
    return fmt::format("{:016x}", value);
  }();
  return hash;
}

}  // namespace pykern::embed
