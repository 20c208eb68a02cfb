// NumPy 2's linear search over a ufunc's loops (ufunc_type_resolution.c: the legacy resolver
// Numba's loops use), with Python scalars weak as NEP 50 makes them.
#include "api/ufunc_loops.h"

#include <fmt/format.h>

namespace pykern::detail {

namespace {

// A Python number among the inputs (weak), or none (an array or a NumPy scalar).
enum class Weak { none, integer, real, complex };

Weak weak_of(const Argument& a) {
  const Scalar* s = std::get_if<Scalar>(&a);
  if (!s) return Weak::none;
  if (s->type == DType::int_(64)) return Weak::integer;
  if (s->type == DType::float_(64)) return Weak::real;
  if (s->type == DType::complex(128)) return Weak::complex;
  return Weak::none;
}

const DType& dtype_of(const Argument& a) {
  if (const Array* array = std::get_if<Array>(&a)) return array->dtype();
  return std::get<Scalar>(a).type;
}

bool is_integer(const DType& t) { return t.kind == ScalarKind::int_ || t.kind == ScalarKind::uint; }
bool is_inexact(const DType& t) { return t.kind == ScalarKind::float_ || t.kind == ScalarKind::complex; }

// NumPy's "simplified" kind order: booleans, integers, inexact numbers.
int kind_order(const DType& t) { return t.kind == ScalarKind::boolean ? 0 : is_integer(t) ? 1 : is_inexact(t) ? 2 : 3; }

// np.can_cast(from, to, 'safe') for the numeric dtypes.
bool can_cast_safely(const DType& from, const DType& to) {
  if (from == to) return true;
  if (to.kind == ScalarKind::record || to.kind == ScalarKind::bfloat || from.kind == ScalarKind::record ||
      from.kind == ScalarKind::bfloat)
    return false;
  // An integer of 1 or 2 bytes fits float32 (and complex64); wider ones need float64.
  auto integer_to_inexact = [&](int64_t int_bytes) {
    int64_t component = to.kind == ScalarKind::complex ? to.itemsize / 2 : to.itemsize;
    return component >= (int_bytes <= 1 ? 2 : int_bytes <= 2 ? 4 : 8);
  };
  switch (from.kind) {
    case ScalarKind::boolean: return true;
    case ScalarKind::int_:
      if (to.kind == ScalarKind::int_) return to.itemsize >= from.itemsize;
      return is_inexact(to) && integer_to_inexact(from.itemsize);
    case ScalarKind::uint:
      if (to.kind == ScalarKind::uint) return to.itemsize >= from.itemsize;
      if (to.kind == ScalarKind::int_) return to.itemsize > from.itemsize;
      return is_inexact(to) && integer_to_inexact(from.itemsize);
    case ScalarKind::float_:
      if (to.kind == ScalarKind::float_) return to.itemsize >= from.itemsize;
      return to.kind == ScalarKind::complex && to.itemsize >= 2 * from.itemsize;
    case ScalarKind::complex: return to.kind == ScalarKind::complex && to.itemsize >= from.itemsize;
    default: return false;
  }
}

// A weak Python number cast to a loop's type (NumPy's can_cast_pyscalar_scalar_to).
bool weak_fits(Weak weak, const DType& to) {
  if (to.kind == ScalarKind::complex) return true;
  if (to.kind == ScalarKind::float_) return weak != Weak::complex;
  if (is_integer(to)) return weak == Weak::integer;
  return false;
}

// Whether NumPy treats the Python numbers as weak for this call: some input is not one, and
// the highest kind of those is at least the Python numbers' (an int counts as an integer).
bool weak_scalars(const std::vector<Argument>& inputs) {
  int scalar_kind = -1, array_kind = -1;
  bool all_python = true;
  for (const Argument& a : inputs) {
    Weak weak = weak_of(a);
    if (weak == Weak::none) {
      all_python = false;
      array_kind = std::max(array_kind, kind_order(dtype_of(a)));
    } else {
      scalar_kind = std::max(scalar_kind, weak == Weak::integer ? 1 : 2);
    }
  }
  return !all_python && array_kind >= scalar_kind;
}

bool fits_integer(int64_t v, const DType& t) {
  int bits = static_cast<int>(t.itemsize * 8);
  if (t.kind == ScalarKind::uint) return v >= 0 && (bits >= 64 || v < (int64_t(1) << bits));
  if (bits >= 64) return true;
  return v >= -(int64_t(1) << (bits - 1)) && v < (int64_t(1) << (bits - 1));
}

}  // namespace

std::optional<size_t> choose_cpu_loop(const std::vector<LoopInputs>& loops, const std::vector<Argument>& inputs) {
  bool weak = weak_scalars(inputs);
  for (size_t l = 0; l < loops.size(); ++l) {
    const LoopInputs& loop = loops[l];
    if (loop.size() != inputs.size()) continue;
    bool fits = true;
    for (size_t i = 0; i < inputs.size() && fits; ++i) {
      Weak w = weak_of(inputs[i]);
      fits = weak && w != Weak::none ? weak_fits(w, loop[i]) : can_cast_safely(dtype_of(inputs[i]), loop[i]);
    }
    if (fits) return l;
  }
  return std::nullopt;
}

LoopInputs exact_loop(const std::vector<Argument>& inputs) {
  LoopInputs loop;
  for (const Argument& a : inputs) loop.push_back(dtype_of(a));
  return loop;
}

std::string no_loop_error(const std::string& ufunc_name) {
  return fmt::format("TypeError: ufunc '{}' not supported for the input types, and the inputs could not be safely "
                     "coerced to any supported types according to the casting rule ''safe''",
                     ufunc_name);
}

std::string scalar_overflow(const std::vector<Argument>& inputs, const LoopInputs& loop) {
  for (size_t i = 0; i < inputs.size() && i < loop.size(); ++i) {
    if (weak_of(inputs[i]) != Weak::integer || !is_integer(loop[i])) continue;
    int64_t v = std::get<Scalar>(inputs[i]).integer;
    if (!fits_integer(v, loop[i]))
      return fmt::format("OverflowError: Python integer {} out of bounds for {}", v, loop[i].name());
  }
  return "";
}

Array converted_copy(const Array& a, const DType& dtype) {
  Array source = a.is_c_contiguous() ? a : a.copy();
  Array out = Array::zeros(dtype, a.shape());
  const auto* from = static_cast<const unsigned char*>(source.data());
  auto* to = static_cast<unsigned char*>(out.data());
  for (int64_t i = 0, n = a.size(); i < n; ++i)
    Scalar::load(a.dtype(), from + i * a.dtype().itemsize).as(dtype).store(dtype, to + i * dtype.itemsize);
  return out;
}

}  // namespace pykern::detail
