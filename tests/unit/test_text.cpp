// Python's str in @jit functions called on the host (sema/text.cpp, runtime/pykern/text.cuh):
// string values and their operators, str(), f-strings, print() as Numba's CPU target prints,
// and exception messages made at run time. Expected values and messages are Numba 0.68.1's.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "captured_stdout.h"
#include "host_module.h"
#include "pykern/function.h"
#include "pykern/module.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

MODE = "median"

@njit
def pieces(k):
    s = "héllo"
    a = s[1] + s[-1] + s[1:4] + s[::2] + s[::-1] + s[10:] + s[:-10] + s[3:1] + s[1:3:-1]
    b = "ab" * k + k * "c" + "x" * -1
    return len(a), len(b), a == "éoéllhloolléh", b == "ababababccccc"[: 2 * k] + "c" * k

@njit
def summary(values, method="mean"):
    if method == "mean":
        return values.mean()
    elif method == "median":
        return np.median(values)
    return values.max()

@njit
def dispatch(values):
    return summary(values), summary(values, "median"), summary(values, MODE), summary(values, "max")

@njit
def texts(n, x, flag):
    s = "row"
    if s:
        print(s, n, x, flag, (n, x), "%d")
    print(f"{s} {n}: {flag} {-n} {np.uint8(200)} {x} {{n}} é")
    print(str(n), str(), s.upper(), "  a b \t".strip(), "MiX".lower(), s.find("w"), s.find("z"))
    print(s.startswith("ro"), s.endswith("x"), 0.1, 1e20, 1e-5, 123.0, -0.0, 1e16, 1e15, np.float32(0.1))
    return n

@njit
def size_checked(n):
    if n > 3:
        raise ValueError(f"bad size {n}")
    return n

@njit
def several(n):
    raise ValueError("bad size", n, 0.5, True, "it's", (n,))

@njit
def asserted(n):
    assert n > 10, f"n too small: {n}"
    return n

@njit
def asserted_tuple(n):
    assert n > 10, ("n", n)
    return n

@njit
def runtime_message(n):
    message = "index " + str(n)
    raise IndexError(message)

@njit
def missing_key(n):
    raise KeyError("k" + str(n))

@njit
def vowels(word):
    count = 0
    for c in word:
        if c in "aeiou":
            count += 1
    for i, c in enumerate("xyz"):
        count += (c == "y") * 10 * i
    return count

@njit
def known(method):
    return method in ("mean", "median"), method not in ("mean", "median"), method in ("median",)

@njit
def known_all():
    a = known("mean")
    b = known("max")
    return a[0], a[1], a[2], b[0], b[1], b[2]

@njit
def counted():
    return vowels("education"), vowels("rhythm"), vowels("")

@njit
def char_at(n):
    return len("abc"[n])
)py";

Module load() { return test::load_host_module(source, "text.py", "text"); }

int64_t integer(const Returned& r, size_t k) { return r.values.at(k).integer; }


}  // namespace

TEST_SUITE_BEGIN("text");

TEST_CASE("strings compare by code point; in, not in and len") {
  // A string argument is not marshalled from C++: a function passes its own to another.
  Module direct = test::load_host_module(R"py(from numba import njit

@njit
def compared(s):
    t = "mean"
    return (s == t, s != t, s < "b", s >= "mean", "ea" in s, "z" not in s, len(s), len(""))

@njit
def both():
    a = compared("mean")
    b = compared("alpha")
    return a[0], a[1], a[2], a[3], a[4], a[5], a[6], b[0], b[2], b[3], b[4], b[6], a[7]
)py",
                                         "compare.py", "text-compare");
  Returned r = test::call(direct, "both");
  CHECK(r.values.size() == 13);
  CHECK(integer(r, 0) == 1);   // "mean" == "mean"
  CHECK(integer(r, 1) == 0);
  CHECK(integer(r, 2) == 0);   // "mean" < "b"
  CHECK(integer(r, 3) == 1);
  CHECK(integer(r, 4) == 1);   // "ea" in "mean"
  CHECK(integer(r, 5) == 1);
  CHECK(integer(r, 6) == 4);
  CHECK(integer(r, 7) == 0);   // "alpha" == "mean"
  CHECK(integer(r, 8) == 1);   // "alpha" < "b"
  CHECK(integer(r, 9) == 0);
  CHECK(integer(r, 10) == 0);  // "ea" in "alpha"
  CHECK(integer(r, 11) == 5);
  CHECK(integer(r, 12) == 0);  // len("")
}

TEST_CASE("indexing and slicing count code points; + and * make new strings") {
  Module module = load();
  Returned r = test::call(module, "pieces", int64_t(4));
  CHECK(integer(r, 0) == 13);
  CHECK(integer(r, 1) == 12);
  CHECK(integer(r, 2) == 1);
  CHECK(integer(r, 3) == 1);
}

