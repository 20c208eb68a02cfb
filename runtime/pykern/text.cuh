// pykern runtime: Python's str in @jit functions called on the host (Numba's unicode_type),
// as numba/cpython/unicode.py computes it. Host builds only: numba-cuda kernels have no string
// values (sema refuses them there). A str is a counted reference to immutable UTF-8 text; a
// literal refers to the program's own bytes and counts nothing. Lengths, indices and slices
// count code points, as Python's do; comparisons order by code point (UTF-8's byte order).
#ifndef PYKERN_TEXT_CUH
#define PYKERN_TEXT_CUH
#include "pykern/base.cuh"
#include "pykern/errors.cuh"

#if !PK_DEVICE_BUILD
extern "C" double strtod(const char* text, char** end) noexcept;  // as glibc declares it

namespace pk {

struct str {
  const char* bytes = "";  // UTF-8, followed by a NUL (for printf)
  i64 size = 0;            // bytes
  i64 length = 0;          // code points
  i64* references = nullptr;  // the count before the bytes of an owned text; null for a literal

  str() = default;
  str(const str& other) : bytes(other.bytes), size(other.size), length(other.length), references(other.references) {
    if (references) __atomic_fetch_add(references, 1, __ATOMIC_RELAXED);
  }
  str& operator=(const str& other) {
    if (other.references) __atomic_fetch_add(other.references, 1, __ATOMIC_RELAXED);
    release();
    bytes = other.bytes, size = other.size, length = other.length, references = other.references;
    return *this;
  }
  ~str() { release(); }
  void release() {
    if (references && __atomic_sub_fetch(references, 1, __ATOMIC_ACQ_REL) == 0) delete[] references;
    references = nullptr;
    bytes = "";
    size = length = 0;
  }
  bool ascii() const { return size == length; }
};

// A literal of the program: `bytes` of UTF-8 holding `length` code points (sema counts them).
inline str str_literal(const char* bytes, i64 size, i64 length) {
  str s;
  s.bytes = bytes, s.size = size, s.length = length;
  return s;
}

// A new text of `size` bytes (filled by the caller, which sets its length).
inline str str_alloc(i64 size, char*& out) {
  str s;
  i64 words = 1 + (size + 1 + 7) / 8;
  s.references = new i64[words];
  *s.references = 1;
  out = reinterpret_cast<char*>(s.references + 1);
  out[size] = 0;
  s.bytes = out;
  s.size = size;
  return s;
}

// The bytes of the code point that starts with `lead`.
inline i64 utf8_width(unsigned char lead) { return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4; }
inline i64 count_code_points(const char* bytes, i64 size) {
  i64 n = 0;
  for (i64 i = 0; i < size; ++i) n += (static_cast<unsigned char>(bytes[i]) & 0xC0) != 0x80;
  return n;
}
// The byte offset of code point `k` (k <= length).
inline i64 byte_offset(const str& s, i64 k) {
  if (s.ascii()) return k;
  i64 at = 0;
  for (; k > 0; --k) at += utf8_width(static_cast<unsigned char>(s.bytes[at]));
  return at;
}
inline str str_from_bytes(const char* bytes, i64 size) {
  char* out;
  str s = str_alloc(size, out);
  for (i64 i = 0; i < size; ++i) out[i] = bytes[i];
  s.length = count_code_points(bytes, size);
  return s;
}

inline const char* c_str(const str& s) { return s.bytes; }
inline i64 str_len(const str& s) { return s.length; }
inline bool str_truth(const str& s) { return s.length != 0; }

// -1, 0 or 1: the order of the two texts by code point.
inline int str_order(const str& a, const str& b) {
  i64 n = a.size < b.size ? a.size : b.size;
  for (i64 i = 0; i < n; ++i) {
    unsigned char x = static_cast<unsigned char>(a.bytes[i]), y = static_cast<unsigned char>(b.bytes[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size == b.size ? 0 : a.size < b.size ? -1 : 1;
}
inline bool str_eq(const str& a, const str& b) { return a.size == b.size && str_order(a, b) == 0; }
inline bool str_ne(const str& a, const str& b) { return !str_eq(a, b); }
inline bool str_lt(const str& a, const str& b) { return str_order(a, b) < 0; }
inline bool str_le(const str& a, const str& b) { return str_order(a, b) <= 0; }
inline bool str_gt(const str& a, const str& b) { return str_order(a, b) > 0; }
inline bool str_ge(const str& a, const str& b) { return str_order(a, b) >= 0; }

// The byte offset of the first `needle` in `hay` at or after byte `from`, or -1.
inline i64 find_bytes(const str& hay, const str& needle, i64 from) {
  for (i64 i = from; i + needle.size <= hay.size; ++i) {
    i64 k = 0;
    while (k < needle.size && hay.bytes[i + k] == needle.bytes[k]) ++k;
    if (k == needle.size) return i;
  }
  return -1;
}
inline bool str_contains(const str& hay, const str& needle) { return find_bytes(hay, needle, 0) >= 0; }
// a + b + ... in one allocation (concatenation and f-strings).
template <class... S> str str_concat(const S&... parts) {
  char* out;
  str s = str_alloc((i64(0) + ... + parts.size), out);
  i64 at = 0;
  auto copy = [&](const str& part) {
    for (i64 i = 0; i < part.size; ++i) out[at++] = part.bytes[i];
  };
  (copy(parts), ...);
  s.length = (i64(0) + ... + parts.length);
  return s;
}
// s * n: empty for n <= 0, as in Python.
inline str str_repeat(const str& s, i64 n) {
  if (n <= 0 || s.size == 0) return str();
  char* out;
  str r = str_alloc(s.size * n, out);
  for (i64 k = 0; k < n; ++k)
    for (i64 i = 0; i < s.size; ++i) out[k * s.size + i] = s.bytes[i];
  r.length = s.length * n;
  return r;
}

// s[i]: Python's negative indices; out of range is Numba's IndexError.
inline str str_at(const char* file, int line, const str& s, i64 i) {
  if (i < 0) i += s.length;
  if (i < 0 || i >= s.length) report_failure(file, line, "IndexError", "string index out of range");
  i64 at = byte_offset(s, i);
  return str_from_bytes(s.bytes + at, utf8_width(static_cast<unsigned char>(s.bytes[at])));
}

// s[start:stop:step], each part none_index where omitted, clipped as Python clips a slice.
inline str str_slice(const char* file, int line, const str& s, i64 start, i64 stop, i64 step) {
  if (step == 0) report_failure(file, line, "ValueError", "slice step cannot be zero");
  slice_bounds b = slice_indices(s.length, start, stop, step);
  start = b.start, stop = b.stop, step = b.step;
  i64 count = b.length;
  if (count == 0) return str_from_bytes(s.bytes, 0);  // s[3:1]: stop before start
  if (step == 1) {
    i64 from = byte_offset(s, start);
    return str_from_bytes(s.bytes + from, byte_offset(s, stop) - from);
  }
  i64 bytes = 0;
  for (i64 k = 0, i = start; k < count; ++k, i += step)
    bytes += utf8_width(static_cast<unsigned char>(s.bytes[byte_offset(s, i)]));
  char* out;
  str r = str_alloc(bytes, out);
  i64 at = 0;
  for (i64 k = 0, i = start; k < count; ++k, i += step) {
    i64 from = byte_offset(s, i), width = utf8_width(static_cast<unsigned char>(s.bytes[from]));
    for (i64 b = 0; b < width; ++b) out[at++] = s.bytes[from + b];
  }
  r.length = count;
  return r;
}

// str(n) of an integer, and of a bool (True / False).
inline str str_of_uint(u64 v, bool negative = false) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  if (negative) digits[n++] = '-';
  char* out;
  str s = str_alloc(n, out);
  for (int i = 0; i < n; ++i) out[i] = digits[n - 1 - i];
  s.length = n;
  return s;
}
inline str str_of_int(i64 v) { return v < 0 ? str_of_uint(0 - static_cast<u64>(v), true) : str_of_uint(static_cast<u64>(v)); }
inline str str_of_int(u64 v) { return str_of_uint(v); }
inline str str_of_bool(bool b) { return b ? str_literal("True", 4, 4) : str_literal("False", 5, 5); }

// repr(x) of a float64 as Python writes it: the fewest digits that read back as x, in fixed
// notation for exponents from -4 to 15, else as 1e+16; a float always shows a '.' or an 'e'.
inline str repr_float(f64 x) {
  if (x != x) return str_literal("nan", 3, 3);
  if (x == inf<f64>()) return str_literal("inf", 3, 3);
  if (x == -inf<f64>()) return str_literal("-inf", 4, 4);
  char scientific[40];
  int precision = 1;
  for (; precision < 17; ++precision) {
    __builtin_snprintf(scientific, sizeof scientific, "%.*e", precision - 1, x);
    if (strtod(scientific, nullptr) == x) break;
  }
  __builtin_snprintf(scientific, sizeof scientific, "%.*e", precision - 1, x);
  // scientific: [-]d[.ddd]e(+|-)XX
  const char* p = scientific;
  bool negative = *p == '-';
  if (negative) ++p;
  char digits[24];
  int count = 0;
  for (; *p != 'e'; ++p)
    if (*p != '.') digits[count++] = *p;
  int exponent = 0;
  bool exponent_negative = *++p == '-';
  for (++p; *p; ++p) exponent = exponent * 10 + (*p - '0');
  if (exponent_negative) exponent = -exponent;
  while (count > 1 && digits[count - 1] == '0') --count;  // 1.50e+00 never, but -0.0 gives 0
  char text[48];
  int n = 0;
  if (negative) text[n++] = '-';
  if (exponent >= -4 && exponent < 16) {
    int point = exponent + 1;  // digits before the decimal point
    if (point <= 0) {
      text[n++] = '0', text[n++] = '.';
      for (int i = 0; i < -point; ++i) text[n++] = '0';
      for (int i = 0; i < count; ++i) text[n++] = digits[i];
    } else {
      for (int i = 0; i < point; ++i) text[n++] = i < count ? digits[i] : '0';
      text[n++] = '.';
      if (point >= count) text[n++] = '0';
      for (int i = point; i < count; ++i) text[n++] = digits[i];
    }
  } else {
    text[n++] = digits[0];
    if (count > 1) {
      text[n++] = '.';
      for (int i = 1; i < count; ++i) text[n++] = digits[i];
    }
    n += __builtin_snprintf(text + n, sizeof text - n, "e%c%02d", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
  }
  return str_from_bytes(text, n);
}

// repr(s) as Python writes it: single quotes unless the text holds one and no double quote;
// backslashes, the quote and control characters escaped.
inline str repr_str(const str& s) {
  bool has_single = false, has_double = false;
  for (i64 i = 0; i < s.size; ++i) has_single |= s.bytes[i] == '\'', has_double |= s.bytes[i] == '"';
  char quote = has_single && !has_double ? '"' : '\'';
  i64 bytes = 2;
  for (i64 i = 0; i < s.size; ++i) {
    unsigned char c = static_cast<unsigned char>(s.bytes[i]);
    bytes += c == '\\' || c == quote || c == '\n' || c == '\r' || c == '\t' ? 2 : c < 0x20 || c == 0x7f ? 4 : 1;
  }
  char* out;
  str r = str_alloc(bytes, out);
  i64 at = 0;
  out[at++] = quote;
  for (i64 i = 0; i < s.size; ++i) {
    unsigned char c = static_cast<unsigned char>(s.bytes[i]);
    const char* escape = c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : nullptr;
    if (escape) {
      out[at++] = escape[0], out[at++] = escape[1];
    } else if (c == static_cast<unsigned char>(quote)) {
      out[at++] = '\\', out[at++] = quote;
    } else if (c < 0x20 || c == 0x7f) {
      const char* hex = "0123456789abcdef";
      out[at++] = '\\', out[at++] = 'x', out[at++] = hex[c >> 4], out[at++] = hex[c & 15];
    } else {
      out[at++] = static_cast<char>(c);
    }
  }
  out[at++] = quote;
  r.length = count_code_points(out, bytes);
  return r;
}

// Python's whitespace (str.isspace), the code point starting at byte `at` of `s`.
inline u32 code_point_at(const char* p, i64* width) {
  unsigned char lead = static_cast<unsigned char>(p[0]);
  *width = utf8_width(lead);
  u32 cp = *width == 1 ? lead : *width == 2 ? lead & 0x1F : *width == 3 ? lead & 0x0F : lead & 0x07;
  for (i64 k = 1; k < *width; ++k) cp = (cp << 6) | (static_cast<unsigned char>(p[k]) & 0x3F);
  return cp;
}
inline bool is_python_space(u32 c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}
// s.strip(): leading and trailing whitespace removed.
}  // namespace pk

#define PK_STR_AT(s, i) (::pk::str_at(__FILE__, __LINE__, s, i))
#define PK_STR_SLICE(s, start, stop, step) (::pk::str_slice(__FILE__, __LINE__, s, start, stop, step))
#endif  // !PK_DEVICE_BUILD
#endif  // PYKERN_TEXT_CUH
