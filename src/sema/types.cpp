#include "sema/types.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace pykern::sema {

Type Type::int_(int bits, bool is_signed) {
  Type t = make(TypeKind::integer, bits);
  t.is_signed = is_signed;
  return t;
}

Type Type::float_(int bits) { return make(TypeKind::floating, bits); }
Type Type::complex(int bits) { return make(TypeKind::complex, bits); }

Type Type::array(Type dtype, int ndim, Layout layout) {
  Type t = make(TypeKind::array);
  t.ndim = ndim;
  // Numba: a 1-d array is both C and F contiguous and is called C.
  t.layout = ndim == 1 && layout == Layout::F ? Layout::C : layout;
  t.elements.push_back(std::move(dtype));
  return t;
}

Type Type::tuple(std::vector<Type> elements) {
  Type t = make(TypeKind::tuple);
  t.elements = std::move(elements);
  return t;
}

Type Type::uni_tuple(Type element, int count) {
  return tuple(std::vector<Type>(static_cast<size_t>(count), element));
}

Type Type::range_of(Type integer) {
  Type t = make(TypeKind::range);
  t.elements = {std::move(integer)};
  return t;
}

Type Type::vector(Type lane, int lanes) {
  Type t = make(TypeKind::vector);
  t.elements = {std::move(lane)};
  t.ndim = lanes;
  return t;
}

Type Type::optional_of(Type value) {
  if (value.is(TypeKind::optional)) return value;
  Type t = make(TypeKind::optional);
  t.elements = {std::move(value)};
  return t;
}

Type Type::list_of(Type item) {
  Type t = make(TypeKind::list);
  t.elements = {std::move(item)};
  return t;
}

Type Type::dict_of(Type key, Type value, int view) {
  Type t = make(TypeKind::dict);
  t.elements = {std::move(key), std::move(value)};
  t.ndim = view;
  return t;
}

Type Type::static_value(std::string key) {
  Type t = make(TypeKind::static_value);
  t.static_key = std::move(key);
  return t;
}

Type Type::xoroshiro128p_record() {
  Type t = record({"s0", "s1"}, {u64(), u64()}, {0, 8}, {{}, {}}, 16);
  t.record_name = "pk::xoroshiro128p_state";
  return t;
}

Type Type::record(std::vector<std::string> names, std::vector<Type> fields, std::vector<int64_t> offsets,
                  std::vector<std::vector<int64_t>> shapes, int64_t size) {
  Type t = make(TypeKind::record);
  t.field_names = std::move(names);
  t.elements = std::move(fields);
  t.offsets = std::move(offsets);
  t.field_shapes = std::move(shapes);
  t.record_size = size;
  return t;
}

int Type::alignment() const {
  if (kind == TypeKind::complex) return bits / 16;
  if (kind != TypeKind::record) return itemsize();
  int most = 1;
  for (const Type& field : elements) most = std::max(most, field.alignment());
  return most;
}

int Type::itemsize() const {
  switch (kind) {
    case TypeKind::boolean: return 1;
    case TypeKind::integer:
    case TypeKind::floating:
    case TypeKind::complex: return bits / 8;
    case TypeKind::record: return static_cast<int>(record_size);
    default: return 0;
  }
}

bool operator==(const Type& a, const Type& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case TypeKind::integer: return a.bits == b.bits && a.is_signed == b.is_signed;
    case TypeKind::floating:
    case TypeKind::complex: return a.bits == b.bits;
    case TypeKind::array:
      return a.ndim == b.ndim && a.layout == b.layout && a.readonly == b.readonly && a.elements == b.elements;
    case TypeKind::tuple:
    case TypeKind::list:
    case TypeKind::optional:
    case TypeKind::range: return a.elements == b.elements;
    case TypeKind::vector:
    case TypeKind::dict: return a.ndim == b.ndim && a.elements == b.elements;
    case TypeKind::static_value: return a.static_key == b.static_key;
    case TypeKind::record:
      return a.elements == b.elements && a.field_names == b.field_names && a.offsets == b.offsets &&
             a.field_shapes == b.field_shapes && a.record_size == b.record_size;
    default: return true;
  }
}

const char* to_string(Layout layout) {
  switch (layout) {
    case Layout::C: return "C";
    case Layout::F: return "F";
    case Layout::A: return "A";
  }
  return "A";
}

