// Numba's types, as pykern needs them, and the promotion rules that combine them.
// Names print as Numba prints them (int64, float32, array(float32, 2d, C), UniTuple(int64 x 2)).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace pykern::sema {

enum class TypeKind {
  unknown,   // not inferred yet (during the fixed-point rounds) or after an error
  void_,     // a kernel's return type
  none,
  boolean,
  integer,   // bits, is_signed
  floating,  // bits (16, 32, 64)
  complex,   // bits of the whole (64, 128)
  array,     // elements[0] dtype, ndim, layout
  tuple,     // elements
  record,    // elements + field_names; a structured dtype such as xoroshiro128p states
  string,    // only as constant arguments (print, assert messages)
  range,     // a range(...) object held in a variable: elements[0] is its integer type
  vector,    // a CUDA vector type (float32x4, int2, ...): elements[0] the lane type, ndim the lanes
  // A device function's argument known at compile time, as Numba types them: a type
  // (class(uint32)), a function (cuda.atomic.add, another device function) or an integer, bool
  // or tuple literal. The function is specialised on it and it is not passed at run time;
  // static_key says what it is and tells two apart.
  static_value,
  grid_group,  // cuda.cg.this_grid(): the whole grid, whose sync() is a grid-wide barrier
  optional,    // a value or None (Numba's Optional): elements[0] is the value's type
  list,        // a Python list in a @jit function run on the host: elements[0] the items' type
               // (unknown until an append or an item says)
  dict,        // a typed dict (Numba's DictType) in a @jit function on the host: elements[0] the
               // keys' type, elements[1] the values' (unknown until a store says); ndim names a
               // view of it: 0 the dict, 1 d.keys(), 2 d.values(), 3 d.items() (sema/dictionaries.cpp)
};

enum class Layout { C, F, A };

struct Type {
  TypeKind kind = TypeKind::unknown;
  int bits = 0;
  bool is_signed = true;
  int ndim = 0;
  Layout layout = Layout::A;
  bool readonly = false;  // arrays: a module-level array frozen into the kernel (Numba's readonly)
  std::vector<Type> elements;
  std::vector<std::string> field_names;
  std::string record_name;  // the C++ struct name the runtime gives a known record (xoroshiro)
  // record: each field's byte offset, a subarray field's shape (empty for one value), and the
  // record's size with padding, as NumPy lays it out.
  std::vector<int64_t> offsets;
  std::vector<std::vector<int64_t>> field_shapes;
  int64_t record_size = 0;
  std::string static_key;   // static_value: what it denotes, as Numba would print its type
  // A member of an enum class of the module (Numba's EnumMember / IntEnumMember): the class's
  // name, on the type of its value. Not part of the type's identity: a member computes as its
  // value does; the name lets `.value` read it (Color.RED.value, m.value).
  std::string enum_class;

  static Type unknown() { return {}; }
  static Type void_() { return make(TypeKind::void_); }
  static Type none() { return make(TypeKind::none); }
  static Type boolean() { return make(TypeKind::boolean, 8); }
  static Type int_(int bits, bool is_signed = true);
  static Type float_(int bits);
  static Type complex(int bits);
  static Type i32() { return int_(32); }
  static Type i64() { return int_(64); }
  static Type u64() { return int_(64, false); }
  static Type f32() { return float_(32); }
  static Type f64() { return float_(64); }
  static Type string() { return make(TypeKind::string); }
  static Type array(Type dtype, int ndim, Layout layout);
  static Type tuple(std::vector<Type> elements);
  static Type uni_tuple(Type element, int count);
  static Type xoroshiro128p_record();
  // A record (structured dtype) from its fields; `size` includes padding.
  static Type record(std::vector<std::string> names, std::vector<Type> fields, std::vector<int64_t> offsets,
                     std::vector<std::vector<int64_t>> shapes, int64_t size);
  static Type range_of(Type integer);
  static Type vector(Type lane, int lanes);
  static Type static_value(std::string key);
  static Type grid_group() { return make(TypeKind::grid_group); }
  static Type optional_of(Type value);
  static Type list_of(Type item);
  static Type dict_of(Type key, Type value, int view = 0);

