// Result<T>: a value or an Error. Every fallible step of pykern returns one and throws
// nothing: an exception from a dependency is caught and becomes an Error.
//
// Two things do throw, as the standard library does on misuse, and each says why:
// - reading the value of a Result that holds an error (value(), *, ->) throws
//   pykern::BadResultAccess, whose what() is the error's whole text, as std::expected's
//   bad_expected_access carries its error: check ok() first, or use value_or / and_then /
//   transform;
// - building or reading an Array wrongly (a negative dimension, memory that cannot be had, an
//   element read as the wrong C++ type or out of bounds) throws std::invalid_argument,
//   std::out_of_range or std::bad_alloc, as std::vector does.
#pragma once
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>
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
  cancelled,         // the caller cancelled the work (Launch::cancel_with, a cancel token)
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

// What reading the value of a failed Result throws: the error, and its text as what().
class BadResultAccess : public std::exception {
 public:
  explicit BadResultAccess(Error error) : error_(std::move(error)), text_(error_.describe()) {}
  const char* what() const noexcept override { return text_.c_str(); }
  const Error& error() const noexcept { return error_; }

 private:
  Error error_;
  std::string text_;
};

template <class T>
class [[nodiscard]] Result {
 public:
  using value_type = T;
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  // The value; throws BadResultAccess (with the error's text) when there is none.
  T& value() & { return (check(), std::get<0>(state_)); }
  const T& value() const& { return (check(), std::get<0>(state_)); }
  T&& value() && { return (check(), std::get<0>(std::move(state_))); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  // The error; throws std::logic_error when the Result holds a value.
  const Error& error() const {
    if (ok()) throw std::logic_error("pykern::Result::error() called on a Result that holds a value");
    return std::get<1>(state_);
  }

  // The value, or `fallback` when there is an error.
  template <class U> T value_or(U&& fallback) const& {
    return ok() ? std::get<0>(state_) : static_cast<T>(std::forward<U>(fallback));
  }
  // f(value) -> Result<U> when there is a value; the error passed on otherwise.
  template <class F> auto and_then(F&& f) const& {
    using Next = std::decay_t<decltype(invoke(f))>;
    if (!ok()) return Next(std::get<1>(state_));
    return invoke(f);
  }
  // Result<U> holding f(value) when there is a value; the error passed on otherwise.
  template <class F> auto transform(F&& f) const& {
    using U = std::decay_t<decltype(invoke(f))>;
    if (!ok()) return Result<U>(std::get<1>(state_));
    return Result<U>(invoke(f));
  }

 private:
  void check() const {
    if (!ok()) throw BadResultAccess(std::get<1>(state_));
  }
  // f(value), or f() for a Status, whose value says nothing.
  template <class F> decltype(auto) invoke(F& f) const {
    if constexpr (std::is_invocable_v<F&, const T&>) return f(std::get<0>(state_));
    else return f();
  }

  std::variant<T, Error> state_;
};

// For steps that produce nothing but may fail.
struct Unit {};
using Status = Result<Unit>;
inline Status ok_status() { return Unit{}; }

}  // namespace pykern
