// Values beyond scalars and arrays through a host call (pykern/value.h, api/host_values.cpp,
// runtime/pykern/host_values.cuh): str, list, typed dict and tuple arguments made from C++
// values; str, dict, list, nested tuple and Optional results read back as pykern::Value and
// written as Python's repr; arguments that do not fit refused with a message. Expected values
// are what Numba 0.68 returns for the same calls.
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/function.h"
#include "pykern/module.h"
#include "pykern/value.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit, types
from numba.typed import Dict, List


@njit
def greet(name):
    return "hello, " + name + "!"


@njit
def initials(names):
    out = ""
    for name in names:
        out += name[0].upper()
    return out


@njit
def total(prices):
    s = 0.0
    for k in prices:
        s += prices[k]
    return s


@njit
def discounted(prices, rate):
    out = Dict.empty(key_type=types.int64, value_type=types.float64)
    for k, v in prices.items():
        out[k] = v * (1.0 - rate)
    return out


@njit
def histogram(values, width):
    counts = Dict.empty(key_type=types.int64, value_type=types.int64)
    for v in values:
        b = int(v // width)
        counts[b] = counts.get(b, 0) + 1
    return counts


@njit
def squares(n):
    return [(i, i * i) for i in range(n)]


@njit
def split_parity(xs):
    even = List.empty_list(types.int64)
    odd = List.empty_list(types.int64)
    for x in xs:
        if x % 2 == 0:
            even.append(x)
        else:
            odd.append(x)
    return (len(xs), (even, odd))


@njit
def label_of(labels, key):
    if key in labels:
        return labels[key]
    return None


@njit
def bounds(n):
    return ("lo" + str(n), ("hi" + str(n + 1), n))


@njit
def row_sums(rows):
    out = []
    for r in rows:
        out.append(r.sum())
    return out


@njit
def normalize_all(rows):
    for r in rows:
        r /= r.max()
    return rows


@njit
def describe(point):
    return point[1] + ": " + str(point[0][0] + point[0][1])


@njit
def count(xs):
    return len(xs)


@njit("float64(ListType(int64))")
def ints_only(xs):
    return float(len(xs))
)py";

Module& module() {
  static Module loaded = test::load_host_module(source, "values.py", "host-values");
  return loaded;
}

}  // namespace

TEST_CASE("host values: a str argument and a str result") {
  Returned r = test::call(module(), "greet", "world");
  REQUIRE(r.value().kind() == Value::Kind::string);
  CHECK(r.value().str() == "hello, world!");
  CHECK(r.value().to_string() == "'hello, world!'");
  CHECK(r.type == "unicode_type");
  CHECK(r.size() == 0);  // values and arrays hold none of it
  // UTF-8 crosses as it is.
  CHECK(test::call(module(), "greet", std::string("Zoë")).value().str() == "hello, Zoë!");
}

TEST_CASE("host values: a list of str in, its initials out") {
  std::vector<std::string> names = {"ada", "grace", "linus"};
  CHECK(test::call(module(), "initials", names).value().str() == "AGL");
}

TEST_CASE("host values: a typed dict in, a scalar or a new dict out") {
  std::map<int64_t, double> prices = {{1, 10.0}, {2, 2.5}, {7, 0.5}};
  CHECK(test::call(module(), "total", prices).values.at(0).value.real() == doctest::Approx(13.0));
  Value out = test::call(module(), "discounted", prices, 0.5).value();
  REQUIRE(out.kind() == Value::Kind::dict);
  CHECK(out.to_string() == "{1: 5.0, 2: 1.25, 7: 0.25}");
  REQUIRE(out.find(Value(int64_t(2))) != nullptr);
  CHECK(out.find(Value(int64_t(2)))->scalar().value.real() == 1.25);
  CHECK(out.find(Value(int64_t(3))) == nullptr);
  // A vector of pairs is a dict in its own order (a map's is sorted).
  std::vector<std::pair<int64_t, double>> ordered = {{9, 1.0}, {3, 2.0}};
  CHECK(test::call(module(), "discounted", ordered, 0.0).value().to_string() == "{9: 1.0, 3: 2.0}");
}

TEST_CASE("host values: a dict made from an array comes back in insertion order") {
  Array values = Array::from<double>({0.5, 2.5, 0.1, 7.0, 2.9});
  Returned r = test::call(module(), "histogram", values, 1.0);
  CHECK(r.value().to_string() == "{0: 2, 2: 2, 7: 1}");
  CHECK(r.type == "DictType[int64,int64]<iv=None>");
}

