#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>

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

namespace {
std::string fixture(const std::string& name) { return std::string(PYKERN_SOURCE_DIR) + "/tests/npy/" + name; }

std::vector<std::string> field_names(const DType& dtype) {
  std::vector<std::string> names;
  for (const DTypeField& field : dtype.fields) names.push_back(field.name);
  return names;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A one-field-per-name record of doubles, its elements numbered.
Array record_of(const std::vector<std::string>& names) {
  DType record{ScalarKind::record, 8 * static_cast<int64_t>(names.size()), {}};
  for (size_t i = 0; i < names.size(); ++i) record.fields.push_back({names[i], {DType::float_(64)}, 8 * int64_t(i), {}});
  Array array = Array::zeros(record, {2});
  for (int64_t i = 0; i < 2 * static_cast<int64_t>(names.size()); ++i) static_cast<double*>(array.data())[i] = double(i);
  return array;
}
}  // namespace

TEST_CASE(".npy files NumPy wrote with hostile field names read back with the names exact, in formats 1.0, 2.0 and 3.0") {
  // tests/npy/make-fixtures.py: names NumPy quotes and escapes (Latin-1, format 1.0).
  auto names = load_npy(fixture("names.npy"));
  REQUIRE_MESSAGE(names.ok(), (names.ok() ? std::string() : names.error().message));
  CHECK(field_names(names->dtype()) == std::vector<std::string>{"x'y", "a\"b", "q'\"", "back\\slash", "\xc3\xa9",
                                                                "\xc2\x85nel", std::string("\0nul", 4), "tab\t",
                                                                "y', '<f8'), ('z"});
  CHECK(names->dtype().itemsize == 32);
  double second = 0;
  std::memcpy(&second, names->element({1}), 8);
  CHECK(second == 2.0);
  // Written back, the bytes are NumPy's own.
  CHECK(format_npy(*names) == read_bytes(fixture("names.npy")));

  // A name past U+00FF: format 3.0, UTF-8; a lone surrogate NumPy escapes as \ud800.
  std::string unicode_bytes = read_bytes(fixture("unicode.npy"));
  REQUIRE(unicode_bytes[6] == 3);
  auto unicode = parse_npy(unicode_bytes, "unicode.npy");
  REQUIRE_MESSAGE(unicode.ok(), (unicode.ok() ? std::string() : unicode.error().message));
  std::vector<std::string> expected = {"\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\xed\xa0\x80", "\xe2\x80\xa8", "e\xcc\x81"};
  CHECK(field_names(unicode->dtype()) == expected);
  std::string written = format_npy(*unicode);
  CHECK(written[6] == 3);
  auto again = parse_npy(written);
  REQUIRE(again.ok());
  CHECK(again->dtype() == unicode->dtype());

  // A header past 65535 bytes: format 2.0, a 32-bit length.
  std::string long_bytes = read_bytes(fixture("long.npy"));
  REQUIRE(long_bytes[6] == 2);
  auto long_name = parse_npy(long_bytes, "long.npy");
  REQUIRE_MESSAGE(long_name.ok(), (long_name.ok() ? std::string() : long_name.error().message));
  CHECK(long_name->dtype().fields[0].name == std::string(70000, 'a'));
  CHECK(*static_cast<unsigned char*>(long_name->data()) == 7);
  CHECK(format_npy(*long_name) == long_bytes);
}

TEST_CASE("record field names round-trip through format_npy and parse_npy: quotes, backslashes, controls, any Unicode") {
  std::vector<std::string> hostile = {"x'y", "a\"b", "q'\"", "back\\slash", "y', '<f8'), ('z", "y\", \"<f8\"), (\"z",
                                      "\\'", "\\", "'", "\"", std::string("\0", 1), "\n\r\t\x1b[31m", "\x7f",
                                      "\xc3\xa9", "\xc2\xa0", "\xc2\xad", "\xc2\x85", "\xe4\xb8\xad", "\xf0\x9f\x98\x80",
                                      "\xed\xa0\x80", "\xed\xb0\x80\xed\xa0\x80", "\xef\xbb\xbf", "\xe2\x80\xa8", "{}"};
  for (const std::string& name : hostile) {
    CAPTURE(name);
    Array array = record_of({"before", name, "after"});
    std::string bytes = format_npy(array);
    // Format 1.0 unless a name needs UTF-8 (a character past U+00FF), as NumPy chooses.
    bool past_latin1 = static_cast<unsigned char>(name[0]) >= 0xc4 && name != "\xed\xa0\x80" &&
                       name != "\xed\xb0\x80\xed\xa0\x80";
    CHECK(bytes[6] == (past_latin1 ? 3 : 1));
    auto back = parse_npy(bytes);
    REQUIRE_MESSAGE(back.ok(), (back.ok() ? std::string() : back.error().message));
    CHECK(field_names(back->dtype()) == std::vector<std::string>{"before", name, "after"});
    CHECK(back->dtype() == array.dtype());
    CHECK(std::memcmp(back->data(), array.data(), static_cast<size_t>(array.nbytes())) == 0);
    CHECK(format_npy(*back) == bytes);
  }
  // A header past 65535 bytes is format 2.0 (a 16-bit length would have wrapped); 3.0 when UTF-8.
  Array long_name = record_of({std::string(70000, 'q')});
  std::string bytes = format_npy(long_name);
  CHECK(bytes[6] == 2);
  auto back = parse_npy(bytes);
  REQUIRE(back.ok());
  CHECK(back->dtype() == long_name.dtype());
  Array long_unicode = record_of({std::string(70000, 'q') + "\xe4\xb8\xad"});
  bytes = format_npy(long_unicode);
  CHECK(bytes[6] == 3);
  REQUIRE(parse_npy(bytes).ok());
  CHECK(parse_npy(bytes)->dtype() == long_unicode.dtype());
}

TEST_CASE("descr strings are Python literals: either quote, u and r prefixes, escapes, adjacent literals joined") {
  auto field = [](const std::string& descr) -> std::string {
    auto dtype = DType::from_descr(descr);
    if (!dtype.ok()) return "error: " + dtype.error().message;
    return dtype->fields[0].name;
  };
  CHECK(field(R"([('a\'b', '<f8')])") == "a'b");
  CHECK(field(R"([("a\"b", "<f8")])") == "a\"b");
  CHECK(field(R"([(u'\x41\u00e9\U0001F600\101\7', '<f8')])") == "A\xc3\xa9\xf0\x9f\x98\x80" "A\x07");
  CHECK(field(R"([('\a\b\f\n\r\t\v\\', '<f8')])") == "\a\b\f\n\r\t\v\\");
  CHECK(field(R"([('\q', '<f8')])") == "\\q");  // Python keeps an unknown escape
  CHECK(field(R"([(r'\x41\'', '<f8')])") == "\\x41\\'");
  CHECK(field(R"([('a' "b"  'c', '<f8')])") == "abc");
  CHECK(field("[('a\\\nb', '<f8')]") == "ab");  // a backslash before a line break continues it
  CHECK(field(R"([('\ud800', '<f8')])") == "\xed\xa0\x80");
  for (std::string bad : {R"([('a\x4', '<f8')])", R"([('a\u12', '<f8')])", R"([('\U00110000', '<f8')])",
                          R"([('\N{DASH}', '<f8')])", "[('a\nb', '<f8')]", R"([('''a''', '<f8')])", R"([('ab, '<f8')])",
                          R"([(b'a', '<f8')])", R"([('a', '[(\'b\', \'<f8\')]')])", R"([('a\', '<f8')])"}) {
    CAPTURE(bad);
    CHECK_FALSE(DType::from_descr(bad).ok());
  }
  // Malformed headers name nothing raw: a key's control characters are escaped in the error.
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), '\x1b[2J': 1}";
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' + header;
  auto parsed = parse_npy(bytes, "bad.npy");
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.error().message.find("'\\x1b[2J'") != std::string::npos);
  // Format 3.0 must be UTF-8; 1.0 is Latin-1, where any byte is a character.
  header = "{'descr': [('\xff', '<f8')], 'fortran_order': False, 'shape': (1,), }";
  std::string latin1 = std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' + header + std::string(8, '\0');
  auto read = parse_npy(latin1);
  REQUIRE(read.ok());
  CHECK(read->dtype().fields[0].name == "\xc3\xbf");
  std::string utf8 = std::string("\x93NUMPY\x03\x00", 8) + char(header.size()) + std::string(3, '\0') + header +
                     std::string(8, '\0');
  CHECK_FALSE(parse_npy(utf8).ok());
}

