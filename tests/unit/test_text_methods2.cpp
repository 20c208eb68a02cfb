// str methods with their optional arguments, as Numba 0.68.1 has them (sema/text_search.cpp,
// runtime/pykern/text_search.cuh): find, rfind, index, rindex with start and end, startswith
// and endswith with bounds and tuples, strip, lstrip and rstrip with characters, join of a
// tuple or a string; print() of dicts, complex numbers, None and lists of tuples, and str() of
// a list (sema/text_print.cpp). Every expected text is what Numba 0.68.1 returns or prints.
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

TEXT = "héllo wörld héllo"

@njit
def finds(n):
    s = TEXT
    return (s.find("llo", 3), s.find("llo", 3, n), s.find("llo", -6), s.find("", 4, 2), s.find("", 40), s.find("", -3),
            s.rfind("héllo"), s.rfind("héllo", 0, 16), s.rfind("", 2, 5), s.rfind("ö", None, -1), s.find("zz", None, None),
            s.index("wörld", 2), s.rindex("l", 0, 4), s.find(substr="o", start=5), s.rfind("l", end=4))

@njit
def affixes(n):
    s = TEXT
    return (s.startswith("wö", 6), s.startswith("wö", 6, 7), s.startswith(("x", "hé")), s.startswith(("x", "wö"), n),
            s.startswith("", 17), s.startswith("", 18), s.endswith(("llo", "x")), s.endswith("wörld", 0, 11),
            s.endswith("wörld", -100, -6), s.endswith(("é", "ö"), 0, -3), s.endswith(prefix_or("ld"), None, 11),
            s.startswith(prefix="h", start=-17))

@njit
def prefix_or(p):
    return p

@njit
def strips():
    s = "«  héllo, wörld!  »"
    return (s.strip("«» "), s.lstrip("« h"), s.rstrip("» !"), "\t a b \n".strip(), "\t a b \n".lstrip() + "|",
            "|" + "\t a b \n".rstrip(), "xxyxx".strip("x"), "xxx".strip("x"), "abc".strip(""), "".lstrip("a"),
            "  é  ".strip(None), "ééaéé".rstrip("é"), "abab".lstrip(chars="ba"))

@njit
def joins(n):
    parts = ("a", "bé", "c")
    return ("-".join(parts), ", ".join(("x",)), "/".join("héllo"), "".join("ab"), "-".join(["p", "q"][:n]), "..".join(""))

@njit
def texts():
    values = [1, 2]
    names = ["x"]
    return (str(values), f"{names}|{values}", str({"a": 1}), str((1, 2)))

@njit
def missing(n):
    return TEXT.index("zz"[:n])

@njit
def missing_right(n):
    return TEXT.rindex("llo", 0, n)

@njit
def printed():
    counts = {"b": 2, "a": 1}
    counts["c"] = 3
    print(counts)
    pairs = {1.5: (1, "x"), 2.0: (2, "y")}
    nested = {"k": {"inner": 0.1}}
    print(pairs, nested)
    flags = {True: 1 + 2j, False: 1j}
    print(flags)
    print(None, (None, 1), 1 + 2j, complex(-0.0, -1.5), [(1, "a"), (2, "b")], [1j])
    quoted = {"quote's": "a\nb"}
    print(quoted)
    print(["é", "it's"], ("a",))
)py";

Module load() { return test::load_host_module(source, "text_methods2.py", "text-methods2"); }

std::string returned(Module& module, const char* name, int64_t n) {
  return test::call(module, name, n).value().to_string();
}
std::string returned(Module& module, const char* name) { return test::call(module, name).value().to_string(); }


// The described error of compiling and calling f(n) with `body` as its code.
std::string refusal(const std::string& body) {
  std::string text = "import numpy as np\nfrom numba import njit\n\n@njit\ndef f(n):\n" + body + "\n";
  Module module = test::load_host_module(text.c_str(), "refused.py", "text-methods2-refused");
  return test::failure_described(module, "f", int64_t(1));
}

}  // namespace

TEST_SUITE_BEGIN("text_methods2");

TEST_CASE("find, rfind, index and rindex take start and end as Numba's, counting code points") {
  Module module = load();
  CHECK(returned(module, "finds", 12) == "(14, -1, 14, -1, -1, 14, 12, 0, 5, 7, -1, 6, 3, 16, 3)");
}

TEST_CASE("startswith and endswith take start, end and a tuple of strings") {
  Module module = load();
  CHECK(returned(module, "affixes", 12) ==
        "(True, False, True, False, True, False, True, True, True, True, True, True)");
}

