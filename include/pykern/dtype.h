// Element types of NumPy-style buffers: bool, int8..int64, uint8..uint64, float16/32/64,
// bfloat16, complex64/128, and structured (record) dtypes such as xoroshiro128p states.
#pragma once
#include <complex>
#include <type_traits>
#include <cstdint>
#include <string>
#include <vector>

#include "pykern/bfloat16.h"
#include "pykern/result.h"

namespace pykern {

// bfloat: bfloat16 (ml_dtypes' and DLPack's), a kind of its own since float_ of 16 bits is
// IEEE half precision.
enum class ScalarKind { boolean, int_, uint, float_, complex, record, bfloat };

struct DType;

struct DTypeField {
  std::string name;
  std::vector<DType> type;  // exactly one element (a vector keeps DType complete here)
  int64_t offset = 0;
  std::vector<int64_t> shape;  // a subarray field ('h', '<f4', (2,)): its shape; empty for one value
  int64_t bytes() const;       // the element's itemsize times the shape's elements
};

struct DType {
  ScalarKind kind = ScalarKind::float_;
  int64_t itemsize = 8;             // bytes
  std::vector<DTypeField> fields;   // records only: in offset order; gaps are padding

  static DType boolean() { return {ScalarKind::boolean, 1, {}}; }
  static DType int_(int bits) { return {ScalarKind::int_, bits / 8, {}}; }
  static DType uint(int bits) { return {ScalarKind::uint, bits / 8, {}}; }
  static DType float_(int bits) { return {ScalarKind::float_, bits / 8, {}}; }
  static DType complex(int bits) { return {ScalarKind::complex, bits / 8, {}}; }
  // ml_dtypes' 'bfloat16': arrays of it travel through DLPack and Array::at<pykern::bfloat16>;
  // NumPy has no descr for it, so .npy files and kernels do not take it yet.
  static DType bfloat16() { return {ScalarKind::bfloat, 2, {}}; }
  // [('s0', '<u8'), ('s1', '<u8')]: numba.cuda.random's xoroshiro128p states.
  static DType xoroshiro128p();
  template <class T> static DType of();

  // NumPy's descr: "<f4", "|b1", "<c16", or a record's list form, padding included.
  // bfloat16 has none (ml_dtypes writes raw bytes, '|V2'): its descr is "bfloat16", which
  // from_descr and NumPy refuse, and save_npy does not write it.
  std::string descr() const;
  // Numba's name: "float32", "int64", "bool",
  // "Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True)".
  std::string name() const;
  // NumPy's alignment with align=True: a scalar's own (a complex's part), a record's largest.
  int64_t alignment() const;
  // Every field's offset is a multiple of its alignment, and the size of the largest: the
  // record has the layout a C struct of its fields would have.
  bool naturally_aligned() const;
  static Result<DType> from_descr(const std::string& descr);
  static Result<DType> from_name(const std::string& name);  // "float32", "f4", "i8", ...

  friend bool operator==(const DType& a, const DType& b);
  friend bool operator!=(const DType& a, const DType& b) { return !(a == b); }
};

// std::complex<T>: an element type with a complex dtype.
template <class T> struct is_complex : std::false_type {};
template <class T> struct is_complex<std::complex<T>> : std::true_type {};

// The dtype of a C++ element type: bool, any integer (its width and signedness), float,
// double, std::complex<float>, std::complex<double> and pykern::bfloat16.
template <class T> DType DType::of() {
  using U = std::remove_cv_t<T>;
  static_assert(std::is_arithmetic_v<U> || is_complex<U>::value || std::is_same_v<U, ::pykern::bfloat16>,
                "DType::of takes a number type");
  if constexpr (std::is_same_v<U, ::pykern::bfloat16>) return DType::bfloat16();
  else if constexpr (std::is_same_v<U, bool>) return boolean();
  else if constexpr (std::is_integral_v<U>) return std::is_signed_v<U> ? int_(8 * sizeof(U)) : uint(8 * sizeof(U));
  else if constexpr (std::is_floating_point_v<U>) return float_(8 * sizeof(U));
  else return complex(8 * sizeof(U));
}

}  // namespace pykern
