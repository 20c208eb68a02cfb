#include "cuda/streams.h"

#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

namespace pykern::cuda {

Result<bool> parse_per_thread_setting(const char* text) {
  std::string_view value = text ? text : "";
  if (value.empty() || value == "0") return false;
  if (value == "1") return true;
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("PYKERN_PER_THREAD_DEFAULT_STREAM is 1 (each host thread's own default stream) or 0 "
                                 "(the legacy default stream), not '{}'",
                                 value.substr(0, 64)));
}

Result<bool> per_thread_default_stream() {
  static const Result<bool> setting = parse_per_thread_setting(std::getenv("PYKERN_PER_THREAD_DEFAULT_STREAM"));  // read once, as Numba reads its config
  return setting;
}

Result<CUstream> queue_for(CUstream given) {
  if (given != nullptr) return given;
  auto per_thread = per_thread_default_stream();
  if (!per_thread.ok()) return per_thread.error();
  return *per_thread ? CU_STREAM_PER_THREAD : CUstream(nullptr);
}

}  // namespace pykern::cuda