TEST_CASE("host values: lists of tuples, nested tuples of str and lists") {
  CHECK(test::call(module(), "squares", int64_t(4)).value().to_string() == "[(0, 0), (1, 1), (2, 4), (3, 9)]");
  CHECK(test::call(module(), "squares", int64_t(0)).value().to_string() == "[]");
  CHECK(test::call(module(), "bounds", int64_t(3)).value().to_string() == "('lo3', ('hi4', 3))");
  Value parity = test::call(module(), "split_parity", Value::list({1, 2, 3, 4, 6})).value();
  CHECK(parity.to_string() == "(5, ([2, 4, 6], [1, 3]))");
  CHECK(parity[1][0].items().size() == 3);
  CHECK(parity[0].scalar().integer == 5);
}

TEST_CASE("host values: an Optional str is the value or None") {
  std::map<int64_t, std::string> names = {{1, "one"}, {2, "two"}};
  CHECK(test::call(module(), "label_of", names, int64_t(2)).value().to_string() == "'two'");
  CHECK(test::call(module(), "label_of", names, int64_t(5)).value().is_none());
}

TEST_CASE("host values: a list of arrays: views of the caller's arrays in, copies out") {
  Array a = Array::from<double>({1, 2, 3}), b = Array::from<double>({4, 4});
  // A list of numbers still comes back as Returned::list; value() is a list of scalars.
  Returned sums = test::call(module(), "row_sums", Value::list({a, b}));
  REQUIRE(sums.list);
  CHECK(sums.value().to_string() == "[6.0, 8.0]");
  Value normalized = test::call(module(), "normalize_all", Value::list({a, b})).value();
  CHECK(a.at<double>(0) == doctest::Approx(1.0 / 3));  // written in place, as Numba's typed List of arrays
  CHECK(b.at<double>(1) == 1.0);
  REQUIRE(normalized.kind() == Value::Kind::list);
  CHECK(normalized.to_string() == "[array(float64, shape=(3,)), array(float64, shape=(2,))]");
  CHECK(normalized[0].array().at<double>(2) == 1.0);
  CHECK(normalized[0].array().data() != a.data());  // a copy: the caller owns it
}

TEST_CASE("host values: a nested tuple argument from std::tuple") {
  auto point = std::make_tuple(std::make_tuple(int64_t(2), int64_t(3)), std::string("p"));
  CHECK(test::call(module(), "describe", point).value().str() == "p: 5");
}

TEST_CASE("host values: empty containers name their types") {
  CHECK(test::call(module(), "count", Value::list({}, "int64")).values.at(0).integer == 0);
  std::string message = test::failure(module(), "count", Value::list({}));
  CHECK(message.find("an empty list has no item to type it by") != std::string::npos);
  CHECK(message.find("'count': argument 1") != std::string::npos);
}

TEST_CASE("host values: arguments that do not fit are errors, not crashes") {
  // A C++ int is an int32, as Scalar types it.
  CHECK(test::failure(module(), "count", Value::list({1, 2.5})).find("item 1 is float64, not int32") != std::string::npos);
  CHECK(test::failure(module(), "count", Value()).find("None is no argument") != std::string::npos);
  CHECK(test::call(module(), "count", Value::dict({{"a", 1}, {"b", 2}})).values.at(0).integer == 2);  // str keys
  std::string fixed = test::failure(module(), "ints_only", Value::list({1.5, 2.5}));
  CHECK_MESSAGE(fixed.find("compiled only for the signatures in its decorator, (list(int64)); none takes (list(float64))") !=
                    std::string::npos,
                fixed);
  CHECK(test::call(module(), "ints_only", Value::list({int64_t(1), int64_t(2)})).values.at(0).value.real() == 2.0);
  // A str where the function does arithmetic: the translator's type error, located.
  CHECK_FALSE(module().function("total")->call("text").ok());
}

TEST_CASE("host values: to_string is Python's repr") {
  CHECK(Value().to_string() == "None");
  CHECK(Value(1.0).to_string() == "1.0");
  CHECK(Value(0.1).to_string() == "0.1");
  CHECK(Value(1e15).to_string() == "1000000000000000.0");
  CHECK(Value(1e16).to_string() == "1e+16");
  CHECK(Value(1.5e-5).to_string() == "1.5e-05");
  CHECK(Value(-0.0).to_string() == "-0.0");
  CHECK(Value(true).to_string() == "True");
  CHECK(Value(std::complex<double>(1, -2)).to_string() == "(1-2j)");
  CHECK(Value("it's").to_string() == "\"it's\"");
  CHECK(Value("a\n'\"").to_string() == "'a\\n\\'\"'");
  CHECK(Value::tuple({1}).to_string() == "(1,)");
  CHECK(to_value(std::make_pair(std::string("k"), std::optional<int>())).to_string() == "('k', None)");
  CHECK(Value::dict({{"a", Value::list({1, 2})}}).to_string() == "{'a': [1, 2]}");
}
