#include <doctest/doctest.h>

#include "base/diagnostics.h"
#include "sema/infer.h"
#include "sema/types.h"

using namespace pykern;
using namespace pykern::sema;

TEST_CASE("Numba's integer rule: arithmetic widens to 64 bits, signed if either side is") {
  CHECK(arithmetic_result(Type::i32(), Type::i32()) == Type::i64());
  CHECK(arithmetic_result(Type::int_(8), Type::int_(16)) == Type::i64());
  CHECK(arithmetic_result(Type::int_(32, false), Type::int_(8, false)) == Type::u64());
  CHECK(arithmetic_result(Type::u64(), Type::i64()) == Type::i64());
  CHECK(arithmetic_result(Type::boolean(), Type::boolean()) == Type::i64());
}

TEST_CASE("range's index type is the signature Numba's overload resolution picks") {
  const Type u32 = Type::int_(32, false), u16 = Type::int_(16, false), i16 = Type::int_(16);
  auto index = [](std::vector<Type> args) { return range_index_type(args); };
  CHECK(index({Type::i32()}) == Type::i32());
  CHECK(index({i16}) == Type::i32());        // a promotion either way: the first signature
  CHECK(index({Type::i64()}) == Type::i64());  // range(5) too: a literal counts as int64
  CHECK(index({u32}) == Type::u64());          // uint32 -> uint64 is a promotion
  CHECK(index({u16}) == Type::u64());
  CHECK(index({Type::u64()}) == Type::u64());
  CHECK(index({Type::u64(), Type::u64()}) == Type::u64());
  CHECK(index({Type::i64(), u32}) == Type::i64());           // range(0, uint32)
  CHECK(index({Type::i64(), Type::u64()}) == Type::i64());   // range(0, uint64): a tie, int64 first
  CHECK(index({Type::i32(), Type::u64()}) == Type::i32());   // range(int32(0), uint64)
  CHECK(index({Type::i32(), Type::i64()}) == Type::i64());   // range(tid, 64)
  CHECK(index({Type::i64(), Type::u64(), Type::i64()}) == Type::i64());  // range(0, uint64, 1)
  CHECK(index({Type::u64(), Type::i64(), Type::i64()}) == Type::i64());  // range(uint64, 0, -1)
  CHECK(index({Type::boolean()}) == Type::i32());
}

TEST_CASE("shifts take the left operand's signedness, as Numba types them") {
  const Type u8 = Type::int_(8, false), u32 = Type::int_(32, false), i8 = Type::int_(8);
  CHECK(shift_result(Type::u64()) == Type::u64());  // uint64 >> int64 and uint64 >> 3: logical
  CHECK(shift_result(u32) == Type::u64());
  CHECK(shift_result(u8) == Type::u64());
  CHECK(shift_result(Type::i64()) == Type::i64());  // int64 << uint64 stays signed
  CHECK(shift_result(i8) == Type::i64());
  CHECK(shift_result(Type::boolean()) == Type::i64());
  CHECK(!shift_result(Type::f32()).known());
}

TEST_CASE("unary - + ~ widen an integer keeping its signedness") {
  CHECK(unary_result(Type::int_(8, false)) == Type::u64());
  CHECK(unary_result(Type::int_(16)) == Type::i64());
  CHECK(unary_result(Type::u64()) == Type::u64());
  CHECK(unary_result(Type::boolean()) == Type::i64());  // -True is -1
  CHECK(unary_result(Type::f32()) == Type::f32());
  CHECK(unary_result(Type::complex(64)) == Type::complex(64));
}

TEST_CASE("NumPy promotion with floats") {
  CHECK(arithmetic_result(Type::i64(), Type::f32()) == Type::f64());
  CHECK(arithmetic_result(Type::i32(), Type::f32()) == Type::f64());
  CHECK(arithmetic_result(Type::int_(16), Type::f32()) == Type::f32());
  CHECK(arithmetic_result(Type::int_(8), Type::f32()) == Type::f32());
  CHECK(arithmetic_result(Type::f32(), Type::f64()) == Type::f64());
  CHECK(arithmetic_result(Type::f32(), Type::complex(64)) == Type::complex(64));
  CHECK(arithmetic_result(Type::f64(), Type::complex(64)) == Type::complex(128));
  CHECK(promote(Type::u64(), Type::i64()) == Type::f64());
}

TEST_CASE("true division, power") {
  CHECK(true_divide_result(Type::i64(), Type::i64()) == Type::f64());
  CHECK(true_divide_result(Type::f32(), Type::f32()) == Type::f32());
  CHECK(true_divide_result(Type::f32(), Type::i64()) == Type::f64());
  CHECK(power_result(Type::i64(), Type::i64()) == Type::i64());
  CHECK(power_result(Type::f32(), Type::i64()) == Type::f32());
  CHECK(power_result(Type::f32(), Type::f64()) == Type::f64());
}

