#include "pykern/scalar.h"

#include <cstring>

#include "pykern/half.cuh"

namespace pykern {

namespace {
// Kinds whose value is held in `value` (a real or complex number), not in `integer`.
bool holds_real(ScalarKind kind) {
  return kind == ScalarKind::float_ || kind == ScalarKind::bfloat || kind == ScalarKind::complex;
}
}  // namespace

Scalar Scalar::as(const DType& to) const {
  Scalar out = *this;
  out.type = to;
  // Keep every representation consistent with the target type's value.
  switch (to.kind) {
    case ScalarKind::boolean: {
      bool b = holds_real(type.kind) ? value != std::complex<double>(0) : integer != 0;
      out.integer = b;
      out.unsigned_integer = b;
      out.value = b;
      break;
    }
    case ScalarKind::int_:
    case ScalarKind::uint: {
      int64_t i = holds_real(type.kind) ? saturate(value.real()) : integer;
      int bits = static_cast<int>(to.itemsize * 8);
      uint64_t u = static_cast<uint64_t>(i);
      if (bits < 64) u &= (uint64_t(1) << bits) - 1;
      if (to.kind == ScalarKind::int_ && bits < 64 && (u >> (bits - 1) & 1)) u |= ~((uint64_t(1) << bits) - 1);
      out.unsigned_integer = u;
      out.integer = static_cast<int64_t>(u);
      out.value = to.kind == ScalarKind::uint ? static_cast<double>(u) : static_cast<double>(out.integer);
      break;
    }
    case ScalarKind::float_:
    case ScalarKind::bfloat:
      out.value = type.kind == ScalarKind::uint ? static_cast<double>(unsigned_integer)
                  : type.kind == ScalarKind::int_ || type.kind == ScalarKind::boolean ? static_cast<double>(integer)
                                                                                    : value.real();
      if (to.kind == ScalarKind::bfloat) out.value = static_cast<float>(bfloat16(static_cast<float>(out.value.real())));
      else if (to.itemsize == 4) out.value = static_cast<float>(out.value.real());
      else if (to.itemsize == 2) out.value = static_cast<float>(pk::f16(out.value.real()));
      out.integer = saturate(out.value.real());
      break;
    case ScalarKind::complex:
      if (!holds_real(type.kind))
        out.value = type.kind == ScalarKind::uint ? static_cast<double>(unsigned_integer) : static_cast<double>(integer);
      if (to.itemsize == 8) out.value = {static_cast<float>(out.value.real()), static_cast<float>(out.value.imag())};
      break;
    case ScalarKind::record: break;
  }
  return out;
}

Scalar Scalar::load(const DType& type, const void* bytes) {
  switch (type.kind) {
    case ScalarKind::boolean: return Scalar(*static_cast<const bool*>(bytes) != false);
    case ScalarKind::int_: {
      int64_t v = 0;
      std::memcpy(&v, bytes, static_cast<size_t>(type.itemsize));
      int bits = static_cast<int>(type.itemsize * 8);
      if (bits < 64 && (v >> (bits - 1) & 1)) v |= ~((int64_t(1) << bits) - 1);
      return Scalar(static_cast<long long>(v)).as(type);
    }
    case ScalarKind::uint: {
      uint64_t v = 0;
      std::memcpy(&v, bytes, static_cast<size_t>(type.itemsize));
      return Scalar(static_cast<unsigned long long>(v)).as(type);
    }
    case ScalarKind::float_:
      if (type.itemsize == 2) {
        pk::f16 h;
        std::memcpy(&h.bits, bytes, 2);
        return Scalar(static_cast<double>(static_cast<float>(h))).as(type);
      }
      if (type.itemsize == 4) return Scalar(*static_cast<const float*>(bytes));
      return Scalar(*static_cast<const double*>(bytes));
    case ScalarKind::bfloat: {
      bfloat16 b;
      std::memcpy(&b.bits, bytes, 2);
      return Scalar(static_cast<double>(static_cast<float>(b))).as(type);
    }
    case ScalarKind::complex:
      if (type.itemsize == 8) return Scalar(*static_cast<const std::complex<float>*>(bytes));
      return Scalar(*static_cast<const std::complex<double>*>(bytes));
    case ScalarKind::record: return record(type, bytes);
  }
  return Scalar();
}

Scalar Scalar::record(const DType& type, const void* bytes) {
  Scalar r;
  r.type = type;
  r.integer = r.unsigned_integer = 0;
  r.record_bytes.assign(static_cast<const unsigned char*>(bytes),
                        static_cast<const unsigned char*>(bytes) + static_cast<size_t>(type.itemsize));
  return r;
}

void Scalar::store(const DType& to, void* out) const {
  Scalar v = as(to);
  switch (to.kind) {
    case ScalarKind::boolean: {
      bool b = v.integer != 0;
      std::memcpy(out, &b, 1);
      return;
    }
    case ScalarKind::int_:
    case ScalarKind::uint:
      std::memcpy(out, &v.unsigned_integer, static_cast<size_t>(to.itemsize));  // little-endian
      return;
    case ScalarKind::float_:
      if (to.itemsize == 2) {
        pk::f16 h(v.value.real());
        std::memcpy(out, &h.bits, 2);
      } else if (to.itemsize == 4) {
        float f = static_cast<float>(v.value.real());
        std::memcpy(out, &f, 4);
      } else {
        double d = v.value.real();
        std::memcpy(out, &d, 8);
      }
      return;
    case ScalarKind::bfloat: {
      bfloat16 b(static_cast<float>(v.value.real()));
      std::memcpy(out, &b.bits, 2);
      return;
    }
    case ScalarKind::complex:
      if (to.itemsize == 8) {
        std::complex<float> z(static_cast<float>(v.value.real()), static_cast<float>(v.value.imag()));
        std::memcpy(out, &z, 8);
      } else {
        std::memcpy(out, &v.value, 16);
      }
      return;
    case ScalarKind::record:
      // Only as itself: NumPy converts between record types field by field, by name, and no
      // kernel parameter asks for that.
      if (to == type && record_bytes.size() == static_cast<size_t>(to.itemsize))
        std::memcpy(out, record_bytes.data(), record_bytes.size());
      return;
  }
}

}  // namespace pykern