TEST_CASE(".npy bools holding bytes other than 0 and 1 read as True (1), as NumPy and Numba read them") {
  // tests/npy/bools.npy: np.frombuffer(b'\x00\x01\x02\xff', dtype=bool), which NumPy saves raw.
  std::string bytes = read_bytes(fixture("bools.npy"));
  REQUIRE(bytes.substr(bytes.size() - 4) == std::string("\x00\x01\x02\xff", 4));
  for (auto loaded : {load_npy(fixture("bools.npy")), parse_npy(bytes)}) {
    REQUIRE(loaded.ok());
    auto* values = static_cast<unsigned char*>(loaded->data());
    CHECK(std::vector<int>(values, values + 4) == std::vector<int>{0, 1, 1, 1});
  }
  // Bool fields of records, subarray fields included; other bytes untouched.
  auto record = load_npy(fixture("bool_record.npy"));
  REQUIRE(record.ok());
  auto* values = static_cast<unsigned char*>(record->data());
  CHECK(std::vector<int>(values, values + 4) == std::vector<int>{1, 0, 1, 1});
  auto mixed = DType::from_descr("[('u', '|u1'), ('b', '|b1'), ('n', [('c', '|b1', (2,)), ('v', '|u1')])]");
  REQUIRE(mixed.ok());
  Array raw = Array::zeros(*mixed, {2});
  std::memset(raw.data(), 0xfe, static_cast<size_t>(raw.nbytes()));
  auto normalised = parse_npy(format_npy(raw));
  REQUIRE(normalised.ok());
  auto* cells = static_cast<unsigned char*>(normalised->data());
  CHECK(std::vector<int>(cells, cells + 10) == std::vector<int>{0xfe, 1, 1, 1, 0xfe, 0xfe, 1, 1, 1, 0xfe});
}

