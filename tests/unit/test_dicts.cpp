// Typed dicts in @jit functions called on the host (sema/dictionaries.cpp,
// runtime/pykern/dict.cuh): {} typed by its first store, literals, Dict.empty, the methods,
// iteration in insertion order (a deleted key stored again goes last), tuple keys, arrays as
// values, dicts passed to and returned by functions, and KeyError as Numba raises it. Expected
// values are Numba 0.68's.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/function.h"
#include "pykern/module.h"
#include "sema/types.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit, types
from numba.typed import Dict
import numba


@njit
def counts(a):
    d = {}
    for x in a:
        if x in d:
            d[x] += 1
        else:
            d[x] = 1
    keys = np.empty(len(d), np.int64)
    values = np.empty(len(d), np.int64)
    i = 0
    for k, v in d.items():
        keys[i] = k
        values[i] = v
        i += 1
    return keys, values


@njit
def literal_lookup(k):
    d = {1: 2.0, 3: 4}
    return d[k], len(d), k in d, k not in d


@njit
def reinsert_order():
    d = {}
    for k in range(1, 4):
        d[k] = k * 10
    del d[1]
    d[1] = 11
    d[7] = 70
    out = np.empty(len(d), np.int64)
    i = 0
    for k in d:
        out[i] = k
        i += 1
    last = d.popitem()
    return out, last[0], last[1], len(d)


@njit
def methods():
    d = Dict.empty(key_type=types.int64, value_type=types.float64)
    d[1] = 1.5
    d[2] = 2.5
    a = d.get(1, 0.0)
    b = d.get(9, -1.0)
    c = d.pop(2)
    e = d.pop(9, 7.0)
    f = d.setdefault(5, 3.0)
    g = d.setdefault(5, 9.0)
    other = d.copy()
    other[8] = 8.0
    d.update(other)
    n = len(d)
    d.clear()
    missing = d.get(1) is None
    return a, b, c, e, f, g, n, len(d), len(other), missing


@njit
def tuple_keys(rows, cols, vals):
    sums = {}
    for i in range(rows.shape[0]):
        key = (rows[i], cols[i])
        sums[key] = sums.get(key, 0.0) + vals[i] if key in sums else vals[i]
    total = 0.0
    for (r, c), s in sums.items():
        total += r * 100 + c + s
    return len(sums), total, sums[(rows[0], cols[0])]


@njit
def arrays_by_key(n):
    d = {}
    for i in range(n):
        d[i % 3] = np.zeros(4) + i
    d[1][2] = -5.0
    s = 0.0
    for v in d.values():
        s += v.sum()
    return s, len(d.keys())


@njit
def fill(d, n):
    for i in range(n):
        d[i] = i * i


@njit
def make(n):
    d = Dict.empty(key_type=types.int64, value_type=types.int64)
    fill(d, n)
    return d


@njit
def passed_around(n):
    d = make(n)
    s = 0
    for v in d.values():
        s += v
    return s, len(d)


@njit
def missing_key(k):
    d = {1: 2.0}
    return d[k]


@njit
def missing_tuple():
    d = {(1, 2): 2.0}
    return d[(3, 4)]


@njit
def missing_float():
    d = {0.5: 2}
    return d[-0.0]


@njit
def pop_missing():
    d = {1: 2.0}
    return d.pop(3)


@njit
def popitem_empty():
    d = Dict.empty(key_type=types.int64, value_type=types.int64)
    return d.popitem()


@njit
def del_missing():
    d = {1: 2.0}
    del d[5]
    return len(d)


@njit
def bool_and_float_keys():
    d = dict()
    d[1.5] = True
    d[-0.0] = False
    d[0.0] = True
    e = {True: 1, False: 0}
    return len(d), d[0.0], d[1.5], e[True] + e[False]


@njit
def keys_view_in(k):
    d = {1: 1.0, 2: 4.0}
    ks = d.keys()
    return k in d, len(ks), len(d.values()), len(d.items())


@njit
def enumerate_keys():
    d = {5: 1.0, 6: 2.0}
    s = 0
    for i, k in enumerate(d):
        s += i * k
    return s


@njit
def nan_and_zero_keys():
    d = {}
    d[np.nan] = 1
    d[np.nan] = 2
    d[-0.0] = 2
    d[0.0] = 3
    return len(d), d[-0.0], d[0.0], np.nan in d
)py";

const char* more_source = R"py(import numpy as np
import numba
from numba import njit
from numba.core import types as nt
from numba.typed import Dict

PAIR = nt.UniTuple(nt.int64, 2)
ROW = nt.float64[:]


@njit
def rows_by_key(n):
    d = numba.typed.Dict.empty(key_type=nt.int64, value_type=ROW)
    for i in range(n):
        d[i] = np.arange(3.0) * i
    d[0] = np.ones(6)[::2]
    s = 0.0
    for k, row in d.items():
        s += row[1] * (k + 1)
    return s, len(d)