  bool is(TypeKind k) const { return kind == k; }
  bool is_numeric() const {
    return kind == TypeKind::boolean || kind == TypeKind::integer || kind == TypeKind::floating ||
           kind == TypeKind::complex;
  }
  bool is_integer_like() const { return kind == TypeKind::integer || kind == TypeKind::boolean; }
  bool is_scalar() const { return is_numeric() || kind == TypeKind::record; }
  bool known() const { return kind != TypeKind::unknown; }
  const Type& dtype() const { return elements.at(0); }
  int itemsize() const;  // bytes of a scalar or record
  int alignment() const;  // NumPy's (align=True): a scalar's size, a complex's part, a record's largest

  friend bool operator==(const Type& a, const Type& b);
  friend bool operator!=(const Type& a, const Type& b) { return !(a == b); }

 private:
  static Type make(TypeKind kind, int bits = 0) {
    Type t;
    t.kind = kind;
    t.bits = bits;
    return t;
  }
};

std::string to_string(const Type& type);
const char* to_string(Layout layout);

// NumPy's promotion of two scalar types (np.result_type on scalars of these kinds):
// int8/int16 with float32 stays float32, int32/int64 with float32 gives float64.
Type promote(const Type& a, const Type& b);

// The result of + - * and of // % on two scalars, by Numba's integer rule: integers widen to
// 64 bits, signed if either side is; bool + bool is int64.
Type arithmetic_result(const Type& a, const Type& b);

// The loop index type of range(...) on these integer arguments, as Numba's overload resolution
// picks it among range's signatures (int32, int64, uint64 for all arguments): fewest unsafe
// conversions, then fewest safe ones, then fewest promotions, the earlier signature on a tie.
// A literal integer counts as int64: range's template does not prefer literals, so Numba
// first resolves it on the arguments' non-literal types, which always succeeds.
// So range(int32) counts in int32, range(uint32) in uint64, range(int64, uint64) and
// range(0, uint64) in int64 (a tie, the earlier signature).
Type range_index_type(const std::vector<Type>& arguments);

// The type of `x << n` and `x >> n`, by Numba's rule (typing/builtins.py
// BitwiseShiftOperation): the left operand's alone, widened to 64 bits, so uint64 for an
// unsigned x and int64 for a signed one or a bool, whatever n is (n converts to that type).
// uint64 >> 3 is a logical shift.
Type shift_result(const Type& left);

// The type of `-x` and `+x` (and of `~x`, but for a bool) on a scalar, by Numba's rule
// (typing/builtins.py UnaryOp, BitwiseInvert): an integer widens to 64 bits keeping its
// signedness, a bool gives int64, a float or complex keeps its type. `~x` on a bool is a bool.
Type unary_result(const Type& operand);

// The type of `a / b` (true division): integers give float64.
Type true_divide_result(const Type& a, const Type& b);

// `a ** b`: int ** int → int64; float ** int keeps the float; otherwise promote.
Type power_result(const Type& base, const Type& exponent);

// The type a variable takes where two assignments of it meet (NumPy promotion on scalars,
// element-wise on tuples, layout A on arrays that differ only by layout). nullopt when the two
// cannot be unified.
std::optional<Type> unify(const Type& a, const Type& b);

// Numba's scalar type names: "float32", "f4", "int64", "i8", "uint8", "u1", "b1", "c8", ...
std::optional<Type> scalar_type_named(const std::string& name);
// Every name scalar_type_named knows, for "did you mean".
std::vector<std::string> scalar_type_names();
// NumPy's scalar type names (numpy.X): Numba's, with NumPy's aliases (single, intc, byte is int8).
std::optional<Type> numpy_scalar_type_named(const std::string& name);
// The names each of the two accepts (for "did you mean" and the name pass).
std::vector<std::string> numpy_scalar_type_names();

}  // namespace pykern::sema