TEST_CASE("for loops go over a string's characters, enumerate() too") {
  Module module = load();
  Returned r = test::call(module, "counted");
  CHECK(integer(r, 0) == 15);
  CHECK(integer(r, 1) == 10);
  CHECK(integer(r, 2) == 10);
}

TEST_CASE("a string in a tuple of strings: equal to one of them") {
  Module module = load();
  Returned r = test::call(module, "known_all");
  CHECK(integer(r, 0) == 1);  // "mean"
  CHECK(integer(r, 1) == 0);
  CHECK(integer(r, 2) == 0);
  CHECK(integer(r, 3) == 0);  // "max"
  CHECK(integer(r, 4) == 1);
  CHECK(integer(r, 5) == 0);
}

TEST_CASE("a mode string from a default, a literal argument or a module constant picks the branch") {
  Module module = load();
  Returned r = test::call(module, "dispatch", Array::from<double>({1, 2, 10}));
  CHECK(r.values.at(0).value.real() == doctest::Approx(13.0 / 3));
  CHECK(r.values.at(1).value.real() == 2.0);
  CHECK(r.values.at(2).value.real() == 2.0);
  CHECK(r.values.at(3).value.real() == 10.0);
}

TEST_CASE("print() of strings, f-strings and floats prints as Numba's CPU target does") {
  Module module = load();
  std::string out = test::printed_by([&] { test::call(module, "texts", int64_t(3), 2.5, true); });
  CHECK(out ==
        "row 3 2.5 True (3, 2.5) %d\n"
        "row 3: True -3 200 <object type:float64> {n} é\n"
        "3  ROW a b mix 2 -1\n"
        "True False 0.1 1e+20 1e-05 123.0 -0.0 1e+16 1000000000000000.0 0.10000000149011612\n");
}

TEST_CASE("exception messages with values are Numba's, at the raise's line") {
  Module module = load();
  CHECK(test::call(module, "size_checked", int64_t(2)).values.at(0).integer == 2);
  CHECK(test::failure(module, "size_checked", int64_t(5)).find("text.py:38: ValueError: bad size 5") !=
        std::string::npos);
  CHECK(test::failure(module, "several", int64_t(5))
            .find("ValueError: ('bad size', 5, 0.5, True, \"it's\", (5,))") != std::string::npos);
  CHECK(test::failure(module, "asserted", int64_t(5)).find("text.py:47: AssertionError: n too small: 5") !=
        std::string::npos);
  CHECK(test::call(module, "asserted", int64_t(11)).values.at(0).integer == 11);
  CHECK(test::failure(module, "asserted_tuple", int64_t(5)).find("AssertionError: ('n', 5)") != std::string::npos);
  CHECK(test::failure(module, "runtime_message", int64_t(7)).find("IndexError: index 7") != std::string::npos);
  CHECK(test::failure(module, "missing_key", int64_t(1)).find("KeyError: 'k1'") != std::string::npos);
  CHECK(test::failure(module, "char_at", int64_t(3)).find("IndexError: string index out of range") !=
        std::string::npos);
  CHECK(test::call(module, "char_at", int64_t(-3)).values.at(0).integer == 1);
}

TEST_CASE("what Numba refuses or pykern leaves out is a located error") {
  struct Refused {
    const char* body;
    const char* message;
  };
  const Refused cases[] = {
      {"    return len('a' - 'b')", "unsupported operand types for -: 'unicode_type' and 'unicode_type'"},
      {"    return len('a' + 1)", "convert the number with str() first"},
      {"    s = 'abc'\n    s[0] = 'x'\n    return 0", "'str' object does not support item assignment"},
      {"    return len(f'{n:5d}')", "a format spec, conversion or '=' in an f-string"},
      {"    return 'a' < 1", "cannot compare 'unicode_type' and 'int64' with '<'"},
      {"    return 'abc'.find('a', 1.5)", "str.find()'s start takes an integer or None, not 'float64'"},
      {"    return 'a' in ('a', 1)", "'unicode_type' cannot be looked up in a 'Tuple(unicode_type, int64)'"},
      {"    raise ValueError('a', np.arange(3))", "an exception's argument of type 'array(int64, 1d, C)' is not supported"},
  };
  for (const Refused& refused : cases) {
    CAPTURE(refused.body);
    std::string text = std::string("import numpy as np\nfrom numba import njit\n\n@njit\ndef f(n):\n") + refused.body + "\n";
    Module module = test::load_host_module(text.c_str(), "refused.py", "text-refused");
    CHECK(test::failure_described(module, "f", int64_t(1)).find(refused.message) != std::string::npos);
  }
}

TEST_SUITE_END();