@njit
def grid_cells(n):
    cells = Dict.empty(key_type=PAIR, value_type=nt.int64)
    for i in range(n):
        for j in range(n):
            cells[i, j] = i * n + j
    del cells[0, 1]
    return len(cells), cells[n - 1, n - 1], (1, 0) in cells, (0, 1) in cells


@njit
def nested(n):
    outer = {}
    for i in range(n):
        inner = Dict.empty(key_type=nt.int64, value_type=nt.float64)
        inner[i] = i * 0.5
        outer[i] = inner
    outer[1][7] = 2.0
    return len(outer[1]), outer[1][7] + outer[2][2]


@njit
def delete_while_looping():
    d = {1: 1.0, 2: 2.0, 3: 3.0}
    for k in d:
        if k == 2:
            del d[3]
    return len(d)


@njit
def make_table(n):
    d = {}
    for i in range(n):
        d[i] = float(i)
    return d


@njit
def aliasing(n):
    d = {0: 0}
    e = d
    e[1] = n
    f = d.copy()
    f[2] = 5
    return len(d), len(f), d[1]
)py";

Module load() { return test::load_host_module(source, "dicts.py", "dicts"); }
Module load_more() { return test::load_host_module(more_source, "more.py", "dicts-more"); }

template <class... A> Returned run(Module& module, const char* name, A&&... args) {
  return test::call(module, name, std::forward<A>(args)...);
}
template <class T> std::vector<T> items(const Array& a) {
  Array c = a.copy();
  const T* data = static_cast<const T*>(c.data());
  return std::vector<T>(data, data + c.size());
}
int64_t integer(const Returned& r, size_t k) { return r.values.at(k).integer; }
double real(const Returned& r, size_t k) { return r.values.at(k).value.real(); }

}  // namespace

TEST_CASE("d = {} takes its types from the first store; counting keys keeps insertion order") {
  Module module = load();
  Returned r = run(module, "counts", Array::from<int64_t>({3, 1, 3, 2, 1, 3}));
  CHECK(items<int64_t>(r.arrays.at(0)) == std::vector<int64_t>{3, 1, 2});
  CHECK(items<int64_t>(r.arrays.at(1)) == std::vector<int64_t>{3, 2, 1});
}

TEST_CASE("a dict literal is typed by its first key and value; the others convert") {
  Module module = load();
  Returned r = run(module, "literal_lookup", int64_t(3));
  CHECK(r.type == "Tuple(float64, int64, bool, bool)");
  CHECK(real(r, 0) == 4.0);
  CHECK(integer(r, 1) == 2);
  CHECK(integer(r, 2) == 1);
  CHECK(integer(r, 3) == 0);
}

TEST_CASE("a key deleted and stored again goes last; popitem takes the last one") {
  Module module = load();
  Returned r = run(module, "reinsert_order");
  CHECK(items<int64_t>(r.arrays.at(0)) == std::vector<int64_t>{2, 3, 1, 7});
  CHECK(integer(r, 0) == 7);
  CHECK(integer(r, 1) == 70);
  CHECK(integer(r, 2) == 3);
}

TEST_CASE("Dict.empty and get, pop, setdefault, copy, update, clear") {
  Module module = load();
  Returned r = run(module, "methods");
  std::vector<double> want = {1.5, -1.0, 2.5, 7.0, 3.0, 3.0};
  for (size_t k = 0; k < want.size(); ++k) CHECK(real(r, k) == want[k]);
  CHECK(integer(r, 6) == 3);
  CHECK(integer(r, 7) == 0);
  CHECK(integer(r, 8) == 3);
  CHECK(integer(r, 9) == 1);  // d.get(1) of a cleared dict is None
}

TEST_CASE("tuple keys: grouped sums, unpacked in the loop target") {
  Module module = load();
  Returned r = run(module, "tuple_keys", Array::from<int64_t>({1, 2, 1, 3}), Array::from<int64_t>({0, 1, 0, 2}),
                   Array::from<double>({0.5, 1.5, 2.0, 4.0}));
  CHECK(integer(r, 0) == 3);
  CHECK(real(r, 1) == 611.0);
  CHECK(real(r, 2) == 2.5);
}

TEST_CASE("arrays as values: replaced, written through d[k][i], summed over values()") {
  Module module = load();
  Returned r = run(module, "arrays_by_key", int64_t(5));
  CHECK(real(r, 0) == 27.0);
  CHECK(integer(r, 1) == 3);
}

TEST_CASE("a dict passed to a function is updated there, and returned by another") {
  Module module = load();
  Returned r = run(module, "passed_around", int64_t(6));
  CHECK(integer(r, 0) == 55);
  CHECK(integer(r, 1) == 6);
}

