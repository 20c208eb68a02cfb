// More of Python's str in @jit functions on the host (sema/text_methods.cpp,
// runtime/pykern/text_methods.cuh): split and friends, padding, character classes, Unicode case
// mappings, ord/chr, lists of strings and dicts keyed by strings. Expected values are Numba
// 0.68.1's (its quirks too: split(None, m) drops the rest, isdigit() is an int64).
#include <string>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/function.h"
#include "pykern/module.h"

using namespace pykern;

namespace {

const char* source = R"py(from numba import njit
from numba.typed import Dict
from numba import types

@njit
def splits():
    a = "a,b,,c".split(",")
    b = " a  b c d ".split(None, 2)
    c = " a  b c d ".rsplit(None, 2)
    d = "x\ny\r\nz\n".splitlines()
    e = "x\ny".splitlines(True)
    return (len(a), a[2] == "", len(b), b[1] == "b", len(c), c[0] == " a  b", len(d), d[2] == "z", e[0] == "x\n",
            "-".join(a) == "a-b--c", "a,b,,c".rsplit(",", 1)[0] == "a,b,")

@njit
def pieces():
    head, sep, tail = "a=b=c".rpartition("=")
    return (head == "a=b", sep == "=", tail == "c", "aaaa".count("aa"), "aaaa".count("a", 1, 3), "abc".count("", 5),
            "aaaa".replace("a", "b", 2) == "bbaa", "ab".replace("", "-") == "-a-b-", "ab".center(7, "*") == "***ab**",
            "-42".zfill(6) == "-00042", "a\tbc\td".expandtabs(4) == "a   bc  d", "é".ljust(3, "ü") == "éüü")

@njit
def classes():
    return ("12".isdigit(), "ab".isalpha(), "a1".isalnum(), "".isdigit(), "Ab Cd".istitle(), "ǅ".isupper(),
            "ΑΣ".isupper(), "a_1".isidentifier(), "a\x01".isprintable(), "é".isascii(), "٣".isdecimal())

@njit
def cases():
    return ("straße é".upper() == "STRASSE É", "ΑΣ ΑΣΑ".lower() == "ας ασα", "Straße".casefold() == "strasse",
            "İ".casefold() == "i̇", "hello wörld".title() == "Hello Wörld", "ǆa".capitalize() == "ǅa",
            "ǆaΣ".swapcase() == "ǄAς", ord("é"), chr(0x1F600) == "😀", len(chr(233) * 3))

@njit
def counted():
    counts = Dict.empty(types.unicode_type, types.int64)
    for w in "b a b c b a".split():
        counts[w] = counts.get(w, 0) + 1
    names = {"x": "ex"}
    names["y"] = "why"
    words = sorted("pear fig apple".split())
    return counts["b"], counts["a"], len(counts), names["y"] == "why", words[0] == "apple", "fig" in words

@njit
def bad_ord(s):
    return ord(s)

@njit
def call_bad_ord(n):
    return bad_ord("ab"[:n])

@njit
def bad_fill(n):
    return len("a".center(n, "**"))

@njit
def bad_chr(n):
    return len(chr(n))

@njit
def bad_split(n):
    return len("abc".split("abc"[:n]))
)py";

Module load() { return test::load_host_module(source, "strings.py", "strings-more"); }

void all_true(const Returned& r, std::initializer_list<size_t> flags) {
  for (size_t k : flags) {
    CAPTURE(k);
    CHECK(r.values.at(k).integer == 1);
  }
}

}  // namespace

TEST_SUITE_BEGIN("strings_more");

TEST_CASE("split, rsplit, splitlines and join as Numba's, its whitespace maxsplit quirk too") {
  Module module = load();
  Returned r = test::call(module, "splits");
  CHECK(r.values.at(0).integer == 4);
  CHECK(r.values.at(2).integer == 2);  // Numba drops the rest: ['a', 'b']
  CHECK(r.values.at(4).integer == 3);
  CHECK(r.values.at(6).integer == 3);
  all_true(r, {1, 3, 5, 7, 8, 9, 10});
}

TEST_CASE("partition, count, replace, padding and expandtabs") {
  Module module = load();
  Returned r = test::call(module, "pieces");
  CHECK(r.values.at(3).integer == 2);
  CHECK(r.values.at(4).integer == 2);
  CHECK(r.values.at(5).integer == 0);
  all_true(r, {0, 1, 2, 6, 7, 8, 9, 10, 11});
}

TEST_CASE("character classes of any code point, typed as Numba types them") {
  Module module = load();
  Returned r = test::call(module, "classes");
  all_true(r, {0, 1, 2, 4, 6, 7, 10});
  CHECK(r.values.at(3).integer == 0);
  CHECK(r.values.at(5).integer == 0);  // a titlecase letter is not upper
  CHECK(r.values.at(8).integer == 0);
  CHECK(r.values.at(9).integer == 0);
}

TEST_CASE("case mappings of non-ASCII text are Python's: full mappings, final sigma, casefold") {
  Module module = load();
  Returned r = test::call(module, "cases");
  all_true(r, {0, 1, 2, 3, 4, 5, 6, 8});
  CHECK(r.values.at(7).integer == 233);
  CHECK(r.values.at(9).integer == 3);
}

TEST_CASE("lists of strings and dicts with string keys and values") {
  Module module = load();
  Returned r = test::call(module, "counted");
  CHECK(r.values.at(0).integer == 3);
  CHECK(r.values.at(1).integer == 2);
  CHECK(r.values.at(2).integer == 3);
  all_true(r, {3, 4, 5});
}

TEST_CASE("run-time errors are Numba's") {
  Module module = load();
  CHECK(test::failure(module, "call_bad_ord", int64_t(2)).find("TypeError: ord() expected a character") !=
        std::string::npos);
  CHECK(test::call(module, "call_bad_ord", int64_t(1)).values.at(0).integer == 97);
  CHECK(test::failure(module, "bad_fill", int64_t(5)).find("The fill character must be exactly one character long") !=
        std::string::npos);
  CHECK(test::failure(module, "bad_chr", int64_t(0x110000)).find("chr() arg not in range(0x10ffff)") !=
        std::string::npos);
  CHECK(test::failure(module, "bad_split", int64_t(0)).find("ValueError: empty separator") != std::string::npos);
}

TEST_CASE("what Numba refuses is a located error") {
  struct Refused {
    const char* body;
    const char* message;
  };
  const Refused cases[] = {
      {"    return len('-'.join([1, 2]))", "str.join() takes a list or tuple of strings, or a string, not 'list(int64)"},
      {"    return len('a,b'.split(n))", "str.split()'s sep takes a string, not 'int64'"},
      {"    return len('a'.zfill('x'))", "str.zfill() takes an integer, not 'unicode_type'"},
      {"    return ord(n)", "ord() takes a string of one character, not 'int64'"},
      {"    return len(chr('a'))", "chr() takes an integer, not 'unicode_type'"},
      {"    return n.isdigit()", "has no attribute 'isdigit'"},
  };
  for (const Refused& refused : cases) {
    CAPTURE(refused.body);
    std::string text = std::string("from numba import njit\n\n@njit\ndef f(n):\n") + refused.body + "\n";
    Module module = test::load_host_module(text.c_str(), "refused.py", "strings-refused");
    CHECK(test::failure_described(module, "f", int64_t(1)).find(refused.message) != std::string::npos);
  }
}
