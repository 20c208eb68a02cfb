// Calls between @jit functions as Numba 0.68 types them: a @guvectorize gufunc called with its
// outputs (sema/gufunc_calls.cpp), a @vectorize DUFunc on arrays and numbers, literal
// arguments (sema/literal_arguments.cpp: both arms of a branch on one are typed; a tuple indexed
// by one; a mode string; numba.literally), and jitted functions passed as arguments. The values
// expected are what Numba 0.68 gives; corpus cases cpu/u007..u010 check more against Numba.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "host_module.h"
#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(
import numpy as np
from numba import njit, guvectorize, vectorize, literally, float64, int64


@guvectorize([(float64[:], float64, float64[:])], '(n),()->(n)')
def scaled(x, w, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * w


@guvectorize('(n)->(),()')
def extent(x, lo, hi):
    lo[0] = x.min()
    hi[0] = x.max()


@guvectorize([(float64[:], float64[:], float64[:])], '(n),(n)->()')
def dot(x, w, out):
    acc = 0.0
    for i in range(x.shape[0]):
        acc += x[i] * w[i]
    out[0] = acc


@vectorize(['float64(float64)', 'int64(int64)'])
def sq(x):
    return x * x


@vectorize
def plus_one(x):
    return x + 1


@njit
def gufunc_calls(m, w):
    out = np.empty_like(m)
    r = scaled(m, 2, out)
    lo = np.empty(m.shape[0])
    hi = np.empty(m.shape[0])
    extent(m, lo, hi)
    d = np.empty(m.shape[0])
    dot(m, w, d)
    return out, r, lo, hi, d


@njit
def core_mismatch(m):
    d = np.empty(m.shape[0])
    dot(m, m[0, :2], d)
    return d


@njit
def loop_mismatch(m):
    d = np.empty(m.shape[0] + 1)
    dot(m, m[0], d)
    return d


@njit
def too_many_loop_dims(m):
    d = np.empty(1)
    dot(m, m[0], d)
    return d


@njit
def dufunc_calls(a, x):
    return sq(a), sq(x), plus_one(a), plus_one(x)


@njit
def pick_value(x, flag):
    if flag:
        return x
    return 1.5


@njit
def axis_total(m, axis):
    if axis == 0:
        out = np.zeros(m.shape[1])
        for i in range(m.shape[0]):
            out += m[i]
        return out
    out = np.zeros(m.shape[0])
    for i in range(m.shape[0]):
        out[i] = m[i].sum()
    return out


@njit
def nth(t, k):
    return t[k]


@njit
def stat(x, mode):
    if mode == "mean":
        return x.mean()
    elif mode == "max":
        return x.max()
    return np.nan


@njit
def plus_literal(k):
    return literally(k) + 1


@njit
def literals(m, x):
    t = (x, 2.5, m.shape[0] > 1)
    return (pick_value(x, True), axis_total(m, 0), axis_total(m, 1), nth(t, 0), nth(t, 1), nth(t, 2),
            stat(m[0], "mean"), stat(m[0], "max"), stat(m[0], "other"), plus_literal(3))


@njit
def square(x):
    return x * x


@njit
def cube(x):
    return x * x * x


@njit
def apply(f, x):
    return f(x)


@njit
def apply_twice(f, x):
    return apply(f, apply(f, x))


@njit
def passed_functions(x):
    return apply(square, x), apply(cube, 2), apply_twice(square, x)
)py";

Module load() { return test::load_host_module(source, "calls2.py", "calls2"); }

Array array_item(const Returned& r, size_t k) { return std::get<Array>(r.item(k)); }
Scalar scalar_item(const Returned& r, size_t k) { return std::get<Scalar>(r.item(k)); }

Array matrix(std::vector<double> values, int64_t rows, int64_t cols) {
  Array a = Array::from<double>(values);
  return Array::wrap(a.data(), a.dtype(), {rows, cols}).copy();
}

const char* refusals = R"py(
import numpy as np
from numba import njit, guvectorize, literally, float64


@guvectorize([(float64[:], float64, float64[:])], '(n),()->(n)')
def scaled(x, w, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * w


@njit
def no_outputs(m):
    return scaled(m, 2.0)


@njit
def float32_output(m):
    out = np.empty(m.shape, np.float32)
    scaled(m, 2.0, out)
    return out


@njit
def keyword_output(m):
    out = np.empty_like(m)
    scaled(m, 2.0, out=out)
    return out


@njit
def float_literal(x):
    return literally(x)
)py";

std::string load_error(const char* function) {
  ModuleOptions options;
  auto module = Module::load_source(refusals, "refusals.py", options);
  if (!module.ok()) return module.error().describe();
  auto returned = module->function(function)->call(matrix({1, 2, 3, 4}, 2, 2));
  REQUIRE_FALSE(returned.ok());
  return returned.error().describe();
}

}  // namespace