TEST_CASE("KeyError as Numba raises it: d[k] names the key, pop, popitem and del do not") {
  Module module = load();
  CHECK(test::failure_described(module, "missing_key", int64_t(7)).find("KeyError: 7") != std::string::npos);
  CHECK(test::failure(module, "missing_tuple").find("KeyError: (3, 4)") != std::string::npos);
  CHECK(test::failure(module, "missing_float").find("KeyError: -0.0") != std::string::npos);
  for (const char* name : {"pop_missing", "popitem_empty", "del_missing"}) {
    std::string message = test::failure(module, name);
    CAPTURE(name);
    CHECK(message.find("KeyError") != std::string::npos);
    CHECK(message.find("KeyError:") == std::string::npos);
  }
  std::string located = test::failure_described(module, "missing_key", int64_t(7));
  CHECK(located.find("dicts.py:117") != std::string::npos);
}

TEST_CASE("bool and float keys compare by their bytes as Numba's do: -0.0 and 0.0 are two keys, NaN is never found") {
  Module module = load();
  Returned r = run(module, "bool_and_float_keys");
  CHECK(integer(r, 0) == 3);
  CHECK(integer(r, 1) == 1);
  CHECK(integer(r, 2) == 1);
  CHECK(integer(r, 3) == 1);
  Returned z = run(module, "nan_and_zero_keys");
  CHECK(integer(z, 0) == 4);
  CHECK(integer(z, 1) == 2);
  CHECK(integer(z, 2) == 3);
  CHECK(integer(z, 3) == 0);
}

TEST_CASE("views: len of keys(), values() and items(); enumerate over a dict") {
  Module module = load();
  Returned r = run(module, "keys_view_in", int64_t(2));
  CHECK(integer(r, 0) == 1);
  CHECK(integer(r, 1) == 2);
  CHECK(integer(r, 2) == 2);
  CHECK(integer(r, 3) == 2);
  CHECK(integer(run(module, "keys_view_in", int64_t(3)), 0) == 0);
  CHECK(integer(run(module, "enumerate_keys"), 0) == 6);
}

TEST_CASE("Dict.empty with array values (types.float64[:] bound at module level) takes a strided view") {
  Module module = load_more();
  Returned r = run(module, "rows_by_key", int64_t(4));
  CHECK(real(r, 0) == 21.0);
  CHECK(integer(r, 1) == 4);
}

TEST_CASE("d[i, j] is d[(i, j)]: stores, reads, del and in with UniTuple keys") {
  Module module = load_more();
  Returned r = run(module, "grid_cells", int64_t(3));
  CHECK(integer(r, 0) == 8);
  CHECK(integer(r, 1) == 8);
  CHECK(integer(r, 2) == 1);
  CHECK(integer(r, 3) == 0);
}

TEST_CASE("dicts of dicts; names of one dict share it, copy() does not") {
  Module module = load_more();
  Returned r = run(module, "nested", int64_t(3));
  CHECK(integer(r, 0) == 2);
  CHECK(real(r, 1) == 3.0);
  Returned a = run(module, "aliasing", int64_t(9));
  CHECK(integer(a, 0) == 2);
  CHECK(integer(a, 1) == 3);
  CHECK(integer(a, 2) == 9);
}

TEST_CASE("a loop that deletes from the dict it walks is Python's RuntimeError, not a crash") {
  Module module = load_more();
  std::string message = test::failure_described(module, "delete_while_looping");
  CHECK(message.find("RuntimeError: dictionary changed size during iteration") != std::string::npos);
}

TEST_CASE("a dict returned to the C++ caller comes back as a Value in insertion order (pykern/value.h)") {
  Module module = load_more();
  auto returned = module.function("make_table")->call(int64_t(3));
  REQUIRE_MESSAGE(returned.ok(), (returned.ok() ? std::string() : returned.error().describe()));
  CHECK(returned->type == "DictType[int64,float64]<iv=None>");
  CHECK(returned->value().to_string() == "{0: 0.0, 1: 1.0, 2: 2.0}");
}

TEST_CASE("dict types print and unify as Numba's") {
  using sema::Type;
  Type precise = Type::dict_of(Type::i64(), Type::f64());
  Type empty = Type::dict_of(Type::unknown(), Type::unknown());
  CHECK(sema::to_string(precise) == "DictType[int64,float64]<iv=None>");
  CHECK(sema::to_string(empty) == "DictType[undefined,undefined]<iv=None>");
  CHECK(sema::to_string(Type::dict_of(Type::i64(), Type::f64(), 1)) == "dict_keys[DictType[int64,float64]<iv=None>]");
  CHECK(sema::unify(empty, precise) == precise);
  CHECK(sema::unify(precise, empty) == precise);
  CHECK_FALSE(sema::unify(precise, Type::dict_of(Type::i64(), Type::i64())).has_value());
}
