#include "cli/arguments.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include <fmt/format.h>

#include "pykern/npy.h"

namespace pykern::cli {

namespace {

// Whether a parsed value can be a `dtype` without wrapping, rounding to an integer or
// overflowing: `int8:300`, `u1:-1`, `i4:2.5` and `f4:1e39` are refused, not converted.
Status check_fits(const Scalar& value, const DType& dtype, const std::string& text) {
  auto refuse = [&](const std::string& why) {
    return Error::make(ErrorKind::invalid_argument, fmt::format("'{}': {}", text, why));
  };
  ScalarKind from = value.type.kind;
  bool integral = from == ScalarKind::int_ || from == ScalarKind::uint || from == ScalarKind::boolean;
  switch (dtype.kind) {
    case ScalarKind::boolean:
      if (from != ScalarKind::boolean && !(integral && (value.integer == 0 || value.integer == 1)))
        return refuse("a boolean is True, False, 0 or 1");
      return ok_status();
    case ScalarKind::int_:
    case ScalarKind::uint: {
      if (!integral) return refuse(fmt::format("{} takes an integer", dtype.name()));
      int bits = static_cast<int>(dtype.itemsize * 8);
      bool negative = from == ScalarKind::int_ && value.integer < 0;
      __int128 v = negative ? __int128(value.integer) : __int128(value.unsigned_integer);
      __int128 low = dtype.kind == ScalarKind::uint ? 0 : -(__int128(1) << (bits - 1));
      __int128 high = dtype.kind == ScalarKind::uint ? (__int128(1) << bits) - 1 : (__int128(1) << (bits - 1)) - 1;
      if (v < low || v > high) return refuse(fmt::format("out of range for {}", dtype.name()));
      return ok_status();
    }
    case ScalarKind::float_: {
      if (from == ScalarKind::complex) return refuse(fmt::format("{} takes a real number", dtype.name()));
      double limit = dtype.itemsize == 2 ? 65504.0 : dtype.itemsize == 4 ? 3.4028234663852886e38 : 1.7976931348623157e308;
      double v = from == ScalarKind::float_ ? value.value.real()
                 : from == ScalarKind::uint ? static_cast<double>(value.unsigned_integer) : static_cast<double>(value.integer);
      if (std::isfinite(v) && std::fabs(v) > limit) return refuse(fmt::format("out of range for {}", dtype.name()));
      return ok_status();
    }
    default: return ok_status();
  }
}

}  // namespace

// A scalar as Python would read it: 11 (int64), 2.5 (float64), True, 1+2j; or typed, f4:2.5.
Result<Scalar> parse_scalar(const std::string& text) {
  auto bad = [&] {
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("'{}' is neither a .npy file nor a scalar (11, 2.5, True, 1+2j, float32:2.5)", text));
  };
  size_t colon = text.find(':');
  if (colon != std::string::npos) {
    auto dtype = DType::from_name(text.substr(0, colon));
    if (!dtype.ok()) return dtype.error();
    auto value = parse_scalar(text.substr(colon + 1));
    if (!value.ok()) return value.error();
    if (auto fits = check_fits(*value, *dtype, text); !fits.ok()) return fits.error();
    return value->as(*dtype);
  }
  if (text.empty()) return bad();
  if (text == "True") return Scalar(true);
  if (text == "False") return Scalar(false);
  static const std::regex integer(R"([+-]?\d+)");
  static const std::regex real(R"([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan))");
  std::smatch match;
  if (std::regex_match(text, integer)) {
    errno = 0;
    char* end = nullptr;
    if (text[0] != '-') {  // up to 2^64-1, as Numba types a Python int past int64 as uint64
      unsigned long long u = std::strtoull(text.c_str(), &end, 10);
      if (errno == ERANGE) return Error::make(ErrorKind::invalid_argument, fmt::format("'{}' is out of range for uint64", text));
      if (u > static_cast<unsigned long long>(INT64_MAX)) return Scalar(u);
      return Scalar(static_cast<long long>(u));
    }
    long long i = std::strtoll(text.c_str(), &end, 10);
    if (errno == ERANGE) return Error::make(ErrorKind::invalid_argument, fmt::format("'{}' is out of range for int64", text));
    return Scalar(i);
  }
  try {
    if (std::regex_match(text, real)) return Scalar(std::strtod(text.c_str(), nullptr));
    if (text.back() == 'j') {
      static const std::regex parts(R"(([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)?([+-]?(?:\d+\.?\d*|\.\d+)?(?:[eE][+-]?\d+)?)j)");
      if (std::regex_match(text, match, parts)) {
        double re = match[1].matched && match[2].length() > 0 ? std::stod(match[1]) : 0.0;
        std::string im_text = match[2].length() > 0 ? match[2].str() : match[1].str();
        double im = im_text.empty() || im_text == "+" ? 1.0 : im_text == "-" ? -1.0 : std::strtod(im_text.c_str(), nullptr);
        return Scalar(std::complex<double>(re, im));
      }
    }
  } catch (...) {
  }
  return bad();
}

Result<Argument> parse_argument(const std::string& text) {
  if (text.size() > 4 && text.substr(text.size() - 4) == ".npy") {
    auto array = load_npy(text);
    if (!array.ok()) return array.error();
    return Argument(*array);
  }
  auto scalar = parse_scalar(text);
  if (!scalar.ok()) return scalar.error();
  return Argument(*scalar);
}

Result<std::vector<KernelSignature>> parse_sig_options(const std::vector<std::string>& texts) {
  std::vector<KernelSignature> signatures;
  for (const std::string& text : texts) {
    size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("--sig takes NAME=SIGNATURE, e.g. 'add=void(float32[:], float32[:])', not '{}'",
                                     text));
    signatures.push_back({text.substr(0, equals), text.substr(equals + 1)});
  }
  return signatures;
}

Status check_output_path(const std::string& kernel_file, const std::string& output) {
  if (output.empty()) return Error::make(ErrorKind::invalid_argument, "-o needs a file name");
  std::error_code same_error;
  if (std::filesystem::equivalent(kernel_file, output, same_error))
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("-o '{}' is the kernel file itself; choose another output file", output));
  return ok_status();
}

}  // namespace pykern::cli