TEST_CASE("a @guvectorize gufunc called from a @jit function with its outputs writes them and is None") {
  Module module = load();
  Array m = matrix({1, 2, 3, 4, 5, 6}, 2, 3);
  Returned r = test::call(module, "gufunc_calls", m, Array::from<double>({1, 0, -1}));
  Value all = r.value();  // a tuple holding None comes back as one Value
  Array out = all[0].array();
  CHECK(out.at<double>(1, 2) == 12.0);            // the int 2 converted to the loop's float64
  CHECK(all[1].is_none());                        // Numba types the call as None
  CHECK(all[2].array().at<double>(1) == 4.0);     // two outputs of a dynamic gufunc
  CHECK(all[3].array().at<double>(0) == 3.0);
  Array d = all[4].array();                       // the weight vector, with no loop dimension, for every row
  CHECK(d.at<double>(0) == -2.0);
  CHECK(d.at<double>(1) == -2.0);
}

TEST_CASE("a gufunc call's shapes are checked at run time with Numba's ValueErrors") {
  Module module = load();
  Array m = matrix({1, 2, 3, 4, 5, 6}, 2, 3);
  CHECK(test::failure(module, "core_mismatch", m).find("ValueError: Operand has a mismatch in one of its core "
                                                       "dimensions") != std::string::npos);
  CHECK(test::failure(module, "loop_mismatch", m).find("ValueError: Loop and array shapes are incompatible") !=
        std::string::npos);
  CHECK(test::failure(module, "too_many_loop_dims", m).find("ValueError: Loop and array shapes are incompatible") !=
        std::string::npos);
}

TEST_CASE("gufunc calls Numba refuses are located errors") {
  CHECK(load_error("no_outputs").find("refusals.py:14:12: error: the @guvectorize gufunc 'scaled' is called from a "
                                      "@jit function without its outputs") != std::string::npos);
  CHECK(load_error("float32_output").find("refusals.py:20:5: error: the @guvectorize gufunc 'scaled' runs its "
                                          "float64 loop here") != std::string::npos);
  CHECK(load_error("keyword_output").find("refusals.py:27:5: error: the @guvectorize gufunc 'scaled' got keyword "
                                          "arguments") != std::string::npos);
  CHECK(load_error("float_literal").find("<class 'numpy.ndarray'> cannot be used as a literal") != std::string::npos);
}

TEST_CASE("a @vectorize function from a @jit function gives Numba's types on arrays and numbers") {
  Module module = load();
  Returned r = test::call(module, "dufunc_calls", Array::from<int64_t>({1, 2, 3}), i64(4));
  CHECK(array_item(r, 0).dtype() == DType::float_(64));  // int64 takes the first loop it casts to: d->d
  CHECK(scalar_item(r, 1).type == DType::float_(64));
  CHECK(scalar_item(r, 1).value.real() == 16.0);
  CHECK(array_item(r, 2).dtype() == DType::int_(64));    // a DUFunc compiles the operands' own loop
  CHECK(scalar_item(r, 3).integer == 5);
}

TEST_CASE("literal arguments: both arms of a branch on one are typed, tuples indexed and modes selected by one") {
  Module module = load();
  Array m = matrix({1, 2, 3, 4, 5, 6}, 2, 3);
  Returned r = test::call(module, "literals", m, i64(2));
  CHECK(scalar_item(r, 0).type == DType::float_(64));  // `return x` and `return 1.5` unify, as in Numba
  CHECK(scalar_item(r, 0).value.real() == 2.0);
  CHECK(array_item(r, 1).shape() == std::vector<int64_t>{3});
  CHECK(array_item(r, 1).at<double>(2) == 9.0);
  CHECK(array_item(r, 2).shape() == std::vector<int64_t>{2});
  CHECK(array_item(r, 2).at<double>(1) == 15.0);
  CHECK(scalar_item(r, 3).integer == 2);               // a heterogeneous tuple by a literal position
  CHECK(scalar_item(r, 4).value.real() == 2.5);
  CHECK(scalar_item(r, 5).type == DType::boolean());
  CHECK(scalar_item(r, 6).value.real() == 2.0);        // "mean"
  CHECK(scalar_item(r, 7).value.real() == 3.0);        // "max"
  CHECK(std::isnan(scalar_item(r, 8).value.real()));   // no branch taken
  CHECK(scalar_item(r, 9).integer == 4);               // numba.literally(3) + 1
}

TEST_CASE("a jitted function passed to another is called there, specialised per function and argument types") {
  Module module = load();
  Returned r = test::call(module, "passed_functions", 3.0);
  CHECK(scalar_item(r, 0).value.real() == 9.0);
  CHECK(scalar_item(r, 1).type == DType::int_(64));
  CHECK(scalar_item(r, 1).integer == 8);
  CHECK(scalar_item(r, 2).value.real() == 81.0);
}