std::string to_string(const Type& t) {
  switch (t.kind) {
    case TypeKind::unknown: return "undefined";
    case TypeKind::void_: return "none";
    case TypeKind::none: return "none";
    case TypeKind::boolean: return "bool";
    case TypeKind::integer: return fmt::format("{}int{}", t.is_signed ? "" : "u", t.bits);
    case TypeKind::floating: return fmt::format("float{}", t.bits);
    case TypeKind::complex: return fmt::format("complex{}", t.bits);
    case TypeKind::array:
      return fmt::format("{}array({}, {}d, {})", t.readonly ? "readonly " : "", to_string(t.dtype()), t.ndim,
                         to_string(t.layout));
    case TypeKind::tuple: {
      bool uniform = !t.elements.empty() &&
                     std::all_of(t.elements.begin(), t.elements.end(),
                                 [&](const Type& e) { return e == t.elements[0]; });
      if (uniform) return fmt::format("UniTuple({} x {})", to_string(t.elements[0]), t.elements.size());
      std::string text = "Tuple(";
      for (size_t i = 0; i < t.elements.size(); ++i) text += (i ? ", " : "") + to_string(t.elements[i]);
      return text + ")";
    }
    case TypeKind::record: {
      // Numba's spelling: Record(a[type=float64;offset=0],h[type=nestedarray(float32, (2,));offset=8];16;True)
      if (!t.record_name.empty()) return "xoroshiro128p_type";
      std::string text = "Record(";
      bool aligned = t.record_size % t.alignment() == 0;
      for (size_t i = 0; i < t.elements.size(); ++i) {
        std::string type = to_string(t.elements[i]);
        const std::vector<int64_t>& shape = t.field_shapes[i];
        if (!shape.empty()) {
          std::string extents;
          for (size_t d = 0; d < shape.size(); ++d) extents += fmt::format("{}{}", d ? ", " : "", shape[d]);
          type = fmt::format("nestedarray({}, ({}{}))", type, extents, shape.size() == 1 ? "," : "");
        }
        aligned = aligned && t.offsets[i] % t.elements[i].alignment() == 0;
        text += fmt::format("{}{}[type={};offset={}]", i ? "," : "", t.field_names[i], type, t.offsets[i]);
      }
      return fmt::format("{};{};{})", text, t.record_size, aligned ? "True" : "False");
    }
    case TypeKind::string: return "unicode_type";
    case TypeKind::range: return fmt::format("range_state{}", t.elements.at(0).bits);
    case TypeKind::vector: return fmt::format("{}x{}", to_string(t.elements.at(0)), t.ndim);
    case TypeKind::static_value: return t.static_key;
    case TypeKind::grid_group: return "grid_group";
    case TypeKind::optional: return "OptionalType(" + to_string(t.elements.at(0)) + ")";
    case TypeKind::list: return "list(" + to_string(t.elements.at(0)) + ")";
    case TypeKind::dict: {  // as Numba names DictType and its views
      std::string dict = fmt::format("DictType[{},{}]<iv=None>", to_string(t.elements.at(0)), to_string(t.elements.at(1)));
      static const char* const views[] = {"", "dict_keys", "dict_values", "dict_items"};
      return t.ndim == 0 ? dict : fmt::format("{}[{}]", views[t.ndim & 3], dict);
    }
  }
  return "?";
}

namespace {

// The smallest float that holds every value of an integer type, as NumPy decides it: float16
// for 8-bit integers, float32 for 16-bit ones, float64 for wider ones.
int float_bits_for_int(const Type& t) { return t.bits <= 8 ? 16 : t.bits <= 16 ? 32 : 64; }

Type promote_ints(const Type& a, const Type& b) {
  if (a.is_signed == b.is_signed) return Type::int_(std::max(a.bits, b.bits), a.is_signed);
  const Type& u = a.is_signed ? b : a;
  const Type& s = a.is_signed ? a : b;
  if (s.bits > u.bits) return s;
  if (u.bits < 64) return Type::int_(u.bits * 2, true);
  return Type::f64();  // uint64 with a signed int: NumPy gives float64
}

}  // namespace

Type promote(const Type& a, const Type& b) {
  if (!a.is_numeric() || !b.is_numeric()) return Type::unknown();
  if (a.kind == TypeKind::boolean) return b;
  if (b.kind == TypeKind::boolean) return a;
  if (a.kind == TypeKind::integer && b.kind == TypeKind::integer) return promote_ints(a, b);
  auto rank = [](const Type& t) { return t.kind == TypeKind::complex ? 2 : t.kind == TypeKind::floating ? 1 : 0; };
  const Type& hi = rank(a) >= rank(b) ? a : b;
  const Type& lo = rank(a) >= rank(b) ? b : a;
  if (hi.kind == TypeKind::floating) {
    int bits = lo.kind == TypeKind::integer ? std::max(hi.bits, float_bits_for_int(lo))
                                            : std::max(hi.bits, lo.bits);
    return Type::float_(bits);
  }
  // complex with something
  int part_bits = hi.bits / 2;
  if (lo.kind == TypeKind::integer) part_bits = std::max(part_bits, float_bits_for_int(lo));
  if (lo.kind == TypeKind::floating) part_bits = std::max(part_bits, lo.bits);
  if (lo.kind == TypeKind::complex) part_bits = std::max(part_bits, lo.bits / 2);
  return Type::complex(part_bits * 2);
}

