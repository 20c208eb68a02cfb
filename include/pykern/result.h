// Result<T>: a value or an Error. Every fallible step of pykern returns one; no exception
// leaves the public API (an exception from a dependency is caught and becomes an Error).
#pragma once
#include <string>
#include <utility>
#include <variant>

namespace pykern {

enum class ErrorKind {
  io,                // a file could not be read or written
  invalid_argument,  // the caller asked for something malformed (a bad --sig, an unknown kernel)
  compile,           // the translator reported diagnostics (message holds them, rendered)
  nvrtc,             // NVRTC failed or is missing (log holds NVRTC's log)
  driver,            // the CUDA driver failed or is missing
  launch,            // a launch was refused or a kernel failed while running (e.g. out of bounds)
  cache,             // the kernel cache could not be used
  internal,          // a pykern bug: please report it
};

const char* to_string(ErrorKind kind);

struct Error {
  ErrorKind kind = ErrorKind::internal;
  std::string message;  // one or more lines, ready to print
  std::string log;      // e.g. NVRTC's log, may be empty
  std::string options;  // e.g. the NVRTC options used, may be empty

  static Error make(ErrorKind kind, std::string message, std::string log = {}) {
    return Error{kind, std::move(message), std::move(log), {}};
  }
  // The whole error as a user should see it.
  std::string describe() const;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

// For steps that produce nothing but may fail.
struct Unit {};
using Status = Result<Unit>;
inline Status ok_status() { return Unit{}; }

}  // namespace pykern
