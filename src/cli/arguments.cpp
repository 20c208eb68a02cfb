#include "cli/arguments.h"

#include <algorithm>
#include <cerrno>
#include <complex>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "cli/suggest.h"
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

// Numbers are scanned by hand, not with std::regex, whose matcher recurses once per character
// (a 50,000-digit argument overflowed the stack); past this length no text is a useful number.
constexpr size_t longest_number = 4096;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

size_t sign_length(std::string_view s) { return !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0; }

// The length of the unsigned decimal real at the start of `s` (digits with an optional point,
// at least one digit, then an optional exponent), or 0 when it does not start with one.
size_t real_length(std::string_view s) {
  size_t i = 0, digits = 0;
  for (; i < s.size() && is_digit(s[i]); ++i) ++digits;
  if (i < s.size() && s[i] == '.')
    for (++i; i < s.size() && is_digit(s[i]); ++i) ++digits;
  if (digits == 0) return 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t exponent = i + 1 + sign_length(s.substr(i + 1));
    size_t end = exponent;
    while (end < s.size() && is_digit(s[end])) ++end;
    if (end > exponent) i = end;
  }
  return i;
}

bool is_integer_text(std::string_view s) {
  size_t sign = sign_length(s);
  return s.size() > sign && std::all_of(s.begin() + sign, s.end(), is_digit);
}

// 2.5, -.5, 1e-3, 5., inf, -nan: what float() reads (but for spaces and underscores).
bool is_real_text(std::string_view s) {
  std::string_view body = s.substr(sign_length(s));
  return body == "inf" || body == "nan" || (!body.empty() && real_length(body) == body.size());
}

double to_double(std::string_view s) { return std::strtod(std::string(s).c_str(), nullptr); }

// 1+2j, -2.5j, 3-j, j: an optional real part, then a signed imaginary part whose digits may be
// left out (meaning 1), as Python's complex() reads them.
std::optional<std::complex<double>> parse_complex(std::string_view s) {
  if (s.empty() || s.back() != 'j') return std::nullopt;
  std::string_view body = s.substr(0, s.size() - 1);
  size_t sign = sign_length(body);
  size_t first = real_length(body.substr(sign));
  std::string_view real_part, imaginary = body;
  if (first > 0 && sign + first < body.size()) {  // a real part, then the signed imaginary one
    real_part = body.substr(0, sign + first);
    imaginary = body.substr(sign + first);
    if (sign_length(imaginary) == 0) return std::nullopt;
  }
  std::string_view digits = imaginary.substr(sign_length(imaginary));
  if (!digits.empty() && real_length(digits) != digits.size()) return std::nullopt;
  double im = digits.empty() ? 1.0 : to_double(digits);
  if (!imaginary.empty() && imaginary[0] == '-') im = -im;
  return std::complex<double>(real_part.empty() ? 0.0 : to_double(real_part), im);
}

// A long text shortened for a message: the start, an ellipsis and how long it was.
std::string shown(const std::string& text) {
  if (text.size() <= 60) return text;
  return fmt::format("{}... ({} characters)", text.substr(0, 40), text.size());
}

}  // namespace

// A scalar as Python would read it: 11 (int64), 2.5 (float64), True, 1+2j; or typed, f4:2.5.
Result<Scalar> parse_scalar(const std::string& text) {
  auto bad = [&] {
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("'{}' is neither a .npy file nor a scalar (11, 2.5, True, 1+2j, float32:2.5)",
                                   shown(text)));
  };
  if (text.size() > longest_number)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("'{}' is too long to be a scalar: numbers are at most {} characters", shown(text),
                                   longest_number));
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
  if (is_integer_text(text)) {
    errno = 0;
    char* end = nullptr;
    if (text[0] != '-') {  // up to 2^64-1, as Numba types a Python int past int64 as uint64
      unsigned long long u = std::strtoull(text.c_str(), &end, 10);
      if (errno == ERANGE)
        return Error::make(ErrorKind::invalid_argument, fmt::format("'{}' is out of range for uint64", shown(text)));
      if (u > static_cast<unsigned long long>(INT64_MAX)) return Scalar(u);
      return Scalar(static_cast<long long>(u));
    }
    long long i = std::strtoll(text.c_str(), &end, 10);
    if (errno == ERANGE)
      return Error::make(ErrorKind::invalid_argument, fmt::format("'{}' is out of range for int64", shown(text)));
    return Scalar(i);
  }
  if (is_real_text(text)) return Scalar(to_double(text));
  if (auto value = parse_complex(text)) return Scalar(*value);
  return bad();
}

Result<uint64_t> parse_count(const std::string& text, const char* option, uint64_t max) {
  auto refuse = [&] {
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("{} takes a whole number from 0 to {}, not '{}'", option, max, shown(text)));
  };
  if (text.empty() || text.size() > 20 || !std::all_of(text.begin(), text.end(), is_digit)) return refuse();
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE || value > max) return refuse();
  return static_cast<uint64_t>(value);
}

Result<double> parse_seconds(const std::string& text, const char* option) {
  if (text.size() > longest_number || sign_length(text) > 0 || !is_real_text(text) || text == "inf" || text == "nan")
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("{} takes a number of seconds (0 or more, e.g. 2.5), not '{}'", option, shown(text)));
  double seconds = to_double(text);
  if (!std::isfinite(seconds))
    return Error::make(ErrorKind::invalid_argument, fmt::format("{} '{}' is too large", option, shown(text)));
  return seconds;
}

Result<Argument> parse_argument(const std::string& text) {
  if (text.size() > 4 && text.substr(text.size() - 4) == ".npy") {
    // A missing input names the similar files of its folder ("did you mean 'a.npy'?").
    std::error_code error;
    if (!std::filesystem::exists(std::filesystem::symlink_status(text, error)))
      if (auto found = check_input_file(text); !found.ok()) return found.error();
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
    // Errors in the text name the option it came from: "--sig add:1:6: error: ...".
    signatures.push_back({text.substr(0, equals), text.substr(equals + 1), "--sig " + text.substr(0, equals)});
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