TEST_CASE("NumPy's own .npy files of every kind read back, and pykern writes them byte for byte as NumPy did") {
  // tests/npy/make-fixtures.py. A zero-size field makes a zero-size record: no division by it.
  for (const char* name : {"fortran.npy", "zero_d.npy", "half.npy", "nested.npy", "zero_field.npy", "names.npy",
                           "long.npy"}) {
    CAPTURE(name);
    auto array = load_npy(fixture(name));
    REQUIRE_MESSAGE(array.ok(), (array.ok() ? std::string() : array.error().message));
    CHECK(format_npy(*array) == read_bytes(fixture(name)));
  }
  auto fortran = load_npy(fixture("fortran.npy"));
  CHECK(fortran->is_f_contiguous());
  CHECK(fortran->at<double>(1, 2) == 5.0);
  auto zero_field = load_npy(fixture("zero_field.npy"));
  CHECK(zero_field->dtype().itemsize == 1);
  CHECK(zero_field->shape() == std::vector<int64_t>{3});
  auto zero_size = DType::from_descr("[('a', '<f8', (0,))]");
  REQUIRE(zero_size.ok());
  CHECK(zero_size->itemsize == 0);
  auto empty_records = parse_npy(format_npy(Array::zeros(*zero_size, {1000000})));
  REQUIRE(empty_records.ok());
  CHECK(empty_records->size() == 1000000);
}

TEST_CASE("hostile record headers cost their bytes: 40,000 fields, a million elements of a record of many fields") {
  // Duplicate names are found with a hash set: 40,000 fields once took 800 million compares.
  DType many{ScalarKind::record, 40000, {}};
  for (int i = 0; i < 40000; ++i) many.fields.push_back({"field" + std::to_string(i), {DType::uint(8)}, i, {}});
  std::string bytes = format_npy(Array::zeros(many, {1}));
  CHECK(bytes[6] == 2);
  auto start = std::chrono::steady_clock::now();
  auto read = parse_npy(bytes);
  REQUIRE(read.ok());
  CHECK(read->dtype() == many);
  // A bool beside 20,000 zero-size fields, in a subarray field of 2**20 elements: bools are
  // found once per field, then copied, not searched for in every element.
  std::string zero_fields;
  for (int i = 0; i < 20000; ++i) zero_fields += ", ('z" + std::to_string(i) + "', '<f8', (0,))";
  auto hostile = DType::from_descr("[('x', [('b', '|b1')" + zero_fields + "], (1048576,))]");
  REQUIRE_MESSAGE(hostile.ok(), (hostile.ok() ? std::string() : hostile.error().message));
  Array records = Array::zeros(*hostile, {1});
  std::memset(records.data(), 7, static_cast<size_t>(records.nbytes()));
  auto normalised = parse_npy(format_npy(records));
  REQUIRE(normalised.ok());
  auto* values = static_cast<unsigned char*>(normalised->data());
  CHECK(values[0] == 1);
  CHECK(values[1048575] == 1);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
}

TEST_CASE("save_npy over an existing file leaves exactly the new file, longer or shorter than the old one") {
  // The file is overwritten in place and cut to length (no truncate-to-zero, which ext4 writes
  // out to the disk at close): what was there before must not survive past the new end.
  std::string path = "save_npy_overwrite_test.npy";
  for (int64_t n : {100, 3, 100, 100}) {
    Array a = Array::from<int64_t>(std::vector<int64_t>(static_cast<size_t>(n), n));
    REQUIRE(save_npy(path, a).ok());
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(bytes == format_npy(a));
    auto back = load_npy(path);
    REQUIRE(back.ok());
    CHECK(back->size() == n);
  }
  std::remove(path.c_str());
}
