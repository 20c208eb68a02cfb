#include <cstring>

#include <doctest/doctest.h>

#include "pykern/npy.h"

using namespace pykern;

namespace {
Array filled(const DType& dtype, std::vector<int64_t> shape, Order order) {
  Array a = Array::zeros(dtype, shape, order);
  auto* bytes = static_cast<unsigned char*>(a.data());
  for (int64_t i = 0; i < a.nbytes(); ++i) bytes[i] = static_cast<unsigned char>(i * 37 + 11);
  if (dtype.kind == ScalarKind::boolean)
    for (int64_t i = 0; i < a.nbytes(); ++i) bytes[i] &= 1;
  return a;
}
}  // namespace

TEST_CASE(".npy round trips keep every dtype, the shape and the order") {
  std::vector<DType> dtypes = {DType::boolean(),   DType::int_(8),      DType::int_(16),  DType::int_(32),
                               DType::int_(64),    DType::uint(8),      DType::uint(16),  DType::uint(32),
                               DType::uint(64),    DType::float_(16),   DType::float_(32), DType::float_(64),
                               DType::complex(64), DType::complex(128), DType::xoroshiro128p()};
  for (const DType& dtype : dtypes) {
    for (Order order : {Order::C, Order::F}) {
      CAPTURE(dtype.descr());
      Array a = filled(dtype, {3, 4}, order);
      auto back = parse_npy(format_npy(a));
      REQUIRE(back.ok());
      CHECK(back->dtype() == dtype);
      CHECK(back->shape() == std::vector<int64_t>{3, 4});
      CHECK(back->is_f_contiguous() == (order == Order::F));
      for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 4; ++j)
          CHECK(std::memcmp(back->element({i, j}), a.element({i, j}), static_cast<size_t>(dtype.itemsize)) == 0);
    }
  }
}

TEST_CASE(".npy writes views (a transposed or strided array) by value") {
  Array a = Array::from<int32_t>({0, 1, 2, 3, 4, 5}, {2, 3});
  auto every_other = a.slice(1, {std::nullopt, std::nullopt, 2});
  REQUIRE(every_other.ok());
  auto back = parse_npy(format_npy(*every_other));
  REQUIRE(back.ok());
  CHECK(back->shape() == std::vector<int64_t>{2, 2});
  CHECK(back->at<int32_t>(1, 1) == 5);
  auto transposed = parse_npy(format_npy(a.transpose()));
  REQUIRE(transposed.ok());
  CHECK(transposed->at<int32_t>(2, 1) == 5);
  auto zero_d = parse_npy(format_npy(Array::zeros(DType::float_(64), {})));
  REQUIRE(zero_d.ok());
  CHECK(zero_d->ndim() == 0);
}

TEST_CASE("malformed and truncated .npy files are errors, never crashes") {
  std::string good = format_npy(Array::from<double>({1, 2, 3}));
  std::vector<std::pair<std::string, std::string>> bad = {
      {"", "magic"},
      {"\x93NUMPY", "magic"},
      {good.substr(0, 9), "magic"},
      {good.substr(0, 20), "truncated header"},
      {good.substr(0, good.size() - 1), "truncated data"},
      {std::string("\x93NUMPY\x09\x00", 8) + good.substr(8), "version"},
  };
  std::string header = good;
  header.replace(header.find("'<f8'"), 5, "'>f8'");
  bad.push_back({header, "big-endian"});
  std::string object = good;
  object.replace(object.find("'<f8'"), 5, "'|O8'");
  bad.push_back({object, "unsupported dtype"});
  std::string shape = good;
  shape.replace(shape.find("(3,)"), 4, "(-3,)");
  bad.push_back({shape, "shape"});
  std::string huge = good;
  huge.replace(huge.find("(3,)"), 4, "(99999999999999999,)");
  bad.push_back({huge, "shape"});
  std::string overflow = good;
  overflow.replace(overflow.find("(3,)"), 4, "(4294967296, 4294967296, 4294967296)");
  bad.push_back({overflow, "shape"});
  std::string no_dict = good;
  no_dict[10] = '[';
  bad.push_back({no_dict, "dict"});
  for (const auto& [bytes, why] : bad) {
    CAPTURE(why);
    auto parsed = parse_npy(bytes, "bad.npy");
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.error().message.find("bad.npy") != std::string::npos);
  }
  CHECK_FALSE(load_npy("/nonexistent/x.npy").ok());
}

TEST_CASE("record dtypes: NumPy's descr with padding, subarray fields and nested records round-trips") {
  // np.dtype([('a', 'f8'), ('b', 'i4'), ('d', 'u1', (5,)), ('x', [('y', 'i2'), ('z', 'f8')])], align=True).descr
  std::string descr =
      "[('a', '<f8'), ('b', '<i4'), ('d', '|u1', (5,)), ('', '|V7'), "
      "('x', [('y', '<i2'), ('', '|V6'), ('z', '<f8')])]";
  auto dtype = DType::from_descr(descr);
  REQUIRE_MESSAGE(dtype.ok(), (dtype.ok() ? std::string() : dtype.error().message));
  CHECK(dtype->itemsize == 40);
  REQUIRE(dtype->fields.size() == 4);
  CHECK(dtype->fields[2].offset == 12);
  CHECK(dtype->fields[2].shape == std::vector<int64_t>{5});
  CHECK(dtype->fields[3].offset == 24);
  CHECK(dtype->fields[3].type[0].fields[1].offset == 8);
  CHECK(dtype->descr() == descr);
  CHECK(dtype->alignment() == 8);
  CHECK(dtype->naturally_aligned());
  CHECK(dtype->name() ==
        "Record(a[type=float64;offset=0],b[type=int32;offset=8],d[type=nestedarray(uint8, (5,));offset=12],"
        "x[type=Record(y[type=int16;offset=0],z[type=float64;offset=8];16;True);offset=24];40;True)");
  Array a = filled(*dtype, {2, 3}, Order::C);
  auto back = parse_npy(format_npy(a));
  REQUIRE(back.ok());
  CHECK(back->dtype() == *dtype);
  CHECK(std::memcmp(back->data(), a.data(), static_cast<size_t>(a.nbytes())) == 0);
  // A packed record is read, and known not to be laid out as a C struct.
  auto packed = DType::from_descr("[('a', '|i1'), ('b', '<f8')]");
  REQUIRE(packed.ok());
  CHECK(packed->itemsize == 9);
  CHECK_FALSE(packed->naturally_aligned());
  // Malformed or hostile descrs are errors.
  for (const char* bad : {"[('a', '<f8'), ('a', '<i4')]", "[('', '<f8')]", "[]", "[('a', '<f8', (1048577, 2))]",
                          "[('a', '<f8')] junk", "[('a' '<f8')]", "[('', '|Vx')]",
                          "[('a', [('b', [('c', [('d', [('e', [('f', [('g', [('h', [('i', [('j', [('k', [('l', [('m', "
                          "[('n', [('o', [('p', [('q', [('r', '<f8')])])])])])])])])])])])])])])])])])]"}) {
    CAPTURE(bad);
    CHECK_FALSE(DType::from_descr(bad).ok());
  }
}