Type arithmetic_result(const Type& a, const Type& b) {
  if (!a.is_numeric() || !b.is_numeric()) return Type::unknown();
  if (a.is_integer_like() && b.is_integer_like()) {
    bool is_signed = (a.kind == TypeKind::boolean || a.is_signed) ||
                     (b.kind == TypeKind::boolean || b.is_signed);
    return Type::int_(64, is_signed);
  }
  return promote(a, b);
}

namespace {

// numba.core.typeconv's conversion kinds between integer types, best first.
enum class Conversion { exact, promote, safe, unsafe };

Conversion integer_conversion(const Type& from, const Type& to) {
  if (from.kind == TypeKind::boolean) return Conversion::safe;
  if (from == to) return Conversion::exact;
  if (from.is_signed == to.is_signed) return from.bits < to.bits ? Conversion::promote : Conversion::unsafe;
  if (!from.is_signed && from.bits < to.bits) return Conversion::safe;
  return Conversion::unsafe;
}

}  // namespace

Type range_index_type(const std::vector<Type>& arguments) {
  // A signature's rating: how many arguments convert unsafely, safely and by promotion.
  auto rating_of = [&](const Type& candidate) {
    std::array<int, 3> rating{};
    for (const Type& argument : arguments) {
      Conversion kind = integer_conversion(argument, candidate);
      if (kind == Conversion::unsafe) ++rating[0];
      if (kind == Conversion::safe) ++rating[1];
      if (kind == Conversion::promote) ++rating[2];
    }
    return rating;
  };
  Type best = Type::i32();
  std::array<int, 3> best_rating = rating_of(best);
  for (const Type& candidate : {Type::i64(), Type::u64()}) {
    std::array<int, 3> rating = rating_of(candidate);
    if (rating < best_rating) {  // strictly better: a tie keeps the earlier signature
      best = candidate;
      best_rating = rating;
    }
  }
  return best;
}

Type shift_result(const Type& left) {
  if (!left.is_integer_like()) return Type::unknown();
  return Type::int_(64, left.kind == TypeKind::boolean || left.is_signed);
}

Type unary_result(const Type& operand) {
  if (!operand.is_numeric()) return Type::unknown();
  if (operand.is_integer_like()) return Type::int_(64, operand.kind == TypeKind::boolean || operand.is_signed);
  return operand;
}

Type true_divide_result(const Type& a, const Type& b) {
  Type result = arithmetic_result(a, b);
  if (result.kind == TypeKind::integer) return Type::f64();
  return result;
}

Type power_result(const Type& base, const Type& exponent) {
  if (!base.is_numeric() || !exponent.is_numeric()) return Type::unknown();
  if (base.is_integer_like() && exponent.is_integer_like()) return arithmetic_result(base, exponent);
  if (base.kind == TypeKind::floating && exponent.is_integer_like()) return base;
  return promote(base, exponent);
}

