#include "pykern/result.h"

namespace pykern {

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::io: return "i/o error";
    case ErrorKind::invalid_argument: return "invalid argument";
    case ErrorKind::compile: return "compile error";
    case ErrorKind::nvrtc: return "nvrtc error";
    case ErrorKind::driver: return "cuda driver error";
    case ErrorKind::launch: return "launch error";
    case ErrorKind::cache: return "cache error";
    case ErrorKind::cancelled: return "cancelled";
    case ErrorKind::internal: return "internal error";
  }
  return "error";
}

std::string Error::describe() const {
  std::string text = message;
  if (!options.empty()) text += "\noptions: " + options;
  if (!log.empty()) text += "\n" + log;
  return text;
}

}  // namespace pykern