TEST_CASE("strip, lstrip and rstrip take a set of characters, or None for whitespace") {
  Module module = load();
  CHECK(returned(module, "strips") ==
        R"(('héllo, wörld!', 'éllo, wörld!  »', '«  héllo, wörld', 'a b', 'a b \n|', '|\t a b', 'y', '', 'abc', '', 'é', 'ééa', ''))");
}

TEST_CASE("join takes a tuple of strings and a string's characters") {
  Module module = load();
  CHECK(returned(module, "joins", 2) == "('a-bé-c', 'x', 'h/é/l/l/o', 'ab', 'p-q', '')");
}

TEST_CASE("str() and f-strings of a list name its type as Numba does") {
  Module module = load();
  CHECK(returned(module, "texts") ==
        "('<object type:list(int64)<iv=None>>', '<object type:list(unicode_type)<iv=None>>|<object "
        "type:list(int64)<iv=None>>', '<object type:DictType[unicode_type,int64]<iv=None>>', '<object "
        "type:UniTuple(int64 x 2)>')");
}

TEST_CASE("index and rindex raise Numba's ValueError where the text is absent") {
  Module module = load();
  CHECK(test::failure(module, "missing", int64_t(2)).find("ValueError: substring not found") != std::string::npos);
  CHECK(test::failure(module, "missing_right", int64_t(2)).find("ValueError: substring not found") !=
        std::string::npos);
  CHECK(returned(module, "missing", 0) == "0");  // the empty text is at 0
  CHECK(returned(module, "missing_right", 40) == "14");
}

TEST_CASE("print() of dicts as the typed Dict's str, of None, complex numbers and lists of tuples") {
  Module module = load();
  std::string out = test::printed_by([&] { test::call(module, "printed"); });
  CHECK(out ==
        "{b: 2, a: 1, c: 3}\n"
        "{1.5: (1, 'x'), 2.0: (2, 'y')} {k: {inner: 0.1}}\n"
        "{True: (1+2j), False: 1j}\n"
        "None (None, 1) (1+2j) (-0-1.5j) [(1, 'a'), (2, 'b')] [1j]\n"
        "{quote's: a\nb}\n"
        "['é', \"it's\"] ('a',)\n");
}

TEST_CASE("what Numba refuses in these methods is a located error naming it") {
  struct Refused {
    const char* body;
    const char* message;
  };
  const Refused cases[] = {
      {"    return 'abc'.find(n)", "str.find() takes a string, not 'int64'"},
      {"    return 'abc'.find('a', True)", "str.find()'s start takes an integer or None, not 'bool'"},
      {"    return 'abc'.rindex('a', 0, 1.5)", "str.rindex()'s end takes an integer or None, not 'float64'"},
      {"    return 'abc'.find(sub='a')", "str.find() got an unexpected keyword argument 'sub'"},
      {"    return 'abc'.index('a', 0, 1, 2)", "str.index() takes at most 3 positional arguments (4 given)"},
      {"    return 'abc'.startswith(('a', n))",
       "str.startswith() takes a string or a tuple of strings, not 'Tuple(unicode_type, int64)'"},
      {"    return 'abc'.endswith(())", "str.endswith() takes a string or a tuple of strings, not 'Tuple()'"},
      {"    return 'abc'.startswith('a', 'b')", "str.startswith()'s start takes an integer or None, not 'unicode_type'"},
      {"    return len('abc'.strip(n))", "str.strip()'s chars takes a string, not 'int64'"},
      {"    return n.lstrip()", "a value of type 'int64' has no attribute 'lstrip'"},
      {"    return len('-'.join(('a', n)))",
       "str.join() takes a list or tuple of strings, or a string, not 'Tuple(unicode_type, int64)'"},
      {"    d = {'a': 1}\n    print(d.keys())",
       "print() in a @jit function takes numbers, booleans, None, strings, and tuples, lists and dicts of them, not "
       "'dict_keys[DictType[unicode_type,int64]<iv=None>]'"},
      {"    d = {'a': np.zeros(2)}\n    print(d)", "not 'DictType[unicode_type,array(float64, 1d, C)]<iv=None>'"},
  };
  for (const Refused& refused : cases) {
    CAPTURE(refused.body);
    std::string message = refusal(refused.body);
    CHECK(message.find(refused.message) != std::string::npos);
    CHECK(message.find("refused.py:") == 0);  // located
  }
}

TEST_SUITE_END();