std::optional<Type> unify(const Type& a, const Type& b) {
  if (!a.known()) return b;
  if (!b.known()) return a;
  if (a == b) return a;
  // An empty list literal takes its items' type from the list it meets ([] then append(1)).
  if (a.is(TypeKind::list) && b.is(TypeKind::list)) {
    auto item = unify(a.elements[0], b.elements[0]);
    if (!item || (a.elements[0].known() && b.elements[0].known() && a.elements[0] != b.elements[0]))
      return std::nullopt;
    return Type::list_of(*item);
  }
  // A dict whose types are not known yet ({}) takes them from the one it meets; two known
  // ones must agree exactly (Numba's DictType.unify).
  if (a.is(TypeKind::dict) && b.is(TypeKind::dict) && a.ndim == b.ndim) {
    if (!a.elements[0].known()) return b;
    if (!b.elements[0].known()) return a;
    return std::nullopt;
  }
  // None and a value meet as an Optional of the value (x = None; if c: x = 5).
  if (a.is(TypeKind::none) || b.is(TypeKind::none)) {
    const Type& value = a.is(TypeKind::none) ? b : a;
    if (value.is(TypeKind::void_)) return std::nullopt;
    return Type::optional_of(value);
  }
  if (a.is(TypeKind::optional) || b.is(TypeKind::optional)) {
    auto inner = unify(a.is(TypeKind::optional) ? a.elements[0] : a, b.is(TypeKind::optional) ? b.elements[0] : b);
    if (!inner) return std::nullopt;
    return Type::optional_of(*inner);
  }
  if (a.is_numeric() && b.is_numeric()) return promote(a, b);
  if (a.kind == TypeKind::tuple && b.kind == TypeKind::tuple && a.elements.size() == b.elements.size()) {
    std::vector<Type> elements;
    for (size_t i = 0; i < a.elements.size(); ++i) {
      auto element = unify(a.elements[i], b.elements[i]);
      if (!element) return std::nullopt;
      elements.push_back(*element);
    }
    return Type::tuple(std::move(elements));
  }
  if (a.kind == TypeKind::array && b.kind == TypeKind::array && a.ndim == b.ndim &&
      a.dtype() == b.dtype())
    return Type::array(a.dtype(), a.ndim, Layout::A);
  return std::nullopt;
}

namespace {

// Function-local tables: built on first use, after every other static is ready.
using NamedTypes = std::vector<std::pair<const char*, Type>>;

const NamedTypes& scalar_names() {
  static const NamedTypes names = {
      {"boolean", Type::boolean()},   {"bool_", Type::boolean()},     {"b1", Type::boolean()},
      {"bool", Type::boolean()},
      {"int8", Type::int_(8)},        {"i1", Type::int_(8)},          {"int16", Type::int_(16)},
      {"i2", Type::int_(16)},         {"int32", Type::int_(32)},      {"i4", Type::int_(32)},
      {"int64", Type::int_(64)},      {"i8", Type::int_(64)},         {"intp", Type::int_(64)},
      {"intc", Type::int_(32)},       {"uint8", Type::int_(8, false)}, {"u1", Type::int_(8, false)},
      {"byte", Type::int_(8, false)}, {"uint16", Type::int_(16, false)}, {"u2", Type::int_(16, false)},
      {"uint32", Type::int_(32, false)}, {"u4", Type::int_(32, false)}, {"uint64", Type::int_(64, false)},
      {"u8", Type::int_(64, false)},  {"uintp", Type::int_(64, false)}, {"uintc", Type::int_(32, false)},
      {"float16", Type::float_(16)},  {"f2", Type::float_(16)},       {"float32", Type::f32()},
      {"f4", Type::f32()},            {"float64", Type::f64()},       {"f8", Type::f64()},
      {"double", Type::f64()},        {"complex64", Type::complex(64)}, {"c8", Type::complex(64)},
      {"complex128", Type::complex(128)}, {"c16", Type::complex(128)},
  };
  return names;
}

// NumPy's C-named aliases (on the 64-bit Linux pykern runs on); np.byte is int8 where Numba's
// byte is uint8.
const NamedTypes& numpy_aliases() {
  static const NamedTypes aliases = {
      {"byte", Type::int_(8)},           {"ubyte", Type::int_(8, false)},   {"short", Type::int_(16)},
      {"ushort", Type::int_(16, false)}, {"int_", Type::int_(64)},          {"long", Type::int_(64)},
      {"ulong", Type::int_(64, false)},  {"uint", Type::int_(64, false)},   {"longlong", Type::int_(64)},
      {"ulonglong", Type::int_(64, false)}, {"half", Type::float_(16)},     {"single", Type::f32()},
      {"float_", Type::f64()},           {"csingle", Type::complex(64)},    {"cdouble", Type::complex(128)},
      {"complex_", Type::complex(128)}};
  return aliases;
}

}  // namespace

std::optional<Type> scalar_type_named(const std::string& name) {
  for (const auto& [text, type] : scalar_names())
    if (name == text) return type;
  return std::nullopt;
}

std::optional<Type> numpy_scalar_type_named(const std::string& name) {
  for (const auto& [text, type] : numpy_aliases())
    if (name == text) return type;
  return scalar_type_named(name);
}

std::vector<std::string> scalar_type_names() {
  std::vector<std::string> names;
  for (const auto& [text, type] : scalar_names()) names.push_back(text);
  return names;
}

std::vector<std::string> numpy_scalar_type_names() {
  std::vector<std::string> names = scalar_type_names();
  for (const auto& [text, type] : numpy_aliases()) names.push_back(text);
  return names;
}

}  // namespace pykern::sema
