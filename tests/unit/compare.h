// The project's own comparer for corpus outputs: the rules of tools/oracle.py compare.
// Integers, bools and records compare exactly; floats by NumPy's allclose (equal_nan) with the
// case's rtol/atol (atol_sum_abs scales by the first input's absolute sum); finite_only only
// asks for finite values.
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <string>

#include <nlohmann/json.hpp>

#include <filesystem>

#include "pykern/array.h"
#include "pykern/half.cuh"
#include "pykern/npy.h"

namespace test {

// Steps `index` through `shape` in C order, the last axis fastest.
inline void next_index(std::vector<int64_t>& index, const std::vector<int64_t>& shape) {
  for (size_t axis = index.size(); axis-- > 0;) {
    if (++index[axis] < shape[axis]) return;
    index[axis] = 0;
  }
}

// Which bytes of a record hold fields (nested records too); padding is not compared, as NumPy's
// == on records does not look at it.
inline void mark_field_bytes(const pykern::DType& dtype, int64_t base, std::vector<bool>& mask) {
  if (dtype.kind != pykern::ScalarKind::record) {
    for (int64_t b = 0; b < dtype.itemsize; ++b) mask[static_cast<size_t>(base + b)] = true;
    return;
  }
  for (const pykern::DTypeField& f : dtype.fields) {
    int64_t count = f.bytes() / std::max<int64_t>(1, f.type[0].itemsize);
    for (int64_t i = 0; i < count; ++i) mark_field_bytes(f.type[0], base + f.offset + i * f.type[0].itemsize, mask);
  }
}

inline bool same_record(const std::byte* got, const std::byte* want, const std::vector<bool>& mask) {
  for (size_t b = 0; b < mask.size(); ++b)
    if (mask[b] && got[b] != want[b]) return false;
  return true;
}

inline double element_as_double(const pykern::Array& a, const std::vector<int64_t>& index, int part = 0) {
  const std::byte* p = a.element(index);
  const pykern::DType& t = a.dtype();
  switch (t.kind) {
    // A NumPy bool is a byte; any value but 0 is true (np.empty can leave others).
    case pykern::ScalarKind::boolean: return *reinterpret_cast<const unsigned char*>(p) != 0 ? 1.0 : 0.0;
    case pykern::ScalarKind::int_: {
      int64_t v = 0;
      std::memcpy(&v, p, static_cast<size_t>(t.itemsize));
      if (t.itemsize < 8 && (v >> (t.itemsize * 8 - 1) & 1)) v |= ~((int64_t(1) << (t.itemsize * 8)) - 1);
      return static_cast<double>(v);
    }
    case pykern::ScalarKind::uint: {
      uint64_t v = 0;
      std::memcpy(&v, p, static_cast<size_t>(t.itemsize));
      return static_cast<double>(v);
    }
    case pykern::ScalarKind::float_: {
      if (t.itemsize == 2) {
        pk::f16 h;
        std::memcpy(&h.bits, p, 2);
        return static_cast<float>(h);
      }
      float f = 0;
      double d = 0;
      if (t.itemsize == 4) std::memcpy(&f, p, 4);
      else std::memcpy(&d, p, 8);
      return t.itemsize == 4 ? f : d;
    }
    case pykern::ScalarKind::complex:
      return t.itemsize == 8 ? reinterpret_cast<const float*>(p)[part] : reinterpret_cast<const double*>(p)[part];
    default: return 0;
  }
}

// "" when `got` matches `want`; otherwise why not.
inline std::string compare_arrays(const pykern::Array& got, const pykern::Array& want, const nlohmann::json& tol,
                                  double input_abs_sum = 0) {
  if (got.shape() != want.shape()) return "shapes differ";
  std::vector<int64_t> index(want.shape().size(), 0);
  bool exact = want.dtype().kind != pykern::ScalarKind::float_ && want.dtype().kind != pykern::ScalarKind::complex;
  // As the oracle's np.array_equal: integers compare by value, whatever their width (Numba's
  // simulator returns a Python int from some reductions where numba-cuda keeps the dtype).
  bool records = want.dtype().kind == pykern::ScalarKind::record;
  if (records && got.dtype() != want.dtype()) return "record dtypes differ";
  double rtol = tol.value("rtol", 0.0), atol = tol.value("atol", 0.0);
  if (tol.contains("atol_sum_abs")) atol = std::max(atol, tol["atol_sum_abs"].get<double>() * input_abs_sum);
  bool finite_only = tol.value("finite_only", false);
  int parts = want.dtype().kind == pykern::ScalarKind::complex ? 2 : 1;
  std::vector<bool> field_bytes(records ? static_cast<size_t>(want.dtype().itemsize) : 0);
  if (records) mark_field_bytes(want.dtype(), 0, field_bytes);
  for (int64_t n = 0; n < want.size(); ++n) {
    if (records) {
      if (!same_record(got.element(index), want.element(index), field_bytes)) return "records differ";
    } else {
      // NumPy's isclose(equal_nan=True), which the oracle uses: a complex number with a NaN part
      // is NaN as a whole, and two such numbers are equal whatever their other parts.
      auto complex_nan = [&](const pykern::Array& a) {
        return parts == 2 && (std::isnan(element_as_double(a, index, 0)) || std::isnan(element_as_double(a, index, 1)));
      };
      if (complex_nan(got) && complex_nan(want)) {
        next_index(index, want.shape());
        continue;
      }
      for (int part = 0; part < parts; ++part) {
        double g = element_as_double(got, index, part), w = element_as_double(want, index, part);
        if (finite_only) {
          if (!std::isfinite(g)) return "not finite";
          continue;
        }
        bool ok = exact ? g == w
                        : (std::isnan(g) && std::isnan(w)) || (g == w) || std::fabs(g - w) <= atol + rtol * std::fabs(w);
        if (!ok) {
          std::string at;
          for (int64_t i : index) at += std::to_string(i) + ",";
          return "differs at [" + at + "]: " + std::to_string(g) + " vs " + std::to_string(w);
        }
      }
    }
    next_index(index, want.shape());
  }
  return "";
}

// The first input's absolute sum, for tolerances given as atol_sum_abs (as the oracle does).
inline double first_input_abs_sum(const std::filesystem::path& case_dir, const nlohmann::json& spec) {
  if (spec["args"].empty() || spec["args"][0].contains("scalar")) return 0;
  auto first = pykern::load_npy((case_dir / "inputs" / (spec["args"][0]["name"].get<std::string>() + ".npy")).string());
  if (!first.ok() || first->dtype().kind == pykern::ScalarKind::record) return 0;
  double sum = 0;
  std::vector<int64_t> index(first->shape().size(), 0);
  for (int64_t n = 0; n < first->size(); ++n) {
    sum += std::fabs(element_as_double(*first, index));
    next_index(index, first->shape());
  }
  return sum;
}

}  // namespace test