TEST_CASE("unification at merge points") {
  CHECK(unify(Type::i64(), Type::f32()) == Type::f64());
  CHECK(unify(Type::unknown(), Type::f32()) == Type::f32());
  CHECK(unify(Type::array(Type::f32(), 2, Layout::C), Type::array(Type::f32(), 2, Layout::F)) ==
        Type::array(Type::f32(), 2, Layout::A));
  CHECK_FALSE(unify(Type::array(Type::f32(), 1, Layout::C), Type::i64()));
  CHECK(unify(Type::tuple({Type::i64(), Type::f32()}), Type::tuple({Type::f64(), Type::f32()})) ==
        Type::tuple({Type::f64(), Type::f32()}));
}

TEST_CASE("types print as Numba prints them") {
  CHECK(to_string(Type::array(Type::f32(), 2, Layout::C)) == "array(float32, 2d, C)");
  CHECK(to_string(Type::uni_tuple(Type::i64(), 2)) == "UniTuple(int64 x 2)");
  CHECK(to_string(Type::tuple({Type::i64(), Type::f32()})) == "Tuple(int64, float32)");
  CHECK(to_string(Type::int_(8, false)) == "uint8");
}

TEST_CASE("signatures in Numba's syntax") {
  auto parse = [](const std::string& text) {
    SourceFile file("sig", text);
    Diagnostics diagnostics;
    auto signature = parse_signature(file, diagnostics);
    return signature ? to_string(*signature) : "error: " + diagnostics.render();
  };
  CHECK(parse("void(float32[:, ::1], int64)") == "none(array(float32, 2d, C), int64)");
  CHECK(parse("void(f4[:], i4, u1, b1, c8, c16)") ==
        "none(array(float32, 1d, A), int32, uint8, bool, complex64, complex128)");
  CHECK(parse("f8(i4, i4)") == "float64(int32, int32)");
  CHECK(parse("void(float32[::1, :], float64[:, :, :])") ==
        "none(array(float32, 2d, F), array(float64, 3d, A))");
  CHECK(parse("(float32[:], float32[:])") == "(array(float32, 1d, A), array(float32, 1d, A))");
  CHECK(parse("void(xoroshiro128p_type[::1])") == "none(array(xoroshiro128p_type, 1d, C))");
  CHECK(parse("void(float32[::2])").rfind("error:", 0) == 0);
  CHECK(parse("void(float32[:, ::1, :])").rfind("error:", 0) == 0);
  CHECK(parse("void(void)").rfind("error:", 0) == 0);
  CHECK(parse("void(float32[:]").rfind("error:", 0) == 0);
  CHECK(parse("42").rfind("error:", 0) == 0);
}

TEST_CASE("record types in signatures: NumPy's layout, printed as Numba prints them, packed layouts refused") {
  auto parse = [](const std::string& text) {
    SourceFile file("sig", text);
    Diagnostics diagnostics;
    auto signature = parse_signature(file, diagnostics);
    return signature ? to_string(*signature) : "error: " + diagnostics.render();
  };
  // np.dtype([('a', 'f8'), ('b', 'i4'), ('h', 'f4', (3, 2)), ('x', [('y', 'i2'), ('z', 'f8')])], align=True)
  CHECK(parse("void(Record(64, ('a', float64, 0), ('b', int32, 8), ('h', float32, 12, (3, 2)), "
              "('x', Record(16, ('y', int16, 0), ('z', float64, 8)), 40))[::1])") ==
        "none(array(Record(a[type=float64;offset=0],b[type=int32;offset=8],h[type=nestedarray(float32, (3, "
        "2));offset=12],x[type=Record(y[type=int16;offset=0],z[type=float64;offset=8];16;True);offset=40];64;True)"
        ", 1d, C))");
  CHECK(parse("void(Record(64, ('a', float64, 0), ('b', int32, 8), ('h', float32, 12, (3, 2)), "
              "('x', Record(16, ('y', int16, 0), ('z', float64, 8)), 40))[::1])")
            .find("error") == std::string::npos);
  // A packed layout: a field between C struct positions, or a size no C struct has.
  CHECK(parse("void(Record(12, ('a', int8, 0), ('b', float64, 1))[:])")
            .find("field 'b' at offset 1 is not where a C struct would put it") != std::string::npos);
  CHECK(parse("void(Record(12, ('a', float64, 0), ('b', int32, 8))[:])")
            .find("a record of 12 bytes cannot hold its fields") != std::string::npos);
  CHECK(parse("void(Record(8, ('a', int32, 0), ('a', int32, 4))[:])").find("distinct") != std::string::npos);
  CHECK(parse("void(Record(8, ('a', int32, 0, (0,)))[:])").find("at least one element") != std::string::npos);
  CHECK(parse("void(Record(8)[:])").find("a record type is written") != std::string::npos);
  Type r = Type::record({"a"}, {Type::f64()}, {0}, {{}}, 8);
  CHECK(r.itemsize() == 8);
  CHECK(r.alignment() == 8);
  CHECK(Type::complex(64).alignment() == 4);
}
