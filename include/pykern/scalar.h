// Scalars passed to kernels, typed as Numba types Python values: a C++ int64_t/int is int64/
// int32, double/float is float64/float32, bool is bool, std::complex is complex128/complex64.
// pykern::f32(2.5), i32(11) and friends say the type explicitly.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pykern/dtype.h"

namespace pykern {

struct Scalar {
  DType type = DType::int_(64);
  std::complex<double> value;  // wide enough for every kind but uint64/int64, kept below
  int64_t integer = 0;
  uint64_t unsigned_integer = 0;
  // A record (Numba's Record type: a structured dtype's element, passed by value) holds its
  // bytes, type.itemsize of them, laid out as NumPy lays out an element of `type`.
  std::vector<unsigned char> record_bytes;

  Scalar() = default;
  // The integer a double truncates to, saturated (NaN is 0): never the undefined conversion.
  static int64_t saturate(double v) {
    if (!(v == v)) return 0;
    if (v >= 9223372036854775807.0) return INT64_MAX;
    if (v <= -9223372036854775808.0) return INT64_MIN;
    return static_cast<int64_t>(v);
  }
  Scalar(bool v) : type(DType::boolean()), value(v), integer(v), unsigned_integer(v) {}
  Scalar(int v) : Scalar(static_cast<long long>(v)) { type = DType::int_(32); }
  Scalar(long v) : Scalar(static_cast<long long>(v)) {}
  Scalar(long long v) : type(DType::int_(64)), value(static_cast<double>(v)), integer(v), unsigned_integer(static_cast<uint64_t>(v)) {}
  Scalar(unsigned v) : Scalar(static_cast<unsigned long long>(v)) { type = DType::uint(32); }
  Scalar(unsigned long v) : Scalar(static_cast<unsigned long long>(v)) {}
  Scalar(unsigned long long v) : type(DType::uint(64)), value(static_cast<double>(v)), integer(static_cast<int64_t>(v)), unsigned_integer(v) {}
  Scalar(float v) : Scalar(static_cast<double>(v)) { type = DType::float_(32); }
  Scalar(double v) : type(DType::float_(64)), value(v), integer(saturate(v)), unsigned_integer(static_cast<uint64_t>(integer)) {}
  Scalar(std::complex<float> v) : type(DType::complex(64)), value(v) {}
  Scalar(std::complex<double> v) : type(DType::complex(128)), value(v) {}
  // A pointer or a string literal is no scalar: without these, C++ would turn one into
  // Scalar(bool) (true), and `launch(cfg, x.data())` or `launch(cfg, "2.5")` would run with it.
  // Pass arrays as Array, std::vector, std::span or View; numbers as numbers.
  template <class T> Scalar(T*) = delete;
  Scalar(std::nullptr_t) = delete;

  // A record of `type` read from `bytes` (an element of a structured array: a[0] in NumPy).
  static Scalar record(const DType& type, const void* bytes);
  // The same value as another type, converted as NumPy's astype would.
  Scalar as(const DType& to) const;
  // Reads a value of `type` from its C representation.
  static Scalar load(const DType& type, const void* bytes);
  // Writes the value in `to`'s C representation into `out` (to.itemsize bytes).
  void store(const DType& to, void* out) const;
};

inline Scalar f32(double v) { return Scalar(static_cast<float>(v)); }
inline Scalar f64(double v) { return Scalar(v); }
inline Scalar i8(int64_t v) { return Scalar(v).as(DType::int_(8)); }
inline Scalar i16(int64_t v) { return Scalar(v).as(DType::int_(16)); }
inline Scalar i32(int64_t v) { return Scalar(v).as(DType::int_(32)); }
inline Scalar i64(int64_t v) { return Scalar(static_cast<long long>(v)); }
inline Scalar u8(uint64_t v) { return Scalar(static_cast<unsigned long long>(v)).as(DType::uint(8)); }
inline Scalar u16(uint64_t v) { return Scalar(static_cast<unsigned long long>(v)).as(DType::uint(16)); }
inline Scalar u32(uint64_t v) { return Scalar(static_cast<unsigned long long>(v)).as(DType::uint(32)); }
inline Scalar u64(uint64_t v) { return Scalar(static_cast<unsigned long long>(v)); }
inline Scalar c64(std::complex<float> v) { return Scalar(v); }
inline Scalar c128(std::complex<double> v) { return Scalar(v); }

}  // namespace pykern
